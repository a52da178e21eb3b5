package dev.cryptoworker.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class DemoOptionsTest {

  @Test
  void mavenArgumentsWithEmptyProperties() {
    DemoOptions o = DemoOptions.parse(new String[] {"--patients=3000", "--zookeeper=", "--hbase-site=",
        "--drop-existing=false", "--data-dir=target/demo-hbase", "--cluster=embedded", "--keyset=", "--kek=", ""});
    assertEquals(3000, o.patients());
    assertTrue(o.embedded());
    assertFalse(o.dropExisting());
    assertFalse(o.help());
    assertEquals(Path.of("target/demo-hbase"), o.dataDir());
    assertFalse(o.processes());
    assertEquals("", o.keyset());
  }

  @Test
  void keysetAndKekUri() {
    DemoOptions o = DemoOptions.parse(new String[] {"--keyset=keyset.json", "--kek=pkcs11:/etc/hsm.cfg#kek"});
    assertEquals("keyset.json", o.keyset());
    assertEquals("pkcs11:/etc/hsm.cfg#kek", o.kek());
  }

  @Test
  void separateProcessesOnRequest() {
    assertTrue(DemoOptions.parse(new String[] {"--cluster=processes"}).processes());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> DemoOptions.parse(new String[] {"--cluster=hdfs"}));
    assertTrue(e.getMessage().contains("must be embedded or processes"), e.getMessage());
  }

  @Test
  void dropExistingAsFlagOrValue() {
    assertTrue(DemoOptions.parse(new String[] {"--drop-existing"}).dropExisting());
    assertTrue(DemoOptions.parse(new String[] {"--drop-existing=true"}).dropExisting());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> DemoOptions.parse(new String[] {"--drop-existing=yes"}));
    assertEquals("--drop-existing=yes: must be true or false; see --help", e.getMessage());
  }

  @Test
  void helpAndUsageErrors() {
    assertTrue(DemoOptions.parse(new String[] {"--patients=50", "--help"}).help());
    assertTrue(DemoOptions.parse(new String[] {"-h"}).help());
    assertEquals("unknown option --patiens; see --help",
        assertThrows(IllegalArgumentException.class, () -> DemoOptions.parse(new String[] {"--patiens=5"})).getMessage());
    assertThrows(IllegalArgumentException.class, () -> DemoOptions.parse(new String[] {"--patients=abc"}));
    assertThrows(IllegalArgumentException.class, () -> DemoOptions.parse(new String[] {"--patients=9"}));
  }

  @Test
  void usageNamesEveryOptionAndItsMavenProperty() {
    String usage = DemoOptions.usage();
    for (String s : new String[] {"--patients=", "-Ddemo.patients=", "--zookeeper=", "-Ddemo.zookeeper=",
        "--hbase-site=", "-Ddemo.hbaseSite=", "--drop-existing", "-Ddemo.dropExisting=true", "--data-dir=", "--keyset=", "-Ddemo.keyset=", "--kek=", "-Ddemo.kek=", "--help"}) {
      assertTrue(usage.contains(s), s);
    }
  }
}
