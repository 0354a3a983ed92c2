package io.mangacircus.reader.library.metadata;

import io.mangacircus.contracts.rating.AgeRating;
import io.mangacircus.reader.library.archive.ArchiveEntryReader;
import io.mangacircus.reader.library.archive.ArchiveEntryReader.EntryContent;
import io.mangacircus.reader.library.archive.ArchiveEntryReader.Found;
import io.mangacircus.reader.library.archive.ArchiveEntryReader.Refused;
import io.mangacircus.reader.library.metadata.BookComicInfo.Manga;
import io.mangacircus.reader.library.metadata.SeriesMetadata.Author;
import io.mangacircus.reader.library.metadata.SeriesMetadata.Role;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import javax.xml.XMLConstants;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * Reads a book's ComicInfo.xml (the Anansi project's schema, v2.0 and the v2.1 draft) into a {@link BookComicInfo},
 * safely: the file comes from whoever made the archive. The parser is the JDK's own StAX reader rather than a DOM
 * {@code DocumentBuilder}: it streams instead of building a tree, so nothing beyond the flat list of top-level values
 * is ever held, and it is configured with DTDs off, external entities off and no external access, and any
 * {@code DOCTYPE} at all is refused before an entity could be referenced. So external entities (XXE) are never
 * fetched and entity bombs (billion laughs) never expanded; the input is capped at {@link #MAX_BYTES} before parsing.
 * Every outcome is a value: a file that cannot be used gives its reason, never an exception.
 */
public final class ComicInfoReader {

  /** The biggest ComicInfo.xml read: 1 MiB. Real ones are a few kilobytes, even with a long page list. */
  public static final int MAX_BYTES = 1 << 20;

  private static final String FILE_NAME = "comicinfo.xml";

  /** Whether a file's name is ComicInfo.xml, whatever its case. */
  public static boolean isComicInfoName(String name) {
    return name.toLowerCase(Locale.ROOT).equals(FILE_NAME);
  }

  private static final Map<String, Role> ROLES = Map.of("writer", Role.WRITER, "penciller", Role.PENCILLER,
      "inker", Role.INKER, "colorist", Role.COLORIST, "letterer", Role.LETTERER, "coverartist", Role.COVER,
      "editor", Role.EDITOR, "translator", Role.TRANSLATOR);

  private ComicInfoReader() {
  }

  /**
   * The ComicInfo.xml of a ZIP/CBZ archive, read from the archive without unpacking it: the entry named
   * {@code ComicInfo.xml} in any case, at the root or one folder down (the root one first), skipping hidden folders and
   * macOS's {@code __MACOSX} copies.
   */
  public static Result fromArchive(Path archive) {
    EntryContent content = ArchiveEntryReader.read(archive, ComicInfoReader::isComicInfoEntry, MAX_BYTES);
    if (content instanceof Found found) {
      return parse(found.bytes());
    } else if (content instanceof Refused refused) {
      return new Unusable(refused.reason());
    }
    return new Missing();
  }

  /**
   * A ComicInfo.xml lying as a file (in a folder of images, or a downloaded chapter's folder): read only when it is a
   * plain file, not a link, of at most {@link #MAX_BYTES}; {@link Missing} when there is no such file.
   */
  public static Result fromFile(Path file) {
    try {
      BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class,
          LinkOption.NOFOLLOW_LINKS);
      if (!attributes.isRegularFile()) {
        return new Unusable(file.getFileName() + " is not a plain file (a link or a folder): not read");
      }
      if (attributes.size() > MAX_BYTES) {
        return new Unusable("ComicInfo.xml is " + attributes.size() + " bytes; at most " + MAX_BYTES + " are read");
      }
      // Opened without following a link, so one swapped in since the check above is refused, not read.
      try (InputStream in = Files.newInputStream(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
        byte[] bytes = in.readNBytes(MAX_BYTES + 1);
        return parse(bytes);
      }
    } catch (NoSuchFileException e) {
      return new Missing();
    } catch (IOException e) {
      return new Unusable("ComicInfo.xml cannot be read: " + MetadataText.line(String.valueOf(e.getMessage())));
    }
  }

  /** The book's ComicInfo when {@code result} holds one, else empty (a refusal gives no metadata). */
  public static Optional<BookComicInfo> info(Result result) {
    return result instanceof Parsed parsed ? Optional.of(parsed.info()) : Optional.empty();
  }

  /** Whether an archive entry's name is a ComicInfo.xml at the root or one folder down. */
  static boolean isComicInfoEntry(String name) {
    String[] segments = name.replace('\\', '/').split("/", -1);
    if (segments.length > 2 || !segments[segments.length - 1].toLowerCase(Locale.ROOT).equals(FILE_NAME)) {
      return false;
    }
    return segments.length == 1 || !(segments[0].startsWith(".") || segments[0].equals("__MACOSX"));
  }

  /** Reads ComicInfo.xml bytes (in the encoding its byte order mark or declaration names, UTF-8 by default). */
  public static Result parse(byte[] xml) {
    Objects.requireNonNull(xml, "xml");
    if (xml.length > MAX_BYTES) {
      return new Unusable("ComicInfo.xml is " + xml.length + " bytes; at most " + MAX_BYTES + " are read");
    }
    XmlDecoder.Decoded decoded = XmlDecoder.decode(xml);
    if (decoded.text() == null) {
      return new Unusable("ComicInfo.xml " + decoded.problem());
    }
    Map<String, String> values = new HashMap<>();
    XMLStreamReader reader = null;
    try {
      reader = factory().createXMLStreamReader(new StringReader(decoded.text()));
      int depth = 0;
      String element = null;
      StringBuilder text = new StringBuilder();
      while (reader.hasNext()) {
        switch (reader.next()) {
          case XMLStreamConstants.DTD -> {
            return new Unusable("ComicInfo.xml has a DOCTYPE declaration; none is needed, and entities are refused");
          }
          case XMLStreamConstants.START_ELEMENT -> {
            depth++;
            if (depth == 1 && !reader.getLocalName().equalsIgnoreCase("ComicInfo")) {
              return new Unusable("root element is <" + MetadataText.line(reader.getLocalName())
                  + ">, not <ComicInfo>");
            }
            if (depth == 2) {
              element = reader.getLocalName().toLowerCase(Locale.ROOT);
              text.setLength(0);
            }
          }
          case XMLStreamConstants.CHARACTERS, XMLStreamConstants.CDATA, XMLStreamConstants.SPACE -> {
            if (depth == 2) {
              text.append(reader.getText());
            }
          }
          case XMLStreamConstants.END_ELEMENT -> {
            if (depth == 2) {
              // The first of a repeated element wins, as a schema-valid file has each at most once.
              values.putIfAbsent(element, text.toString());
            }
            depth--;
          }
          default -> {
            // Comments, processing instructions and the document's start and end carry no metadata.
          }
        }
      }
      return new Parsed(book(values));
    } catch (XMLStreamException e) {
      return new Unusable("ComicInfo.xml is not well-formed XML: " + MetadataText.line(e.getMessage()));
    } finally {
      close(reader);
    }
  }

  private static XMLInputFactory factory() {
    // The JDK's implementation, not whichever one a jar on the class path registers, so the settings below are known
    // to hold; it also applies the JDK's entity expansion limits (jdk.xml.entityExpansionLimit) as a second line.
    XMLInputFactory factory = XMLInputFactory.newDefaultFactory();
    factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
    factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
    factory.setProperty(XMLConstants.ACCESS_EXTERNAL_DTD, "");
    factory.setProperty(XMLInputFactory.IS_COALESCING, true);
    return factory;
  }

  private static BookComicInfo book(Map<String, String> values) {
    List<Author> authors = new ArrayList<>();
    for (Map.Entry<String, Role> role : ROLES.entrySet()) {
      for (String name : MetadataText.commaList(values.get(role.getKey()))) {
        authors.add(new Author(name, role.getValue()));
      }
    }
    authors.sort((a, b) -> a.role().compareTo(b.role()));
    Integer month = MetadataText.positive(values.get("month"));
    Integer day = MetadataText.positive(values.get("day"));
    return new BookComicInfo(
        MetadataText.line(values.get("series")),
        MetadataText.line(values.get("number")),
        MetadataText.line(values.get("title")),
        MetadataText.positive(values.get("volume")),
        MetadataText.positive(values.get("count")),
        MetadataText.paragraphs(values.get("summary")),
        MetadataText.positive(values.get("year")),
        month != null && month <= 12 ? month : null,
        day != null && day <= 31 ? day : null,
        authors,
        MetadataText.line(values.get("publisher")),
        MetadataText.commaList(values.get("genre")),
        MetadataText.commaList(values.get("tags")),
        MetadataText.links(values.get("web")),
        MetadataText.language(values.get("languageiso")),
        AgeRating.fromComicInfo(MetadataText.line(values.get("agerating"))),
        manga(MetadataText.line(values.get("manga"))));
  }

  private static Manga manga(String value) {
    if (value == null) {
      return null;
    }
    return switch (value.toLowerCase(Locale.ROOT)) {
      case "yes" -> Manga.YES;
      case "no" -> Manga.NO;
      case "yesandrighttoleft" -> Manga.YES_AND_RIGHT_TO_LEFT;
      default -> null;
    };
  }

  private static void close(XMLStreamReader reader) {
    if (reader == null) {
      return;
    }
    try {
      reader.close();
    } catch (XMLStreamException e) {
      // Closing a reader over a byte array frees nothing that could fail; the outcome is already decided.
    }
  }

  /** What reading a ComicInfo.xml found. */
  public sealed interface Result permits Parsed, Missing, Unusable {
  }

  /** The file was read; values it lacks or holds in a bad form are missing in {@code info}. */
  public record Parsed(BookComicInfo info) implements Result {
    public Parsed {
      Objects.requireNonNull(info, "info");
    }
  }

  /** The archive is readable and has no ComicInfo.xml. */
  public record Missing() implements Result {
  }

  /** The file, or the archive holding it, cannot be used: not well-formed, a DOCTYPE, too big, a refused archive. */
  public record Unusable(String reason) implements Result {
    public Unusable {
      Objects.requireNonNull(reason, "reason");
    }
  }
}
