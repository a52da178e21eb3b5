package dev.cryptoworker.benchmarks.macro;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordingFile;

/**
 * Where a JFR recording's CPU samples ({@code jdk.ExecutionSample}), or an async-profiler profile's
 * collapsed stacks, went: the share of samples whose stack holds each method (inclusive), for the
 * methods of the packages asked for, and the share each leaf method has (self). Run on a recording of a benchmark's client JVM:
 * {@code java -cp benchmarks.jar ...ProfileSummary rec.jfr [top] [package prefix ...]}.
 */
public final class ProfileSummary {
  private static final String OWN_CODE = "(dev.cryptoworker";
  private final Map<String, Integer> inclusive = new HashMap<>();
  private final Map<String, Integer> self = new HashMap<>();
  /** Per leaf method, the samples of each CryptoWorker method nearest it on its stacks. */
  private final Map<String, Map<String, Integer>> selfCallers = new HashMap<>();
  private int samples;

  /** Reads every execution sample of {@code recording} whose thread {@code threads} accepts. */
  static ProfileSummary read(Path recording, Predicate<String> threads) throws IOException {
    return read(recording, threads, "jdk.ExecutionSample", false);
  }

  /** Reads every execution sample of every recording in {@code recordings}, as one profile. */
  static ProfileSummary read(List<Path> recordings, Predicate<String> threads) throws IOException {
    ProfileSummary all = new ProfileSummary();
    for (Path r : recordings) {
      all.addAll(read(r, threads));
    }
    return all;
  }

  /**
   * Reads async-profiler's collapsed stacks ({@code frame;frame;... count}, root first) from every
   * file of {@code profiles}, as one profile. Java frames are named as in JFR's profiles; native
   * frames (the collectors' and compilers' threads, the kernel's, marked {@code _[k]}) keep their
   * own names.
   */
  static ProfileSummary readCollapsed(List<Path> profiles) throws IOException {
    ProfileSummary summary = new ProfileSummary();
    for (Path profile : profiles) {
      for (String line : Files.readAllLines(profile)) {
        int space = line.lastIndexOf(' ');
        if (space <= 0) {
          continue;
        }
        String[] frames = line.substring(0, space).split(";");
        List<String> leafFirst = new ArrayList<>(frames.length);
        for (int i = frames.length - 1; i >= 0; i--) {
          leafFirst.add(collapsedName(frames[i]));
        }
        summary.addNamed(leafFirst, Integer.parseInt(line.substring(space + 1).trim()));
      }
    }
    return summary;
  }

  /** {@code org/apache/Foo.bar} as {@code Foo.bar (org.apache)}; a native frame as it is. */
  private static String collapsedName(String frame) {
    int dot = frame.lastIndexOf('.');
    int slash = frame.lastIndexOf('/', dot);
    if (dot < 0 || slash < 0 || frame.contains("::")) {
      return frame;
    }
    return frame.substring(slash + 1) + " (" + frame.substring(0, slash).replace('/', '.') + ")";
  }

  private void addAll(ProfileSummary other) {
    samples += other.samples;
    other.inclusive.forEach((k, v) -> inclusive.merge(k, v, Integer::sum));
    other.self.forEach((k, v) -> self.merge(k, v, Integer::sum));
    other.selfCallers.forEach((leaf, callers) -> callers.forEach(
        (caller, v) -> selfCallers.computeIfAbsent(leaf, l -> new HashMap<>()).merge(caller, v, Integer::sum)));
  }

  /**
   * Reads every {@code event} of {@code recording} whose thread {@code threads} accepts, each
   * counted once or, with {@code byDuration}, by its milliseconds (parks, monitor waits, socket reads).
   */
  static ProfileSummary read(Path recording, Predicate<String> threads, String event, boolean byDuration)
      throws IOException {
    ProfileSummary summary = new ProfileSummary();
    try (RecordingFile file = new RecordingFile(recording)) {
      while (file.hasMoreEvents()) {
        RecordedEvent e = file.readEvent();
        if (!e.getEventType().getName().equals(event) || e.getStackTrace() == null) {
          continue;
        }
        String field = e.hasField("sampledThread") ? "sampledThread" : "eventThread";
        String thread = e.getThread(field) == null ? "" : e.getThread(field).getJavaName();
        if (threads.test(thread == null ? "" : thread)) {
          summary.add(e.getStackTrace().getFrames(), byDuration ? (int) Math.max(1, e.getDuration().toMillis()) : 1);
        }
      }
    }
    return summary;
  }

