package io.mangacircus.scraper.source.suwayomi;

import io.mangacircus.contracts.rating.AgeRating;
import io.mangacircus.scraper.pacing.Delays;
import io.mangacircus.scraper.source.ChapterInfo;
import io.mangacircus.scraper.source.FetchOutcome;
import io.mangacircus.scraper.source.PageBytes;
import io.mangacircus.scraper.source.PageRef;
import io.mangacircus.scraper.source.Source;
import io.mangacircus.scraper.source.SourceHold;
import io.mangacircus.scraper.source.SourceLimits;
import io.mangacircus.scraper.source.TitleHit;
import io.mangacircus.scraper.source.TitleInfo;
import io.mangacircus.scraper.source.TitlePreview;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One source of a Suwayomi server (a Mihon extension it runs), read over its GraphQL API ({@link SuwayomiOperations}):
 * search, a manga's details and chapter list, and each chapter's page list followed at once by its page images from
 * the server's page endpoint. One MangaCircus source is one Suwayomi source, so its lane, pacing, circuit and incidents
 * are that site's own. Suwayomi's own download queue is never used. Title ids are Suwayomi's manga ids (the numbers a
 * search hands out); a manga of another Suwayomi source is refused.
 */
public final class SuwayomiSource implements Source {

  /** A manga page of Suwayomi's web UI, {@code .../manga/42}, names a manga id too. */
  private static final Pattern MANGA_URL = Pattern.compile("/manga/(\\d{1,10})(?:[/?#].*)?$");

  private final String name;
  private final SuwayomiServer server;
  private final Vertx vertx;
  /** The source's language as the server last said it, for search hits (null until a title was read). */
  private volatile String language;

