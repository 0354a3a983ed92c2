package io.mangacircus.scraper.search;

import io.mangacircus.contracts.CoverRequest;
import io.mangacircus.contracts.ErrorCode;
import io.mangacircus.contracts.PreviewRequest;
import io.mangacircus.contracts.SearchRequest;
import io.mangacircus.contracts.scraper.PreviewReply;
import io.mangacircus.contracts.scraper.SearchReply;
import io.mangacircus.contracts.scraper.SearchResult;
import io.mangacircus.contracts.scraper.SourceProblem;
import io.mangacircus.contracts.scraper.SourcesReply;
import io.mangacircus.scraper.pacing.Delays;
import io.mangacircus.scraper.validate.ImageStructure;
import io.mangacircus.scraper.source.FetchOutcome;
import io.mangacircus.scraper.source.PageBytes;
import io.mangacircus.scraper.source.Source;
import io.mangacircus.scraper.source.SourceTypes;
import io.mangacircus.scraper.source.TitleHit;
import io.mangacircus.scraper.source.TitlePreview;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Title search, preview and covers over the configured sources (docs/sources.md, "Search"): each request goes through
 * the source's adapter behind its circuit (so its request limits and circuit apply) and waits its turn under the
 * lane's page delay ({@link SearchPacing}); answers are kept {@link #CACHE_TTL} ({@link TimedCache}) and a cached
 * answer sends nothing. A search of every source fans out: one source's problem is reported beside the others'
 * results. Covers are fetched by opaque id only ({@link CoverIds}).
 */
public final class TitleSearch {

  private static final Logger LOG = LoggerFactory.getLogger(TitleSearch.class);

  /** How long a search or preview answer is kept. */
  public static final Duration CACHE_TTL = Duration.ofMinutes(5);

  /** The largest cover handed back. */
  public static final int MAX_COVER_BYTES = 2 * 1024 * 1024;

  /** A request refused with a code ({@code message.fail(code, text)}). */
  public static final class Refusal extends RuntimeException {
    private final transient ErrorCode code;

    public Refusal(ErrorCode code, String message) {
      super(message, null, false, false);
      this.code = code;
    }

    public ErrorCode code() {
      return code;
    }
  }

  /** Cover bytes with their sniffed content type. */
  public record Cover(String contentType, byte[] bytes) {
  }

  /**
   * What the search works on.
   *
   * @param sources every configured source's name and type, in configuration order
   * @param adapters a source's adapter behind its circuit, or null before the adapters start
   * @param circuits a source's circuit state ({@code closed}, {@code half_open}, {@code open})
   * @param pageDelay a source's effective page delay (the lane's pacing)
   */
  public record Parts(Map<String, String> sources, Function<String, Source> adapters,
      Function<String, String> circuits, Function<String, Duration> pageDelay) {
  }

  private final Vertx vertx;
  private final InstantSource clock;
  private final Parts parts;
  private final SearchPacing pacing;
  private final TimedCache<String, List<TitleHit>> searches;
  private final TimedCache<String, TitlePreview> previews;
  private final CoverIds covers = new CoverIds(5_000);

  public TitleSearch(Vertx vertx, Parts parts, InstantSource clock) {
    this.vertx = vertx;
    this.clock = clock;
    this.parts = parts;
    this.pacing = new SearchPacing(clock);
    this.searches = new TimedCache<>(clock, CACHE_TTL, 500);
    this.previews = new TimedCache<>(clock, CACHE_TTL, 200);
  }

  /** Every source, whether it can search and its circuit. */
  public SourcesReply sources() {
    List<SourcesReply.Source> list = new ArrayList<>();
    parts.sources().forEach((name, type) -> {
      Source adapter = parts.adapters().apply(name);
      list.add(new SourcesReply.Source(name, type, adapter != null && adapter.canSearch(),
          parts.circuits().apply(name), SourceTypes.titlePage(type).orElse(null)));
    });
    return new SourcesReply(list);
  }

  /** Searches one source or every source; fails only with {@link Refusal} {@code UNKNOWN_SOURCE}. */
  public Future<SearchReply> search(SearchRequest request) {
    List<String> names;
    if (request.source() != null) {
      known(request.source());
      names = List.of(request.source());
    } else {
      names = List.copyOf(parts.sources().keySet());
    }
    List<Future<SourceAnswer>> answers = new ArrayList<>();
    for (String name : names) {
      answers.add(searchOne(name, request.query(), request.limit()));
    }
    return Future.join(answers).transform(ar -> {
      List<SearchResult> results = new ArrayList<>();
      List<SourceProblem> problems = new ArrayList<>();
      for (int i = 0; i < answers.size(); i++) {
        Future<SourceAnswer> answer = answers.get(i);
        if (answer.succeeded()) {
          results.addAll(answer.result().results());
          answer.result().problem().ifPresent(problems::add);
        } else {
          LOG.error("[SEARCH] {} failed: {}", names.get(i), answer.cause().toString(), answer.cause());
          problems.add(new SourceProblem(names.get(i), SourceProblem.SOURCE_FAILED, "the search failed: "
              + answer.cause().getMessage()));
        }
      }
      return Future.succeededFuture(new SearchReply(request.query(), results, problems));
    });
  }

