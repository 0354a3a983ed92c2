package io.mangacircus.reader.library.providers;

import io.mangacircus.contracts.CorruptStateFileException;
import io.mangacircus.reader.MetadataProvidersConfig;
import io.mangacircus.reader.accounts.AccessGuard;
import io.mangacircus.reader.http.ApiReplies;
import io.mangacircus.reader.library.LibraryFiles;
import io.mangacircus.reader.library.LibraryInventory;
import io.mangacircus.reader.library.SeriesEntry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admin's metadata-provider routes, mounted at {@code /api/admin/metadata} (docs/api.md): the providers'
 * candidates for a series with their title-match scores, and applying one of them, which stores it in
 * {@code series-metadata.json}. Nothing is applied any other way. While the providers are off both answer 409 and
 * nothing is contacted.
 */
public final class MetadataProviderRoutes {

  private static final Logger LOG = LoggerFactory.getLogger(MetadataProviderRoutes.class);

  /** Alternative titles the admin may add to a candidates request at most. */
  static final int MAX_TITLES = 3;
  /** How long a provider's answer is reused, and how many are kept per provider. */
  static final Duration CACHE_TTL = Duration.ofHours(24);
  static final int CACHED_ANSWERS = 500;

  private final Vertx vertx;
  private final boolean enabled;
  private final Map<String, MetadataProvider> providers = new LinkedHashMap<>();
  private final TitleMatch match;
  private final ProviderMetadataStore store;
  private final Function<String, Optional<String>> seriesTitle;
  private final InstantSource clock;

  /**
   * @param providers the providers asked, in the order their candidates are listed on equal scores; ignored when off
   * @param seriesTitle a series' title by id, empty when there is no such series
   */
  public MetadataProviderRoutes(Vertx vertx, boolean enabled, List<MetadataProvider> providers, TitleMatch match,
      ProviderMetadataStore store, Function<String, Optional<String>> seriesTitle, InstantSource clock) {
    this.vertx = vertx;
    this.enabled = enabled;
    providers.forEach(p -> this.providers.put(p.name(), p));
    this.match = match;
    this.store = store;
    this.seriesTitle = seriesTitle;
    this.clock = clock;
  }

  /** The product's routes: AniList and MangaUpdates at the configured addresses, or none at all when off. */
  public static MetadataProviderRoutes create(Vertx vertx, MetadataProvidersConfig config, Path dataDir,
      LibraryInventory inventory, InstantSource clock) {
    List<MetadataProvider> providers = new ArrayList<>();
    if (config.enabled()) {
      WebClient client = WebClient.create(vertx, new WebClientOptions().setUserAgent("MangaCircus")
          .setConnectTimeout(10_000));
      PacedJsonClient.Delays delays = PacedJsonClient.timers(vertx);
      // AniList allows 90 requests a minute; MangaUpdates publishes no limit, so one a second.
      providers.add(new AniListProvider(new PacedJsonClient(AniListProvider.NAME, client, clock,
          Duration.ofMillis(667), CACHE_TTL, CACHED_ANSWERS, delays), config.anilistUrl()));
      providers.add(new MangaUpdatesProvider(new PacedJsonClient(MangaUpdatesProvider.NAME, client, clock,
          Duration.ofSeconds(1), CACHE_TTL, CACHED_ANSWERS, delays), config.mangaUpdatesUrl()));
    }
    return new MetadataProviderRoutes(vertx, config.enabled(), providers, new TitleMatch(config.minConfidence()),
        new ProviderMetadataStore(dataDir), id -> inventory.entry(id).map(SeriesEntry::title), clock);
  }

  /** The routes, mounted at {@code /api/admin/metadata}; admin-only. */
  public Router router() {
    Router router = Router.router(vertx);
    AccessGuard.adminOnly(router.get("/series/:series/candidates")).handler(this::handleCandidates);
    AccessGuard.adminOnly(router.post("/series/:series/apply")).handler(this::handleApply);
    return router;
  }

  private boolean refusedWhileOff(RoutingContext ctx) {
    if (!enabled) {
      ApiReplies.error(ctx, 409, "metadata_providers_off", "the metadata providers are off; an administrator turns "
          + "them on with reader.metadataProviders.enabled (docs/configuration.md)");
    }
    return !enabled;
  }

  private Optional<String> series(RoutingContext ctx) {
    String id = ctx.pathParam("series");
    Optional<String> title = LibraryFiles.validId(id) ? seriesTitle.apply(id) : Optional.empty();
    if (title.isEmpty()) {
      ApiReplies.error(ctx, 404, "not_found", "no series " + id);
    }
    return title;
  }

