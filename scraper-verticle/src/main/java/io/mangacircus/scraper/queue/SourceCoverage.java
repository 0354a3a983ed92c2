package io.mangacircus.scraper.queue;

import java.time.Instant;
import java.util.Collection;

/**
 * What the scraper knows of a source apart from job completion.
 *
 * @param titles titles with a job
 * @param chaptersFound English chapters its titles' last inspections listed
 * @param chaptersPublished chapters published
 * @param lastContactAt the last successful contact since this start (an inspection or a validated page), or null
 */
public record SourceCoverage(long titles, long chaptersFound, long chaptersPublished, Instant lastContactAt) {

  /** The coverage of {@code source} among {@code jobs}. */
  public static SourceCoverage of(String source, Collection<Job> jobs, Instant lastContactAt) {
    return new SourceCoverage(jobs.stream().filter(j -> j.source().equals(source)).map(Job::titleId).distinct().count(),
        jobs.stream().filter(j -> j.source().equals(source)).mapToLong(j -> j.chapters().size()).sum(),
        jobs.stream().filter(j -> j.source().equals(source)).mapToLong(Job::publishedChapters).sum(), lastContactAt);
  }
}
