package io.mangacircus.launcher;

import io.mangacircus.support.supervision.CrashBudget;
import io.mangacircus.support.supervision.Backoff;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.mangacircus.launcher.logging.SecretRedactor;
import io.mangacircus.launcher.memory.MemoryYield;
import io.mangacircus.scraper.failure.FailureClassifier;
import io.mangacircus.scraper.failure.StallWatch;
import io.mangacircus.scraper.failure.SystemicParserWatch;
import io.mangacircus.scraper.queue.JobTransitions;
import io.mangacircus.scraper.queue.StageLattice;
import io.mangacircus.scraper.source.RequestLimiter;
import io.mangacircus.scraper.source.html.HtmlDefinitions;
import io.mangacircus.scraper.source.html.HtmlExtraction;
import io.mangacircus.scraper.source.mangadex.MangaDexOptions;
import io.mangacircus.scraper.source.mangadex.MangaDexRefs;
import io.mangacircus.launcher.supervision.LivenessRule;
import io.mangacircus.scraper.source.CircuitGuardedSource;
import io.mangacircus.scraper.source.Source;
import io.mangacircus.scraper.source.SourceType;
import io.mangacircus.scraper.source.SourceTypes;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import org.junit.jupiter.api.Test;

/** Guards the shape the style guide asks for. */
class ArchitectureTest {

  private static final JavaClasses CLASSES = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importPackages("io.mangacircus");

  @Test
  void decisionClassesUseNoVertx() {
    noClasses().that().belongToAnyOf(CrashBudget.class, Backoff.class, LivenessRule.class, SecretRedactor.class,
            MemoryYield.class, FailureClassifier.class, StallWatch.class, SystemicParserWatch.class,
            JobTransitions.class, StageLattice.class, HtmlExtraction.class, HtmlDefinitions.class,
            RequestLimiter.class, MangaDexRefs.class, MangaDexOptions.class)
        .should().dependOnClassesThat().resideInAPackage("io.vertx..")
        .check(CLASSES);
  }

  @Test
  void contractsDependOnNothingOfOurs() {
    noClasses().that().resideInAPackage("io.mangacircus.contracts..")
        .should().dependOnClassesThat().resideInAnyPackage("io.mangacircus.reader..", "io.mangacircus.scraper..",
            "io.mangacircus.launcher..")
        .check(CLASSES);
  }

  @Test
  void theLibraryContractIsPlainJavaWithoutVertx() {
    noClasses().that().resideInAPackage("io.mangacircus.contracts.library..")
        .should().dependOnClassesThat().resideInAPackage("io.vertx..")
        .check(CLASSES);
  }

  @Test
  void readerAndScraperNeverReachIntoEachOther() {
    noClasses().that().resideInAPackage("io.mangacircus.reader..")
        .should().dependOnClassesThat().resideInAPackage("io.mangacircus.scraper..")
        .check(CLASSES);
    noClasses().that().resideInAPackage("io.mangacircus.scraper..")
        .should().dependOnClassesThat().resideInAPackage("io.mangacircus.reader..")
        .check(CLASSES);
  }

  @Test
  void servicesDoNotDependOnTheLauncher() {
    noClasses().that().resideInAnyPackage("io.mangacircus.reader..", "io.mangacircus.scraper..")
        .should().dependOnClassesThat().resideInAPackage("io.mangacircus.launcher..")
        .check(CLASSES);
  }

  @Test
  void productionCodeNeverUsesTheTestFixtures() {
    // The test-fixtures module is on test class paths only; its package is imported above as if it were main code.
    noClasses().that().resideOutsideOfPackage("io.mangacircus.testing..")
        .should().dependOnClassesThat().resideInAPackage("io.mangacircus.testing..")
        .check(CLASSES);
  }

  /**
   * A source type and its adapter are named only inside the type's own package and by the registry
   * ({@link SourceTypes}): everyone else builds sources through the registry, so adding a type touches its package,
   * one registry line and the docs.
   */
  @Test
  void onlyTheSourceRegistryNamesSourceTypes() {
    classes().that().implement(SourceType.class)
        .or().implement(Source.class).and().doNotBelongToAnyOf(CircuitGuardedSource.class)
        .should(beUsedOnlyInTheirPackageAndBy(SourceTypes.class))
        .check(CLASSES);
  }

  private static ArchCondition<JavaClass> beUsedOnlyInTheirPackageAndBy(Class<?> registry) {
    return new ArchCondition<>("be used only in their own package and by " + registry.getSimpleName()) {
      @Override
      public void check(JavaClass type, ConditionEvents events) {
        for (Dependency dependency : type.getDirectDependenciesToSelf()) {
          JavaClass origin = dependency.getOriginClass();
          boolean allowed = origin.getPackageName().equals(type.getPackageName())
              || origin.getName().equals(registry.getName());
          if (!allowed) {
            events.add(SimpleConditionEvent.violated(dependency, dependency.getDescription()));
          }
        }
      }
    };
  }
}
