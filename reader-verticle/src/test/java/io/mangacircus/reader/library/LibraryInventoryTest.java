package io.mangacircus.reader.library;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.contracts.rating.AgeRating;
import io.mangacircus.reader.library.LibraryInventory.Status;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class LibraryInventoryTest {

  private Instant now = Instant.parse("2026-11-29T10:00:00Z");
  private final Queue<Runnable> pending = new ArrayDeque<>();
  private final AtomicInteger scans = new AtomicInteger();
  private final AtomicReference<List<SeriesEntry>> onDisk = new AtomicReference<>(List.of(series("a")));
  private final AtomicReference<RuntimeException> failure = new AtomicReference<>();
  private final AtomicReference<List<LibraryScan.Skipped>> skippedOnDisk = new AtomicReference<>(List.of());
  private final java.util.concurrent.atomic.AtomicBoolean folderMissing = new java.util.concurrent.atomic.AtomicBoolean();
  private final LibraryInventory inventory = new LibraryInventory(() -> {
    scans.incrementAndGet();
    if (failure.get() != null) {
      throw failure.get();
    }
    return new LibraryScan(onDisk.get(), skippedOnDisk.get(), folderMissing.get());
  }, pending::add, () -> now, Duration.ofSeconds(60), Duration.ofSeconds(60));

  private static SeriesEntry series(String id) {
    return new SeriesEntry(id, "Title " + id, "demo", id, 1, Instant.EPOCH);
  }

  private void runScans() {
    while (!pending.isEmpty()) {
      pending.poll().run();
    }
  }

  @Test
  void concurrentCallersShareOneScanAndGetTheLastSummaryAtOnce() {
    LibraryInventory.Summary first = inventory.summary();
    inventory.summary();
    inventory.summary();

    assertThat(first.status()).isEqualTo(Status.REFRESHING);
    assertThat(first.series()).isEmpty();
    assertThat(pending).hasSize(1);
    runScans();
    assertThat(scans).hasValue(1);
    assertThat(inventory.summary().status()).isEqualTo(Status.READY);
    assertThat(inventory.summary().series()).containsExactly(series("a"));
  }

  @Test
  void theSummaryRefreshesAtMostOnceAMinuteUnlessInvalidated() {
    inventory.summary();
    runScans();
    now = now.plusSeconds(59);
    inventory.summary();
    assertThat(pending).as("59 s old: no new scan").isEmpty();

    inventory.invalidate();
    assertThat(inventory.summary().status()).isEqualTo(Status.REFRESHING);
    runScans();
    now = now.plusSeconds(60);
    inventory.summary();
    assertThat(pending).as("a minute old: refreshed").hasSize(1);
  }

  @Test
  void aChangedLibraryIsReportedAsUpdated() {
    inventory.summary();
    runScans();
    onDisk.set(List.of(series("a"), series("b")));
    inventory.invalidate();
    inventory.summary();
    runScans();

    assertThat(inventory.summary().status()).isEqualTo(Status.UPDATED);
    assertThat(inventory.summary().series()).hasSize(2);
  }

  @Test
  void aFailedScanIsNotRetriedOnEveryPoll() {
    failure.set(new IllegalStateException("disk gone"));
    inventory.summary();
    runScans();

    for (int i = 0; i < 5; i++) {
      LibraryInventory.Summary summary = inventory.summary();
      assertThat(summary.status()).isEqualTo(Status.ERROR);
      assertThat(summary.error()).contains("disk gone");
    }
    assertThat(pending).isEmpty();
    now = now.plusSeconds(60);
    failure.set(null);
    inventory.summary();
    runScans();
    assertThat(inventory.summary().status()).isEqualTo(Status.READY);
  }

  @Test
  void aFreshRequestWaitsForAScanThatStartedAfterIt() {
    inventory.summary();
    CompletableFuture<LibraryInventory.Summary> fresh = inventory.fresh();
    onDisk.set(List.of(series("a"), series("new")));

    pending.poll().run();
    assertThat(fresh).as("the scan that was already running may have missed the change").isNotDone();
    runScans();
    assertThat(fresh).isDone();
    assertThat(fresh.join().series()).hasSize(2);
  }

  @Test
  void aKeptInventoryIsServedAtOnceBeforeAnyScanOfThisProcess() {
    LibraryInventory.Snapshot kept = new LibraryInventory.Snapshot(now.minusSeconds(3600), List.of(series("kept")));
    inventory.seed(kept);

    LibraryInventory.Summary first = inventory.summary();
    CompletableFuture<LibraryInventory.Summary> answer = inventory.firstAnswer();

    assertThat(first.series()).containsExactly(series("kept"));
    assertThat(first.scannedAt()).isEqualTo(kept.scannedAt());
    assertThat(first.status()).as("a scan runs to bring it up to date").isEqualTo(Status.REFRESHING);
    assertThat(answer).as("nothing to wait for").isDone();
    runScans();
    assertThat(inventory.summary().series()).containsExactly(series("a"));
    assertThat(inventory.summary().status()).isEqualTo(Status.UPDATED);
  }

  @Test
  void withoutAnyInventoryTheFirstAnswerWaitsForTheFirstScan() {
    CompletableFuture<LibraryInventory.Summary> answer = inventory.firstAnswer();

    assertThat(answer).isNotDone();
    runScans();
    assertThat(answer).isDone();
    assertThat(answer.join().series()).containsExactly(series("a"));
    assertThat(inventory.firstAnswer()).isDone();
  }

  @Test
  void aRefreshKeepsTheListUntilItCompletesAndAMissingFolderNeverBlanksIt() {
    inventory.summary();
    runScans();
    onDisk.set(List.of());
    folderMissing.set(true);
    inventory.invalidate();

    LibraryInventory.Summary during = inventory.summary();
    assertThat(during.status()).isEqualTo(Status.REFRESHING);
    assertThat(during.series()).containsExactly(series("a"));
    runScans();

    LibraryInventory.Summary after = inventory.summary();
    assertThat(after.status()).isEqualTo(Status.ERROR);
    assertThat(after.error()).contains("library folder is missing");
    assertThat(after.series()).containsExactly(series("a"));

    folderMissing.set(false);
    now = now.plusSeconds(60);
    inventory.summary();
    runScans();
    assertThat(inventory.summary().series()).as("an emptied library that exists is empty").isEmpty();
  }

  @Test
  void everyChangedInventoryIsKeptOnceAndTheSkippedEntriesComeWithTheSummary() {
    List<LibraryInventory.Snapshot> kept = new java.util.ArrayList<>();
    inventory.keepWith(kept::add);
    skippedOnDisk.set(List.of(new LibraryScan.Skipped("evil", "resolves outside the library")));

    inventory.summary();
    runScans();
    inventory.invalidate();
    inventory.summary();
    runScans();

    assertThat(scans).hasValue(2);
    assertThat(kept).as("the second scan found the same series").hasSize(1);
    assertThat(kept.get(0).series()).containsExactly(series("a"));
    assertThat(inventory.summary().skipped()).extracting(LibraryScan.Skipped::toString)
        .containsExactly("evil: resolves outside the library");
  }

  @Test
  void aKeeperThatFailsDoesNotStopTheInventory() {
    inventory.keepWith(snapshot -> {
      throw new java.io.UncheckedIOException(new java.io.IOException("disk full"));
    });

    inventory.summary();
    runScans();

    assertThat(inventory.summary().status()).isEqualTo(Status.READY);
    assertThat(inventory.summary().series()).containsExactly(series("a"));
  }

  private static LibraryFiles.Chapter published(String seriesId, String chapterId, Instant at) {
    return new LibraryFiles.Chapter(seriesId, chapterId, "Title " + seriesId, "demo", seriesId, "1", "", at,
        List.of());
  }

  private static LibraryFiles.Chapter published(String seriesId, String chapterId, Instant at, AgeRating rating) {
    return new LibraryFiles.Chapter(seriesId, chapterId, "Title " + seriesId, "demo", seriesId, "1", "", at,
        List.of(), rating);
  }

  private AgeRating ratingOf(String seriesId) {
    return incremental.summary().series().stream().filter(s -> s.id().equals(seriesId)).findFirst().orElseThrow()
        .rating();
  }

  @Test
  void aPublishedChapterRatesItsSeriesByItsSourceAndTheNewestRatingWins() {
    onDisk.set(List.of(new SeriesEntry("a", "Title a", "demo", "a", 1, Instant.EPOCH, SeriesEntry.DOWNLOADS,
        AgeRating.FIFTEEN_PLUS), series("u")));
    chaptersOnDisk.set(java.util.Map.of("a", java.util.Set.of("chapter-0001"), "u", java.util.Set.of("chapter-0001")));
    incremental.summary();
    runScans();
    Instant at = Instant.parse("2026-11-29T11:00:00Z");

    incremental.added(published("a", "chapter-0002", at, AgeRating.UNRATED));
    assertThat(ratingOf("a")).as("a chapter without a rating keeps the scan's").isEqualTo(AgeRating.FIFTEEN_PLUS);
    incremental.added(published("u", "chapter-0002", at, AgeRating.TWELVE_PLUS));
    assertThat(ratingOf("u")).as("a series nothing rated is rated by its first rated chapter")
        .isEqualTo(AgeRating.TWELVE_PLUS);
    incremental.added(published("n", "chapter-0001", at, AgeRating.EIGHTEEN_PLUS));
    assertThat(ratingOf("n")).as("a new series").isEqualTo(AgeRating.EIGHTEEN_PLUS);
    incremental.added(published("a", "chapter-0003", at.plusSeconds(60), AgeRating.EIGHTEEN_PLUS));
    assertThat(ratingOf("a")).as("the source rated the title again").isEqualTo(AgeRating.EIGHTEEN_PLUS);
    incremental.added(published("a", "chapter-0000", at, AgeRating.ALL_AGES));
    assertThat(ratingOf("a")).as("an older chapter's rating is older news").isEqualTo(AgeRating.EIGHTEEN_PLUS);
    assertThat(incremental.summary().series()).extracting(SeriesEntry::chapters).containsExactly(4, 1, 2);
  }

  private final AtomicReference<java.util.Map<String, java.util.Set<String>>> chaptersOnDisk =
      new AtomicReference<>(java.util.Map.of("a", java.util.Set.of("chapter-0001")));
  private final LibraryInventory incremental = new LibraryInventory(() -> {
    scans.incrementAndGet();
    return new LibraryScan(onDisk.get(), List.of(), false, chaptersOnDisk.get());
  }, pending::add, () -> now, null, Duration.ofSeconds(60));

  @Test
  void aPublishedChapterIsAddedWithoutAScanAndCountedOnce() {
    incremental.summary();
    runScans();
    Instant at = Instant.parse("2026-11-29T11:00:00Z");

    assertThat(incremental.published("scraper-1", 1)).isEqualTo(PublicationSequence.Verdict.NEXT);
    incremental.added(published("a", "chapter-0002", at));
    incremental.added(published("a", "chapter-0002", at));
    incremental.added(published("a", "chapter-0001", at));
    assertThat(incremental.published("scraper-1", 2)).isEqualTo(PublicationSequence.Verdict.NEXT);
    incremental.added(published("b", "chapter-0001", at));
    runScans();

    assertThat(scans).as("only the first scan").hasValue(1);
    assertThat(incremental.summary().series()).containsExactly(
        new SeriesEntry("a", "Title a", "demo", "a", 2, at), new SeriesEntry("b", "Title b", "demo", "b", 1, at));
    now = now.plus(Duration.ofDays(2));
    incremental.summary();
    assertThat(pending).as("no refresh by age").isEmpty();
  }

  @Test
  void aMissedPublicationRescansAndAChapterThatArrivesDuringTheScanWaitsForIt() {
    incremental.summary();
    runScans();

    assertThat(incremental.published("scraper-1", 1)).isEqualTo(PublicationSequence.Verdict.NEXT);
    assertThat(incremental.published("scraper-1", 3)).isEqualTo(PublicationSequence.Verdict.MISSED);
    assertThat(pending).as("a rescan started").hasSize(1);
    incremental.added(published("c", "chapter-0001", Instant.EPOCH));
    assertThat(incremental.summary().series()).as("waits for the scan; the list is not blanked")
        .containsExactly(series("a"));
    onDisk.set(List.of(series("a"), series("b")));
    chaptersOnDisk.set(java.util.Map.of("a", java.util.Set.of("chapter-0001"), "b", java.util.Set.of("chapter-0001")));
    runScans();

    assertThat(scans).hasValue(2);
    assertThat(incremental.summary().series()).extracting(SeriesEntry::id).containsExactly("a", "b", "c");
    assertThat(incremental.published("scraper-2", 1)).as("another scraper instance")
        .isEqualTo(PublicationSequence.Verdict.MISSED);
    runScans();
    assertThat(scans).hasValue(3);
  }

  @Test
  void anAddedChapterIsKeptForTheNextStart() {
    List<LibraryInventory.Snapshot> keptSnapshots = new java.util.ArrayList<>();
    incremental.keepWith(keptSnapshots::add);
    incremental.summary();
    runScans();
    incremental.added(published("b", "chapter-0001", Instant.EPOCH));
    runScans();

    assertThat(keptSnapshots).last().extracting(LibraryInventory.Snapshot::series).asList().hasSize(2);
  }

  @Test
  void aBurstOfPublicationsIsKeptInOneWriteWithEveryChapterNotOneWritePerChapter() {
    List<LibraryInventory.Snapshot> keptSnapshots = new java.util.ArrayList<>();
    incremental.keepWith(keptSnapshots::add);
    incremental.summary();
    runScans();
    keptSnapshots.clear();   // the first scan's
    for (int i = 1; i <= 50; i++) {
      incremental.added(published(String.format("s%03d", i), "chapter-0001", Instant.EPOCH));
    }
    runScans();

    assertThat(keptSnapshots).as("one write for the burst, not one per chapter").hasSize(1);
    assertThat(keptSnapshots.get(0).series()).as("the newest inventory: every published chapter").hasSize(51);
    incremental.added(published("late", "chapter-0001", Instant.EPOCH));
    runScans();
    assertThat(keptSnapshots).hasSize(2);
    assertThat(keptSnapshots.get(1).series()).extracting(SeriesEntry::id).contains("late").hasSize(52);
  }

  @Test
  void publishedChaptersTakeTheirSeriesPlaceInTheListAsAScanWouldOrderIt() {
    Instant early = Instant.parse("2026-11-29T09:00:00Z");
    Instant late = Instant.parse("2026-11-29T11:00:00Z");
    onDisk.set(List.of(new SeriesEntry("b", "Bravo", "demo", "b", 1, early),
        new SeriesEntry("d", "delta", "demo", "d", 1, early), new SeriesEntry("f", "Foxtrot", "demo", "f", 1, early)));
    chaptersOnDisk.set(java.util.Map.of("b", java.util.Set.of("chapter-0001"), "d", java.util.Set.of("chapter-0001"),
        "f", java.util.Set.of("chapter-0001")));
    incremental.summary();
    runScans();

    incremental.added(chapterOf("z", "zulu", late));
    incremental.added(chapterOf("a", "ALPHA", late));
    incremental.added(chapterOf("d", "Delta renamed later", late));
    incremental.added(chapterOf("e", "echo", early));
    incremental.added(chapterOf("c2", "charlie", late));
    incremental.added(chapterOf("c1", "Charlie", late));

    List<SeriesEntry> listed = incremental.summary().series();
    assertThat(listed).extracting(SeriesEntry::id).containsExactly("a", "b", "c1", "c2", "d", "e", "f", "z");
    assertThat(listed).isSortedAccordingTo(LibraryInventory.ORDER);
    assertThat(listed.get(4)).as("a series keeps its title and place, with one more chapter")
        .isEqualTo(new SeriesEntry("d", "delta", "demo", "d", 2, late));
  }

  private static LibraryFiles.Chapter chapterOf(String seriesId, String title, Instant at) {
    return new LibraryFiles.Chapter(seriesId, "chapter-0002", title, "demo", seriesId, "2", "", at, List.of());
  }

  /** A scanner on its own thread that reports {@code reported} as found, then waits for the test before it ends. */
  private static final class HeldScan {
    final java.util.concurrent.CountDownLatch reported = new java.util.concurrent.CountDownLatch(1);
    final java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
    final java.util.concurrent.ExecutorService thread = java.util.concurrent.Executors.newSingleThreadExecutor();
    volatile List<SeriesEntry> reportNext = List.of();
    volatile List<SeriesEntry> result = List.of();

    LibraryScan scan(java.util.function.Consumer<SeriesEntry> found) {
      reportNext.forEach(found);
      reported.countDown();
      try {
        release.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return new LibraryScan(result, List.of(), false);
    }
  }

  @Test
  void aFirstScanWithNothingToShowServesWhatItFoundSoFarMarkedPartialNeverAnEmptyList() throws Exception {
    HeldScan held = new HeldScan();
    held.reportNext = List.of(series("b"), series("a"));
    held.result = List.of(series("a"), series("b"), series("c"));
    LibraryInventory cold = new LibraryInventory(held::scan, held.thread, () -> now, null, Duration.ofSeconds(60));
    try {
      CompletableFuture<LibraryInventory.Summary> firstSeries = cold.firstSeries();
      assertThat(held.reported.await(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();

      LibraryInventory.Summary during = cold.summary();
      assertThat(during.status()).isEqualTo(Status.REFRESHING);
      assertThat(during.partial()).isTrue();
      assertThat(during.series()).as("found so far, in list order").containsExactly(series("a"), series("b"));
      assertThat(firstSeries).as("something to show").isDone();
      assertThat(cold.firstAnswer()).as("the complete list is still to come").isNotDone();

      held.release.countDown();
      LibraryInventory.Summary done = cold.firstAnswer().get(10, java.util.concurrent.TimeUnit.SECONDS);
      assertThat(done.partial()).isFalse();
      assertThat(done.series()).containsExactly(series("a"), series("b"), series("c"));
    } finally {
      held.release.countDown();
      held.thread.shutdownNow();
    }
  }

  @Test
  void aRescanServesThePreviousListNotWhatItHasFoundSoFar() throws Exception {
    HeldScan held = new HeldScan();
    held.reportNext = List.of(series("z"));
    held.result = List.of(series("z"));
    LibraryInventory warm = new LibraryInventory(held::scan, held.thread, () -> now, null, Duration.ofSeconds(60))
        .seed(new LibraryInventory.Snapshot(now, List.of(series("a"), series("b"))));
    try {
      CompletableFuture<LibraryInventory.Summary> fresh = warm.fresh();
      assertThat(held.reported.await(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();

      LibraryInventory.Summary during = warm.summary();
      assertThat(during.status()).isEqualTo(Status.REFRESHING);
      assertThat(during.partial()).isFalse();
      assertThat(during.series()).containsExactly(series("a"), series("b"));
      held.release.countDown();
      assertThat(fresh.get(10, java.util.concurrent.TimeUnit.SECONDS).series()).containsExactly(series("z"));
    } finally {
      held.release.countDown();
      held.thread.shutdownNow();
    }
  }
}
