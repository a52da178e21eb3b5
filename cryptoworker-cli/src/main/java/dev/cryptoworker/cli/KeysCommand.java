package dev.cryptoworker.cli;

import dev.cryptoworker.keys.KeyEncryptionKey;
import dev.cryptoworker.keys.KeysetFiles;
import dev.cryptoworker.keys.KeysetKey;
import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.TypeConversionException;

/** {@code cryptoworker keys ...}: encrypted Tink keyset files. */
@Command(
    name = "keys",
    mixinStandardHelpOptions = true,
    description = "Create, rotate, list, disable and enable the keys of an encrypted keyset file.",
    subcommands = {
      KeysCommand.Generate.class,
      KeysCommand.Rotate.class,
      KeysCommand.ListKeys.class,
      KeysCommand.Disable.class,
      KeysCommand.Enable.class,
      KeysCommand.Rewrap.class,
      KeysCommand.Kek.class
    })
final class KeysCommand {

  /** A keys subcommand working on one keyset file. */
  abstract static class OnKeyset extends Subcommand {
    @Mixin KeysetOptions keysetOptions;

    Path keyset() {
      return keysetOptions.keyset;
    }

    KeyEncryptionKey kek() throws IOException, GeneralSecurityException {
      return keysetOptions.keyEncryptionKey(root().environment());
    }

    List<KeysetKey> describe() throws IOException, GeneralSecurityException {
      return KeysetFiles.describe(keyset(), kek());
    }

    static KeysetKey primary(List<KeysetKey> keys) {
      return keys.stream().filter(KeysetKey::primary).findFirst().orElseThrow();
    }
  }

  @Command(name = "generate", mixinStandardHelpOptions = true,
      description = "Write a new keyset file with one fresh primary key (never overwrites a file).")
  static final class Generate extends OnKeyset {
    @Override
    public Integer call() throws Exception {
      KeysetFiles.generate(keyset(), kek());
      out().println("wrote " + keyset() + " with primary key " + primary(describe()).hexId());
      return OK;
    }
  }

  @Command(name = "rotate", mixinStandardHelpOptions = true,
      description = "Add a fresh primary key; older keys stay enabled, so their data still decrypts.")
  static final class Rotate extends OnKeyset {
    @Override
    public Integer call() throws Exception {
      KeysetFiles.rotate(keyset(), kek());
      out().println("rotated " + keyset() + ": new primary key " + primary(describe()).hexId());
      return OK;
    }
  }

  @Command(name = "list", mixinStandardHelpOptions = true,
      description = {"List the keys (oldest first): id as ciphertext headers carry it, status,"
          + " primary, oldest enabled (row keys and protected qualifier names are under it).",
          "Never prints key material. Creation times are recorded by this tool (keyset files written before"
              + " it did say \"not recorded\")."})
  static final class ListKeys extends OnKeyset {
    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    @Override
    public Integer call() throws Exception {
      List<KeysetKey> keys = describe();
      if (json) {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (KeysetKey key : keys) {
          Map<String, Object> row = new LinkedHashMap<>();
          row.put("id", key.hexId());
          row.put("status", key.status());
          row.put("primary", key.primary());
          row.put("oldest", key.oldest());
          row.put("created", key.created().map(Object::toString).orElse(null));
          rows.add(row);
        }
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("keyset", keyset().toString());
        document.put("keys", rows);
        Json.print(out(), document);
        return OK;
      }
      String format = "%-8s  %-9s  %-7s  %-6s  %s%n";
      out().printf(format, "KEY ID", "STATUS", "PRIMARY", "OLDEST", "CREATED");
      for (KeysetKey key : keys) {
        out().printf(format, key.hexId(), key.status(), yesNo(key.primary()), yesNo(key.oldest()),
            key.created().map(Object::toString).orElse("not recorded"));
      }
      return OK;
    }

    private static String yesNo(boolean b) {
      return b ? "yes" : "no";
    }
  }

