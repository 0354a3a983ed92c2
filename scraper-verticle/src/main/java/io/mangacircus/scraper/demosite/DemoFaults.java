package io.mangacircus.scraper.demosite;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The faults a test switches on at run time to make the demo site misbehave; thread-safe, no Vert.x types.
 *
 * <p>Counted faults ({@code failNext}, {@code resetNext}, {@code truncateNext}, {@code htmlInsteadOfImageNext},
 * {@code damageNext}) match requests by path prefix and are used up in the order they were armed. It decides only;
 * {@link DemoSite} acts.
 */
public final class DemoFaults {

  /** What the site does instead of answering a request normally. */
  enum Kind {
    /** Answer {@link Fault#status()} with a small HTML body. */
    FAIL,
    /** Close the connection without answering. */
    RESET,
    /** Send only the first half of the image, with a Content-Length that matches. */
    TRUNCATE,
    /** Answer 200 with an HTML error page instead of the image. */
    HTML_INSTEAD_OF_IMAGE,
    /** Send the whole image with its compressed data damaged but its structure intact: only a decode notices. */
    DAMAGE
  }

  /** One fault taken for one request; {@code status} is the HTTP status of a {@link Kind#FAIL}, else 0. */
  record Fault(Kind kind, int status) {
  }

  private static final class Armed {
    final Fault fault;
    final String pathPrefix;
    int remaining;

    Armed(Fault fault, String pathPrefix, int remaining) {
      this.fault = fault;
      this.pathPrefix = pathPrefix;
      this.remaining = remaining;
    }
  }

  private final List<Armed> armed = new ArrayList<>();
  private final Set<String> hungPaths = ConcurrentHashMap.newKeySet();
  private final Set<String> changedChapters = ConcurrentHashMap.newKeySet();
  private volatile Duration pageDelay = Duration.ZERO;

  /** Delays every image response by {@code delay}; {@link Duration#ZERO} stops delaying. */
  public void slowPages(Duration delay) {
    if (delay.isNegative()) {
      throw new IllegalArgumentException("page delay must not be negative: " + delay);
    }
    pageDelay = delay;
  }

  /** Requests for exactly this path get no answer, their connection left open, until {@link #clear()}. */
  public void hang(String path) {
    hungPaths.add(Objects.requireNonNull(path));
  }

  /** The next {@code count} requests whose path starts with the prefix are answered {@code status} (400..599). */
  public void failNext(String pathPrefix, int count, int status) {
    if (status < 400 || status > 599) {
      throw new IllegalArgumentException("failNext needs an error status (400..599), not " + status);
    }
    arm(new Fault(Kind.FAIL, status), pathPrefix, count);
  }

  /** The next {@code count} image responses under the prefix lose their second half. */
  public void truncateNext(String pathPrefix, int count) {
    arm(new Fault(Kind.TRUNCATE, 0), pathPrefix, count);
  }

  /** The next {@code count} requests under the prefix have their connection closed without an answer. */
  public void resetNext(String pathPrefix, int count) {
    arm(new Fault(Kind.RESET, 0), pathPrefix, count);
  }

  /** The next {@code count} image requests under the prefix get a 200 HTML error page instead of the image. */
  public void htmlInsteadOfImageNext(String pathPrefix, int count) {
    arm(new Fault(Kind.HTML_INSTEAD_OF_IMAGE, 0), pathPrefix, count);
  }

  /**
   * The next {@code count} image responses under the prefix are complete files whose compressed data is damaged (a
   * JPEG gets a restart marker in the middle of its scan, a PNG a flipped byte in its image data with the chunk's CRC
   * made to match): a structure walk accepts them, a decode does not.
   */
  public void damageNext(String pathPrefix, int count) {
    arm(new Fault(Kind.DAMAGE, 0), pathPrefix, count);
  }

  /** From now on the chapter lists, and serves, one page more than the catalog gives it. */
  public void changePageList(String seriesId, String chapterId) {
    changedChapters.add(seriesId + "/" + chapterId);
  }

  /** Back to no faults: no delay, no hung paths, no armed faults, original page lists. */
  public synchronized void clear() {
    armed.clear();
    hungPaths.clear();
    changedChapters.clear();
    pageDelay = Duration.ZERO;
  }

  Duration pageDelay() {
    return pageDelay;
  }

  boolean hangs(String path) {
    return hungPaths.contains(path);
  }

  boolean pageListChanged(String seriesId, String chapterId) {
    return changedChapters.contains(seriesId + "/" + chapterId);
  }

  /** Uses up the first armed {@link Kind#FAIL} or {@link Kind#RESET} matching a request for {@code path}. */
  Optional<Fault> takeRequestFault(String path) {
    return take(path, Kind.FAIL, Kind.RESET);
  }

  /** Uses up the first armed image fault ({@link Kind#TRUNCATE}, {@link Kind#HTML_INSTEAD_OF_IMAGE}, {@link Kind#DAMAGE}). */
  Optional<Fault> takeImageFault(String path) {
    return take(path, Kind.TRUNCATE, Kind.HTML_INSTEAD_OF_IMAGE, Kind.DAMAGE);
  }

  private synchronized void arm(Fault fault, String pathPrefix, int count) {
    Objects.requireNonNull(pathPrefix);
    if (count < 1) {
      throw new IllegalArgumentException("a fault must be armed for at least one request, not " + count);
    }
    armed.add(new Armed(fault, pathPrefix, count));
  }

  private synchronized Optional<Fault> take(String path, Kind... kinds) {
    for (Iterator<Armed> it = armed.iterator(); it.hasNext(); ) {
      Armed a = it.next();
      if (List.of(kinds).contains(a.fault.kind()) && path.startsWith(a.pathPrefix)) {
        if (--a.remaining == 0) {
          it.remove();
        }
        return Optional.of(a.fault);
      }
    }
    return Optional.empty();
  }
}