  private void add(List<RecordedFrame> frames, int weight) {
    addNamed(frames.stream().map(f -> name(f.getMethod())).toList(), weight);
  }

  /** Adds one stack of {@code weight} samples, its frames named and leaf first. */
  private void addNamed(List<String> leafFirst, int weight) {
    samples += weight;
    if (leafFirst.isEmpty()) {
      return;
    }
    self.merge(leafFirst.get(0), weight, Integer::sum);
    leafFirst.stream().skip(1).filter(f -> f.contains(OWN_CODE)).findFirst().ifPresent(caller -> selfCallers
        .computeIfAbsent(leafFirst.get(0), l -> new HashMap<>()).merge(caller, weight, Integer::sum));
    Set<String> seen = new HashSet<>();
    for (String name : leafFirst) {
      if (seen.add(name)) {
        inclusive.merge(name, weight, Integer::sum);
      }
    }
  }

  private static String name(RecordedMethod m) {
    String type = m.getType().getName();
    return type.substring(type.lastIndexOf('.') + 1) + "." + m.getName() + " (" + type.substring(0, Math.max(0,
        type.lastIndexOf('.'))) + ")";
  }

  int samples() {
    return samples;
  }

  /**
   * A Markdown table of the {@code top} methods by inclusive share whose package starts with one of
   * {@code packages}, or whose (native) name starts with one of them.
   */
  String inclusiveTable(int top, List<String> packages) {
    StringBuilder md = new StringBuilder("| method | samples with it on the stack | share |\n|---|---:|---:|\n");
    inclusive.entrySet().stream()
        .filter(e -> packages.stream().anyMatch(p -> e.getKey().contains("(" + p) || e.getKey().startsWith(p)))
        .sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
        .limit(top)
        .forEach(e -> md.append(row(e)));
    return md.toString();
  }

  /**
   * A Markdown table of the {@code top} leaf methods (where the CPU was when sampled), each with the
   * CryptoWorker method nearest it on most of its stacks and that method's share of its samples.
   */
  String selfTable(int top) {
    StringBuilder md = new StringBuilder(
        "| leaf method | samples | share | nearest CryptoWorker method (its share of the leaf's samples) |\n"
            + "|---|---:|---:|---|\n");
    self.entrySet().stream()
        .sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
        .limit(top)
        .forEach(e -> md.append(row(e).stripTrailing()).append(nearestCaller(e.getKey(), e.getValue())).append('\n'));
    return md.toString();
  }

  private String nearestCaller(String leaf, int leafSamples) {
    return selfCallers.getOrDefault(leaf, Map.of()).entrySet().stream()
        .max(Map.Entry.comparingByValue())
        .map(c -> String.format(Locale.ROOT, " `%s` (%.0f%%) |", c.getKey(), 100.0 * c.getValue() / leafSamples))
        .orElse(" |");
  }

  private String row(Map.Entry<String, Integer> e) {
    return String.format(Locale.ROOT, "| `%s` | %,d | %.1f%% |%n", e.getKey(), e.getValue(), 100.0 * e.getValue() / samples);
  }

  public static void main(String[] args) throws IOException {
    if (args.length < 1) {
      throw new IllegalArgumentException("usage: ProfileSummary recording.jfr [top] [package prefix ...]");
    }
    int top = args.length > 1 ? Integer.parseInt(args[1]) : 30;
    List<String> packages = args.length > 2 ? List.of(args).subList(2, args.length) : List.of("dev.cryptoworker");
    String event = System.getProperty("event", "jdk.ExecutionSample");
    String thread = System.getProperty("thread", "");
    ProfileSummary s = read(Path.of(args[0]), t -> t.contains(thread), event, !event.equals("jdk.ExecutionSample"));
    System.out.printf("%,d samples%n%n%s%n%s", s.samples(), s.inclusiveTable(top, packages), s.selfTable(top));
  }
}
