package io.mangacircus.scraper.publish;

import io.mangacircus.contracts.DurableFiles;
import io.mangacircus.contracts.library.ChapterManifest;
import io.mangacircus.contracts.library.PublishedChapter;
import io.mangacircus.contracts.library.SourceSeriesMetadata;
import io.mangacircus.scraper.state.CrashPoints;
import io.mangacircus.support.xml.ComicInfo;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.Optional;

/**
 * Publishes a complete staging folder as {@code library/<series>/<chapter>/} with one rename on the same filesystem,
 * then fsyncs the parent; {@code chapter.json} and {@code ComicInfo.xml} are written and the checkpoint files removed
 * before the rename. A published chapter is never overwritten or deleted.
 */
public final class ChapterPublisher {

  /** How a publication ended. */
  public enum Result {
    /** Renamed into the library now. */
    PUBLISHED,
    /** The library already holds this chapter with the same fingerprint (an earlier run published it). */
    ALREADY_PUBLISHED,
    /** This chapter, with a different fingerprint, occupies the folder; nothing was touched. */
    CONFLICT,
    /**
     * The folder belongs to something else: its {@code chapter.json} names another source, title or chapter, or every
     * series folder name the title may take is another's. Nothing was touched.
     */
    FOLDER_TAKEN
  }

  /**
   * What the library holds where a chapter would be published.
   *
   * @param kind nothing, this very chapter, another one, or a folder whose {@code chapter.json} cannot be read
   * @param fingerprint the recorded fingerprint for {@code THIS_CHAPTER}, else null
   * @param folder the chapter folder looked at
   * @param holder for {@code OTHER}: {@code <source>/<titleId> chapter <chapterId>}, else null
   * @param manifest for {@code THIS_CHAPTER}: its {@code chapter.json}, else null
   */
  public record Occupant(Kind kind, String fingerprint, Path folder, String holder, ChapterManifest manifest) {

    /** What the folder holds. */
    public enum Kind { NONE, THIS_CHAPTER, OTHER, UNREADABLE }
  }

  /** How {@link #publish} ended and, when published or already published, what the library holds there. */
  public record Publication(Result result, PublishedChapter chapter) {
  }

  private final LibraryFolders layout;
  private final InstantSource clock;
  private final SeriesDescriptions descriptions;

  public ChapterPublisher(LibraryFolders layout, InstantSource clock) {
    this(layout, clock, null);
  }

  /** @param descriptions writes what a source said of a title into its series folder when it is claimed, or null */
  public ChapterPublisher(LibraryFolders layout, InstantSource clock, SeriesDescriptions descriptions) {
    this.layout = layout;
    this.clock = clock;
    this.descriptions = descriptions;
  }

  /**
   * The fingerprint recorded in the library's {@code chapter.json} for this chapter, if it is published: only a
   * {@code chapter.json} naming the same source, title id and chapter id counts; "unreadable" when it cannot be read.
   */
  public Optional<String> publishedFingerprint(ChapterKey key) {
    Occupant occupant = occupant(key);
    return switch (occupant.kind()) {
      case THIS_CHAPTER -> Optional.ofNullable(occupant.fingerprint());
      case UNREADABLE -> Optional.of("unreadable");
      default -> Optional.empty();
    };
  }

  /** What the library holds at the chapter's folder, judged by its {@code chapter.json}. */
  public Occupant occupant(ChapterKey key) {
    return occupant(layout.chapter(key), key);
  }

  /**
   * The same as {@link #occupant(ChapterKey)}, the chapter's folder found through a pass's snapshot of the series
   * folders: a chapter not in its series folder's listing holds nothing, and nothing is read for it.
   */
  public Occupant occupant(ChapterKey key, SeriesFolders folders) {
    SeriesFolders.Place place = folders.place(key);
    return place.listed() ? occupant(place.folder(), key)
        : new Occupant(Occupant.Kind.NONE, null, place.folder(), null, null);
  }

