package io.mangacircus.reader.library.metadata;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.contracts.rating.AgeRating;
import io.mangacircus.contracts.rating.SeriesRating.Origin;
import io.mangacircus.reader.library.metadata.SeriesMetadata.Author;
import io.mangacircus.reader.library.metadata.SeriesMetadata.Role;
import io.mangacircus.reader.library.metadata.SeriesMetadata.Status;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which source gives each field of a series' metadata. */
class SeriesMetadataMergeTest {

  private static BookComicInfo book(String series, String summary, List<String> genres, List<String> tags,
      String rating, Integer year) {
    return new BookComicInfo(series, "1", null, null, null, summary, year, null, null,
        List.of(new Author("Book Writer " + series, Role.WRITER)), "Book Publisher", genres, tags,
        List.of("https://example.org/" + series), "ja", AgeRating.fromComicInfo(rating), null);
  }

  private static final SeriesMetadata MANGADEX = new SeriesMetadata("Source Title", "Source summary",
      List.of(new Author("Source Writer", Role.WRITER)), List.of(), List.of("Source Tag"),
      AgeRating.fromMangaDex("suggestive"), "en", List.of("https://mangadex.org/title/x"), 2019,
      Status.fromMangaDex("ongoing"), null);

  @Test
  void adminFieldsBeatTheSourceWhichBeatsComicInfo() {
    SeriesMetadata admin = new SeriesMetadata("Admin Title", null, List.of(), List.of("Admin Genre"), List.of(),
        AgeRating.fromComicInfo("Everyone"), null, List.of(), null, Status.COMPLETED, null);
    List<BookComicInfo> books = List.of(book("One", "Book summary", List.of("Action"), List.of("b1"), "Teen", 2018));

    SeriesMetadata merged = SeriesMetadataMerge.merge(admin, MANGADEX, books);

    assertThat(merged.title()).isEqualTo("Admin Title");
    assertThat(merged.genres()).containsExactly("Admin Genre");
    assertThat(merged.status()).isEqualTo(Status.COMPLETED);
    assertThat(merged.ageRating()).isEqualTo(AgeRating.fromComicInfo("Everyone"));
    assertThat(merged.summary()).isEqualTo("Source summary");
    assertThat(merged.authors()).containsExactly(new Author("Source Writer", Role.WRITER));
    assertThat(merged.tags()).containsExactly("Source Tag");
    assertThat(merged.language()).isEqualTo("en");
    assertThat(merged.links()).containsExactly("https://mangadex.org/title/x");
    assertThat(merged.year()).isEqualTo(2019);
    assertThat(merged.publisher()).as("MangaDex has no publisher: the book's").isEqualTo("Book Publisher");
  }

  @Test
  void withoutAdminOrSourceTheFirstBookGivesSeriesFieldsAndGenresAndTagsAreTheUnion() {
    List<BookComicInfo> books = List.of(
        book("One", null, List.of("Action", "Drama"), List.of("b1"), "Everyone", null),
        book("Two", "Second summary", List.of("drama", "Comedy"), List.of("b2"), "Mature 17+", 2018));

    SeriesMetadata merged = SeriesMetadataMerge.merge(null, null, books);

    assertThat(merged.title()).isEqualTo("One");
    assertThat(merged.authors()).containsExactly(new Author("Book Writer One", Role.WRITER));
    assertThat(merged.links()).containsExactly("https://example.org/One");
    assertThat(merged.summary()).as("the first book that has one").isEqualTo("Second summary");
    assertThat(merged.year()).isEqualTo(2018);
    assertThat(merged.genres()).containsExactly("Action", "Drama", "Comedy");
    assertThat(merged.tags()).containsExactly("b1", "b2");
    assertThat(merged.status()).isNull();
  }

  @Test
  void theRatingIsDecidedBySeriesRatingWithTheStrictestBookLast() {
    List<BookComicInfo> books = List.of(book("One", null, List.of(), List.of(), "Everyone", null),
        book("Two", null, List.of(), List.of(), "Mature 17+", null),
        book("Three", null, List.of(), List.of(), "Unknown", null));

    assertThat(SeriesMetadataMerge.merge(null, null, books).ageRating())
        .isEqualTo(AgeRating.fromComicInfo("Mature 17+"));
    assertThat(SeriesMetadataMerge.rating(null, null, books).origin()).isEqualTo(Origin.COMIC_INFO);
    assertThat(SeriesMetadataMerge.rating(null, MANGADEX, books).origin()).isEqualTo(Origin.SOURCE);
    assertThat(SeriesMetadataMerge.merge(null, MANGADEX, books).ageRating())
        .isEqualTo(AgeRating.fromMangaDex("suggestive"));
  }

  @Test
  void nothingKnownGivesTheEmptyRecord() {
    assertThat(SeriesMetadataMerge.merge(null, null, null)).isEqualTo(SeriesMetadata.EMPTY);
    assertThat(SeriesMetadataMerge.merge(SeriesMetadata.EMPTY, SeriesMetadata.EMPTY, List.of()))
        .isEqualTo(SeriesMetadata.EMPTY);
  }
}
