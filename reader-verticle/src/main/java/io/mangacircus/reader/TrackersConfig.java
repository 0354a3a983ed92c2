package io.mangacircus.reader;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * {@code reader.trackers} (docs/trackers.md): the trackers users may link their reading to. Off by default: with no
 * tracker enabled the feature is hidden and nothing is contacted.
 *
 * @param publicUrl the address users reach this reader at (such as {@code https://manga.example.org}); the OAuth
 *     trackers (AniList, MyAnimeList) send the browser back to {@code <publicUrl>/api/trackers/<id>/callback}, which
 *     must be registered with them exactly. Needed when one of them is enabled
 * @param keyFile the file holding the key that seals users' tracker tokens, shared by every reader over one database;
 *     it must exist (32 bytes, owner-only) and is never created. Null (the default): {@code <data folder>/tracker-key},
 *     created at the first start with a tracker enabled
 */
public record TrackersConfig(@JsonProperty(required = false) String publicUrl,
    @JsonProperty(required = false) TrackerConfig anilist, @JsonProperty(required = false) TrackerConfig myanimelist,
    @JsonProperty(required = false) TrackerConfig mangaupdates, @JsonProperty(required = false) TrackerConfig kitsu,
    @JsonProperty(required = false) String keyFile) {

  /** No tracker. */
  public static final TrackersConfig OFF = new TrackersConfig(null, null, null, null, null);

  /** With the key in the data folder. */
  public TrackersConfig(String publicUrl, TrackerConfig anilist, TrackerConfig myanimelist,
      TrackerConfig mangaupdates, TrackerConfig kitsu) {
    this(publicUrl, anilist, myanimelist, mangaupdates, kitsu, null);
  }

  public TrackersConfig {
    publicUrl = publicUrl == null ? "" : publicUrl.trim().replaceAll("/+$", "");
    anilist = anilist == null ? TrackerConfig.OFF : anilist;
    myanimelist = myanimelist == null ? TrackerConfig.OFF : myanimelist;
    mangaupdates = mangaupdates == null ? TrackerConfig.OFF : mangaupdates;
    kitsu = kitsu == null ? TrackerConfig.OFF : kitsu;
    keyFile = keyFile == null || keyFile.isBlank() ? null : keyFile.trim();
  }

  /** Where the token key is: {@link #keyFile} when set, else empty (the data folder's). */
  public Optional<Path> sharedKeyFile() {
    return Optional.ofNullable(keyFile).map(Path::of);
  }

  /** Every tracker by id, in the order the profile page lists them. */
  public Map<String, TrackerConfig> byId() {
    Map<String, TrackerConfig> all = new LinkedHashMap<>();
    all.put("anilist", anilist);
    all.put("myanimelist", myanimelist);
    all.put("mangaupdates", mangaupdates);
    all.put("kitsu", kitsu);
    return all;
  }

  /** Whether any tracker is enabled. */
  public boolean anyEnabled() {
    return byId().values().stream().anyMatch(TrackerConfig::enabled);
  }

  /** What is wrong with this section, naming the key under {@code reader.trackers}; empty when nothing is. */
  public Optional<String> problem() {
    for (Map.Entry<String, TrackerConfig> tracker : byId().entrySet()) {
      Optional<String> problem = tracker.getValue().problem(!"mangaupdates".equals(tracker.getKey()));
      if (problem.isPresent()) {
        return Optional.of(tracker.getKey() + "." + problem.get());
      }
    }
    if ((anilist.enabled() || myanimelist.enabled()) && publicUrl.isEmpty()) {
      return Optional.of("publicUrl: the reader's public address is needed for AniList's and MyAnimeList's sign-in");
    }
    if (!publicUrl.isEmpty() && !TrackerConfig.httpUrl(publicUrl)) {
      return Optional.of("publicUrl: '" + publicUrl + "' is not an http or https address");
    }
    if (keyFile != null) {
      try {
        Path.of(keyFile);
      } catch (InvalidPathException e) {
        return Optional.of("keyFile: '" + keyFile + "' is not a file path (" + e.getReason() + ")");
      }
    }
    return Optional.empty();
  }
}
