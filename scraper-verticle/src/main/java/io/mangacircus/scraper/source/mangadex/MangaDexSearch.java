package io.mangacircus.scraper.source.mangadex;

import io.mangacircus.scraper.source.ChapterInfo;
import io.mangacircus.scraper.source.FetchOutcome;
import io.mangacircus.scraper.source.PageBytes;
import io.mangacircus.scraper.source.SourceHttp;
import io.mangacircus.scraper.source.TitleHit;
import io.mangacircus.scraper.source.TitlePreview;
import io.vertx.core.Future;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the operator sees before adding a MangaDex title: a search by name ({@code GET /manga?title=…}), a title's
 * preview (its details and every chapter in every language with its groups' names) and covers from the cover site.
 */
final class MangaDexSearch {

  /** A title's page on the MangaDex site. */
  static final String TITLE_PAGE = "https://mangadex.org/title/";

  /** The most feed pages a preview reads (it lists every language). */
  static final int PREVIEW_FEED_PAGES = 10;

  private final MangaDexApi api;
  private final MangaDexOptions options;
  private final String uploadsUrl;
  private final long metadataTimeoutMs;

  /** @param uploadsUrl where covers are served, without a trailing slash */
  MangaDexSearch(MangaDexApi api, MangaDexOptions options, String uploadsUrl, long metadataTimeoutMs) {
    this.api = api;
    this.options = options;
    this.uploadsUrl = uploadsUrl;
    this.metadataTimeoutMs = metadataTimeoutMs;
  }

  /**
   * {@code GET /manga?title=…&limit=…&includes[]=cover_art&contentRating[]=…} (the configured ratings), in MangaDex's
   * relevance order; each cover is {@code {uploadsUrl}/covers/{titleId}/{fileName}.256.jpg}.
   */
  Future<FetchOutcome<List<TitleHit>>> search(String query, int limit) {
    String what = "MangaDex search for '" + query + "'";
    return api.api(api.baseUrl() + "/manga", what, false, request -> {
      request.addQueryParam("title", query).addQueryParam("limit", String.valueOf(limit))
          .addQueryParam("includes[]", "cover_art").addQueryParam("order[relevance]", "desc");
      options.contentRatings().forEach(rating -> request.addQueryParam("contentRating[]", rating));
      return request;
    }).map(answer -> {
      if (!answer.ok()) {
        return answer.failure();
      }
      FetchOutcome<MangaDexJson.MangaPage> page = MangaDexJson.mangaPage(answer.value(), what);
      if (!page.ok()) {
        return page.failure();
      }
      return new FetchOutcome.Ok<>(page.value().titles().stream().limit(limit).map(manga -> new TitleHit(manga.id(),
          manga.title(), manga.altTitles(), manga.year(), manga.status(), manga.languages(), null, coverUrl(manga),
          TITLE_PAGE + manga.id())).toList());
    });
  }

  /** {@code GET /manga/{id}?includes[]=cover_art}, then its feed in every language with its groups' names. */
  Future<FetchOutcome<TitlePreview>> preview(String titleId) {
    Optional<String> parsed = MangaDexRefs.titleId(titleId);
    if (parsed.isEmpty()) {
      return Future.succeededFuture(new FetchOutcome.NotFound<>("'" + titleId.trim() + "' is not a MangaDex title "
          + "URL or title id"));
    }
    String id = parsed.get();
    String what = "MangaDex title " + id;
    return api.api(api.baseUrl() + "/manga/" + id, what, false, request -> request.addQueryParam("includes[]", "cover_art"))
        .compose(answer -> {
          if (!answer.ok()) {
            return Future.succeededFuture(answer.<TitlePreview>failure());
          }
          FetchOutcome<MangaDexJson.Manga> manga = MangaDexJson.manga(answer.value(), what);
          if (!manga.ok()) {
            return Future.succeededFuture(manga.<TitlePreview>failure());
          }
          return previewFeed(manga.value(), 0, new ArrayList<>(), new LinkedHashMap<>());
        });
  }

  private Future<FetchOutcome<TitlePreview>> previewFeed(MangaDexJson.Manga manga, int offset,
      List<MangaDexJson.Chapter> chapters, Map<String, String> groups) {
    String what = "MangaDex feed of " + manga.id() + " at offset " + offset;
    return api.api(api.baseUrl() + "/manga/" + manga.id() + "/feed", what, false, request -> request
        .addQueryParam("includes[]", "scanlation_group")
        .addQueryParam("order[chapter]", "asc")
        .addQueryParam("includeFuturePublishAt", "0")
        .addQueryParam("limit", String.valueOf(options.feedPageSize()))
        .addQueryParam("offset", String.valueOf(offset)))
        .compose(answer -> {
          if (!answer.ok()) {
            return Future.succeededFuture(answer.<TitlePreview>failure());
          }
          FetchOutcome<MangaDexJson.FeedPage> page = MangaDexJson.feedPage(answer.value(), what);
          if (!page.ok()) {
            return Future.succeededFuture(page.<TitlePreview>failure());
          }
          chapters.addAll(page.value().chapters());
          page.value().groups().forEach((groupId, groupName) -> {
            if (!groupName.isEmpty() || !groups.containsKey(groupId)) {
              groups.put(groupId, groupName);
            }
          });
          int next = offset + Math.max(page.value().limit(), page.value().chapters().size());
          boolean done = page.value().chapters().isEmpty() || page.value().limit() < 1 || next >= page.value().total()
              || next >= MangaDexApi.FEED_OFFSET_CAP || next >= options.feedPageSize() * PREVIEW_FEED_PAGES;
          if (!done) {
            return previewFeed(manga, next, chapters, groups);
          }
          Instant now = api.clock().instant();
          List<TitlePreview.Chapter> listed = new ArrayList<>();
          for (MangaDexJson.Chapter chapter : chapters) {
            ChapterInfo info = MangaDexJson.info(chapter, now);
            if (info != null) {
              listed.add(new TitlePreview.Chapter(info, chapter.groupIds(), chapter.uploadedAt()));
            }
          }
          List<TitlePreview.Group> groupList = new ArrayList<>();
          groups.forEach((groupId, groupName) -> groupList.add(new TitlePreview.Group(groupId,
              groupName.isEmpty() ? groupId : groupName)));
          return Future.succeededFuture(new FetchOutcome.Ok<>(new TitlePreview(manga.id(), manga.title(),
              manga.altTitles(), manga.description(), manga.tags(), manga.year(), manga.status(), coverUrl(manga),
              TITLE_PAGE + manga.id(), groupList, listed)));
        });
  }

  private String coverUrl(MangaDexJson.Manga manga) {
    return manga.coverFile() == null ? null
        : uploadsUrl + "/covers/" + manga.id() + "/" + manga.coverFile() + ".256.jpg";
  }

  /**
   * A cover from this source's cover site only, at most {@link MangaDexSource#MAX_COVER_BYTES}, through the request
   * line.
   */
  Future<FetchOutcome<PageBytes>> cover(String url) {
    if (url == null || !url.startsWith(uploadsUrl + "/covers/")) {
      return Future.succeededFuture(new FetchOutcome.NotFound<>("not a cover of this source"));
    }
    return api.send("cover", false, () -> api.request(url, metadataTimeoutMs), MangaDexSource.MAX_COVER_BYTES)
        .map(answer -> answer.ok() ? new FetchOutcome.Ok<>(new PageBytes(SourceHttp.mediaType(answer.value()),
            SourceHttp.bytes(answer.value()))) : answer.<PageBytes>failure());
  }
}
