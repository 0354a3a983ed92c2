package io.mangacircus.reader.trackers;

import io.mangacircus.reader.library.LibraryFiles;
import io.mangacircus.reader.store.StoreException;
import io.mangacircus.reader.store.TrackerLink;
import io.mangacircus.reader.store.TrackerStore;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.List;

/**
 * The JSON of a tracker link and of a search candidate as the routes answer them (docs/api.md "Trackers"): what the
 * tracker last said, when it last answered, what went wrong, whether an update waits. Blocking (reads the store and
 * the library for titles).
 */
public final class TrackerLinkReplies {

  private final TrackerStore store;
  private final LibraryFiles files;

  public TrackerLinkReplies(TrackerStore store, LibraryFiles files) {
    this.store = store;
    this.files = files;
  }

  /** A link on the series page. */
  public JsonObject link(TrackerLink link) throws StoreException {
    return new JsonObject().put("remoteId", link.remoteId()).put("title", link.title())
        .put("url", pageUrl(link.tracker(), link.remoteId())).put("automatic", link.automatic())
        .put("trackerProgress", link.trackerProgress()).put("trackerStatus", link.trackerStatus())
        .put("totalChapters", link.totalChapters()).put("lastSyncAt", text(link.lastSyncAt()))
        .put("lastPushAt", text(link.lastPushAt())).put("lastError", link.lastError())
        .put("pullOffered", link.pullOffered())
        .put("pending", store.pendingUpdate(link.userId(), link.tracker(), link.series()).isPresent());
  }

  /** A link in the profile page's list: the link with its series and tracker named. */
  public JsonObject listed(TrackerLink link, TrackerClient client) throws StoreException {
    return link(link).put("series", link.series()).put("seriesTitle", seriesTitle(link.series()))
        .put("tracker", link.tracker()).put("trackerName", client.name());
  }

  /** A search result. */
  public static JsonObject candidate(TrackerCandidate candidate) {
    return new JsonObject().put("remoteId", candidate.remoteId()).put("title", candidate.title())
        .put("alternativeTitles", new JsonArray(candidate.alternativeTitles())).put("format", candidate.format())
        .put("year", candidate.year()).put("totalChapters", candidate.totalChapters())
        .put("coverUrl", candidate.coverUrl()).put("url", candidate.url());
  }

  /** The series' title as its chapters give it; its id when it has none left. */
  public String seriesTitle(String series) {
    try {
      List<LibraryFiles.Chapter> chapters = files.chapters(series);
      return chapters.isEmpty() ? series : chapters.get(0).seriesTitle();
    } catch (RuntimeException e) {
      return series;
    }
  }

  /** The series' page on its tracker. */
  static String pageUrl(String tracker, String remoteId) {
    return switch (tracker) {
      case "anilist" -> "https://anilist.co/manga/" + remoteId;
      case "myanimelist" -> "https://myanimelist.net/manga/" + remoteId;
      case "mangaupdates" -> remoteId.matches("\\d{1,18}")
          ? "https://www.mangaupdates.com/series/" + Long.toString(Long.parseLong(remoteId), 36) : "";
      case "kitsu" -> "https://kitsu.app/manga/" + remoteId;
      default -> "";
    };
  }

  private static String text(Instant at) {
    return at == null ? null : at.toString();
  }
}
