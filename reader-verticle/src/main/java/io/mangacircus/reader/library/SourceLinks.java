package io.mangacircus.reader.library;

import io.mangacircus.contracts.Addresses;
import io.mangacircus.contracts.ScraperRequests;
import io.mangacircus.contracts.scraper.SourcesReply;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A series' link to its title's page at the source: a title id that is itself an http(s) address, else the address the
 * scraper's sources reply gives for titles of that source ({@code titlePage}); null when neither tells. The reader
 * names no source: the addresses are asked of the scraper, kept for {@link #FRESH_FOR}, and asked again after a
 * failure no sooner than {@link #RETRY_AFTER}; only a request before the first answer waits for it.
 */
public final class SourceLinks {

  /** How long the scraper's title page addresses are used before they are asked again (in the background). */
  static final Duration FRESH_FOR = Duration.ofMinutes(5);

  /** After the scraper did not answer, how long before it is asked again. */
  static final Duration RETRY_AFTER = Duration.ofSeconds(30);

  /** What a title page address stands for with the title id. */
  static final String TITLE_ID = "{titleId}";

  /** A title id put into an address as it is: the characters a URL path segment takes unencoded. */
  private static final Pattern PLAIN_ID = Pattern.compile("[A-Za-z0-9._~-]{1,200}");

  private final Vertx vertx;
  private final long timeoutMs;
  private final InstantSource clock;
  /** Title page address by source name, as last answered; null before the first answer. */
  private Map<String, String> pages;
  private Instant answeredAt;
  private Instant failedAt;
  /** The request under way, or null. */
  private Future<Void> asking;

  /** @param timeoutMs how long a request to the scraper may take */
  public SourceLinks(Vertx vertx, long timeoutMs, InstantSource clock) {
    this.vertx = vertx;
    this.timeoutMs = timeoutMs;
    this.clock = clock;
  }

  /** The link of a title of {@code source}, or null; on the event loop. */
  public Future<String> titleUrl(String source, String titleId) {
    // A collection's series came from no site: its title id is its path in the collection.
    if (titleId == null || titleId.isBlank() || io.mangacircus.reader.library.collection.CollectionShelf.SOURCE
        .equals(source)) {
      return Future.succeededFuture(null);
    }
    if (titleId.startsWith("https://") || titleId.startsWith("http://")) {
      return Future.succeededFuture(titleId);
    }
    Future<Void> first;
    synchronized (this) {
      Future<Void> refresh = refreshIfDue();
      if (pages != null) {
        return Future.succeededFuture(link(pages.get(source), titleId));
      }
      first = refresh != null ? refresh : asking;
    }
    if (first == null) {
      return Future.succeededFuture(null);
    }
    return first.transform(ar -> Future.succeededFuture(known(source, titleId)));
  }

  private synchronized String known(String source, String titleId) {
    return pages == null ? null : link(pages.get(source), titleId);
  }

  /** Asks the scraper when the addresses are stale or missing and no request is under way; returns that request. */
  private Future<Void> refreshIfDue() {
    Instant now = clock.instant();
    if (asking != null || failedAt != null && now.isBefore(failedAt.plus(RETRY_AFTER))
        || pages != null && now.isBefore(answeredAt.plus(FRESH_FOR))) {
      return null;
    }
    Future<Void> request = vertx.eventBus().request(Addresses.SCRAPER_SOURCES_LIST, ScraperRequests.list(),
        new DeliveryOptions().setSendTimeout(timeoutMs))
        .map(reply -> SourcesReply.fromJson(reply.body()))
        .andThen(ar -> answered(ar.succeeded() ? ar.result() : null))
        .mapEmpty();
    // A request refused at once (no scraper) has already been answered: nothing is under way.
    asking = request.isComplete() ? null : request;
    return request;
  }

  private synchronized void answered(SourcesReply reply) {
    asking = null;
    if (reply == null) {
      failedAt = clock.instant();
      return;
    }
    Map<String, String> known = new HashMap<>();
    reply.sources().forEach(s -> {
      if (s.titlePage() != null) {
        known.put(s.name(), s.titlePage());
      }
    });
    pages = known;
    answeredAt = clock.instant();
    failedAt = null;
  }

  /**
   * A title page address with the title id put in, or null: without an address, or for an id that is not plain (it
   * is never encoded into someone's address).
   */
  static String link(String titlePage, String titleId) {
    if (titlePage == null || !titlePage.contains(TITLE_ID) || !PLAIN_ID.matcher(titleId).matches()) {
      return null;
    }
    return titlePage.replace(TITLE_ID, titleId);
  }
}
