package io.mangacircus.reader.komga;

import io.mangacircus.reader.library.LibraryFiles;
import io.mangacircus.reader.store.Progress;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A user's reading as Komga reports it, from our one position per series and the chapters marked read: a book's
 * {@code ReadProgressDto}, a series' read counts and read status, and the tracker's {@code TachiyomiReadProgressV2Dto}.
 * Komga's rules followed (gotson/komga {@code komga/src/main/kotlin/org/gotson/komga/}): a book is read when completed,
 * in progress when it has a position but is not completed, else unread ({@code infrastructure/jooq/main/
 * ReadProgressDtoDao.kt}); a series is UNREAD with no progress in any book, READ when every book is read, else
 * IN_PROGRESS ({@code infrastructure/jooq/SeriesSearchHelper.kt}); {@code lastReadContinuousNumberSort} is the number
 * sort of the last book of the unbroken run of read books from the first, else 0. No I/O.
 */
public final class KomgaReading {

  /** The {@code read_status} values Komga knows. */
  public static final Set<String> STATUSES = Set.of("UNREAD", "READ", "IN_PROGRESS");

  /** A series' books by how far the user is in each. */
  public record Counts(int read, int unread, int inProgress) {

    /** Komga's read status of the series. */
    public String status() {
      if (read + inProgress == 0) {
        return "UNREAD";
      }
      return unread + inProgress == 0 ? "READ" : "IN_PROGRESS";
    }
  }

  private KomgaReading() {
  }

  /**
   * {@code ReadProgressDto} of a chapter, or null when the user has no progress in it: the saved position when it is
   * in this chapter, else the last page of a chapter marked read.
   *
   * @param position the user's position in the chapter's series, or null
   * @param readTimes the series' chapters the user read, with when
   */
  public static JsonObject readProgress(LibraryFiles.Chapter chapter, Progress position, Map<String, Instant> readTimes) {
    Instant read = readTimes.get(chapter.id());
    boolean here = position != null && position.chapter().equals(chapter.id());
    if (!here && read == null) {
      return null;
    }
    Instant modified = here ? position.updatedAt() : read;
    Instant created = read != null && read.isBefore(modified) ? read : modified;
    return new JsonObject().put("page", here ? position.page() : chapter.pages().size()).put("completed", read != null)
        .put("readDate", time(modified)).put("created", time(created)).put("lastModified", time(modified))
        .put("deviceId", "").put("deviceName", "");
  }

  /**
   * A series' counts without listing its chapters (the series list reads no chapter folder): chapters marked read
   * that have since left the library still count, up to the series' chapter count.
   *
   * @param read the chapters of the series the user read
   * @param position the user's position in the series, or null
   */
  public static Counts counts(int chapters, Set<String> read, Progress position) {
    int done = Math.min(read.size(), chapters);
    int inProgress = position != null && !read.contains(position.chapter()) && done < chapters ? 1 : 0;
    return new Counts(done, chapters - done - inProgress, inProgress);
  }

  /** The series' {@code TachiyomiReadProgressV2Dto}, its chapters listed. */
  public static JsonObject tracker(List<LibraryFiles.Chapter> chapters, Set<String> read, Progress position) {
    List<float[]> sorted = new ArrayList<>(chapters.size());
    int done = 0;
    int inProgress = 0;
    for (int i = 0; i < chapters.size(); i++) {
      LibraryFiles.Chapter chapter = chapters.get(i);
      boolean isRead = read.contains(chapter.id());
      done += isRead ? 1 : 0;
      inProgress += !isRead && position != null && position.chapter().equals(chapter.id()) ? 1 : 0;
      sorted.add(new float[] {KomgaShapes.numberSort(chapter.number(), i + 1), isRead ? 1 : 0});
    }
    sorted.sort(Comparator.comparingDouble(a -> a[0]));
    float continuous = 0;
    for (float[] book : sorted) {
      if (book[1] == 0) {
        break;
      }
      continuous = book[0];
    }
    float max = sorted.isEmpty() ? 0 : sorted.get(sorted.size() - 1)[0];
    return new JsonObject().put("booksCount", chapters.size()).put("booksReadCount", done)
        .put("booksUnreadCount", chapters.size() - done - inProgress).put("booksInProgressCount", inProgress)
        .put("lastReadContinuousNumberSort", continuous).put("maxNumberSort", max);
  }

  /**
   * The chapters whose number sort is at most {@code lastRead}, as Komga's tracker update picks them: a number beyond
   * the last chapter picks every chapter.
   */
  public static Set<String> upTo(List<LibraryFiles.Chapter> chapters, float lastRead) {
    Set<String> ids = new HashSet<>();
    for (int i = 0; i < chapters.size(); i++) {
      if (KomgaShapes.numberSort(chapters.get(i).number(), i + 1) <= lastRead) {
        ids.add(chapters.get(i).id());
      }
    }
    return ids;
  }

  /**
   * The asked {@code read_status} values, upper-cased (several are any of them); null when one is not Komga's.
   */
  public static Set<String> statuses(List<String> asked) {
    Set<String> statuses = new HashSet<>();
    for (String value : asked) {
      String status = value.trim().toUpperCase(Locale.ROOT);
      if (!STATUSES.contains(status)) {
        return null;
      }
      statuses.add(status);
    }
    return statuses;
  }

  /** A time as Komga's {@code ReadProgressDto} writes it ({@code yyyy-MM-dd'T'HH:mm:ss'Z'}). */
  private static String time(Instant instant) {
    return instant.truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString();
  }
}
