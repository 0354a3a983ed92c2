package io.mangacircus.reader.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.reader.store.StoreEngines.Engine;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** Reading positions, read marks and library visits, on either engine. */
@ParameterizedClass
@EnumSource(Engine.class)
class ProgressStoreContractTest extends ContractTestBase {

  @Test
  void savingTheLastPageMarksTheChapterReadInTheSameStep() throws Exception {
    ProgressStore progress = stores.progress();
    long id = stores.users().createUser("eve", "hash", "reader", now);
    progress.saveProgress(id, "s", "chapter-0001", 4, false, now);
    assertThat(progress.readChapters(id, "s")).isEmpty();

    progress.saveProgress(id, "s", "chapter-0001", 5, true, now.plusSeconds(1));

    assertThat(progress.readChapters(id, "s")).containsExactly("chapter-0001");
    assertThat(progress.progress(id)).singleElement().satisfies(p -> assertThat(p.page()).isEqualTo(5));
  }

  @Test
  void oneSavedPositionPerSeriesNewestFirstKeptAcrossARestart() throws Exception {
    long id = stores.users().createUser("eve", "hash", "reader", now);
    stores.progress().saveProgress(id, "moon", "chapter-0001", 3, false, now);
    stores.progress().saveProgress(id, "sun", "chapter-0002", 1, false, now.plusSeconds(10));
    stores.progress().saveProgress(id, "moon", "chapter-0002", 7, false, now.plusSeconds(20));

    reopen();

    assertThat(stores.progress().progress(id)).containsExactly(
        new Progress("moon", "chapter-0002", 7, now.plusSeconds(20)),
        new Progress("sun", "chapter-0002", 1, now.plusSeconds(10)));
    assertThat(stores.progress().progress(id, "sun")).contains(
        new Progress("sun", "chapter-0002", 1, now.plusSeconds(10)));
    stores.progress().clearProgress(id, "sun");
    assertThat(stores.progress().progress(id, "sun")).isEmpty();
    assertThat(stores.progress().progress(id)).extracting(Progress::series).containsExactly("moon");
  }

  @Test
  void aChapterReadAgainKeepsItsFirstTimeAndUnreadForgetsIt() throws Exception {
    long id = stores.users().createUser("eve", "hash", "reader", now);
    ProgressStore progress = stores.progress();
    progress.setRead(id, "moon", "chapter-0001", true, now);
    progress.setRead(id, "moon", "chapter-0001", true, now.plus(Duration.ofHours(1)));
    progress.markRead(id, "moon", List.of("chapter-0001", "chapter-0002", "chapter-0003"),
        now.plus(Duration.ofHours(2)));
    progress.markRead(id, "sun", List.of("chapter-0009"), now);

    assertThat(progress.readTimes(id, "moon")).isEqualTo(Map.of("chapter-0001", now,
        "chapter-0002", now.plus(Duration.ofHours(2)), "chapter-0003", now.plus(Duration.ofHours(2))));
    progress.setRead(id, "moon", "chapter-0002", false, now);
    assertThat(progress.readChapters(id, "moon")).containsExactlyInAnyOrder("chapter-0001", "chapter-0003");
    assertThat(progress.readChapters(id)).isEqualTo(Map.of("moon", Set.of("chapter-0001", "chapter-0003"),
        "sun", Set.of("chapter-0009")));
  }

  @Test
  void markingNoChaptersChangesNothing() throws Exception {
    long id = stores.users().createUser("eve", "hash", "reader", now);

    stores.progress().markRead(id, "moon", List.of(), now);

    assertThat(stores.progress().readChapters(id)).isEmpty();
  }

  @Test
  void oneUsersReadingIsNotAnothers() throws Exception {
    long eve = stores.users().createUser("eve", "hash", "reader", now);
    long bob = stores.users().createUser("bob", "hash", "reader", now);
    stores.progress().saveProgress(eve, "moon", "chapter-0001", 5, true, now);

    assertThat(stores.progress().progress(bob)).isEmpty();
    assertThat(stores.progress().readChapters(bob, "moon")).isEmpty();
    assertThat(stores.progress().progress(bob, "moon")).isEmpty();
  }

  @Test
  void aLibraryVisitIsStoredAndReplaced() throws Exception {
    long id = stores.users().createUser("eve", "hash", "reader", now);
    assertThat(stores.progress().libraryVisit(id)).isEmpty();

    stores.progress().saveLibraryVisit(id, new LibraryVisit(null, now));
    assertThat(stores.progress().libraryVisit(id)).contains(new LibraryVisit(null, now));
    stores.progress().saveLibraryVisit(id, new LibraryVisit(now, now.plus(Duration.ofDays(1))));

    reopen();
    assertThat(stores.progress().libraryVisit(id)).contains(new LibraryVisit(now, now.plus(Duration.ofDays(1))));
  }
}
