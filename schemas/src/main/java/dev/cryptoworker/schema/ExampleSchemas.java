package dev.cryptoworker.schema;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** The reference schemas shipped with CryptoWorker (SafeNoSQL's healthcare use case). */
public final class ExampleSchemas {
  /** Resource paths of every example schema. */
  public static final List<String> RESOURCES =
      List.of("schemas/patients.yaml", "schemas/appointments.yaml");

  private ExampleSchemas() {}

  /** The Patients table: DET row key and mainId, STD elsewhere, dynamic appointment qualifiers. */
  public static TableSchema patients() {
    return fromResource("schemas/patients.yaml");
  }

  /** The Appointments table: DET row key and physician, OPE date with STD companion. */
  public static TableSchema appointments() {
    return fromResource("schemas/appointments.yaml");
  }

  /** Loads a schema from the classpath. */
  public static TableSchema fromResource(String resource) {
    try (InputStream in = ExampleSchemas.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalArgumentException("no schema resource " + resource + " on the classpath");
      }
      return TableSchema.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), resource);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
