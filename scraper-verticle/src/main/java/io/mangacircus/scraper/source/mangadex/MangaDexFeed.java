package io.mangacircus.scraper.source.mangadex;

import io.mangacircus.contracts.library.SourceSeriesMetadata;
import io.mangacircus.contracts.rating.AgeRating;
import io.mangacircus.scraper.source.FetchOutcome;
import io.mangacircus.scraper.source.Source.Wanted;
import io.mangacircus.scraper.source.TitleInfo;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
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
 * A title's inspection on MangaDex: {@code GET /manga/{id}} (its name, languages and age rating), then its chapters in the job's language from the
 * paginated {@code GET /manga/{id}/feed} (scheduled and externally hosted ones listed as such, never downloaded), one
 * per number by the group preference. An inspection cut short by a failure goes on from where it stopped.
 */
final class MangaDexFeed {

  /** The adapter's log: its lines keep the adapter's name whichever part writes them. */
  private static final Logger LOG = LoggerFactory.getLogger(MangaDexSource.class);

  /** How long an inspection cut short is remembered, to go on from where it stopped. */
  static final Duration PARTIAL_KEPT = Duration.ofMinutes(30);

  /** Inspections cut short that are remembered (the lane works on one at a time). */
  private static final int REMEMBERED_PARTIALS = 32;

  /** The "feed offset" of an inspection cut short after the chapters readable now, before the scheduled ones. */
  private static final int SCHEDULED_FEED = -1;

  /** An inspection cut short: what was read, and the feed offset it stopped at ({@link #SCHEDULED_FEED}). */
  private record Partial(Head head, List<MangaDexJson.Chapter> chapters, int nextOffset, Instant at) {
  }

  /** What {@code /manga/{id}} said of the title: its name, languages, age rating and descriptive metadata. */
  private record Head(String title, List<String> languages, AgeRating rating, SourceSeriesMetadata metadata) {
  }

