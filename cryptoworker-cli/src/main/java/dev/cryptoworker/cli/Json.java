package dev.cryptoworker.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.PrintWriter;
import java.io.UncheckedIOException;

/** Pretty-printed JSON output. */
final class Json {
  private static final ObjectMapper MAPPER =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private Json() {}

  static void print(PrintWriter out, Object document) {
    try {
      out.println(MAPPER.writeValueAsString(document));
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }
}
