package io.mangacircus.scraper.source.mangadex;

import io.mangacircus.scraper.source.ChapterInfo;
import io.mangacircus.scraper.source.FetchOutcome;
import io.mangacircus.scraper.source.PageBytes;
import io.mangacircus.scraper.source.PageRef;
import io.mangacircus.scraper.source.SourceHttp;
import io.vertx.core.Future;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A chapter's pages on MangaDex@Home: the page list from {@code GET /at-home/server/{chapterId}} and each page from
 * the server it names. A server is used for at most {@link #AT_HOME_MAX_AGE} (they are valid for about 15 minutes); a
 * page that fails on it gets one fresh server and one more try. Does not report image-server health to MangaDex@Home.
 */
final class MangaDexAtHome {

  /** The adapter's log: its lines keep the adapter's name whichever part writes them. */
  private static final Logger LOG = LoggerFactory.getLogger(MangaDexSource.class);

  /** How long an at-home server is used before a fresh one is asked for (MangaDex: valid for about 15 minutes). */
  static final Duration AT_HOME_MAX_AGE = Duration.ofMinutes(14);

  /** Chapters whose at-home server is remembered (the lane works on one at a time). */
  private static final int REMEMBERED_SERVERS = 32;

  /** Where a chapter's pages are served now, and since when. */
  private record ChapterServer(String chapterId, MangaDexJson.AtHome atHome, Instant fetchedAt) {
  }

  private final Map<String, ChapterServer> serversByHash = new LinkedHashMap<>(16, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, ChapterServer> eldest) {
      return size() > REMEMBERED_SERVERS;
    }
  };

  private final MangaDexApi api;
  private final MangaDexOptions options;
  private final long pageTimeoutMs;

  MangaDexAtHome(MangaDexApi api, MangaDexOptions options, long pageTimeoutMs) {
    this.api = api;
    this.options = options;
    this.pageTimeoutMs = pageTimeoutMs;
  }

  /** The page list of a chapter, each page on the fresh at-home server it names. */
  Future<FetchOutcome<List<PageRef>>> pages(String titleId, ChapterInfo chapter) {
    return atHome(chapter.id()).map(outcome -> {
      if (!outcome.ok()) {
        return outcome.failure();
      }
      ChapterServer server = outcome.value();
      List<String> files = files(server.atHome());
      if (files.isEmpty()) {
        return new FetchOutcome.NotFound<>("chapter " + chapter.id() + " has no pages on MangaDex");
      }
      List<PageRef> pages = new ArrayList<>();
      for (String file : files) {
        pages.add(new PageRef(pages.size() + 1, file, MangaDexRefs.pageUrl(server.atHome().baseUrl(),
            options.dataSaver(), server.atHome().hash(), file)));
      }
      return new FetchOutcome.Ok<>(pages);
    });
  }

  /** A fresh at-home server for a chapter, remembered by the chapter's hash for {@link #page}. */
  private Future<FetchOutcome<ChapterServer>> atHome(String chapterId) {
    if (!MangaDexRefs.isId(chapterId)) {
      return Future.succeededFuture(new FetchOutcome.NotFound<>("'" + chapterId + "' is not a MangaDex chapter id"));
    }
    String what = "MangaDex at-home server for chapter " + chapterId;
    return api.api(api.baseUrl() + "/at-home/server/" + chapterId, what, true, request -> request).map(answer -> {
      if (!answer.ok()) {
        return answer.failure();
      }
      FetchOutcome<MangaDexJson.AtHome> atHome = MangaDexJson.atHome(answer.value(), what);
      if (!atHome.ok()) {
        return atHome.failure();
      }
      ChapterServer server = new ChapterServer(chapterId, atHome.value(), api.clock().instant());
      synchronized (serversByHash) {
        serversByHash.put(atHome.value().hash(), server);
      }
      return new FetchOutcome.Ok<>(server);
    });
  }

  private List<String> files(MangaDexJson.AtHome atHome) {
    return options.dataSaver() ? atHome.dataSaver() : atHome.data();
  }

  // ---- one page -----------------------------------------------------------------------------------------------

  /** One page, on its chapter's at-home server while that is young, else on a fresh one. */
  Future<FetchOutcome<PageBytes>> page(PageRef page) {
    Optional<MangaDexRefs.PageLocation> location = MangaDexRefs.pageLocation(page.url());
    ChapterServer server;
    synchronized (serversByHash) {
      server = location.map(l -> serversByHash.get(l.hash())).orElse(null);
    }
    if (server == null) {
      // Not a page this instance listed (no chapter to ask a fresh server for): fetch it where it says.
      return image(page.url(), page);
    }
    Duration age = Duration.between(server.fetchedAt(), api.clock().instant());
    if (age.compareTo(AT_HOME_MAX_AGE) > 0) {
      LOG.info("[MANGADEX {}] the at-home server of chapter {} is {} s old; asking for a fresh one before page {}",
          api.name(), server.chapterId(), age.toSeconds(), page.index());
      return atHome(server.chapterId()).compose(fresh -> fresh.ok()
          ? image(urlOn(fresh.value(), page), page)
          : Future.succeededFuture(fresh.<PageBytes>failure()));
    }
    return image(urlOn(server, page), page).compose(outcome -> {
      if (outcome.ok() || !worthAFreshServer(outcome)) {
        return Future.succeededFuture(outcome);
      }
      LOG.info("[MANGADEX {}] page {} of chapter {} failed on {} ({}); asking for a fresh at-home server and trying "
          + "once more", api.name(), page.index(), server.chapterId(), server.atHome().baseUrl(), outcome.describe());
      return atHome(server.chapterId()).compose(fresh -> {
        if (!fresh.ok()) {
          LOG.warn("[MANGADEX {}] no fresh at-home server for chapter {}: {}", api.name(), server.chapterId(),
              fresh.describe());
          return Future.succeededFuture(fresh instanceof FetchOutcome.RateLimited<?>
              || fresh instanceof FetchOutcome.Held<?> ? fresh.<PageBytes>failure() : outcome);
        }
        if (!fresh.value().atHome().hash().equals(server.atHome().hash())) {
          LOG.warn("[MANGADEX {}] chapter {} changed on MangaDex (new hash) since its page list was read", api.name(),
              server.chapterId());
          return Future.succeededFuture(outcome);
        }
        return image(urlOn(fresh.value(), page), page);
      });
    });
  }

  /**
   * Whether a failed page is worth a fresh at-home server: an expired server answers 403 or 404, a dead one does not
   * answer. Not a 429 (that is about us, not the server) and not a challenge page (never worked around).
   */
  private static boolean worthAFreshServer(FetchOutcome<?> outcome) {
    if (outcome instanceof FetchOutcome.AccessDenied<?> denied) {
      return denied.status() == 401 || denied.status() == 403;
    }
    return !(outcome instanceof FetchOutcome.RateLimited<?> || outcome instanceof FetchOutcome.Held<?>
        || outcome instanceof FetchOutcome.CircuitOpen<?>);
  }

  private String urlOn(ChapterServer server, PageRef page) {
    return MangaDexRefs.pageUrl(server.atHome().baseUrl(), options.dataSaver(), server.atHome().hash(), page.key());
  }

  private Future<FetchOutcome<PageBytes>> image(String url, PageRef page) {
    String what = "page " + page.index() + " (" + page.key() + ")";
    return api.send(what, false, () -> api.request(url, pageTimeoutMs), SourceHttp.MAX_IMAGE_BYTES).map(answer ->
        answer.ok() ? new FetchOutcome.Ok<>(new PageBytes(SourceHttp.mediaType(answer.value()),
            SourceHttp.bytes(answer.value()))) : answer.<PageBytes>failure());
  }
}
