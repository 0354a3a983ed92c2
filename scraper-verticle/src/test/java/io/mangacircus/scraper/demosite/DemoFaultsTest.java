package io.mangacircus.scraper.demosite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mangacircus.scraper.demosite.DemoFaults.Fault;
import io.mangacircus.scraper.demosite.DemoFaults.Kind;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which fault the demo site applies to which request, and when a fault is used up. */
class DemoFaultsTest {

  private final DemoFaults faults = new DemoFaults();

  @Test
  void countedFaultIsUsedUpAfterCountMatchingRequests() {
    faults.failNext("/img/", 2, 503);

    assertThat(faults.takeRequestFault("/series/circus-nights")).isEmpty();
    assertThat(faults.takeRequestFault("/img/circus-nights/c1/001.jpg")).contains(new Fault(Kind.FAIL, 503));
    assertThat(faults.takeRequestFault("/img/circus-nights/c1/002.jpg")).contains(new Fault(Kind.FAIL, 503));
    assertThat(faults.takeRequestFault("/img/circus-nights/c1/003.jpg")).isEmpty();
  }

  @Test
  void faultsAreUsedUpInTheOrderTheyWereArmed() {
    faults.resetNext("/", 1);
    faults.failNext("/series/", 1, 429);

    assertThat(faults.takeRequestFault("/series/lion-tamer")).map(Fault::kind).contains(Kind.RESET);
    assertThat(faults.takeRequestFault("/series/lion-tamer")).contains(new Fault(Kind.FAIL, 429));
    assertThat(faults.takeRequestFault("/series/lion-tamer")).isEmpty();
  }

  @Test
  void imageFaultsAreNotTakenByRequestsAndRequestFaultsNotByImages() {
    faults.truncateNext("/img/", 1);
    faults.failNext("/img/", 1, 500);

    assertThat(faults.takeRequestFault("/img/a/b/001.jpg")).contains(new Fault(Kind.FAIL, 500));
    assertThat(faults.takeRequestFault("/img/a/b/001.jpg")).isEmpty();
    assertThat(faults.takeImageFault("/img/a/b/001.jpg")).map(Fault::kind).contains(Kind.TRUNCATE);
    assertThat(faults.takeImageFault("/img/a/b/001.jpg")).isEmpty();
  }

  @Test
  void hangMatchesOnlyTheExactPath() {
    faults.hang("/img/circus-nights/c1/001.jpg");

    assertThat(faults.hangs("/img/circus-nights/c1/001.jpg")).isTrue();
    assertThat(faults.hangs("/img/circus-nights/c1/001.jpg.bak")).isFalse();
    assertThat(faults.hangs("/img/circus-nights/c1/")).isFalse();
  }

  @Test
  void clearRemovesEveryFault() {
    faults.slowPages(Duration.ofSeconds(3));
    faults.hang("/");
    faults.htmlInsteadOfImageNext("/img/", 5);
    faults.resetNext("/", 5);
    faults.changePageList("lion-tamer", "c1");

    faults.clear();

    assertThat(faults.pageDelay()).isZero();
    assertThat(faults.hangs("/")).isFalse();
    assertThat(faults.takeImageFault("/img/a/b/001.jpg")).isEmpty();
    assertThat(faults.takeRequestFault("/")).isEqualTo(Optional.empty());
    assertThat(faults.pageListChanged("lion-tamer", "c1")).isFalse();
  }

  @Test
  void changedPageListIsPerChapter() {
    faults.changePageList("lion-tamer", "c2");

    assertThat(faults.pageListChanged("lion-tamer", "c2")).isTrue();
    assertThat(faults.pageListChanged("lion-tamer", "c2-fr")).isFalse();
  }

  @Test
  void nonsenseFaultsAreRejected() {
    assertThatThrownBy(() -> faults.failNext("/", 1, 200)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> faults.resetNext("/", 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> faults.slowPages(Duration.ofMillis(-1))).isInstanceOf(IllegalArgumentException.class);
  }
}
