package io.mangacircus.reader;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.net.URI;
import java.util.Optional;

/**
 * One tracker under {@code reader.trackers} (docs/trackers.md): whether users may link it, the client credentials the
 * tracker issued to this server's operator, where its API and sign-in live, and how many requests a minute it is sent.
 *
 * @param enabled whether users may link this tracker; default: on when a client id is set (MangaUpdates, which needs
 *     none, is off unless enabled)
 * @param clientId the OAuth client id the tracker issued (AniList, MyAnimeList, Kitsu); empty for MangaUpdates
 * @param clientSecret its secret (AniList, Kitsu; MyAnimeList "web" apps); environment
 *     {@code MANGACIRCUS_<TRACKER>_CLIENT_SECRET}. Never logged
 * @param apiUrl the API's base address; default the tracker's public one
 * @param authUrl the OAuth base address ({@code /authorize} and {@code /token} are added); default the tracker's
 * @param requestsPerMinute the most requests a minute sent to this tracker for all users together
 */
public record TrackerConfig(@JsonProperty(required = false) Boolean enabled,
    @JsonProperty(required = false) String clientId, @JsonProperty(required = false) String clientSecret,
    @JsonProperty(required = false) String apiUrl, @JsonProperty(required = false) String authUrl,
    @JsonProperty(required = false) Integer requestsPerMinute) {

  /** Not linked by anyone, nothing contacted. */
  public static final TrackerConfig OFF = new TrackerConfig(false, null, null, null, null, null);

  public TrackerConfig {
    clientId = clientId == null ? "" : clientId.trim();
    clientSecret = clientSecret == null ? "" : clientSecret;
    enabled = enabled == null ? !clientId.isEmpty() : enabled;
    apiUrl = apiUrl == null ? "" : apiUrl.trim();
    authUrl = authUrl == null ? "" : authUrl.trim();
  }

  /** This tracker with its public addresses and pace filled in where none is configured. */
  public TrackerConfig withDefaults(String defaultApiUrl, String defaultAuthUrl, int defaultRequestsPerMinute) {
    return new TrackerConfig(enabled, clientId, clientSecret, apiUrl.isEmpty() ? defaultApiUrl : apiUrl,
        authUrl.isEmpty() ? defaultAuthUrl : authUrl,
        requestsPerMinute == null ? defaultRequestsPerMinute : requestsPerMinute);
  }

  /** What is wrong with this tracker's section, naming the key; empty when nothing is. */
  public Optional<String> problem(boolean needsClientId) {
    if (!enabled) {
      return Optional.empty();
    }
    if (needsClientId && clientId.isEmpty()) {
      return Optional.of("clientId: the tracker's client id is needed when it is enabled");
    }
    if (requestsPerMinute != null && (requestsPerMinute < 1 || requestsPerMinute > 600)) {
      return Optional.of("requestsPerMinute: " + requestsPerMinute + " must be between 1 and 600");
    }
    for (String[] url : new String[][] {{"apiUrl", apiUrl}, {"authUrl", authUrl}}) {
      if (!url[1].isEmpty() && !httpUrl(url[1])) {
        return Optional.of(url[0] + ": '" + url[1] + "' is not an http or https address");
      }
    }
    return Optional.empty();
  }

  static boolean httpUrl(String text) {
    try {
      URI uri = new URI(text);
      return ("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && uri.getHost() != null;
    } catch (java.net.URISyntaxException e) {
      return false;
    }
  }

  @Override
  public String toString() {
    return "TrackerConfig[enabled=" + enabled + ", clientId=" + (clientId.isEmpty() ? "<none>" : "<set>")
        + ", clientSecret=" + (clientSecret.isEmpty() ? "<none>" : "<set>") + ", apiUrl=" + apiUrl + ", authUrl="
        + authUrl + ", requestsPerMinute=" + requestsPerMinute + "]";
  }
}
