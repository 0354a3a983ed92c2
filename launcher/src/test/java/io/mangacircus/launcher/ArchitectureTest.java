package io.mangacircus.launcher;

import io.mangacircus.support.supervision.CrashBudget;
import io.mangacircus.support.supervision.Backoff;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import io.mangacircus.launcher.notify.Deduplicator;
import io.mangacircus.launcher.notify.DiscoveryTally;
import io.mangacircus.launcher.notify.Dispatcher;
import io.mangacircus.launcher.notify.Outbox;
import io.mangacircus.launcher.notify.PublicAddresses;
import io.mangacircus.launcher.notify.ReaderTargetGuard;
import io.mangacircus.launcher.notify.RateLimit;
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
import com.tngtech.archunit.core.domain.JavaCall;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.domain.properties.HasName;
import com.tngtech.archunit.core.domain.properties.HasOwner;
import io.mangacircus.contracts.Addresses;
import io.mangacircus.contracts.AtomicFiles;
import io.mangacircus.contracts.DurableFiles;
import io.mangacircus.contracts.IsoInstant;
import io.mangacircus.contracts.MessageFields;
import io.mangacircus.contracts.MessageJson;
import io.mangacircus.contracts.OperatorText;
import io.mangacircus.contracts.ScraperRequests;
import io.mangacircus.contracts.library.LibraryLayout;
import io.mangacircus.reader.accounts.BearerToken;
import io.mangacircus.reader.accounts.LoginThrottle;
import io.mangacircus.reader.finder.FinderInput;
import io.mangacircus.reader.finder.LibraryHoldings;
import io.mangacircus.reader.http.TrustedProxies;
import io.mangacircus.reader.shelves.LibraryVisits;
import io.mangacircus.reader.shelves.ReadingCounts;
import io.mangacircus.scraper.search.CoverIds;
import io.mangacircus.scraper.search.SearchPacing;
import io.mangacircus.scraper.search.TimedCache;
import io.mangacircus.scraper.source.GroupChoice;
import io.vertx.core.eventbus.EventBus;
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
            RequestLimiter.class, MangaDexRefs.class, MangaDexOptions.class, Deduplicator.class, RateLimit.class,
            Outbox.class, Dispatcher.class, DiscoveryTally.class, GroupChoice.class, TimedCache.class, CoverIds.class,
            SearchPacing.class, LibraryVisits.class, ReadingCounts.class, FinderInput.class, LibraryHoldings.class,
            PublicAddresses.class, ReaderTargetGuard.class,
            LoginThrottle.class, TrustedProxies.class, BearerToken.class,
            io.mangacircus.reader.accounts.oidc.IdTokenCheck.class, io.mangacircus.reader.accounts.oidc.ClaimMapping.class,
            io.mangacircus.reader.accounts.oidc.SignInAccounts.class, io.mangacircus.reader.accounts.oidc.PendingSignIn.class,
            io.mangacircus.reader.http.JsonCookie.class, io.mangacircus.reader.trackers.OAuthSignIns.class,
            io.mangacircus.reader.admin.RetryStartTarget.class)
        .should().dependOnClassesThat().resideInAPackage("io.vertx..")
        .check(CLASSES);
  }

  /** Reading collections in place (archives, the scan, metadata) is plain Java: testable without a Vert.x instance. */
  @Test
  void collectionReadingUsesNoVertx() {
    noClasses().that().resideInAnyPackage("io.mangacircus.reader.library.archive..",
            "io.mangacircus.reader.library.collection..", "io.mangacircus.reader.library.metadata..")
        .should().dependOnClassesThat().resideInAPackage("io.vertx..")
        .check(CLASSES);
  }

  /** A message record names the version it speaks, which {@code Message.toJson} writes as {@code v}. */
  @Test
  void everyMessageRecordDeclaresItsVersion() {
    classes().that().implement(io.mangacircus.contracts.Message.class)
        .should(new ArchCondition<JavaClass>("be a record with a public static final int VERSION") {
          @Override
          public void check(JavaClass type, ConditionEvents events) {
            boolean declared = type.isRecord() && type.tryGetField("VERSION")
                .filter(f -> f.getRawType().isEquivalentTo(int.class) && f.getModifiers().containsAll(
                    java.util.Set.of(JavaModifier.PUBLIC, JavaModifier.STATIC, JavaModifier.FINAL)))
                .isPresent();
            if (!declared) {
              events.add(SimpleConditionEvent.violated(type, type.getName() + " is a Message without a public static "
                  + "final int VERSION"));
            }
          }
        })
        .check(CLASSES);
  }

  /** Image validation is plain Java: the structure walks and the decode run anywhere, tested without an event loop. */
  @Test
  void imageValidationUsesNoVertx() {
    noClasses().that().resideInAPackage("io.mangacircus.scraper.validate..")
        .should().dependOnClassesThat().resideInAPackage("io.vertx..")
        .check(CLASSES);
  }

  /** The scraper's root package holds its verticle and its configuration; everything else is in a feature package. */
  @Test
  void theScrapersRootHoldsOnlyItsVerticleAndItsConfig() {
    classes().that().resideInAPackage("io.mangacircus.scraper").and().areTopLevelClasses()
        .should().haveFullyQualifiedName("io.mangacircus.scraper.ScraperVerticle")
        .orShould().haveFullyQualifiedName("io.mangacircus.scraper.ScraperConfig")
        .check(CLASSES);
  }

  /** One class is named {@code LibraryLayout}: the library's naming rules in {@code contracts}. */
  @Test
  void onlyTheContractsLibraryLayoutIsCalledSo() {
    classes().that().haveSimpleName("LibraryLayout")
        .should().haveFullyQualifiedName(LibraryLayout.class.getName())
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

  /** Age ratings are read by the scraper and the reader alike and decided without an event loop. */
  @Test
  void theRatingContractIsPlainJavaWithoutVertx() {
    noClasses().that().resideInAPackage("io.mangacircus.contracts.rating..")
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

  /**
   * The reader's store contracts (every type in {@code reader.store} but the {@code Sqlite*} implementation and
   * {@code ReaderStores}, which opens one engine or the other) name no SQLite, JDBC or Vert.x type, so that each
   * database engine implements them as they are (PostgreSQL's in {@code reader.store.pg}); the PostgreSQL stores never
   * touch SQLite; and no other reader class touches JDBC or SQLite.
   */
  @Test
  void readerStoreContractsNameNoDatabaseEngine() {
    noClasses().that().resideInAPackage("io.mangacircus.reader.store")
        .and().haveNameNotMatching("io\\.mangacircus\\.reader\\.store\\.Sqlite.*")
        .and().doNotHaveFullyQualifiedName("io.mangacircus.reader.store.ReaderStores")
        .should().dependOnClassesThat().resideInAnyPackage("java.sql..", "org.sqlite..", "io.vertx..")
        .check(CLASSES);
    noClasses().that().resideInAPackage("io.mangacircus.reader.store.pg..")
        .should().dependOnClassesThat().resideInAnyPackage("org.sqlite..")
        .check(CLASSES);
    noClasses().that().resideInAPackage("io.mangacircus.reader..")
        .and().resideOutsideOfPackage("io.mangacircus.reader.store..")
        .should().dependOnClassesThat().resideInAnyPackage("java.sql..", "org.sqlite..")
        .check(CLASSES);
  }

  /** Page serving ({@code reader.pages}) reads the library; the library's classes never reach into page serving. */
  @Test
  void theLibraryDoesNotDependOnPageServing() {
    noClasses().that().resideInAPackage("io.mangacircus.reader.library..")
        .should().dependOnClassesThat().resideInAPackage("io.mangacircus.reader.pages..")
        .check(CLASSES);
  }

  @Test
  void servicesDoNotDependOnTheLauncher() {
    noClasses().that().resideInAnyPackage("io.mangacircus.reader..", "io.mangacircus.scraper..")
        .should().dependOnClassesThat().resideInAPackage("io.mangacircus.launcher..")
        .check(CLASSES);
  }

  /**
   * Creating, renaming and deleting files of the product's data go through {@link DurableFiles}
   * (or {@link AtomicFiles}), which fsync the folder holding the changed entry: a name changed
   * any other way may be rolled back by a power cut after it was relied on (docs/resilience.md, "Durability").
   */
  @Test
  void onlyTheDurableFilesChangeFolderEntries() {
    noClasses().that().resideOutsideOfPackage("io.mangacircus.testing..")
        .and().doNotHaveFullyQualifiedName(DurableFiles.class.getName())
        .and().doNotHaveFullyQualifiedName(AtomicFiles.class.getName())
        .should().callMethodWhere(com.tngtech.archunit.core.domain.JavaCall.Predicates.target(
            com.tngtech.archunit.core.domain.properties.HasOwner.Predicates.With.owner(
                com.tngtech.archunit.base.DescribedPredicate.describe("java.nio.file.Files",
                    owner -> owner.isEquivalentTo(java.nio.file.Files.class))))
            .and(com.tngtech.archunit.core.domain.JavaCall.Predicates.target(
                com.tngtech.archunit.core.domain.properties.HasName.Predicates.nameMatching(
                    "move|createDirectory|createDirectories|delete|deleteIfExists|createLink|createSymbolicLink"))))
        .because("a folder entry changed without fsyncing its folder may be lost to a power cut")
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

  /**
   * {@code contracts} holds the shapes both sides agree on, not logic: every top-level type there is a record, an enum,
   * an interface, an exception or a holder of constants, except the library's layout rules and the few rules that
   * reading and writing those shapes needs (docs/architecture.md §1): {@link Addresses} (the address table, with its
   * two lookups by service name), {@link LibraryLayout} (the library's naming rules), {@link AtomicFiles} and {@link DurableFiles} (how {@code ChapterManifest} and every state file reach the disk), {@link MessageJson}
   * (the one Jackson binding every record's {@code toJson}/{@code fromJson} delegates to), {@link MessageFields} (the
   * field checks of the records' compact constructors), {@link OperatorText} (the character rule those reads apply
   * to operator text), {@link ScraperRequests} (the body of a parameterless request) and {@code ManifestStream} (the
   * streamed read of a {@code chapter.json}, which {@code ChapterManifest.parse} answers with) and {@link IsoInstant} (how
   * those reads and the state files read an ISO-8601 instant). Shared logic that is no part of the contract goes to
   * {@code support}.
   */
  @Test
  void contractsHoldRecordsAndTheirRulesOnly() {
    classes().that().resideInAPackage("io.mangacircus.contracts..").and().areTopLevelClasses()
        .and().doNotBelongToAnyOf(Addresses.class, LibraryLayout.class, AtomicFiles.class, DurableFiles.class, MessageJson.class, MessageFields.class,
            OperatorText.class,
            ScraperRequests.class, IsoInstant.class)
        .and().doNotHaveFullyQualifiedName("io.mangacircus.contracts.library.ManifestStream")
        .should(beARecordEnumInterfaceExceptionOrConstants())
        .check(CLASSES);
  }

  /**
   * Only {@code scraper.operator} registers the scraper's event-bus consumers ({@code OperatorRequests}), so every
   * request the scraper answers is found in one place and follows the operations table.
   */
  @Test
  void onlyTheOperatorPackageRegistersScraperConsumers() {
    noClasses().that().resideInAPackage("io.mangacircus.scraper..")
        .and().resideOutsideOfPackage("io.mangacircus.scraper.operator..")
        .should().callMethodWhere(JavaCall.Predicates.target(HasName.Predicates.nameMatching("consumer|localConsumer"))
            .and(JavaCall.Predicates.target(HasOwner.Predicates.With.owner(
                JavaClass.Predicates.assignableTo(EventBus.class)))))
        .because("the scraper's requests are registered by scraper.operator.OperatorRequests only")
        .check(CLASSES);
  }

  private static ArchCondition<JavaClass> beARecordEnumInterfaceExceptionOrConstants() {
    return new ArchCondition<>("be a record, an enum, an interface, an exception or a holder of constants") {
      @Override
      public void check(JavaClass type, ConditionEvents events) {
        boolean shape = type.isRecord() || type.isEnum() || type.isInterface() || type.isAssignableTo(Throwable.class);
        boolean constants = type.getMethods().isEmpty() && type.getFields().stream()
            .allMatch(f -> f.getModifiers().containsAll(java.util.Set.of(JavaModifier.STATIC, JavaModifier.FINAL)));
        if (!shape && !constants) {
          events.add(SimpleConditionEvent.violated(type, type.getName() + " holds logic (methods "
              + type.getMethods().stream().map(m -> m.getName()).sorted().toList() + "); contracts holds records and "
              + "their rules only, shared logic goes to the support module"));
        }
      }
    };
  }
}