  private final Map<String, Partial> partials = new LinkedHashMap<>(16, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Partial> eldest) {
      return size() > REMEMBERED_PARTIALS;
    }
  };

  private final MangaDexApi api;
  private final MangaDexOptions options;

  MangaDexFeed(MangaDexApi api, MangaDexOptions options) {
    this.api = api;
    this.options = options;
  }

  /**
   * The title and its feed in {@code wanted}'s language, one chapter per number by its group preference
   * ({@link io.mangacircus.scraper.source.GroupChoice}), {@code spacing} between requests (the lane's pacing). A title
   * whose manga answer lists its languages without the wanted one ends there, after one request. An inspection cut
   * short by a failure is remembered for {@link #PARTIAL_KEPT}: the next one goes on from the feed page that failed.
   */
  Future<FetchOutcome<TitleInfo>> title(String titleRef, Duration spacing, Wanted wanted) {
    Optional<String> parsed = MangaDexRefs.titleId(titleRef);
    if (parsed.isEmpty()) {
      return Future.succeededFuture(new FetchOutcome.NotFound<>("'" + titleRef.trim() + "' is not a MangaDex title "
          + "URL (https://mangadex.org/title/<id>/...) or title id (a UUID)"));
    }
    String id = parsed.get();
    Partial partial;
    synchronized (partials) {
      partial = partials.remove(id + "\u0000" + wanted.language());
    }
    if (partial != null && Duration.between(partial.at(), api.clock().instant()).compareTo(PARTIAL_KEPT) < 0) {
      LOG.info("[MANGADEX {}] inspection of {} goes on at feed offset {} ({} chapters read before)", api.name(), id,
          partial.nextOffset(), partial.chapters().size());
      return partial.nextOffset() == SCHEDULED_FEED
          ? scheduled(id, new ArrayList<>(partial.chapters()), spacing, partial.head(), wanted)
          : feed(id, partial.nextOffset(), new ArrayList<>(partial.chapters()), spacing, partial.head(), wanted);
    }
    String what = "MangaDex title " + id;
    // Authors and artists come with their names only when included.
    return api.api(api.baseUrl() + "/manga/" + id, what, false, request -> request
        .addQueryParam("includes[]", "author").addQueryParam("includes[]", "artist"))
        .compose(answer -> {
          if (!answer.ok()) {
            return Future.succeededFuture(answer.<TitleInfo>failure());
          }
          FetchOutcome<String> title = MangaDexJson.title(answer.value(), what);
          if (!title.ok()) {
            return Future.succeededFuture(title.<TitleInfo>failure());
          }
          List<String> languages = MangaDexJson.languages(answer.value());
          Head head = new Head(title.value(), languages, MangaDexRating.of(answer.value()),
              MangaDexDescription.of(api.name(), answer.value()));
          if (!languages.isEmpty() && !languages.contains(wanted.language())) {
            return Future.succeededFuture(new FetchOutcome.Ok<>(new TitleInfo(id, head.title(), List.of(),
                languages, head.rating(), head.metadata())));
          }
          return pause(spacing).compose(v -> feed(id, 0, new ArrayList<>(), spacing, head, wanted));
        });
  }

  /**
   * Every page of the feed in the wanted language of chapters readable now ({@code includeFuturePublishAt=0}, MangaDex's default
   * filter made explicit; chapters hosted elsewhere are in it) from {@code offset} on, appended to {@code chapters},
   * then the {@link #scheduled} ones.
   */
  private Future<FetchOutcome<TitleInfo>> feed(String id, int offset, List<MangaDexJson.Chapter> chapters,
      Duration spacing, Head head, Wanted wanted) {
    String what = "MangaDex feed of " + id + " at offset " + offset;
    int limit = Math.min(options.feedPageSize(), MangaDexApi.FEED_OFFSET_CAP - offset);
    return api.api(api.baseUrl() + "/manga/" + id + "/feed", what, false, request -> request
        .addQueryParam("translatedLanguage[]", wanted.language())
        .addQueryParam("order[chapter]", "asc")
        .addQueryParam("includeFuturePublishAt", "0")
        .addQueryParam("limit", String.valueOf(limit))
        .addQueryParam("offset", String.valueOf(offset)))
        .compose(answer -> {
          if (!answer.ok()) {
            synchronized (partials) {
              partials.put(id + "\u0000" + wanted.language(), new Partial(head, List.copyOf(chapters), offset,
                  api.clock().instant()));
            }
            return Future.succeededFuture(answer.<TitleInfo>failure());
          }
          FetchOutcome<MangaDexJson.FeedPage> page = MangaDexJson.feedPage(answer.value(), what);
          if (!page.ok()) {
            return Future.succeededFuture(page.<TitleInfo>failure());
          }
          chapters.addAll(page.value().chapters());
          int next = offset + Math.max(page.value().limit(), page.value().chapters().size());
          boolean done = page.value().chapters().isEmpty() || page.value().limit() < 1 || next >= page.value().total();
          if (!done && next >= MangaDexApi.FEED_OFFSET_CAP) {
            LOG.warn("[MANGADEX {}] title {} lists {} chapters; the API serves only the first {}", api.name(), id,
                page.value().total(), MangaDexApi.FEED_OFFSET_CAP);
            done = true;
          }
          if (done) {
            return pause(spacing).compose(v -> scheduled(id, chapters, spacing, head, wanted));
          }
          return pause(spacing).compose(v -> feed(id, next, chapters, spacing, head, wanted));
        });
  }

  /**
   * The chapters in the wanted language MangaDex releases later ({@code includeFuturePublishAt=1}: one page, they are few), appended
   * to {@code chapters}, then the title. Whatever the server sends, a chapter is listed as scheduled by its own
   * {@code publishAt}/{@code readableAt} against this adapter's clock, never by the query that found it.
   */
  private Future<FetchOutcome<TitleInfo>> scheduled(String id, List<MangaDexJson.Chapter> chapters, Duration spacing,
      Head head, Wanted wanted) {
    String what = "MangaDex scheduled chapters of " + id;
    return api.api(api.baseUrl() + "/manga/" + id + "/feed", what, false, request -> request
        .addQueryParam("translatedLanguage[]", wanted.language())
        .addQueryParam("order[chapter]", "asc")
        .addQueryParam("includeFuturePublishAt", "1")
        .addQueryParam("limit", String.valueOf(options.feedPageSize()))
        .addQueryParam("offset", "0"))
        .map(answer -> {
          if (!answer.ok()) {
            synchronized (partials) {
              partials.put(id + "\u0000" + wanted.language(), new Partial(head, List.copyOf(chapters),
                  SCHEDULED_FEED, api.clock().instant()));
            }
            return answer.<TitleInfo>failure();
          }
          FetchOutcome<MangaDexJson.FeedPage> page = MangaDexJson.feedPage(answer.value(), what);
          if (!page.ok()) {
            return page.<TitleInfo>failure();
          }
          if (page.value().total() > page.value().chapters().size()) {
            LOG.warn("[MANGADEX {}] title {} has {} scheduled chapters; only the first {} are listed", api.name(), id,
                page.value().total(), page.value().chapters().size());
          }
          List<MangaDexJson.Chapter> all = new ArrayList<>(chapters);
          all.addAll(page.value().chapters());
          return new FetchOutcome.Ok<>(new TitleInfo(id, head.title(), MangaDexJson.chapters(all,
              api.clock().instant(), wanted.preferredGroups()), head.languages(), head.rating(), head.metadata()));
        });
  }

  /** Waits {@code spacing} on a timer of the caller's context (at once for none). */
  private static Future<Void> pause(Duration spacing) {
    Context context = Vertx.currentContext();
    if (spacing.isZero() || spacing.isNegative() || context == null) {
      return Future.succeededFuture();
    }
    Promise<Void> done = Promise.promise();
    context.owner().setTimer(spacing.toMillis(), id -> done.complete());
    return done.future();
  }
}
