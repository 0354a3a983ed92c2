package io.mangacircus.scraper.demosite;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The fixed content of the built-in demo manga site: three series, their chapters and their page images.
 *
 * <p>Every chapter can also serve one extra page, {@code pages + 1}, drawn as "added"; the site lists it only once a
 * test changes the chapter's page list. Images are rendered on first use (tens of milliseconds each, blocking) and
 * cached.
 */
public final class DemoCatalog {

  private static final List<DemoSeries> SERIES = List.of(
      new DemoSeries("circus-nights", "Circus Nights",
          "When the big top goes dark, the acrobats & clowns of the Cirque Lune start their real show.", "jpg",
          List.of(
              new DemoChapter("c1", "1", "The Big Top", "en", 12),
              new DemoChapter("c2", "2", "Midnight Parade", "en", 18),
              new DemoChapter("c3", "3", "Sawdust and Sequins", "en", 10),
              new DemoChapter("c4", "4", "Last Encore", "en", 24))),
      new DemoSeries("tightrope-walker", "The Tightrope Walker",
          "A girl who cannot stand heights inherits her mother's wire, 40 metres above the ring.", "png",
          List.of(
              new DemoChapter("c1", "1", "First Step", "en", 10),
              new DemoChapter("c2", "2", "Wind on the Wire", "en", 14),
              new DemoChapter("c3", "3", "No Net", "en", 20))),
      new DemoSeries("lion-tamer", "The Lion Tamer",
          "An old tamer, a young lion and a circus that wants to sell them both.", "jpg",
          List.of(
              new DemoChapter("c1", "1", "The Cage", "en", 16),
              new DemoChapter("c2", "2", "The Roar", "en", 30),
              new DemoChapter("c2-fr", "2", "Le Rugissement", "fr", 12))));

  private final Map<String, byte[]> images = new ConcurrentHashMap<>();

  /** All series, in the order the site's index lists them. */
  public List<DemoSeries> series() {
    return SERIES;
  }

  public Optional<DemoSeries> series(String id) {
    return SERIES.stream().filter(s -> s.id().equals(id)).findFirst();
  }

  public Optional<DemoChapter> chapter(String seriesId, String chapterId) {
    return series(seriesId).flatMap(s -> s.chapters().stream().filter(c -> c.id().equals(chapterId)).findFirst());
  }

  /** How many pages the chapter lists: its page count, plus one when its page list has been changed. */
  public int pageCount(String seriesId, String chapterId, boolean changed) {
    return existing(seriesId, chapterId).pages() + (changed ? 1 : 0);
  }

  /**
   * The encoded image of a page, 1-based; {@code pages + 1} is the page a changed page list adds.
   *
   * @throws IllegalArgumentException for an unknown series, chapter or page
   */
  public byte[] pageImage(String seriesId, String chapterId, int pageIndex) {
    DemoChapter chapter = existing(seriesId, chapterId);
    if (pageIndex < 1 || pageIndex > chapter.pages() + 1) {
      throw new IllegalArgumentException("no page " + pageIndex + " in demo chapter " + seriesId + "/" + chapterId
          + " (1.." + chapter.pages() + ", or " + (chapter.pages() + 1) + " once the page list changes)");
    }
    DemoSeries series = series(seriesId).orElseThrow();
    String key = seriesId + "/" + chapterId + "/" + pageIndex;
    // Rendered outside the map so a slow render never blocks other pages; a rare double render gives equal bytes.
    byte[] image = images.get(key);
    if (image == null) {
      image = PageImageRenderer.render(series, chapter, pageIndex, chapter.pages());
      images.putIfAbsent(key, image);
    }
    return image.clone();
  }

  private DemoChapter existing(String seriesId, String chapterId) {
    return chapter(seriesId, chapterId).orElseThrow(
        () -> new IllegalArgumentException("no demo chapter " + seriesId + "/" + chapterId));
  }
}