  private record SourceAnswer(List<SearchResult> results, Optional<SourceProblem> problem) {

    static SourceAnswer of(SourceProblem problem) {
      return new SourceAnswer(List.of(), Optional.of(problem));
    }
  }

  private Future<SourceAnswer> searchOne(String name, String query, int limit) {
    Source source = parts.adapters().apply(name);
    if (source == null || !source.canSearch()) {
      return Future.succeededFuture(SourceAnswer.of(new SourceProblem(name, SourceProblem.CANNOT_SEARCH,
          "source " + name + " (" + parts.sources().get(name) + ") cannot search by title")));
    }
    String key = name + "\u0000" + normalised(query) + "\u0000" + limit;
    Optional<List<TitleHit>> cached = searches.get(key);
    if (cached.isPresent()) {
      return Future.succeededFuture(new SourceAnswer(results(name, cached.get()), Optional.empty()));
    }
    return paced(name, () -> source.search(query, limit)).map(outcome -> {
      if (outcome.ok()) {
        searches.put(key, outcome.value());
        return new SourceAnswer(results(name, outcome.value()), Optional.empty());
      }
      if (outcome instanceof FetchOutcome.NotFound<?>) {
        // A site that answers "no such page" to a search found nothing; nothing to keep.
        return new SourceAnswer(List.of(), Optional.empty());
      }
      LOG.warn("[SEARCH] {} '{}': {}", name, query, outcome.describe());
      return SourceAnswer.of(problem(name, outcome));
    });
  }

  private List<SearchResult> results(String source, List<TitleHit> hits) {
    return hits.stream().map(hit -> new SearchResult(source, hit.titleId(), hit.title(), hit.altTitles(), hit.year(),
        hit.status(), hit.languages(), hit.chapterCount(), covers.idOf(source, hit.coverUrl()), hit.url())).toList();
  }

  /** One title's details and chapters; fails with {@link Refusal} (unknown source, not found, source unavailable). */
  public Future<PreviewReply> preview(PreviewRequest request) {
    String name = request.source();
    known(name);
    Source source = parts.adapters().apply(name);
    if (source == null) {
      return Future.failedFuture(new Refusal(ErrorCode.NOT_READY, "source " + name + " is not started yet"));
    }
    String titleId = source.titleIdOf(request.titleId());
    String key = name + "\u0000" + titleId;
    Optional<TitlePreview> cached = previews.get(key);
    Future<FetchOutcome<TitlePreview>> fetched = cached.isPresent()
        ? Future.succeededFuture(new FetchOutcome.Ok<>(cached.get()))
        : paced(name, () -> source.preview(titleId));
    return fetched.compose(outcome -> {
      if (!outcome.ok()) {
        return Future.failedFuture(outcome instanceof FetchOutcome.NotFound<?> n
            ? new Refusal(ErrorCode.NOT_FOUND, "source " + name + " has no title '" + titleId + "': " + n.what())
            : new Refusal(ErrorCode.SOURCE_UNAVAILABLE, "source " + name + ": " + outcome.describe()));
      }
      previews.put(key, outcome.value());
      return Future.succeededFuture(reply(name, outcome.value()));
    });
  }

  private PreviewReply reply(String source, TitlePreview preview) {
    java.time.Instant now = clock.instant();
    List<PreviewReply.Chapter> chapters = preview.chapters().stream().map(c -> {
      Optional<String> why = c.info().notDownloadable(now);
      return new PreviewReply.Chapter(c.info().id(), c.info().number(), c.info().title(),
          c.info().language() == null || c.info().language().isEmpty() ? "en" : c.info().language(), c.groupIds(),
          c.publishedAt(), why.isEmpty(), why.orElse(null));
    }).toList();
    return new PreviewReply(source, preview.titleId(), preview.title(), preview.altTitles(), preview.description(),
        preview.tags(), preview.year(), preview.status(), covers.idOf(source, preview.coverUrl()), preview.url(),
        chapters.stream().map(PreviewReply.Chapter::language).distinct().toList(),
        preview.groups().stream().map(g -> new PreviewReply.Group(g.id(), g.name())).toList(), chapters);
  }

