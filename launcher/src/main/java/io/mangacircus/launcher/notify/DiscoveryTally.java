package io.mangacircus.launcher.notify;

import io.mangacircus.contracts.DiscoveryFinished;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Counts the new chapters of a discovery pass: the pass queues one job per title; chapters those titles publish after
 * the pass began are new; when every queued job has ended (or after {@code limit}) the pass is told once, as "N new
 * chapters" with a count per series (to the operator, and to each reader subscribed to one of them). A pass without
 * new chapters says nothing.
 */
public final class DiscoveryTally {

  /** The new chapters of one series in a pass: its library id, its title, how many. */
  public record NewChapters(String seriesId, String title, int count) {
  }

  private static final Set<String> ENDED = Set.of("done", "quarantined", "unavailable");

  private final Duration limit;
  private final InstantSource clock;
  private Instant startedAt;
  private final Set<String> openJobs = new HashSet<>();
  private final Set<String> titles = new HashSet<>();
  private final Set<String> chapters = new HashSet<>();
  private final Map<String, NewChapters> perSeries = new LinkedHashMap<>();

  public DiscoveryTally(Duration limit, InstantSource clock) {
    this.limit = limit;
    this.clock = clock;
  }

  /** A pass finished queueing; a pass still being counted is told first (returned). */
  public Optional<List<NewChapters>> started(DiscoveryFinished pass) {
    Optional<List<NewChapters>> previous = startedAt == null ? Optional.empty() : close();
    startedAt = pass.at();
    pass.queued().forEach(q -> {
      openJobs.add(q.jobId());
      titles.add(q.source() + "/" + q.titleId());
    });
    return previous.isPresent() ? previous : (openJobs.isEmpty() ? close() : Optional.empty());
  }

  /** A chapter was published: counted when it belongs to a title of the pass and was published after it began. */
  public void published(String source, String titleId, String seriesId, String series, String chapterId,
      Instant publishedAt) {
    if (startedAt == null || !titles.contains(source + "/" + titleId) || publishedAt == null
        || publishedAt.isBefore(startedAt) || !chapters.add(source + "/" + titleId + "/" + chapterId)) {
      return;
    }
    perSeries.merge(seriesId, new NewChapters(seriesId, series, 1),
        (a, b) -> new NewChapters(seriesId, a.title(), a.count() + 1));
  }

  /** A job changed state; returns the pass's count per series when this was its last open job. */
  public Optional<List<NewChapters>> jobState(String jobId, String state) {
    if (startedAt == null || !ENDED.contains(state) || !openJobs.remove(jobId)) {
      return Optional.empty();
    }
    return openJobs.isEmpty() ? close() : Optional.empty();
  }

  /** Tells a pass that has run past the limit with what it has (some jobs never ended). */
  public Optional<List<NewChapters>> expire() {
    if (startedAt != null && !clock.instant().isBefore(startedAt.plus(limit))) {
      return close();
    }
    return Optional.empty();
  }

  private Optional<List<NewChapters>> close() {
    List<NewChapters> result = List.copyOf(perSeries.values());
    startedAt = null;
    openJobs.clear();
    titles.clear();
    chapters.clear();
    perSeries.clear();
    return result.isEmpty() ? Optional.empty() : Optional.of(result);
  }

  /** The operator's message for a pass's count per series. */
  public static Notification message(List<NewChapters> perSeries, String link, Instant now) {
    int total = perSeries.stream().mapToInt(NewChapters::count).sum();
    StringBuilder text = new StringBuilder();
    perSeries.forEach(s -> text.append(s.count()).append(" new chapter").append(s.count() == 1 ? "" : "s")
        .append(" of ").append(s.title()).append('\n'));
    text.append("\nWhat MangaCircus did: it downloaded them into the library.\nWhat to do: nothing; enjoy.");
    return new Notification("new-chapters", "new-chapters:" + now, "MangaCircus: " + total + " new chapter"
        + (total == 1 ? "" : "s") + " after discovery", text.toString(), 3, List.of("books"), link, now, 0);
  }

  /**
   * A reader's alert for one series they subscribed to: "3 new chapters of X", linking to the series page. The key is
   * unique per user, series and pass.
   */
  public static Notification readerMessage(String user, NewChapters series, String link, Instant now) {
    String what = series.count() + " new chapter" + (series.count() == 1 ? "" : "s") + " of " + series.title();
    return new Notification("new-chapters", "new-chapters:" + user + ":" + series.seriesId() + ":" + now, what,
        what + " in MangaCircus." + (link.isEmpty() ? "" : "\n" + link), 3, List.of("books"), link, now, 0);
  }

  /** For tests: jobs of the current pass not yet ended. */
  List<String> openJobs() {
    return List.copyOf(openJobs);
  }
}
