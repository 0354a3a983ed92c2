package io.mangacircus.reader.trackers;

import io.mangacircus.reader.library.LibraryFiles;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;

/**
 * Our reading of one series as a tracker sees it: the numbers of the chapters the user completed, as the chapters
 * carry them ({@link LibraryFiles.Chapter#number()}: text such as "10.5", or none), and the whole chapter count they
 * amount to. No I/O.
 */
public record SeriesReading(List<String> completedNumbers) {

  public SeriesReading {
    completedNumbers = Collections.unmodifiableList(new ArrayList<>(completedNumbers));
  }

  /**
   * The reading of a series from its chapters and the ids the progress store holds as read
   * ({@code ProgressStore.readChapters(user, series)}); a read chapter that has left the library has no number to give.
   */
  public static SeriesReading of(Collection<LibraryFiles.Chapter> chapters, Set<String> readChapterIds) {
    List<String> numbers = new ArrayList<>();
    for (LibraryFiles.Chapter chapter : chapters) {
      if (readChapterIds.contains(chapter.id())) {
        numbers.add(chapter.number());
      }
    }
    return new SeriesReading(numbers);
  }

  /**
   * The progress a tracker is told: the highest completed chapter number, floored to a whole chapter (10.5 counts as
   * 10, as Mihon's trackers send {@code last_chapter_read.toInt()}, e.g. {@code app/src/main/java/eu/kanade/tachiyomi/
   * data/track/anilist/AnilistApi.kt}). The highest, not the end of the unbroken run from chapter 1 that Mihon's
   * {@code domain/track/interactor/SyncChapterProgressWithTrack.kt} uses at link time: chapters read out of order
   * still count, as Mihon's {@code domain/track/interactor/TrackChapter.kt} sends the chapter just read. Chapters
   * without a number, or with a negative one, are skipped (Mihon's {@code isRecognizedNumber}: a number of at least
   * 0). Empty when no completed chapter has a number.
   */
  public OptionalInt wholeChapters() {
    int highest = -1;
    for (String number : completedNumbers) {
      int whole = whole(number);
      highest = Math.max(highest, whole);
    }
    return highest < 0 ? OptionalInt.empty() : OptionalInt.of(highest);
  }

  /** A chapter number floored to a whole chapter, or -1 when it is none (missing, not a number, negative, too big). */
  static int whole(String number) {
    if (number == null || number.isBlank()) {
      return -1;
    }
    try {
      BigDecimal value = new BigDecimal(number.trim()).setScale(0, RoundingMode.FLOOR);
      return value.signum() < 0 || value.compareTo(BigDecimal.valueOf(Integer.MAX_VALUE)) > 0 ? -1
          : value.intValueExact();
    } catch (NumberFormatException | ArithmeticException e) {
      // a "Prologue" or "Extra" has no place in a chapter count
      return -1;
    }
  }
}