  private void handleCandidates(RoutingContext ctx) {
    if (refusedWhileOff(ctx)) {
      return;
    }
    Optional<String> title = series(ctx);
    if (title.isEmpty()) {
      return;
    }
    List<String> wanted = new ArrayList<>();
    wanted.add(title.get());
    ctx.queryParam("title").stream().filter(t -> !t.isBlank() && t.length() <= 300 && !wanted.contains(t))
        .limit(MAX_TITLES).forEach(wanted::add);
    Map<String, ProviderEntry> found = new LinkedHashMap<>();
    JsonArray failures = new JsonArray();
    List<Future<?>> asked = new ArrayList<>();
    for (MetadataProvider provider : providers.values()) {
      for (String t : wanted) {
        asked.add(provider.search(t).onSuccess(entries -> entries.forEach(e -> found.putIfAbsent(e.provider() + "/"
            + e.id(), e))).onFailure(e -> failures.add(new JsonObject().put("provider", provider.name())
            .put("title", t).put("message", e.getMessage()))).otherwiseEmpty());
      }
    }
    Future.join(asked).onComplete(done -> {
      List<JsonObject> candidates = new ArrayList<>();
      for (ProviderEntry entry : found.values()) {
        double score = match.score(wanted, entry.titles());
        candidates.add(json(entry).put("score", score).put("confident", match.confident(score)));
      }
      candidates.sort(Comparator.comparingDouble((JsonObject c) -> -c.getDouble("score")));
      JsonObject best = candidates.isEmpty() || !candidates.get(0).getBoolean("confident") ? null
          : new JsonObject().put("provider", candidates.get(0).getString("provider"))
              .put("id", candidates.get(0).getString("id")).put("score", candidates.get(0).getDouble("score"));
      if (candidates.isEmpty() && !failures.isEmpty()) {
        ctx.response().setStatusCode(502);
      }
      ctx.json(new JsonObject().put("series", ctx.pathParam("series")).put("titles", new JsonArray(wanted))
          .put("minConfidence", match.threshold()).put("confident", best)
          .put("candidates", new JsonArray(new ArrayList<>(candidates))).put("failures", failures));
    });
  }

  private void handleApply(RoutingContext ctx) {
    if (refusedWhileOff(ctx)) {
      return;
    }
    String seriesId = ctx.pathParam("series");
    if (series(ctx).isEmpty()) {
      return;
    }
    Optional<JsonObject> body = ApiReplies.body(ctx, "{\"provider\": \"anilist\", \"id\": \"30013\"}");
    if (body.isEmpty()) {
      return;
    }
    Object name = body.get().getValue("provider");
    Object idValue = body.get().getValue("id");
    String id = idValue instanceof Number n ? String.valueOf(n.longValue()) : idValue instanceof String s ? s : null;
    MetadataProvider provider = name instanceof String n ? providers.get(n) : null;
    if (provider == null || id == null || id.isBlank() || id.length() > 40) {
      ApiReplies.error(ctx, 400, "bad_request", "send {\"provider\": one of " + providers.keySet()
          + ", \"id\": the provider's id of the series}");
      return;
    }
    provider.details(id).onComplete(ar -> {
      if (ar.failed()) {
        ApiReplies.error(ctx, 502, "provider_failed", ar.cause().getMessage());
        return;
      }
      if (ar.result().isEmpty()) {
        ApiReplies.error(ctx, 404, "not_found", provider.name() + " has no series " + id);
        return;
      }
      ProviderEntry entry = ar.result().get();
      ProviderMetadataStore.Applied applied = new ProviderMetadataStore.Applied(entry.provider(), entry.id(),
          entry.url(), clock.instant().toString(), entry.metadata());
      vertx.executeBlocking(() -> store.put(seriesId, applied), false).onComplete(saved -> {
        if (saved.succeeded()) {
          LOG.info("[METADATA] applied {} {} to series {}", entry.provider(), entry.id(), seriesId);
          ctx.json(new JsonObject().put("series", seriesId).put("provider", applied.provider())
              .put("id", applied.id()).put("url", applied.url()).put("appliedAt", applied.appliedAt())
              .put("metadata", JsonObject.mapFrom(applied.metadata())));
        } else if (saved.cause() instanceof CorruptStateFileException corrupt) {
          LOG.error("[METADATA] {} {}; it is left as it is and nothing was applied", corrupt.file(),
              corrupt.problem());
          ApiReplies.error(ctx, 500, "metadata_file_unreadable", store.file().getFileName() + " "
              + corrupt.problem() + "; it is left as it is and nothing was applied");
        } else {
          ApiReplies.failure(ctx, saved.cause());
        }
      });
    });
  }

  private static JsonObject json(ProviderEntry entry) {
    return new JsonObject().put("provider", entry.provider()).put("id", entry.id()).put("url", entry.url())
        .put("title", entry.metadata().title()).put("titles", new JsonArray(entry.titles()))
        .put("metadata", JsonObject.mapFrom(entry.metadata()));
  }
}
