package dev.cryptoworker.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.testing.ChildJvmCommand;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.apache.hadoop.conf.Configuration;

/**
 * A code block of a Markdown page (README.md, docs/*.md), compiled and run as a program unchanged:
 * the block becomes the body of {@code main} after {@code conf} (the test cluster's client
 * configuration) and the imports any application would write; it runs in a child JVM whose working
 * directory holds the files it names and whose environment holds what it reads.
 */
final class DocumentedExample {
  /** The repository's root: tests run in their module's directory. */
  static final Path ROOT = Paths.get("").toAbsolutePath().getParent();

  private static final String IMPORTS = String.join("\n",
      "import static org.apache.hadoop.hbase.util.Bytes.toBytes;",
      "import dev.cryptoworker.client.*;",
      "import dev.cryptoworker.keys.*;",
      "import dev.cryptoworker.schema.*;",
      "import java.nio.file.Path;",
      "import org.apache.hadoop.conf.Configuration;",
      "import org.apache.hadoop.hbase.*;",
      "import org.apache.hadoop.hbase.client.*;",
      "import org.apache.hadoop.hbase.filter.*;",
      "import org.apache.hadoop.hbase.util.Bytes;",
      "");

  private final String page;
  private final String code;

  private DocumentedExample(String page, String code) {
    this.page = page;
    this.code = code;
  }

  /** The first {@code language} block after the line {@code heading} of {@code page} (relative to the root). */
  static DocumentedExample block(String page, String heading, String language) throws IOException {
    List<String> lines = Files.readAllLines(ROOT.resolve(page), StandardCharsets.UTF_8);
    int at = lines.indexOf(heading);
    assertTrue(at >= 0, page + " has no line '" + heading + "'");
    for (int i = at + 1; i < lines.size(); i++) {
      if (lines.get(i).strip().equals("```" + language)) {
        String indent = lines.get(i).substring(0, lines.get(i).indexOf('`'));
        StringBuilder code = new StringBuilder();
        for (int j = i + 1; !lines.get(j).strip().equals("```"); j++) {
          code.append(lines.get(j).startsWith(indent) ? lines.get(j).substring(indent.length()) : lines.get(j))
              .append('\n');
        }
        return new DocumentedExample(page, code.toString());
      }
    }
    throw new AssertionError(page + " has no " + language + " block after '" + heading + "'");
  }

  /** The first YAML block of {@code page} whose first line is {@code # fileName...}. */
  static String yamlFile(String page, String fileName) throws IOException {
    String text = Files.readString(ROOT.resolve(page), StandardCharsets.UTF_8);
    for (String block : text.split("```yaml\n", -1)) {
      String stripped = block.stripLeading();
      if (stripped.startsWith("# " + fileName)) {
        String body = block.substring(0, block.indexOf("```"));
        String indent = body.substring(0, body.indexOf('#'));
        return body.lines().map(l -> l.startsWith(indent) ? l.substring(indent.length()) : l)
            .reduce("", (a, l) -> a + l + "\n");
      }
    }
    throw new AssertionError(page + " has no YAML block starting '# " + fileName + "'");
  }

  /** This block between {@code before} and {@code after}: for a block that uses what the page set up earlier. */
  DocumentedExample within(String before, String after) {
    return new DocumentedExample(page, before + code + after);
  }

  /**
   * Compiles the block as {@code className} into {@code dir}, runs it there against the cluster of
   * {@code conf} with {@code environment}, and returns what it printed.
   *
   * @throws AssertionError if it does not compile, or exits other than 0
   */
  String run(String className, Path dir, Configuration conf, Map<String, String> environment)
      throws IOException, InterruptedException {
    Path source = dir.resolve(className + ".java");
    Files.writeString(source, IMPORTS + "public class " + className + " {\n"
        + "  public static void main(String[] args) throws Exception {\n"
        + "    Configuration conf = HBaseConfiguration.create();\n"
        + "    conf.set(\"hbase.zookeeper.quorum\", args[0]);\n"
        + "    conf.set(\"hbase.zookeeper.property.clientPort\", args[1]);\n"
        + code
        + "  }\n}\n");
    String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    StringWriter errors = new StringWriter();
    boolean compiled = javac.getTask(errors, null, null,
        List.of("-classpath", classPath, "-d", dir.toString(), "-Xlint:deprecation,unchecked,rawtypes", "-Werror"), null,
        javac.getStandardFileManager(null, null, StandardCharsets.UTF_8).getJavaFileObjects(source)).call();
    assertTrue(compiled, "the example of " + page + " does not compile:\n" + errors);
    List<String> command = ChildJvmCommand.java();
    command.addAll(List.of("-cp", dir + java.io.File.pathSeparator + classPath, className,
        conf.get("hbase.zookeeper.quorum"), conf.get("hbase.zookeeper.property.clientPort")));
    ProcessBuilder child = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
    child.environment().putAll(environment);
    Process process = child.start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, process.waitFor(), "the example of " + page + " failed:\n" + output);
    return output;
  }
}