  /** A cover's bytes by its id; fails with {@link Refusal} (not found, bad image, source unavailable). */
  public Future<Cover> cover(CoverRequest request) {
    String name = request.source();
    known(name);
    Optional<CoverIds.Cover> cover = covers.cover(name, request.coverId());
    Source source = parts.adapters().apply(name);
    if (cover.isEmpty() || source == null) {
      return Future.failedFuture(new Refusal(ErrorCode.NOT_FOUND, "no cover '" + request.coverId() + "' of source "
          + name + " (cover ids come from a recent search or preview)"));
    }
    return paced(name, () -> source.cover(cover.get().url())).compose(outcome -> {
      if (outcome instanceof FetchOutcome.ParseError<?> p) {
        return Future.failedFuture(new Refusal(ErrorCode.BAD_IMAGE, "the cover is not usable: " + p.message()));
      }
      if (outcome instanceof FetchOutcome.NotFound<?>) {
        return Future.failedFuture(new Refusal(ErrorCode.NOT_FOUND, "source " + name + " has no such cover any more"));
      }
      if (!outcome.ok()) {
        return Future.failedFuture(new Refusal(ErrorCode.SOURCE_UNAVAILABLE, "source " + name + ": "
            + outcome.describe()));
      }
      PageBytes bytes = outcome.value();
      if (bytes.bytes().length > MAX_COVER_BYTES) {
        return Future.failedFuture(new Refusal(ErrorCode.BAD_IMAGE, "the cover is larger than "
            + MAX_COVER_BYTES + " bytes"));
      }
      String type = imageType(bytes.bytes());
      if (type == null) {
        return Future.failedFuture(new Refusal(ErrorCode.BAD_IMAGE, "the cover is not a JPEG, PNG, GIF or WebP image"
            + " (the source sent '" + bytes.contentType() + "')"));
      }
      return Future.succeededFuture(new Cover(type, bytes.bytes()));
    });
  }

  /** The image type its first bytes say, or null when they say none we serve. */
  static String imageType(byte[] b) {
    String signature = ImageStructure.signature(b);
    if (signature == null) {
      return null;
    }
    return switch (signature) {
      case ImageStructure.JPEG -> "image/jpeg";
      case ImageStructure.PNG -> "image/png";
      case ImageStructure.GIF -> "image/gif";
      case ImageStructure.WEBP -> "image/webp";
      default -> null;
    };
  }

  // ---- helpers --------------------------------------------------------------------------------------------------

  private void known(String name) {
    if (!parts.sources().containsKey(name)) {
      throw new Refusal(ErrorCode.UNKNOWN_SOURCE, "unknown source '" + name + "' (configured: "
          + String.join(", ", parts.sources().keySet()) + ")");
    }
  }

  /** Nothing is sent while the source's circuit is open: the answer is {@link FetchOutcome.CircuitOpen} at once. */
  private <T> Future<FetchOutcome<T>> unlessOpen(String name, Supplier<Future<FetchOutcome<T>>> call) {
    if ("open".equals(parts.circuits().apply(name))) {
      return Future.succeededFuture(new FetchOutcome.CircuitOpen<>(clock.instant(), "circuit of source "
          + name + " is open after repeated failures; nothing was asked"));
    }
    return call.get();
  }

  /** Waits the source's turn under the lane's page delay, then calls; nothing waits while the circuit is open. */
  private <T> Future<FetchOutcome<T>> paced(String name, Supplier<Future<FetchOutcome<T>>> call) {
    return unlessOpen(name, () -> {
      Duration wait = pacing.reserve(name, parts.pageDelay().apply(name));
      return (wait.isZero() ? Future.<Void>succeededFuture() : Delays.after(vertx, wait.toMillis()))
          .compose(v -> call.get());
    });
  }

  private static SourceProblem problem(String name, FetchOutcome<?> outcome) {
    if (outcome instanceof FetchOutcome.CircuitOpen<?> open) {
      return new SourceProblem(name, SourceProblem.CIRCUIT_OPEN, open.message());
    }
    if (outcome instanceof FetchOutcome.RateLimited<?> || outcome instanceof FetchOutcome.Held<?>) {
      return new SourceProblem(name, SourceProblem.RATE_LIMITED, "source " + name + " asks us to wait: "
          + outcome.describe());
    }
    return new SourceProblem(name, SourceProblem.SOURCE_FAILED, "source " + name + ": " + outcome.describe());
  }

  /** A query as the cache keys it: trimmed, lower case, inner blanks as one space. */
  static String normalised(String query) {
    return query.trim().replaceAll("\\s+", " ").toLowerCase(Locale.ROOT);
  }
}