  SuwayomiSource(String name, SuwayomiServer server, Vertx vertx) {
    this.name = name;
    this.server = server;
    this.vertx = vertx;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String titleIdOf(String titleRef) {
    String ref = titleRef.trim();
    Matcher url = MANGA_URL.matcher(ref);
    return !ref.matches("\\d+") && url.find() ? url.group(1) : ref;
  }

  // ---- title ------------------------------------------------------------------------------------------------------

  @Override
  public Future<FetchOutcome<TitleInfo>> title(String titleRef) {
    return title(titleRef, Duration.ZERO);
  }

  /** The source (its language), the manga and its chapters: three requests, {@code spacing} apart. */
  @Override
  public Future<FetchOutcome<TitleInfo>> title(String titleRef, Duration spacing) {
    return read(titleIdOf(titleRef), spacing).map(outcome -> outcome.ok() ? new FetchOutcome.Ok<>(
        outcome.value().info(name)) : outcome.<TitleInfo>failure());
  }

  @Override
  public Future<FetchOutcome<TitlePreview>> preview(String titleId) {
    return read(titleIdOf(titleId), Duration.ZERO).map(outcome -> outcome.ok() ? new FetchOutcome.Ok<>(
        outcome.value().preview(server.baseUrl())) : outcome.<TitlePreview>failure());
  }

  /** What one reading of a title found. */
  private record Read(String language, boolean nsfw, JsonObject manga, List<TitlePreview.Chapter> chapters) {

    TitleInfo info(String source) {
      return new TitleInfo(SuwayomiJson.mangaId(manga), manga.getString("title", "").strip(),
          chapters.stream().map(TitlePreview.Chapter::info).toList(), List.of(language),
          nsfw ? AgeRating.EIGHTEEN_PLUS : AgeRating.UNRATED, SuwayomiJson.metadata(source, manga));
    }

    TitlePreview preview(String baseUrl) {
      return new TitlePreview(SuwayomiJson.mangaId(manga), manga.getString("title", "").strip(), List.of(),
          manga.getString("description", ""), SuwayomiJson.genres(manga), null,
          SuwayomiJson.status(manga.getString("status")), SuwayomiJson.thumbnail(manga, baseUrl),
          manga.getString("realUrl"), List.of(), chapters);
    }
  }

  private Future<FetchOutcome<Read>> read(String mangaId, Duration spacing) {
    if (!mangaId.matches("\\d{1,10}") || Long.parseLong(mangaId) > Integer.MAX_VALUE) {
      return Future.succeededFuture(new FetchOutcome.NotFound<>("'" + mangaId + "' is not a Suwayomi manga id of "
          + "source " + name));
    }
    int id = Integer.parseInt(mangaId);
    String what = "title " + mangaId;
    return source(what).compose(source -> {
      if (!source.ok()) {
        return Future.succeededFuture(source.<Read>failure());
      }
      String lang = SuwayomiJson.language(source.value().getString("lang"));
      language = lang;
      boolean nsfw = Boolean.TRUE.equals(source.value().getValue("isNsfw"));
      return after(spacing).compose(v -> server.graphql("MangaDetails", SuwayomiOperations.MANGA,
          new JsonObject().put("id", id), what)).compose(details -> {
            FetchOutcome<JsonObject> manga = details.ok() ? payload(details.value(), "fetchManga", "manga", what)
                : details.failure();
            if (!manga.ok()) {
              return Future.succeededFuture(manga.<Read>failure());
            }
            if (!server.sourceId().equals(String.valueOf(manga.value().getValue("sourceId")))) {
              return Future.succeededFuture(new FetchOutcome.NotFound<>("manga " + mangaId + " belongs to Suwayomi "
                  + "source " + manga.value().getValue("sourceId") + ", not to " + server.sourceId() + " (source "
                  + name + ")"));
            }
            return after(spacing).compose(v -> chapters(id, lang, what)).map(chapters -> chapters.ok()
                ? new FetchOutcome.Ok<>(new Read(lang, nsfw, manga.value(), chapters.value()))
                : chapters.<Read>failure());
          });
    });
  }

  /** The configured source as the server lists it; a source it does not list is held: the job waits. */
  private Future<FetchOutcome<JsonObject>> source(String what) {
    return server.graphql("Source", SuwayomiOperations.SOURCE, new JsonObject().put("id", server.sourceId()), what)
        .map(answer -> {
          if (!answer.ok()) {
            return answer;
          }
          if (answer.value().getValue("source") instanceof JsonObject source) {
            return new FetchOutcome.Ok<>(source);
          }
          return server.notInstalled(what);
        });
  }

  private Future<FetchOutcome<List<TitlePreview.Chapter>>> chapters(int mangaId, String lang, String what) {
    return server.graphql("Chapters", SuwayomiOperations.CHAPTERS, new JsonObject().put("mangaId", mangaId), what)
        .map(answer -> {
          FetchOutcome<JsonObject> payload = answer.ok() ? SuwayomiJson.object(answer.value(), "fetchChapters", what)
              : answer.failure();
          if (!payload.ok()) {
            return payload.failure();
          }
          FetchOutcome<JsonArray> list = SuwayomiJson.array(payload.value(), "chapters", what);
          return list.ok() ? SuwayomiJson.chapters(list.value(), lang, what) : list.failure();
        });
  }

  /** {@code data.<mutation>.<field>} as an object. */
  private static FetchOutcome<JsonObject> payload(JsonObject data, String mutation, String field, String what) {
    FetchOutcome<JsonObject> payload = SuwayomiJson.object(data, mutation, what);
    return payload.ok() ? SuwayomiJson.object(payload.value(), field, what) : payload;
  }

  private Future<Void> after(Duration spacing) {
    return Delays.after(vertx, Math.max(0, spacing.toMillis()));
  }

  // ---- search and covers ------------------------------------------------------------------------------------------

  @Override
  public boolean canSearch() {
    return true;
  }

  /** The source's own search, page 1; the mangas it finds are written into Suwayomi's database (not its library). */
  @Override
  public Future<FetchOutcome<List<TitleHit>>> search(String query, int limit) {
    String what = "search for '" + query + "'";
    JsonObject variables = new JsonObject().put("source", server.sourceId()).put("query", query).put("page", 1);
    return server.graphql("Search", SuwayomiOperations.SEARCH, variables, what).map(answer -> {
      FetchOutcome<JsonObject> payload = answer.ok() ? SuwayomiJson.object(answer.value(), "fetchSourceManga", what)
          : answer.failure();
      if (!payload.ok()) {
        return payload.failure();
      }
      FetchOutcome<JsonArray> mangas = SuwayomiJson.array(payload.value(), "mangas", what);
      if (!mangas.ok()) {
        return mangas.failure();
      }
      List<TitleHit> hits = new ArrayList<>();
      for (Object manga : mangas.value()) {
        if (hits.size() < limit && manga instanceof JsonObject m && SuwayomiJson.mangaId(m) != null) {
          hits.add(SuwayomiJson.hit(m, server.baseUrl(), language));
        }
      }
      return new FetchOutcome.Ok<>(hits);
    });
  }

  /** A thumbnail the server handed out in a search or preview, with the server's credentials; nothing elsewhere. */
  @Override
  public Future<FetchOutcome<PageBytes>> cover(String url) {
    if (url == null || !url.startsWith(server.baseUrl() + "/")) {
      return Future.succeededFuture(new FetchOutcome.NotFound<>("cover " + url + " is not on the Suwayomi server of "
          + "source " + name));
    }
    return server.image(url, "cover");
  }

  // ---- pages ------------------------------------------------------------------------------------------------------

  /**
   * Asks the server to fetch the chapter's page list from the source (the page endpoint serves nothing before) and
   * hands out the paths it answers, as they are, on the server's base URL.
   */
  @Override
  public Future<FetchOutcome<List<PageRef>>> pages(String titleId, ChapterInfo chapter) {
    String what = "chapter " + chapter.number() + " of " + titleId;
    if (!chapter.id().matches("\\d{1,10}") || Long.parseLong(chapter.id()) > Integer.MAX_VALUE) {
      return Future.succeededFuture(new FetchOutcome.NotFound<>(what + ": '" + chapter.id() + "' is not a Suwayomi "
          + "chapter id"));
    }
    JsonObject variables = new JsonObject().put("chapterId", Integer.parseInt(chapter.id()));
    return server.graphql("Pages", SuwayomiOperations.PAGES, variables, what).map(answer -> {
      FetchOutcome<JsonObject> payload = answer.ok() ? SuwayomiJson.object(answer.value(), "fetchChapterPages", what)
          : answer.failure();
      if (!payload.ok()) {
        return payload.failure();
      }
      FetchOutcome<JsonArray> pages = SuwayomiJson.array(payload.value(), "pages", what);
      if (!pages.ok()) {
        return pages.failure();
      }
      List<PageRef> refs = new ArrayList<>();
      for (Object page : pages.value()) {
        // Paths are relative to the server's base URL, subpath included: never resolved as URIs (that drops it).
        if (!(page instanceof String path) || !path.startsWith("/") || path.startsWith("//")) {
          return new FetchOutcome.ParseError<>(what + ": page " + (refs.size() + 1) + " is not a path on the "
              + "Suwayomi server");
        }
        refs.add(new PageRef(refs.size() + 1, chapter.id() + "-" + refs.size(), server.baseUrl() + path));
      }
      return new FetchOutcome.Ok<>(refs);
    });
  }

  @Override
  public Future<FetchOutcome<PageBytes>> page(PageRef page) {
    return server.image(page.url(), "page " + page.index());
  }

  // ---- holds ------------------------------------------------------------------------------------------------------

  @Override
  public Optional<SourceHold> hold() {
    return server.hold();
  }

  @Override
  public void holdUntil(Instant until, String reason) {
    server.holdUntil(until, reason);
  }

  @Override
  public SourceLimits limits() {
    return server.limits();
  }
}