  private static Occupant occupant(Path folder, ChapterKey key) {
    ChapterManifest manifest;
    try {
      manifest = ChapterManifest.read(folder);
    } catch (NoSuchFileException e) {
      return Files.exists(folder) ? new Occupant(Occupant.Kind.OTHER, null, folder, "a folder without chapter.json", null)
          : new Occupant(Occupant.Kind.NONE, null, folder, null, null);
    } catch (IOException | ChapterManifest.InvalidException e) {
      return new Occupant(Occupant.Kind.UNREADABLE, null, folder, null, null);
    }
    if (manifest.names(key.source(), key.titleId(), key.chapterId())) {
      return new Occupant(Occupant.Kind.THIS_CHAPTER, manifest.fingerprint(), folder, null, manifest);
    }
    return new Occupant(Occupant.Kind.OTHER, null, folder, manifest.holder(), null);
  }

  /** Publishes a complete staging folder; the publication names what the library now holds there. */
  public Publication publish(StagingFolder staging) throws IOException {
    if (!staging.complete()) {
      throw new IllegalStateException("staging " + staging.path() + " is not complete");
    }
    ChapterKey key = staging.key();
    Optional<Path> claimed = layout.claimSeries(key.source(), key.titleId(), key.seriesTitle());
    if (claimed.isEmpty()) {
      return new Publication(Result.FOLDER_TAKEN, null);
    }
    Path series = claimed.get();
    SourceSeriesMetadata about = null;
    if (descriptions != null) {
      descriptions.claimed(series, key.source(), key.titleId());
      about = SeriesDescriptions.kept(series);
    }
    Path target = series.resolve(io.mangacircus.contracts.library.LibraryLayout.chapterSlug(key.number(),
        key.chapterId()));
    if (Files.exists(target)) {
      Occupant occupant = occupant(target, key);
      if (occupant.kind() == Occupant.Kind.OTHER) {
        return new Publication(Result.FOLDER_TAKEN, null);
      }
      return occupant.kind() == Occupant.Kind.THIS_CHAPTER && staging.fingerprint().equals(occupant.fingerprint())
          ? publication(Result.ALREADY_PUBLISHED, occupant.manifest(), target)
          : new Publication(Result.CONFLICT, null);
    }
    ChapterManifest manifest = manifest(staging);
    manifest.write(staging.path());
    staging.writeFile("ComicInfo.xml", comicInfo(staging, about).getBytes(StandardCharsets.UTF_8));
    // chapter.json now records every page with its hash: the checkpoint files go, the library never sees them.
    staging.compactForPublication();
    CrashPoints.reach("publish.before-rename");
    // Durable (both folders fsynced) before the caller records the chapter as published anywhere.
    DurableFiles.rename(staging.path(), target, false);
    CrashPoints.reach("publish.renamed");
    return publication(Result.PUBLISHED, manifest, target);
  }

  /** What the library holds for a chapter already there (found by {@link #occupant}). */
  public Publication published(Occupant occupant) {
    if (occupant.kind() != Occupant.Kind.THIS_CHAPTER) {
      throw new IllegalArgumentException("not this chapter: " + occupant);
    }
    return publication(Result.ALREADY_PUBLISHED, occupant.manifest(), occupant.folder());
  }

  private Publication publication(Result result, ChapterManifest manifest, Path chapterFolder) {
    Path relative = layout.root().relativize(chapterFolder);
    return new Publication(result, new PublishedChapter(relative.getName(0).toString(),
        relative.toString().replace('\\', '/'), manifest));
  }

  private ChapterManifest manifest(StagingFolder staging) {
    ChapterKey key = staging.key();
    return new ChapterManifest(ChapterManifest.SCHEMA, key.source(), key.titleId(), key.seriesTitle(),
        key.chapterId(), key.number(), key.chapterTitle(), key.language(), staging.fingerprint(), clock.instant(),
        staging.pages().stream().map(p -> new ChapterManifest.Page(p.index(), p.file(), p.size(), p.sha256()))
            .toList(), key.rating());
  }

  /** The chapter's ComicInfo.xml, with what the source says of the series when its folder keeps that ({@code about}). */
  private static String comicInfo(StagingFolder staging, SourceSeriesMetadata about) {
    ChapterKey key = staging.key();
    return new ComicInfo(key.seriesTitle(), key.number(), key.chapterTitle(), staging.pageCount(), key.language(),
        "Downloaded by MangaCircus from source " + key.source() + ", title " + key.titleId() + ", chapter "
            + key.chapterId(), key.rating(), about).xml();
  }
}
