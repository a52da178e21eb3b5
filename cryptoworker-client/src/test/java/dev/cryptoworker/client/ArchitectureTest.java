package dev.cryptoworker.client;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.cryptoworker.schema.TableLayout;
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

  @Test
  void schemasNameNoSchemeModule() {
    noClasses().should().dependOnClassesThat().resideInAnyPackage("dev.cryptoworker.packs..",
        "dev.cryptoworker.sharing..", "dev.cryptoworker.client..", "dev.cryptoworker.layout..")
        .because("each layout reads its own layout: section (LayoutDefinition)")
        .check(schemas);
  }
}
