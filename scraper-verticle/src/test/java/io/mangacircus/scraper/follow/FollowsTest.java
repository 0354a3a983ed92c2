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
