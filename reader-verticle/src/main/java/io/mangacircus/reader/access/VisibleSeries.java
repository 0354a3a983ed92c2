package io.mangacircus.reader.access;

import io.mangacircus.contracts.rating.AgeRating;
import io.mangacircus.contracts.rating.SeriesRating;
import io.mangacircus.reader.accounts.AccessGuard;
import io.mangacircus.reader.catalog.KeptCatalog;
import io.mangacircus.reader.library.LibraryInventory;
import io.mangacircus.reader.library.SeriesEntry;
import io.mangacircus.reader.store.Session;
import io.vertx.ext.web.RoutingContext;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * Who sees which series (docs/libraries.md, "Who sees what"), in one place: every route that lists series filters its
 * list here, and every route that names a series (or a book, a page, a cover) is refused by {@link SeriesRouteGuard}
 * for a series the request's account may not see. A series is seen by its library and its effective rating: the
 * admin's rating from the catalog above the one its files give. A series the inventory does not list (yet) is seen
 * only by accounts that see everything. The accounts' access is kept in memory, loaded at start and changed with
 * each admin change. A series an admin merged into another ({@link SeriesMerges}) is left out of the lists of an
 * account that sees the series it was merged into, whose chapter list then holds its chapters; each part keeps its own
 * library and rating for its own chapters, so merging never shows anyone a chapter they could not read before.
 */
public final class VisibleSeries {

  /** Where the request's {@link Viewer} is kept on the routing context (put by the series guard). */
  public static final String VIEWER = "mc.viewer";

  /** What one request's account sees: the lists and ids of every route that serves series go through it. */
  public record Viewer(VisibleSeries visible, SeriesAccess access) {

    public boolean seesEverything() {
      return access.seesEverything();
    }

    public boolean sees(SeriesEntry series) {
      return visible.sees(access, series);
    }

    public boolean sees(String seriesId) {
      return visible.sees(access, seriesId);
    }

    public List<SeriesEntry> filter(List<SeriesEntry> list) {
      return visible.filter(access, list);
    }

    /** The series merged into {@code target} whose chapters this account sees in it, by id. */
    public List<String> parts(String target) {
      return visible.parts(access, target);
    }

    /** The series {@code seriesId} was merged into, if this account sees that one (else it is shown on its own). */
    public Optional<String> mergedInto(String seriesId) {
      return visible.mergedInto(access, seriesId);
    }

    /** Whether the account may see the library named {@code library} (some of its series may still be hidden). */
    public boolean seesLibrary(String library) {
      return access.admin() || access.access().allowsLibrary(library);
    }
  }

  /**
   * The request's viewer. Every route under {@code /api}, {@code /opds} and {@code /komga} has one (the series guard
   * runs before them); a route elsewhere that asks fails rather than show everything.
   */
  public static Viewer viewer(RoutingContext ctx) {
    Viewer viewer = ctx.get(VIEWER);
    if (viewer == null) {
      throw new IllegalStateException("no series viewer on " + ctx.normalizedPath() + ": the series guard did not run");
    }
    return viewer;
  }

  private final LibraryInventory inventory;
  private final KeptCatalog catalog;
  private final Map<String, UserAccess> accesses = new ConcurrentHashMap<>();
  private final SeriesMerges merges;

  /** @param accesses every account's access as stored (accounts not in it see everything, as new accounts do) */
  public VisibleSeries(LibraryInventory inventory, KeptCatalog catalog, Map<String, UserAccess> accesses) {
    this(inventory, catalog, accesses, SeriesMerges.none());
  }

  /** @param merges the admin's series merges, changed in place by the admin's routes */
  public VisibleSeries(LibraryInventory inventory, KeptCatalog catalog, Map<String, UserAccess> accesses,
      SeriesMerges merges) {
    this.inventory = inventory;
    this.catalog = catalog;
    this.merges = merges;
    accesses.forEach((user, access) -> this.accesses.put(key(user), access));
  }

  /** An admin changed what {@code username} may see. */
  public void changed(String username, UserAccess access) {
    accesses.put(key(username), access);
  }

  /** Every account's access as stored now (another reader changed some): accounts not in it see everything. */
  public void replaceAll(Map<String, UserAccess> stored) {
    Map<String, UserAccess> keyed = new java.util.HashMap<>();
    stored.forEach((user, access) -> keyed.put(key(user), access));
    accesses.putAll(keyed);
    accesses.keySet().retainAll(keyed.keySet());
  }

  /** What the request's account may see: the admin token and admins see everything. */
  public SeriesAccess of(RoutingContext ctx) {
    return of((Session) ctx.get(AccessGuard.SESSION));
  }

  /** What a session's account may see (null: the admin token, which sees everything). */
  public SeriesAccess of(Session session) {
    if (session == null) {
      return SeriesAccess.EVERYTHING;
    }
    return SeriesAccess.of(session.role(), accesses.getOrDefault(key(session.username()), UserAccess.EVERYTHING));
  }

  /** What the account named {@code username} (with {@code role}) may see, for work done outside a request. */
  public SeriesAccess of(String username, String role) {
    return SeriesAccess.of(role, accesses.getOrDefault(key(username), UserAccess.EVERYTHING));
  }

  /** Whether the account sees this listed series. */
  public boolean sees(SeriesAccess access, SeriesEntry series) {
    return access.seesEverything() || access.sees(series.library(), rating(series));
  }

  /** Whether the account sees the series with this id (one the inventory does not list: only if it sees everything). */
  public boolean sees(SeriesAccess access, String seriesId) {
    return access.seesEverything() || inventory.entry(seriesId).map(s -> sees(access, s)).orElse(false);
  }

  /**
   * The series of {@code list} the account sees on their own, in the same order (the list itself when it sees
   * everything and nothing is merged): a merged series is left out when the account sees the series it was merged
   * into, which shows its chapters.
   */
  public List<SeriesEntry> filter(SeriesAccess access, List<SeriesEntry> list) {
    if (!merges.any()) {
      return access.seesEverything() ? list : list.stream().filter(s -> sees(access, s)).toList();
    }
    return list.stream().filter(s -> sees(access, s) && mergedInto(access, s.id()).isEmpty()).toList();
  }

  /**
   * The series merged into {@code target} whose chapters the account sees in it: each by its own library and rating,
   * as its chapters' own routes check them (a stricter rule, the strictest rating of all parts, would hide the
   * target's own chapters from an account that could read them before the merge). Only listed series count.
   */
  public List<String> parts(SeriesAccess access, String target) {
    if (!merges.any()) {
      return List.of();
    }
    return merges.parts(target).stream()
        .filter(part -> inventory.entry(part).map(s -> sees(access, s)).orElse(false)).toList();
  }

  /**
   * The series {@code seriesId} was merged into, if the library lists it and the account sees it; else the merged
   * series is shown on its own (the target's files are gone, or the account may not see the target).
   */
  public Optional<String> mergedInto(SeriesAccess access, String seriesId) {
    return merges.mergedInto(seriesId)
        .filter(target -> inventory.entry(target).map(s -> sees(access, s)).orElse(false));
  }

  /** The series ids the account sees, as a test. */
  public Predicate<String> ids(SeriesAccess access) {
    return access.seesEverything() ? id -> true : id -> sees(access, id);
  }

  /** A series' effective rating: the admin's, else what its files say. */
  public AgeRating rating(SeriesEntry series) {
    return SeriesRating.decide(catalog.series(series.id()).rating().orElse(null), series.rating(), null).rating();
  }

  private static String key(String username) {
    return username.toLowerCase(java.util.Locale.ROOT);
  }
}
