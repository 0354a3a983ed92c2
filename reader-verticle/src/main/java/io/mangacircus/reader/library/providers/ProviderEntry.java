package io.mangacircus.reader.library.providers;

import io.mangacircus.reader.library.metadata.SeriesMetadata;
import java.util.List;
import java.util.Objects;

/**
 * One series as a metadata provider knows it.
 *
 * @param provider the provider's name ({@code anilist}, {@code mangaupdates})
 * @param id the provider's id of the series
 * @param url its page on the provider's site, or null
 * @param titles every title the provider gives it (main, English, native, synonyms), the main one first
 * @param metadata what the provider says about it
 */
public record ProviderEntry(String provider, String id, String url, List<String> titles, SeriesMetadata metadata) {
  public ProviderEntry {
    Objects.requireNonNull(provider, "provider");
    Objects.requireNonNull(id, "id");
    titles = titles == null ? List.of() : titles.stream().filter(t -> t != null && !t.isBlank()).distinct().toList();
    metadata = metadata == null ? SeriesMetadata.EMPTY : metadata;
  }
}
