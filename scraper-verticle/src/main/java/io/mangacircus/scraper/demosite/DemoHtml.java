package io.mangacircus.scraper.demosite;

import java.util.List;

/** Writes the demo site's HTML pages: plain markup with stable classes and data attributes for scrapers to select. */
final class DemoHtml {

  private DemoHtml() {
  }

  static String index(List<DemoSeries> series) {
    StringBuilder html = new StringBuilder("<html><head><title>MangaCircus demo site</title></head><body>"
        + "<h1>MangaCircus demo site</h1><ul class=\"series-list\">");
    for (DemoSeries s : series) {
      html.append("<li><a class=\"series\" href=\"/series/").append(escape(s.id())).append("\">")
          .append(escape(s.title())).append("</a></li>");
    }
    return html.append("</ul></body></html>").toString();
  }

  /** The search results page: one {@code li.result} per series whose title contains the query. */
  static String search(String query, List<DemoSeries> found) {
    StringBuilder html = new StringBuilder("<html><head><title>Search: ").append(escape(query))
        .append("</title></head><body><ul class=\"results\">");
    for (DemoSeries s : found) {
      html.append("<li class=\"result\" data-id=\"").append(escape(s.id())).append("\" data-chapters=\"")
          .append(s.chapters().size()).append("\"><a href=\"/series/").append(escape(s.id())).append("\">")
          .append(escape(s.title())).append("</a></li>");
    }
    return html.append("</ul></body></html>").toString();
  }

  static String series(DemoSeries series) {
    StringBuilder html = new StringBuilder("<html><head><title>").append(escape(series.title()))
        .append("</title></head><body><h1 class=\"series-title\">").append(escape(series.title()))
        .append("</h1><p class=\"description\">").append(escape(series.description()))
        .append("</p><ul class=\"chapters\">");
    for (DemoChapter c : series.chapters()) {
      html.append("<li class=\"chapter\" data-id=\"").append(escape(c.id()))
          .append("\" data-number=\"").append(escape(c.number()))
          .append("\" data-lang=\"").append(escape(c.language()))
          .append("\"><a href=\"/series/").append(escape(series.id())).append("/chapter/").append(escape(c.id()))
          .append("\">Chapter ").append(escape(c.number())).append(": ").append(escape(c.title()))
          .append("</a></li>");
    }
    return html.append("</ul></body></html>").toString();
  }

  static String chapter(DemoSeries series, DemoChapter chapter, int pages) {
    String title = escape(series.title()) + " - Chapter " + escape(chapter.number()) + ": " + escape(chapter.title());
    StringBuilder html = new StringBuilder("<html><head><title>").append(title)
        .append("</title></head><body><h1 class=\"chapter-title\">").append(title)
        .append("</h1><a class=\"series-link\" href=\"/series/").append(escape(series.id()))
        .append("\">Back to the series</a><div class=\"pages\">");
    for (int page = 1; page <= pages; page++) {
      html.append("<img class=\"page\" src=\"").append(escape(imagePath(series, chapter, page)))
          .append("\" alt=\"Page ").append(page).append("\">");
    }
    return html.append("</div></body></html>").toString();
  }

  static String imagePath(DemoSeries series, DemoChapter chapter, int page) {
    return String.format("/img/%s/%s/%03d.%s", series.id(), chapter.id(), page, series.imageFormat());
  }

  static String status(int status, String reason) {
    String heading = status + " " + escape(reason);
    return "<html><head><title>" + heading + "</title></head><body><h1>" + heading + "</h1></body></html>";
  }

  /** The kind of page a CDN or an overloaded site sends with a 200 where an image was expected. */
  static String imageError() {
    return "<html><head><title>Error</title></head><body><h1>Something went wrong</h1>"
        + "<p>This image is temporarily unavailable. Please try again later.</p></body></html>";
  }

  static String escape(String text) {
    StringBuilder out = new StringBuilder(text.length());
    for (char c : text.toCharArray()) {
      switch (c) {
        case '&' -> out.append("&amp;");
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&#39;");
        default -> out.append(c);
      }
    }
    return out.toString();
  }
}
