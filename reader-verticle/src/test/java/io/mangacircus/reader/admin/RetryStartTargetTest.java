package io.mangacircus.reader.admin;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.reader.admin.RetryStartTarget.Ambiguous;
import io.mangacircus.reader.admin.RetryStartTarget.Launcher;
import io.mangacircus.reader.admin.RetryStartTarget.ToAnyLauncher;
import io.mangacircus.reader.admin.RetryStartTarget.ToNode;
import io.mangacircus.reader.admin.RetryStartTarget.UnknownNode;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which launcher a retry start goes to, from the launchers' last published states. */
class RetryStartTargetTest {

  private static final Instant NOW = Instant.parse("2026-12-05T02:00:00Z");
  private final RetryStartTarget target = new RetryStartTarget(Duration.ofSeconds(12));

  private static Launcher reader(String node, String status, Duration ago) {
    return new Launcher(node, NOW.minus(ago), Map.of("reader", status));
  }

  @Test
  void theOneLauncherWhoseReaderIsBlockedIsPickedAmongTwo() {
    List<Launcher> launchers = List.of(reader("reader@a:1", "up", Duration.ofSeconds(1)),
        reader("reader@b:2", "blocked", Duration.ofSeconds(2)));

    assertThat(target.choose("reader", null, launchers, NOW)).isEqualTo(new ToNode("reader@b:2"));
  }

  @Test
  void withNoBlockedLauncherTheRequestGoesToAnyLauncherHostingTheService() {
    List<Launcher> launchers = List.of(reader("reader@a:1", "up", Duration.ofSeconds(1)),
        new Launcher("scraper@c:3", NOW, Map.of("scraper", "blocked")));

    assertThat(target.choose("reader", null, launchers, NOW)).isEqualTo(new ToAnyLauncher());
    assertThat(target.choose("reader", null, List.of(), NOW)).isEqualTo(new ToAnyLauncher());
  }

  @Test
  void severalBlockedLaunchersAreAmbiguousAndListedInOrder() {
    List<Launcher> launchers = List.of(reader("reader@c:3", "blocked", Duration.ZERO),
        reader("reader@a:1", "blocked", Duration.ZERO), reader("reader@b:2", "up", Duration.ZERO));

    assertThat(target.choose("reader", null, launchers, NOW))
        .isEqualTo(new Ambiguous(List.of("reader@a:1", "reader@c:3")));
  }

  @Test
  void aSilentBlockedLauncherIsNeverPicked() {
    List<Launcher> launchers = List.of(reader("reader@gone:1", "blocked", Duration.ofSeconds(13)),
        reader("reader@b:2", "blocked", Duration.ofSeconds(12)), reader("reader@c:3", "up", Duration.ZERO));

    assertThat(target.choose("reader", null, launchers, NOW)).isEqualTo(new ToNode("reader@b:2"));
    assertThat(target.choose("reader", null, List.of(launchers.get(0)), NOW)).isEqualTo(new ToAnyLauncher());
  }

  @Test
  void aNamedLauncherIsTakenWhateverItsStateAndAnUnknownOneIsNamedBack() {
    List<Launcher> launchers = List.of(reader("reader@a:1", "up", Duration.ZERO),
        reader("reader@b:2", "blocked", Duration.ZERO));

    assertThat(target.choose("reader", "reader@a:1", launchers, NOW)).isEqualTo(new ToNode("reader@a:1"));
    assertThat(target.choose("reader", "reader@z:9", launchers, NOW))
        .isInstanceOfSatisfying(UnknownNode.class, unknown -> assertThat(unknown.message())
            .contains("no launcher 'reader@z:9' has been heard from"));
    assertThat(target.choose("scraper", "reader@a:1", launchers, NOW))
        .isInstanceOfSatisfying(UnknownNode.class, unknown -> assertThat(unknown.message())
            .isEqualTo("the launcher 'reader@a:1' does not host the scraper"));
  }
}
