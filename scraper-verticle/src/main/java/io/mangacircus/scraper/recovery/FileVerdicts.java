package io.mangacircus.scraper.recovery;

import io.mangacircus.contracts.CorruptStateFileException;
import io.mangacircus.scraper.publish.ChapterKey;
import io.mangacircus.scraper.publish.ChapterPublisher;
import io.mangacircus.scraper.publish.LibraryFolders;
import io.mangacircus.scraper.publish.SeriesFolders;
import io.mangacircus.scraper.publish.StagingFolder;
import io.mangacircus.scraper.queue.ChapterEntry;
import io.mangacircus.scraper.queue.Job;
import io.mangacircus.scraper.queue.JobQueue;
import io.mangacircus.scraper.queue.JobQueue.OpenChapter;
import io.mangacircus.scraper.source.Source;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The verdicts the files give open chapters, with no source asked: {@code complete} when the library already holds the
 * chapter with its fingerprint, {@code still} when its staging folder holds a checkpoint, {@code unknown} when that
 * checkpoint is unreadable or the job's source is not configured; the rest only the source can tell. Reads only: the
 * pass records what it found.
 */
final class FileVerdicts {

  /** The recovery's logger: these are the recovery's lines ({@code [RECOVERY]}). */
  private static final Logger LOG = LoggerFactory.getLogger(StartupRecovery.class);
  private static final int NAMED = StartupRecovery.NAMED;

  private final JobQueue queue;
  private final Map<String, Source> sources;
  private final LibraryFolders library;
  private final ChapterPublisher publisher;
  private final BooleanSupplier stopped;

  /** @param stopped whether the pass was stopped (a run then ends at its next chapter) */
  FileVerdicts(JobQueue queue, Map<String, Source> sources, LibraryFolders library, ChapterPublisher publisher,
      BooleanSupplier stopped) {
    this.queue = queue;
    this.sources = sources;
    this.library = library;
    this.publisher = publisher;
    this.stopped = stopped;
  }

  /** What the files decided for a run of open chapters. */
  record Part(Map<RecoveryVerdict, Integer> verdicts, List<OpenChapter> needSource,
      List<JobQueue.Publication> complete, List<String> completeNamed, int stagedPages) {
  }

  /** What the files decide for a run of open chapters (read again first); a stop ends the run early. */
  Part classifyRun(List<OpenChapter> run, SeriesFolders folders) {
    Map<RecoveryVerdict, Integer> verdicts = new EnumMap<>(RecoveryVerdict.class);
    List<OpenChapter> needSource = new ArrayList<>();
    List<JobQueue.Publication> complete = new ArrayList<>();
    List<String> completeNamed = new ArrayList<>();
    int[] stagedPages = {0};
    for (OpenChapter snapshot : run) {
      if (stopped.getAsBoolean()) {
        break;
      }
      RecoveryVerdict verdict = classify(snapshot, folders, complete, completeNamed, stagedPages);
      if (verdict == null) {
        needSource.add(snapshot);
      } else {
        verdicts.merge(verdict, 1, Integer::sum);
      }
    }
    return new Part(verdicts, needSource, complete, completeNamed, stagedPages[0]);
  }

  /** One line per verdict the files gave, with its count (unknown ones were named each in its own WARN line). */
  static void logVerdicts(Map<RecoveryVerdict, Integer> verdicts, List<String> completeNamed,
      int stagedPages) {
    int complete = verdicts.getOrDefault(RecoveryVerdict.COMPLETE, 0);
    if (complete > 0) {
      LOG.info("[RECOVERY] {} open chapters complete (the library already holds them with their fingerprint): recorded "
          + "as published in one commit: {}{}", complete, String.join(", ", completeNamed.subList(0,
          Math.min(NAMED, completeNamed.size()))), complete > NAMED ? " and " + (complete - NAMED) + " more" : "");
    }
    int still = verdicts.getOrDefault(RecoveryVerdict.STILL, 0);
    if (still > 0) {
      LOG.info("[RECOVERY] {} open chapters still (staging holds {} validated pages in all, or a lane already moved "
          + "them); the lanes resume them from their checkpoints", still, stagedPages);
    }
    int unknown = verdicts.getOrDefault(RecoveryVerdict.UNKNOWN, 0);
    if (unknown > 0) {
      LOG.warn("[RECOVERY] {} open chapters unknown (an unreadable checkpoint, or a source no longer configured; each "
          + "named in its own line): nothing changed", unknown);
    }
  }

