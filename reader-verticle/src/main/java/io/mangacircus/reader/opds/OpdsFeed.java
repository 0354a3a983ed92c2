package io.mangacircus.reader.opds;

import static io.mangacircus.support.xml.XmlText.escape;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes one OPDS 1.2 catalog feed (an Atom feed) with the OPDS-PSE 1.1 namespace: the feed's own links, then its
 * entries. Text is escaped here, by the one XML escaper ({@code XmlText}). No Vert.x, no I/O.
 */
public final class OpdsFeed {

  /** The media type of a navigation feed. */
  public static final String NAVIGATION = "application/atom+xml;profile=opds-catalog;kind=navigation";

  /** The media type of an acquisition feed. */
  public static final String ACQUISITION = "application/atom+xml;profile=opds-catalog;kind=acquisition";

  /** The OPDS-PSE namespace and its page-stream link relation. */
  public static final String PSE_NS = "http://vaemendis.net/opds-pse/ns";
  public static final String PSE_STREAM = "http://vaemendis.net/opds-pse/stream";

  /** OPDS link relations. */
  public static final String ACQUIRE = "http://opds-spec.org/acquisition";
  public static final String IMAGE = "http://opds-spec.org/image";
  public static final String THUMBNAIL = "http://opds-spec.org/image/thumbnail";

  /** A link: {@code attributes} are further name/value pairs written as they are named (e.g. {@code pse:count}). */
  public record Link(String rel, String href, String type, String title, List<String[]> attributes) {
    public Link(String rel, String href, String type) {
      this(rel, href, type, null, List.of());
    }
  }

  /**
   * One entry.
   *
   * @param content a line of plain text, may be null
   * @param categories category terms (tags)
   * @param language the language of the entry's publication as OPDS 1.2 gives it ({@code dc:language}, here
   *     {@code dcterms:language}: the same Dublin Core terms namespace), a code such as {@code en}; null for none
   */
  public record Entry(String id, String title, Instant updated, String content, List<Link> links,
      List<String> categories, String language) {

    /** An entry without a language (a navigation entry, a series). */
    public Entry(String id, String title, Instant updated, String content, List<Link> links,
        List<String> categories) {
      this(id, title, updated, content, links, categories, null);
    }
  }

  private final String id;
  private final String title;
  private final Instant updated;
  private final List<Link> links = new ArrayList<>();
  private final List<Entry> entries = new ArrayList<>();

  public OpdsFeed(String id, String title, Instant updated) {
    this.id = id;
    this.title = title;
    this.updated = updated;
  }

  public OpdsFeed link(Link link) {
    links.add(link);
    return this;
  }

  public OpdsFeed entry(Entry entry) {
    entries.add(entry);
    return this;
  }

  /** The feed as UTF-8 XML text. */
  public String xml() {
    StringBuilder out = new StringBuilder(4096);
    out.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        .append("<feed xmlns=\"http://www.w3.org/2005/Atom\" xmlns:opds=\"http://opds-spec.org/2010/catalog\"")
        .append(" xmlns:pse=\"").append(PSE_NS).append("\"")
        .append(" xmlns:dcterms=\"http://purl.org/dc/terms/\"")
        .append(" xmlns:opensearch=\"http://a9.com/-/spec/opensearch/1.1/\">\n");
    element(out, "  ", "id", id);
    element(out, "  ", "title", title);
    element(out, "  ", "updated", time(updated));
    out.append("  <author><name>MangaCircus</name></author>\n");
    for (Link link : links) {
      link(out, "  ", link);
    }
    for (Entry entry : entries) {
      out.append("  <entry>\n");
      element(out, "    ", "id", entry.id());
      element(out, "    ", "title", entry.title());
      element(out, "    ", "updated", time(entry.updated()));
      if (entry.language() != null) {
        element(out, "    ", "dcterms:language", entry.language());
      }
      for (String category : entry.categories()) {
        out.append("    <category term=\"").append(escape(category)).append("\" label=\"").append(escape(category))
            .append("\"/>\n");
      }
      if (entry.content() != null) {
        out.append("    <content type=\"text\">").append(escape(entry.content())).append("</content>\n");
      }
      for (Link link : entry.links()) {
        link(out, "    ", link);
      }
      out.append("  </entry>\n");
    }
    return out.append("</feed>\n").toString();
  }

  private static void link(StringBuilder out, String indent, Link link) {
    out.append(indent).append("<link rel=\"").append(escape(link.rel())).append("\" href=\"")
        .append(escape(link.href())).append('"');
    if (link.type() != null) {
      out.append(" type=\"").append(escape(link.type())).append('"');
    }
    if (link.title() != null) {
      out.append(" title=\"").append(escape(link.title())).append('"');
    }
    for (String[] attribute : link.attributes()) {
      out.append(' ').append(attribute[0]).append("=\"").append(escape(attribute[1])).append('"');
    }
    out.append("/>\n");
  }

  private static void element(StringBuilder out, String indent, String name, String text) {
    out.append(indent).append('<').append(name).append('>').append(escape(text)).append("</").append(name)
        .append(">\n");
  }

  /** An Atom date: UTC, whole seconds. */
  static String time(Instant instant) {
    return (instant == null ? Instant.EPOCH : instant).truncatedTo(ChronoUnit.SECONDS).toString();
  }
}
