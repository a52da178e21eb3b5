package dev.cryptoworker.client;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.cryptoworker.client.codec.ColumnExpansion;
import dev.cryptoworker.cryptobox.search.CounterTree;
import dev.cryptoworker.cryptobox.search.SubtreeToken;
import dev.cryptoworker.schema.TableLayout;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The seams of "Open the core", kept as rules over the compiled classes: the client holds no
 * layout's knowledge (it asks layouts through the SPI), and the schema module names no scheme
 * module (layouts read their own sections).
 */
class ArchitectureTest {
  private static JavaClasses client;
  private static JavaClasses schemas;

  @BeforeAll
  static void importClasses() {
    ClassFileImporter importer = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS);
    client = importer.importPackages("dev.cryptoworker.client");
    schemas = importer.importPackages("dev.cryptoworker.schema");
  }

  @Test
  void theClientNeverDependsOnALayoutModule() {
    noClasses().should().dependOnClassesThat().resideInAnyPackage("dev.cryptoworker.layout..")
        .because("layouts plug in through dev.cryptoworker.client.spi; the client core never depends on them")
        .check(client);
  }

  @Test
  void theClientNeverDependsOnPacksOrSharing() {
    noClasses().should().dependOnClassesThat().resideInAnyPackage("dev.cryptoworker.packs..",
        "dev.cryptoworker.sharing..").because("packs and shares belong to layout-packed and layout-shared")
        .check(client);
  }

  @Test
  void theClientNeverTestsALayoutType() {
    noClasses().should().dependOnClassesThat().implement(TableLayout.class)
        .because("what a layout can do is asked of its LayoutProvider (capabilities), not read off its type")
        .check(client);
  }

  /**
   * No decision by box kind: no comparison, switch or set of {@code BoxKind} constants in the
   * client, the schema module or the command line. A constant may appear where a kind is
   * registered ({@code BoxRegistry}) or on a line (or below a comment) marked {@code // kind:} with
   * the reason: key-derivation labels, which must stay as they are for stored data to open, and the
   * fixed boxes of stored parts (the client's qualifiers and layout records, the policy of
   * unprotected data).
   */
  @Test
  void noModuleDecidesByBoxKind() throws IOException {
    Pattern constant = Pattern.compile("BoxKind\\.(PLAIN|STD|DET|OPE|ASHE|SSE|SPLASHE)\\b");
    Pattern decision = Pattern.compile("[!=]=\\s*BoxKind\\.|BoxKind\\.\\w+\\s*[!=]=|EnumSet\\.of\\(BoxKind"
        + "|case\\s+(PLAIN|STD|DET|OPE|ASHE|SSE|SPLASHE)\\b|BoxKind\\.\\w+\\.equals\\(");
    List<String> found = flaggedLines(List.of("src/main/java", "../schemas/src/main/java",
        "../cryptoworker-cli/src/main/java"), (file, lines, i) -> {
          String line = lines.get(i);
          boolean marked = line.contains("// kind:") || i > 0 && lines.get(i - 1).strip().startsWith("// kind:");
          boolean registry = file.endsWith("BoxRegistry.java");
          return decision.matcher(line).find() || constant.matcher(line).find() && !marked && !registry
              && !line.strip().startsWith("*");
        });
    assertEquals(List.of(), found, "ask the box's capabilities, its kind's BoxTraits or its BoxRules instead");
  }

  /**
   * No cast to a concrete box, nor any other use of a box module: the client builds boxes through
   * their providers ({@code ServiceLoader}) and asks them for capabilities.
   */
  @Test
  void theClientKnowsNoConcreteBox() {
    noClasses().should().dependOnClassesThat().resideInAnyPackage("dev.cryptoworker.cryptobox.std..",
            "dev.cryptoworker.cryptobox.det..", "dev.cryptoworker.cryptobox.ope..", "dev.cryptoworker.cryptobox.ashe..",
            "dev.cryptoworker.cryptobox.sse..")
        .because("boxes are built by their BoxProvider and asked for capabilities (CryptoBox.capability), never cast")
        .check(client);
  }

  /**
   * Searchable boxes own their scheme ({@code IndexedSearch}): which index a value's entry goes
   * under, which conditions a search answers, the tokens and the check of a search's rows. The
   * client only carries entry numbers, index cells and requests, so it never touches the trees
   * entries and tokens come from.
   */
  @Test
  void theClientDerivesNoSearchIndexItself() {
    noClasses().should().dependOnClassesThat().belongToAnyOf(CounterTree.class, SubtreeToken.class)
        .because("entries and tokens come from the box (IndexedSearch, ValueIndex), so a new searchable box needs no"
            + " client change").check(client);
  }

  /**
   * Messages name a column's kind from its box or policy ({@code box.kind()}), never the name of a
   * scheme that expands columns or searches them: those schemes' code lives in their box modules.
   */
  @Test
  void noClientMessageNamesASearchOrExpansionScheme() throws IOException {
    Pattern literal = Pattern.compile("\"[^\"]*\\b(SSE|SPLASHE)\\b[^\"]*\"");
    List<String> found = flaggedLines(List.of("src/main/java"), (file, lines, i) -> literal.matcher(lines.get(i)).find());
    assertEquals(List.of(), found, "name a column's kind through box.kind() or its policy");
  }

  /**
   * The entry index searchable boxes keep (index cells, entry counters, search planning and checks)
   * lives in cryptoworker-search-index, which the client reaches only through its SPI ({@code
   * SearchIndexProvider}, found through {@code ServiceLoader}).
   */
  @Test
  void theClientHoldsNoEntryIndexAndReachesItOnlyThroughItsSpi() {
    noClasses().should().resideInAPackage("dev.cryptoworker.client.search..")
        .because("the entry index's code belongs to cryptoworker-search-index").check(client);
    noClasses().should().dependOnClassesThat().resideInAPackage("dev.cryptoworker.searchindex")
        .because("the entry index plugs in through dev.cryptoworker.searchindex.spi.SearchIndexProvider").check(client);
  }

  /** Kinds that store a family as several cells per value own that code ({@code FamilyExpansion}). */
  @Test
  void theClientHoldsNoExpansionOfItsOwn() {
    classes().that().implement(ColumnExpansion.class).should().haveSimpleName("OneCellPerColumn")
        .orShould().haveSimpleName("LeftoverIndexCells")
        .orShould().haveSimpleName("BoxOwnedExpansion").orShould().haveSimpleName("IndexedFamily")
        .because("a kind that stores values as several cells gives its FamilyExpansion through its BoxProvider;"
            + " the client keeps only the generic expansions").check(client);
  }

  @Test
  void schemasNameNoSchemeModule() {
    noClasses().should().dependOnClassesThat().resideInAnyPackage("dev.cryptoworker.packs..",
        "dev.cryptoworker.sharing..", "dev.cryptoworker.client..", "dev.cryptoworker.layout..",
        "dev.cryptoworker.cryptobox.std..", "dev.cryptoworker.cryptobox.det..", "dev.cryptoworker.cryptobox.ope..",
        "dev.cryptoworker.cryptobox.ashe..", "dev.cryptoworker.cryptobox.sse..")
        .because("each layout reads its own layout: section (LayoutDefinition), each box kind states its own rules"
            + " (BoxRules)")
        .check(schemas);
  }

  /** Whether line {@code i} of {@code file} breaks a rule. */
  @FunctionalInterface
  private interface LineRule {
    boolean flags(Path file, List<String> lines, int i);
  }

  /** The lines of the Java sources under {@code roots} that {@code rule} flags, as {@code file:line: text}. */
  private static List<String> flaggedLines(List<String> roots, LineRule rule) throws IOException {
    List<String> found = new ArrayList<>();
    for (String root : roots) {
      try (Stream<Path> files = Files.walk(Path.of(root))) {
        for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
          List<String> lines = Files.readAllLines(file);
          for (int i = 0; i < lines.size(); i++) {
            if (rule.flags(file, lines, i)) {
              found.add(file + ":" + (i + 1) + ": " + lines.get(i).strip());
            }
          }
        }
      }
    }
    return found;
  }
}