  @Command(name = "disable", mixinStandardHelpOptions = true,
      description = {"Disable a key: data under it stops decrypting until it is enabled again.",
          "Refuses the primary key, and the oldest enabled key (row keys and protected qualifier"
              + " names of every table are under it) unless --force."})
  static final class Disable extends OnKeyset {
    @Parameters(paramLabel = "KEYID", converter = HexKeyId.class,
        description = "The key id in hex, as `keys list` prints it.")
    int keyId;

    @Option(names = "--force",
        description = "Disable the oldest enabled key anyway (only if no table has data under it).")
    boolean force;

    @Override
    public Integer call() throws Exception {
      KeyEncryptionKey kek = kek();
      boolean oldest = KeysetFiles.describe(keyset(), kek).stream()
          .anyMatch(k -> k.id() == keyId && k.oldest());
      KeysetFiles.disable(keyset(), kek, keyId, force);
      if (oldest) {
        err().println("cryptoworker: warning: disabled the keyset's oldest key "
            + KeysetKey.hex(keyId) + "; rows of tables written under it are unreadable until"
            + " it is enabled again");
      }
      out().println("disabled key " + KeysetKey.hex(keyId) + " in " + keyset());
      return OK;
    }
  }

  @Command(name = "enable", mixinStandardHelpOptions = true, description = "Enable a key again.")
  static final class Enable extends OnKeyset {
    @Parameters(paramLabel = "KEYID", converter = HexKeyId.class,
        description = "The key id in hex, as `keys list` prints it.")
    int keyId;

    @Override
    public Integer call() throws Exception {
      KeysetFiles.enable(keyset(), kek(), keyId);
      out().println("enabled key " + KeysetKey.hex(keyId) + " in " + keyset());
      return OK;
    }
  }

  @Command(name = "rewrap", mixinStandardHelpOptions = true,
      description = {"Encrypt the keyset under another key-encryption key (--to), keeping its keys: stored data is"
          + " untouched. Afterwards the old key-encryption key no longer opens the file (copies and backups of the"
          + " old file still open with it)."})
  static final class Rewrap extends OnKeyset {
    @Option(names = "--to", required = true, paramLabel = "URI",
        description = "The new key-encryption key's URI (same forms as --kek).")
    String to;

    @Override
    public Integer call() throws Exception {
      KeyEncryptionKey from = kek();
      KeyEncryptionKey target = KeyEncryptionKey.fromUri(to, root().environment());
      KeysetFiles.rewrap(keyset(), from, target);
      out().println("rewrapped " + keyset() + " under " + to + "; the key-encryption key "
          + keysetOptions.uri() + " no longer opens it");
      return OK;
    }
  }

  @Command(name = "kek", mixinStandardHelpOptions = true,
      description = "Key-encryption keys.", subcommands = KeysCommand.KekGenerate.class)
  static final class Kek {}

  @Command(name = "generate", mixinStandardHelpOptions = true,
      description = {"Print a new random base64 32-byte key-encryption key to stdout.",
          "Store it in your secret manager; pass it with --kek env:NAME or --kek file:PATH."})
  static final class KekGenerate extends Subcommand {
    @Override
    public Integer call() {
      out().println(KeyEncryptionKey.generateBase64());
      return OK;
    }
  }

  /** Parses a key id written as 1 to 8 hex digits, with or without {@code 0x}. */
  static final class HexKeyId implements ITypeConverter<Integer> {
    @Override
    public Integer convert(String value) {
      String digits = value.startsWith("0x") || value.startsWith("0X") ? value.substring(2) : value;
      if (!digits.matches("[0-9a-fA-F]{1,8}")) {
        throw new TypeConversionException(
            "'" + value + "' is not a key id (1 to 8 hex digits, as `keys list` prints it)");
      }
      return Integer.parseUnsignedInt(digits, 16);
    }
  }

  private KeysCommand() {}
}
