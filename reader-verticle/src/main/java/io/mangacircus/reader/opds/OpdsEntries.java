package io.mangacircus.reader.opds;

import io.mangacircus.reader.store.Progress;
import io.mangacircus.reader.library.CbzDownload;
import io.mangacircus.reader.library.LibraryFiles;
import io.mangacircus.reader.library.SeriesEntry;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/** The OPDS catalog's feeds and entries, made from the library and a user's reading: no Vert.x, no I/O. */
final class OpdsEntries {

  /** The media type of the OpenSearch description. */
  static final String OPENSEARCH = "application/opensearchdescription+xml";
  private static final Set<String> PSE_TYPES = Set.of("image/jpeg", "image/png", "image/gif");

  private OpdsEntries() {
  }

  /** A user's place in one series: its position and the chapters marked read. */
  record Reading(Optional<Progress> progress, Set<String> read) {
  }

  static OpdsFeed.Entry series(String base, SeriesEntry s) {
    String href = base + "/series/" + s.id();
    String cover = href + "/cover";
    return new OpdsFeed.Entry("urn:mangacircus:series:" + s.id(), s.title(), s.updatedAt(),
        s.chapters() + (s.chapters() == 1 ? " chapter" : " chapters"),
        List.of(new OpdsFeed.Link("subsection", href, OpdsFeed.ACQUISITION),
            new OpdsFeed.Link(OpdsFeed.IMAGE, cover, null), new OpdsFeed.Link(OpdsFeed.THUMBNAIL, cover, null)),
        List.of());
  }

  /**
   * One chapter: its number, title and language (from {@code chapter.json}, as in ComicInfo.xml), the CBZ acquisition
   * link, the page-stream link with the page count and the user's last page read, and the series cover.
   */
  static OpdsFeed.Entry chapter(String base, LibraryFiles.Chapter c, Reading reading,
      boolean withSeries) {
    String chapterPath = base + "/series/" + c.seriesId() + "/chapters/" + c.id();
    String name = "Chapter " + c.number() + (c.title() == null || c.title().isEmpty() ? "" : ": " + c.title());
    String title = withSeries ? c.seriesTitle() + " – " + name : name;
    int count = c.pages().size();
    List<String[]> pse = new ArrayList<>();
    pse.add(new String[] {"pse:count", String.valueOf(count)});
    Optional<Progress> here = reading.progress().filter(p -> p.chapter().equals(c.id()));
    if (here.isPresent()) {
      pse.add(new String[] {"pse:lastRead", String.valueOf(here.get().page())});
      pse.add(new String[] {"pse:lastReadDate", OpdsFeed.time(here.get().updatedAt())});
    } else if (reading.read().contains(c.id())) {
      pse.add(new String[] {"pse:lastRead", String.valueOf(count)});
    }
    String pageType = c.pages().get(0).mediaType();
    String cover = base + "/series/" + c.seriesId() + "/cover";
    List<OpdsFeed.Link> links = List.of(
        new OpdsFeed.Link(OpdsFeed.ACQUIRE, chapterPath + ".cbz", CbzDownload.MEDIA_TYPE, "CBZ", List.of()),
        new OpdsFeed.Link(OpdsFeed.PSE_STREAM, chapterPath + "/pages/{pageNumber}",
            PSE_TYPES.contains(pageType) ? pageType : "image/jpeg", null, pse),
        new OpdsFeed.Link(OpdsFeed.IMAGE, cover, pageType),
        new OpdsFeed.Link(OpdsFeed.THUMBNAIL, cover, pageType));
    String state = reading.read().contains(c.id()) ? "read" : here.map(p -> "page " + p.page() + " of " + count)
        .orElse("unread");
    return new OpdsFeed.Entry("urn:mangacircus:chapter:" + c.seriesId() + ":" + c.id(), title, c.publishedAt(),
        c.seriesTitle() + ", chapter " + c.number() + ": " + count + (count == 1 ? " page" : " pages") + ", " + state,
        links, List.of(), c.language());
  }

  static OpdsFeed.Entry navigation(String id, String title, Instant updated, String content, String href,
      String type) {
    return new OpdsFeed.Entry(id, title, updated, content, List.of(new OpdsFeed.Link("subsection", href, type)),
        List.of());
  }

  static OpdsFeed feed(String base, String id, String title, Instant updated, String self, String type) {
    return new OpdsFeed(id, title, updated)
        .link(new OpdsFeed.Link("self", self, type))
        .link(new OpdsFeed.Link("start", base + "/catalog", OpdsFeed.NAVIGATION))
        .link(new OpdsFeed.Link("search", base + "/search.xml", OPENSEARCH));
  }

  static Instant updated(List<SeriesEntry> series) {
    return series.stream().map(SeriesEntry::updatedAt).filter(Objects::nonNull).max(Instant::compareTo)
        .orElse(Instant.EPOCH);
  }
}
