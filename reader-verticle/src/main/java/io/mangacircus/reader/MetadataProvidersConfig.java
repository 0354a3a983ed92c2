package io.mangacircus.reader;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.net.URI;
import java.util.Optional;

/**
 * {@code reader.metadataProviders}: the public metadata services (AniList, MangaUpdates) an admin may ask for a
 * series' metadata. Off by default: while off nothing is contacted.
 *
 * @param enabled whether the admin's metadata routes may contact the providers; default false
 * @param anilistUrl AniList's GraphQL endpoint; default {@code https://graphql.anilist.co}
 * @param mangaUpdatesUrl MangaUpdates' API base (its {@code /v1} paths are added); default
 *     {@code https://api.mangaupdates.com}
 * @param minConfidence the title-match score (0..1) at or above which the best candidate is offered as a confident
 *     match; below it candidates are only listed. Nothing is ever applied without the admin. Default 0.9
 */
public record MetadataProvidersConfig(@JsonProperty(required = false) Boolean enabled,
    @JsonProperty(required = false) String anilistUrl, @JsonProperty(required = false) String mangaUpdatesUrl,
    @JsonProperty(required = false) Double minConfidence) {

  public static final String ANILIST_URL = "https://graphql.anilist.co";
  public static final String MANGAUPDATES_URL = "https://api.mangaupdates.com";
  public static final double MIN_CONFIDENCE = 0.9;

  /** Off, with the public services' addresses. */
  public static final MetadataProvidersConfig OFF = new MetadataProvidersConfig(false, null, null, null);

  public MetadataProvidersConfig {
    enabled = enabled != null && enabled;
    anilistUrl = anilistUrl == null || anilistUrl.isBlank() ? ANILIST_URL : anilistUrl;
    mangaUpdatesUrl = mangaUpdatesUrl == null || mangaUpdatesUrl.isBlank() ? MANGAUPDATES_URL : mangaUpdatesUrl;
    minConfidence = minConfidence == null ? MIN_CONFIDENCE : minConfidence;
  }

  /** What is wrong with this section, naming the key under {@code reader.metadataProviders}; empty when nothing is. */
  public Optional<String> problem() {
    if (!(minConfidence >= 0 && minConfidence <= 1)) {
      return Optional.of("minConfidence: " + minConfidence + " must be between 0 and 1");
    }
    for (String[] url : new String[][] {{"anilistUrl", anilistUrl}, {"mangaUpdatesUrl", mangaUpdatesUrl}}) {
      if (!httpUrl(url[1])) {
        return Optional.of(url[0] + ": '" + url[1] + "' is not an http or https address");
      }
    }
    return Optional.empty();
  }

  private static boolean httpUrl(String text) {
    try {
      URI uri = new URI(text);
      return ("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && uri.getHost() != null;
    } catch (java.net.URISyntaxException e) {
      return false;
    }
  }
}
