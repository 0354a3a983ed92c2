package io.mangacircus.reader.library.metadata;

import io.mangacircus.contracts.rating.AgeRating;
import io.mangacircus.contracts.rating.SeriesRating;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Decides one series' metadata from its sources, field by field, in precedence order: what an admin set by hand, then
 * the source's (MangaDex's) metadata, then the ComicInfo.xml of its books. For a single value and for authors and
 * links, the first book (in reading order) that has the value gives it, since ComicInfo describes books and the
 * first one speaks best for the series; genres and tags are the union over all books. The age rating is
 * {@link SeriesRating#decide}'s, so it is decided in one place only.
 */
public final class SeriesMetadataMerge {

  private SeriesMetadataMerge() {
  }

  /**
   * The merged metadata. A missing value (null, empty list, unrated) in a source says nothing and falls through.
   *
   * @param admin the fields an admin set by hand, or null when none
   * @param source the source's metadata (for MangaDex: title, description, authors, tags, contentRating through
   *     {@link AgeRating#fromMangaDex}, links, year, status), or null for a source without metadata
   * @param books the ComicInfo.xml of the series' books that have one, first book first; null or empty when none
   */
  public static SeriesMetadata merge(SeriesMetadata admin, SeriesMetadata source, List<BookComicInfo> books) {
    List<SeriesMetadata> fromBooks = new ArrayList<>();
    if (books != null) {
      books.forEach(book -> fromBooks.add(book.seriesMetadata()));
    }
    List<SeriesMetadata> ranked = new ArrayList<>();
    ranked.add(admin == null ? SeriesMetadata.EMPTY : admin);
    ranked.add(source == null ? SeriesMetadata.EMPTY : source);
    ranked.addAll(fromBooks);
    return new SeriesMetadata(
        first(ranked, SeriesMetadata::title),
        first(ranked, SeriesMetadata::summary),
        firstList(ranked, SeriesMetadata::authors),
        union(admin, source, fromBooks, SeriesMetadata::genres),
        union(admin, source, fromBooks, SeriesMetadata::tags),
        rating(admin, source, books).rating(),
        first(ranked, SeriesMetadata::language),
        firstList(ranked, SeriesMetadata::links),
        first(ranked, SeriesMetadata::year),
        first(ranked, SeriesMetadata::status),
        first(ranked, SeriesMetadata::publisher));
  }

  /** The series' rating and where it came from: the admin's, else the source's, else the strictest of its books. */
  public static SeriesRating rating(SeriesMetadata admin, SeriesMetadata source, List<BookComicInfo> books) {
    List<AgeRating> chapters = new ArrayList<>();
    if (books != null) {
      books.forEach(book -> chapters.add(book.ageRating()));
    }
    return SeriesRating.decide(admin == null ? null : admin.ageRating(), source == null ? null : source.ageRating(),
        chapters);
  }

  private static <T> T first(List<SeriesMetadata> ranked, Function<SeriesMetadata, T> field) {
    for (SeriesMetadata metadata : ranked) {
      T value = field.apply(metadata);
      if (value != null) {
        return value;
      }
    }
    return null;
  }

  private static <T> List<T> firstList(List<SeriesMetadata> ranked, Function<SeriesMetadata, List<T>> field) {
    for (SeriesMetadata metadata : ranked) {
      List<T> value = field.apply(metadata);
      if (!value.isEmpty()) {
        return value;
      }
    }
    return List.of();
  }

  /** The admin's list, else the source's, else every book's together (first spelling of each kept). */
  private static List<String> union(SeriesMetadata admin, SeriesMetadata source, List<SeriesMetadata> books,
      Function<SeriesMetadata, List<String>> field) {
    if (admin != null && !field.apply(admin).isEmpty()) {
      return field.apply(admin);
    }
    if (source != null && !field.apply(source).isEmpty()) {
      return field.apply(source);
    }
    List<String> all = new ArrayList<>();
    books.forEach(book -> all.addAll(field.apply(book)));
    return MetadataText.distinct(all);
  }
}