  /** Staging folders no open chapter names (a dismissed job's that could not be removed, say); -1 when unreadable. */
  long orphans(List<OpenChapter> open) {
    java.util.Set<String> named = new java.util.HashSet<>();
    open.forEach(chapter -> {
      if (chapter.chapter().fingerprint() != null) {
        named.add(library.staging(chapter.chapter().fingerprint()).getFileName().toString());
      }
    });
    if (!Files.isDirectory(library.root())) {
      return 0;
    }
    try (java.util.stream.Stream<Path> entries = Files.list(library.root())) {
      return entries.map(entry -> entry.getFileName().toString())
          .filter(name -> name.startsWith(LibraryFolders.STAGING_PREFIX) && !named.contains(name)).count();
    } catch (java.io.IOException | java.io.UncheckedIOException e) {
      LOG.warn("[RECOVERY] the library {} could not be listed for staging folders: {}", library.root(), e.toString());
      return -1;
    }
  }

  /** The verdict the files give one open chapter (re-read first), or null when only its source can tell. */
  private RecoveryVerdict classify(OpenChapter snapshot, SeriesFolders folders,
      List<JobQueue.Publication> complete, List<String> completeNamed, int[] stagedPages) {
    Optional<ChapterEntry> reread = queue.chapter(snapshot.jobId(), snapshot.chapter().id());
    Optional<Job> job = queue.job(snapshot.jobId());
    if (reread.isEmpty() || job.isEmpty() || !reread.get().stage().open()) {
      return RecoveryVerdict.STILL;
    }
    ChapterEntry chapter = reread.get();
    String where = where(job.get(), chapter);
    ChapterKey key = ChapterKey.of(job.get(), chapter);
    String fingerprint = chapter.fingerprint();
    ChapterPublisher.Occupant occupant = publisher.occupant(key, folders);
    if (fingerprint != null && occupant.kind() == ChapterPublisher.Occupant.Kind.THIS_CHAPTER
        && fingerprint.equals(occupant.fingerprint())) {
      LOG.debug("[RECOVERY] {}: complete (the library already holds it with this fingerprint); recorded as published",
          where);
      complete.add(new JobQueue.Publication(job.get().id(), chapter.id(), chapter.pages(),
          publisher.published(occupant).chapter()));
      completeNamed.add(where);
      return RecoveryVerdict.COMPLETE;
    }
    if (fingerprint != null) {
      Path staging = library.staging(fingerprint);
      if (Files.isDirectory(staging)) {
        try {
          int pages = StagingFolder.readCheckpoint(staging).map(c -> c.pages().size()).orElse(0);
          LOG.debug("[RECOVERY] {}: still (staging holds {} validated pages); the lane resumes from the checkpoint",
              where, pages);
          stagedPages[0] += pages;
          return RecoveryVerdict.STILL;
        } catch (CorruptStateFileException e) {
          LOG.warn("[RECOVERY] {}: unknown ({}); nothing changed", where, e.getMessage());
          return RecoveryVerdict.UNKNOWN;
        }
      }
    }
    if (sources.get(job.get().source()) == null) {
      LOG.warn("[RECOVERY] {}: unknown (source {} is not configured); nothing changed", where, job.get().source());
      return RecoveryVerdict.UNKNOWN;
    }
    return null;
  }

  /** How a chapter is named in the recovery's lines. */
  static String where(Job job, ChapterEntry chapter) {
    return job.id() + " " + job.titleId() + " chapter " + chapter.number();
  }
}
