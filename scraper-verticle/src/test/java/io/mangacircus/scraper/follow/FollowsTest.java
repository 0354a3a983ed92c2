package io.mangacircus.scraper.follow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mangacircus.contracts.CorruptStateFileException;
import io.mangacircus.testing.MutableClock;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FollowsTest {

  @TempDir
  Path folder;

  private final MutableClock clock = new MutableClock();

  private Path file() {
    return folder.resolve("follows.json");
  }

  @Test
  void theFirstStartWithoutAFileFollowsEveryLibraryTitleOnceAndWritesTheFile() throws Exception {
    Follows follows = Follows.open(file(), clock, () -> List.of(
        new Follows.LibraryTitle("mangadex", "t-1", "Starfall"), new Follows.LibraryTitle("local", "Good", "Good")));

    assertThat(follows.list()).extracting(Follows.Entry::titleId).containsExactly("Good", "t-1");
    assertThat(follows.list()).allSatisfy(e -> assertThat(e.language()).isEqualTo("en"));
    assertThat(new JsonObject(Files.readString(file())).getJsonArray("titles")).hasSize(2);

    follows.unfollow("local", "Good");
    Follows reopened = Follows.open(file(), clock, () -> {
      throw new AssertionError("a second start never seeds again");
    });
    assertThat(reopened.list()).extracting(Follows.Entry::titleId).containsExactly("t-1");
  }

  @Test
  void theFirstStartSeedsOffItsOpenAndWhatHappensMeanwhileWaitsForTheSeedOrIsMergedIntoIt() throws Exception {
    java.util.concurrent.CountDownLatch scanning = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
    Follows follows = Follows.open(file(), clock);
    java.util.concurrent.ExecutorService threads = java.util.concurrent.Executors.newCachedThreadPool();
    try {
      java.util.concurrent.Future<?> seed = threads.submit(() -> follows.seed(stopped -> {
        scanning.countDown();
        await(release);
        return List.of(new Follows.LibraryTitle("mangadex", "t-1", "Starfall"),
            new Follows.LibraryTitle("local", "Good", "Good"));
      }));
      assertThat(scanning.await(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
      java.time.Instant published = clock.instant().plusSeconds(30);
      // A lane or recovery publishing a chapter of a library title does not wait: the chapter is kept for the seed.
      follows.batch(() -> {
        try {
          follows.newChapter("mangadex", "t-1", "Starfall", published);
        } catch (java.io.IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      });
      assertThat(file()).as("nothing is written before the seed").doesNotExist();
      Thread[] operator = new Thread[1];
      java.util.concurrent.Future<Boolean> unfollow = threads.submit(() -> {
        operator[0] = Thread.currentThread();
        return follows.unfollow("local", "Good");
      });
      org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> operator[0] != null
          && operator[0].getState() == Thread.State.WAITING);
      assertThat(unfollow).isNotDone();

      release.countDown();
      seed.get(10, java.util.concurrent.TimeUnit.SECONDS);
      assertThat(unfollow.get(10, java.util.concurrent.TimeUnit.SECONDS)).as("the unfollow applies to the seed")
          .isTrue();
    } finally {
      release.countDown();
      threads.shutdownNow();
    }

    Follows reopened = Follows.open(file(), clock, () -> {
      throw new AssertionError("a second start never seeds again");
    });
    assertThat(reopened.list()).singleElement().satisfies(entry -> {
      assertThat(entry.titleId()).isEqualTo("t-1");
      assertThat(entry.lastNewChapterAt()).as("the chapter published during the seed").isEqualTo(
          clock.instant().plusSeconds(30));
    });
  }

  @Test
  void aStopDuringTheSeedWritesNothingRefusesChangesAndTheNextStartSeeds() throws Exception {
    java.util.concurrent.CountDownLatch scanning = new java.util.concurrent.CountDownLatch(1);
    Follows follows = Follows.open(file(), clock);
    java.util.concurrent.ExecutorService threads = java.util.concurrent.Executors.newSingleThreadExecutor();
    java.util.List<String> listed = new java.util.concurrent.CopyOnWriteArrayList<>();
    java.util.concurrent.atomic.AtomicBoolean scanEnded = new java.util.concurrent.atomic.AtomicBoolean();
    try {
      java.util.concurrent.Future<?> seed = threads.submit(() -> follows.seed(stopped -> {
        listed.add("t-first");
        scanning.countDown();
        int folder = 0;
        while (!stopped.getAsBoolean()) {   // a long library: one title a folder until the stop
          listed.add("t-" + folder++);
          Thread.onSpinWait();
        }
        scanEnded.set(true);
        return listed.stream().map(id -> new Follows.LibraryTitle("local", id, id)).toList();
      }));
      assertThat(scanning.await(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();

      follows.stopSeed();

      assertThat(scanEnded).as("the stop waited for the seed to end").isTrue();
      seed.get(10, java.util.concurrent.TimeUnit.SECONDS);
    } finally {
      threads.shutdownNow();
    }
    assertThat(file()).as("no half seed").doesNotExist();
    assertThat(follows.list()).isEmpty();
    assertThatThrownBy(() -> follows.follow("local", "Other", null, null, null))
        .isInstanceOf(java.io.IOException.class).hasMessageContaining("next start");
    assertThat(file()).as("nor a file without the seed").doesNotExist();

    Follows next = Follows.open(file(), clock, () -> List.of(new Follows.LibraryTitle("local", "t-0", "t-0")));
    assertThat(next.list()).extracting(Follows.Entry::titleId).containsExactly("t-0");
    assertThat(file()).exists();
  }

  @Test
  void aStopBeforeTheSeedBeganMeansItNeverRuns() throws Exception {
    Follows follows = Follows.open(file(), clock);

    follows.stopSeed();
    follows.seed(stopped -> {
      throw new AssertionError("a stopped seed never reads the library");
    });

    assertThat(follows.list()).isEmpty();
    assertThat(file()).doesNotExist();
  }

  private static void await(java.util.concurrent.CountDownLatch latch) {
    try {
      assertThat(latch.await(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  @Test
  void aLibraryThatCannotBeReadAtTheFirstStartFollowsNothingWritesNothingAndTheNextStartSeedsIt() throws Exception {
    Follows follows = Follows.open(file(), clock, () -> {
      throw new java.io.UncheckedIOException(new java.nio.file.NotDirectoryException("library"));
    });

    assertThat(follows.list()).isEmpty();
    assertThat(file()).doesNotExist();
    Follows next = Follows.open(file(), clock, () -> List.of(new Follows.LibraryTitle("local", "Good", "Good")));
    assertThat(next.list()).hasSize(1);
    assertThat(file()).exists();
  }

  @Test
  void followUnfollowChecksAndNewChaptersSurviveAReopen() throws Exception {
    Follows follows = Follows.open(file(), clock, List::of);
    follows.follow("mangadex", "t-1", null, "fr", List.of("g2", "g1"));
    clock.advance(Duration.ofHours(1));
    follows.follow("mangadex", "t-1", "Starfall", null, null);
    follows.checked(follows.list(), clock.instant());
    clock.advance(Duration.ofMinutes(5));
    follows.newChapter("mangadex", "t-1", null, clock.instant());
    follows.newChapter("mangadex", "not-followed", "x", clock.instant());

    Follows.Entry entry = Follows.open(file(), clock, List::of).get("mangadex", "t-1").orElseThrow();
    assertThat(entry.title()).isEqualTo("Starfall");
    assertThat(entry.language()).as("following again keeps the language").isEqualTo("fr");
    assertThat(entry.preferredGroups()).containsExactly("g2", "g1");
    assertThat(entry.followedAt()).isEqualTo(MutableClock.START);
    assertThat(entry.lastCheckAt()).isEqualTo(MutableClock.START.plus(Duration.ofHours(1)));
    assertThat(entry.lastNewChapterAt()).isEqualTo(MutableClock.START.plus(Duration.ofMinutes(65)));
    assertThat(Follows.open(file(), clock, List::of).list()).hasSize(1);
  }

  @Test
  void aCorruptFileIsRefusedNamingItAndNeverOverwritten() throws Exception {
    Files.writeString(file(), "{\"schema\": 1, \"titles\": [{\"source\": \"mangadex\"}]}");
    byte[] before = Files.readAllBytes(file());

    assertThatThrownBy(() -> Follows.open(file(), clock, () -> List.of(
        new Follows.LibraryTitle("local", "Good", "Good"))))
        .isInstanceOf(CorruptStateFileException.class).hasMessageContaining("follows.json")
        .hasMessageContaining("titles[0]");
    Files.writeString(file(), "not json");
    assertThatThrownBy(() -> Follows.open(file(), clock, List::of)).isInstanceOf(CorruptStateFileException.class)
        .hasMessageContaining("not a JSON object");
    Files.writeString(file(), "{\"schema\": 2, \"titles\": []}");
    assertThatThrownBy(() -> Follows.open(file(), clock, List::of)).hasMessageContaining("newer");
    Files.write(file(), before);
    assertThatThrownBy(() -> Follows.open(file(), clock, List::of)).isInstanceOf(CorruptStateFileException.class);
    assertThat(Files.readAllBytes(file())).isEqualTo(before);
  }

  @Test
  void aChangeThatCannotBeSavedChangesNothing() throws Exception {
    Follows follows = Follows.open(file(), clock, List::of);
    follows.follow("local", "Good", null, null, null);
    Files.delete(file());
    Files.createDirectory(file());

    assertThatThrownBy(() -> follows.follow("local", "Other", null, null, null))
        .isInstanceOf(java.io.IOException.class);
    assertThat(follows.list()).extracting(Follows.Entry::titleId).containsExactly("Good");
  }

  @Test
  void newChaptersInsideABatchAreSavedOnceWhenItEndsAndSurviveAReopen() throws Exception {
    Follows follows = Follows.open(file(), clock, List::of);
    follows.follow("demo", "t-1", "One", null, null);
    follows.follow("demo", "t-2", "Two", null, null);
    String before = Files.readString(file());
    java.time.Instant first = clock.instant().plusSeconds(60);
    java.time.Instant second = first.plusSeconds(60);

    follows.batch(() -> {
      try {
        follows.newChapter("demo", "t-1", "One", first);
        follows.newChapter("demo", "t-2", "Two", second);
        follows.newChapter("demo", "not-followed", "Other", second);
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
      assertThat(follows.get("demo", "t-1").orElseThrow().lastNewChapterAt()).isEqualTo(first);
      try {
        assertThat(Files.readString(file())).as("nothing written before the batch ends").isEqualTo(before);
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    });

    Follows reopened = Follows.open(file(), clock, List::of);
    assertThat(reopened.get("demo", "t-1").orElseThrow().lastNewChapterAt()).isEqualTo(first);
    assertThat(reopened.get("demo", "t-2").orElseThrow().lastNewChapterAt()).isEqualTo(second);
    assertThat(reopened.list()).hasSize(2);
  }
}
