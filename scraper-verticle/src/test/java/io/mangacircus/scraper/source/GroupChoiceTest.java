package io.mangacircus.scraper.source;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class GroupChoiceTest {

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  private static GroupChoice.Upload<String> upload(String id, String number, String group, int day) {
    return new GroupChoice.Upload<>(id, "en", number, List.of(group), T0.plusSeconds(86_400L * day), true);
  }

  @Test
  void duplicatesFromTwoGroupsKeepThePreferredGroupsUpload() {
    List<GroupChoice.Upload<String>> feed = List.of(upload("a1", "1", "alpha", 1), upload("b1", "1", "beta", 2),
        upload("a2", "2", "alpha", 3), upload("b2", "2", "beta", 4));

    assertThat(GroupChoice.choose(feed, List.of("beta"))).containsExactly("b1", "b2");
    assertThat(GroupChoice.choose(feed, List.of("alpha", "beta"))).containsExactly("a1", "a2");
  }

  @Test
  void withoutAPreferenceTheFirstUploadedWinsWhateverTheListingOrder() {
    List<GroupChoice.Upload<String>> feed = List.of(upload("late", "1", "alpha", 5), upload("early", "1", "beta", 1));

    assertThat(GroupChoice.choose(feed, List.of())).containsExactly("early");
  }

  @Test
  void aNumberThePreferredGroupLacksComesFromTheFirstUploaderAmongTheOthers() {
    List<GroupChoice.Upload<String>> feed = List.of(upload("a1", "1", "alpha", 1), upload("g2", "2", "gamma", 3),
        upload("b2", "2", "beta", 2), upload("a3", "3", "alpha", 4));

    assertThat(GroupChoice.choose(feed, List.of("alpha"))).containsExactly("a1", "b2", "a3");
  }

  @Test
  void aMissingNumberStaysMissingAndAChapterOnlyOneGroupHasIsKept() {
    List<GroupChoice.Upload<String>> feed = List.of(upload("a1", "1", "alpha", 1), upload("b1", "1", "beta", 1),
        upload("b3", "3", "beta", 2), upload("a4", "4", "alpha", 3));

    assertThat(GroupChoice.choose(feed, List.of("alpha"))).containsExactly("a1", "b3", "a4");
  }

  @Test
  void aDownloadableUploadWinsOverAPreferredOneHostedElsewhere() {
    List<GroupChoice.Upload<String>> feed = List.of(
        new GroupChoice.Upload<>("external", "en", "1", List.of("alpha"), T0, false), upload("b1", "1", "beta", 2));

    assertThat(GroupChoice.choose(feed, List.of("alpha"))).containsExactly("b1");
  }

  @Test
  void theSameNumberInTwoLanguagesIsTwoChaptersAndAJointReleaseCountsForEachGroup() {
    List<GroupChoice.Upload<String>> feed = List.of(upload("en1", "1", "alpha", 2),
        new GroupChoice.Upload<>("fr1", "fr", "1", List.of("gamma"), T0, true),
        new GroupChoice.Upload<>("joint", "en", "1", List.of("gamma", "beta"), T0.plusSeconds(999_999), true));

    assertThat(GroupChoice.choose(feed, List.of("beta"))).containsExactly("joint", "fr1");
  }
}
