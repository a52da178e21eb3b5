package dev.cryptoworker.benchmarks.macro;

import dev.cryptoworker.ycsb.HealthcareWorkload;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The workload files of ycsb-ext ({@code ycsb-ext/src/main/resources/workloads/*.properties},
 * {@code workloads/NAME.properties} on the classpath), read from wherever ycsb-ext is: its jar or
 * its classes directory, so the list of workloads is the list of files.
 */
final class WorkloadFiles {
  private static final String DIRECTORY = "workloads";
  private static final String SUFFIX = ".properties";

  private WorkloadFiles() {}

  /** Every workload, by name ({@code A}, {@code micro-read}, ...), with its description (its file's leading comment). */
  static Map<String, String> available() {
    try {
      Path root = Path.of(HealthcareWorkload.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      if (Files.isDirectory(root)) {
        return list(root.resolve(DIRECTORY));
      }
      try (FileSystem jar = FileSystems.newFileSystem(root)) {
        return list(jar.getPath(DIRECTORY));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (URISyntaxException e) {
      throw new IllegalStateException("cannot locate ycsb-ext's workload files", e);
    }
  }

  private static Map<String, String> list(Path directory) throws IOException {
    Map<String, String> workloads = new TreeMap<>();
    try (Stream<Path> files = Files.list(directory)) {
      for (Path file : (Iterable<Path>) files::iterator) {
        String name = file.getFileName().toString();
        if (name.endsWith(SUFFIX)) {
          workloads.put(name.substring(0, name.length() - SUFFIX.length()), description(file));
        }
      }
    }
    return workloads;
  }

  /** The file's leading comment up to the end of its first line ending with a full stop. */
  private static String description(Path file) throws IOException {
    StringBuilder text = new StringBuilder();
    try (BufferedReader lines = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      for (String line = lines.readLine(); line != null && line.startsWith("#"); line = lines.readLine()) {
        text.append(text.length() == 0 ? "" : " ").append(line.substring(1).strip());
        if (line.endsWith(".")) {
          break;
        }
      }
    }
    return text.toString();
  }

  /** The properties of workload {@code name}; the name must be one of {@link #available()}. */
  static Properties load(String name) {
    Properties p = new Properties();
    try (InputStream in = WorkloadFiles.class.getClassLoader().getResourceAsStream(DIRECTORY + "/" + name + SUFFIX)) {
      if (in == null) {
        throw new IllegalArgumentException("no workload " + name + "; known: " + available().keySet());
      }
      p.load(new InputStreamReader(in, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return p;
  }
}
