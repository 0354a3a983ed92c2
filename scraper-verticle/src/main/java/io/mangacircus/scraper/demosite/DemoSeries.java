package io.mangacircus.scraper.demosite;

import java.util.List;

/**
 * One demo series and its chapters.
 *
 * @param id the series id in URLs, e.g. {@code circus-nights}
 * @param title the display title
 * @param description a one-sentence blurb
 * @param imageFormat the file extension of every page image: {@code jpg} or {@code png}
 * @param chapters the chapters in the order the site lists them
 */
public record DemoSeries(String id, String title, String description, String imageFormat, List<DemoChapter> chapters) {

  public DemoSeries {
    chapters = List.copyOf(chapters);
  }

  /** The MIME type the site sends with this series' page images. */
  public String contentType() {
    return "png".equals(imageFormat) ? "image/png" : "image/jpeg";
  }
}
