package io.mangacircus.reader.library;

import io.mangacircus.contracts.rating.AgeRating;
import io.mangacircus.contracts.rating.SeriesRating;
import io.mangacircus.reader.store.CatalogStore;
import io.mangacircus.reader.library.metadata.BookComicInfo;
import io.mangacircus.reader.library.metadata.SeriesMetadata;
import io.mangacircus.reader.library.metadata.SeriesMetadataMerge;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Locale;

/**
 * The {@code metadata} object of a series' answer: the admin's catalog fields above the source's metadata above its
 * books' ComicInfo.xml ({@link SeriesMetadataMerge}), then what an admin applied from a metadata provider; and the age rating that access decides with, with its origin.
 */
final class SeriesMetadataReply {

  private SeriesMetadataReply() {
  }

  /**
   * @param admin what the admin set in the catalog (description, tags, age rating)
   * @param source what the series' source says of it (a downloaded series' {@code .mangacircus-source-metadata.json}),
   *     or null; below the admin's, above the books'. It never rates the series: the chapters carry the source's rating
   * @param books the ComicInfo.xml of the series' books that have one, first book first
   * @param filesRating the series' rating as its files say, the one access decides with beneath the admin's
   *     ({@link SeriesEntry#rating()}): the rating shown is the one enforced
   * @param provided what an admin applied from a metadata provider, or null: it fills only what the admin and the
   *     books leave empty, and never rates the series (a provider's rating is not one access decides with)
   */
  static JsonObject of(CatalogStore.SeriesMeta admin, SeriesMetadata source, List<BookComicInfo> books,
      AgeRating filesRating, SeriesMetadata provided) {
    SeriesRating rating = SeriesRating.decide(admin.rating().orElse(null), null, List.of(filesRating));
    SeriesMetadata byAdmin = new SeriesMetadata(null, admin.description(), List.of(), List.of(), admin.tags(),
        rating.origin() == SeriesRating.Origin.ADMIN ? rating.rating() : null, null, List.of(), null, null, null);
    SeriesMetadata merged = SeriesMetadataMerge.merge(byAdmin, source == null ? null : source.withAgeRating(null),
        books);
    if (provided != null) {
      merged = SeriesMetadataMerge.merge(merged, provided, List.of());
    }
    JsonArray authors = new JsonArray();
    merged.authors().forEach(a -> authors.add(new JsonObject().put("name", a.name()).put("role", a.role().code())));
    return new JsonObject()
        .put("title", merged.title())
        .put("summary", merged.summary())
        .put("authors", authors)
        .put("genres", new JsonArray(merged.genres()))
        .put("tags", new JsonArray(merged.tags()))
        .put("status", merged.status() == null ? null : merged.status().name().toLowerCase(Locale.ROOT))
        .put("year", merged.year())
        .put("language", merged.language())
        .put("publisher", merged.publisher())
        .put("links", new JsonArray(merged.links()))
        .put("ageRating", rating.rating().code())
        .put("ageRatingOrigin", rating.origin().name().toLowerCase(Locale.ROOT));
  }
}
