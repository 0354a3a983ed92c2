package io.mangacircus.scraper.lane;

import io.mangacircus.scraper.failure.Failure;
import io.mangacircus.scraper.failure.FailureKind;
import io.mangacircus.scraper.queue.ChapterEntry;
import io.mangacircus.scraper.queue.ChapterStage;
import io.mangacircus.scraper.queue.Job;
import io.mangacircus.scraper.queue.JobQueue;
import io.mangacircus.scraper.source.ChapterInfo;
import io.mangacircus.scraper.source.FetchOutcome;
import io.mangacircus.scraper.publish.SeriesDescriptions;
import io.mangacircus.scraper.source.Source;
import io.mangacircus.scraper.source.TitleInfo;
import java.io.IOException;
import io.vertx.core.Future;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A lane's inspection of a claimed title: its metadata read (never images) and its chapters recorded in the queue. */
final class JobInspection {

  /** The lane's log: its lines keep the downloader's name whichever part writes them. */
  private static final Logger LOG = LoggerFactory.getLogger(JobDownloader.class);

  private final Source source;
  private final JobQueue queue;
  private final InstantSource clock;
  private final String owner;
  private final LaneRules rules;
  private final SeriesDescriptions descriptions;

  JobInspection(Source source, JobQueue queue, InstantSource clock, String owner, LaneRules rules,
      SeriesDescriptions descriptions) {
    this.descriptions = descriptions;
    this.source = source;
    this.queue = queue;
    this.clock = clock;
    this.owner = owner;
    this.rules = rules;
  }

  /**
   * Reads a title's metadata (never images) and records its chapters in the job's language (chapters a source lists
   * without a language count as English), one per number by the job's group preference where the source has groups.
   */
  Future<Void> inspect(Job job) {
    String language = job.language();
    String name = languageName(language);
    return source.title(job.titleId(), Duration.ofMillis(rules.pacing().pageDelayMs()),
        new Source.Wanted(language, job.preferredGroups())).map(outcome -> {
      if (outcome instanceof FetchOutcome.Ok<?>) {
        var info = outcome.value();
        List<ChapterEntry> wanted = info.chapters().stream()
            .filter(c -> languageOf(c).equalsIgnoreCase(language))
            .map(c -> entry(c, clock.instant())).toList();
        if (wanted.isEmpty()) {
          List<String> others = info.languages().stream().filter(l -> !l.equalsIgnoreCase(language)).toList();
          boolean saysNone = !info.languages().isEmpty() && others.size() == info.languages().size();
          List<String> listed = info.chapters().stream().map(JobInspection::languageOf).distinct().toList();
          rules.failed(job, new Failure(FailureKind.UNAVAILABLE, null, saysNone
              ? "no chapters in " + name + " (available: " + String.join(", ", others) + ")"
              : info.chapters().isEmpty() ? "no " + name + " chapters to download"
              : "no " + name + " chapters (" + info.chapters().size() + " chapters in other languages: "
                  + String.join(", ", listed) + ")"));
        } else {
          queue.inspected(job.id(), owner, info.title(), wanted, info.rating());
          describe(job, info);
          long waiting = wanted.stream().filter(c -> c.stage().awaitsSource()).count();
          LOG.info("[LANE {}] inspected {} ({}): {} {} chapters{}", source.name(), job.id(), info.title(),
              wanted.size(), name, waiting == 0 ? "" : " (" + waiting + " scheduled or external, not downloaded)");
        }
      } else {
        rules.failed(job, outcome, "inspection");
      }
      return null;
    });
  }

  /** Keeps what the source said of the title; a disk that refuses it costs the series page its metadata, not the job. */
  private void describe(Job job, TitleInfo info) {
    try {
      descriptions.inspected(job.source(), job.titleId(), info.title(), info.metadata());
    } catch (IOException e) {
      LOG.warn("[LANE {}] cannot keep the metadata of {} ({}) in its series folder: {}", source.name(), job.id(),
          info.title(), e.toString());
    }
  }

  /** A chapter's language; one a source lists without a language is English. */
  static String languageOf(ChapterInfo chapter) {
    return chapter.language() == null || chapter.language().isEmpty() ? "en" : chapter.language();
  }

  /** {@code English} for {@code en}, else the language's English name with its code: {@code French (fr)}. */
  static String languageName(String code) {
    if ("en".equalsIgnoreCase(code)) {
      return "English";
    }
    String display = Locale.forLanguageTag(code).getDisplayName(Locale.ENGLISH);
    return display.isEmpty() || display.equalsIgnoreCase(code) ? code : display + " (" + code + ")";
  }

  /** A listed chapter as the queue records it: planned, or scheduled / external when there is nothing to download. */
  static ChapterEntry entry(ChapterInfo chapter, Instant now) {
    boolean external = chapter.externalUrl() != null && !chapter.externalUrl().isBlank();
    return chapter.notDownloadable(now).map(why -> ChapterEntry.awaitingSource(chapter.id(), chapter.number(),
        chapter.title(), external ? ChapterStage.EXTERNAL : ChapterStage.SCHEDULED, why))
        .orElseGet(() -> ChapterEntry.planned(chapter.id(), chapter.number(), chapter.title()));
  }
}
