package io.mangacircus.reader.trackers;

import io.mangacircus.reader.TrackerConfig;
import io.mangacircus.reader.TrackersConfig;
import io.vertx.ext.web.client.WebClient;
import java.time.InstantSource;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** The clients of the trackers the admin enabled, by id, each with its public addresses unless configured otherwise. */
public final class TrackerClients {

  private TrackerClients() {
  }

  /** The enabled trackers' clients, in the profile page's order; empty when none is enabled. */
  public static Map<String, TrackerClient> of(WebClient web, TrackersConfig config, InstantSource clock) {
    Map<String, TrackerClient> clients = new LinkedHashMap<>();
    if (config.anilist().enabled()) {
      clients.put("anilist", new AniListTracker(web, anilist(config.anilist()), clock));
    }
    if (config.myanimelist().enabled()) {
      clients.put("myanimelist", new MyAnimeListTracker(web, myanimelist(config.myanimelist()), clock));
    }
    if (config.mangaupdates().enabled()) {
      clients.put("mangaupdates", new MangaUpdatesTracker(web, mangaupdates(config.mangaupdates()), clock));
    }
    if (config.kitsu().enabled()) {
      clients.put("kitsu", new KitsuTracker(web, kitsu(config.kitsu()), clock));
    }
    return Collections.unmodifiableMap(clients);
  }

  /** Each enabled tracker's requests a minute, its default unless configured, by id. */
  public static Map<String, Integer> requestsPerMinute(TrackersConfig config) {
    Map<String, Integer> pace = new LinkedHashMap<>();
    settings(config).forEach((id, tracker) -> pace.put(id, tracker.requestsPerMinute()));
    return pace;
  }

  /** Each enabled tracker's configuration with its defaults filled in, by id. */
  public static Map<String, TrackerConfig> settings(TrackersConfig config) {
    Map<String, TrackerConfig> all = new LinkedHashMap<>();
    all.put("anilist", anilist(config.anilist()));
    all.put("myanimelist", myanimelist(config.myanimelist()));
    all.put("mangaupdates", mangaupdates(config.mangaupdates()));
    all.put("kitsu", kitsu(config.kitsu()));
    all.values().removeIf(tracker -> !tracker.enabled());
    return all;
  }

  private static TrackerConfig anilist(TrackerConfig config) {
    return config.withDefaults(AniListTracker.API_URL, AniListTracker.AUTH_URL, AniListTracker.REQUESTS_PER_MINUTE);
  }

  private static TrackerConfig myanimelist(TrackerConfig config) {
    return config.withDefaults(MyAnimeListTracker.API_URL, MyAnimeListTracker.AUTH_URL,
        MyAnimeListTracker.REQUESTS_PER_MINUTE);
  }

  private static TrackerConfig mangaupdates(TrackerConfig config) {
    return config.withDefaults(MangaUpdatesTracker.API_URL, MangaUpdatesTracker.AUTH_URL,
        MangaUpdatesTracker.REQUESTS_PER_MINUTE);
  }

  private static TrackerConfig kitsu(TrackerConfig config) {
    return config.withDefaults(KitsuTracker.API_URL, KitsuTracker.AUTH_URL, KitsuTracker.REQUESTS_PER_MINUTE);
  }
}
