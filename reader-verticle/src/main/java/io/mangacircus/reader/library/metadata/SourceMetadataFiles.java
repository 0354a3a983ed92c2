package io.mangacircus.reader.library.metadata;

import io.mangacircus.contracts.library.SourceSeriesMetadata;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the {@code .mangacircus-source-metadata.json} the scraper keeps in a downloaded series' folder as the series'
 * source metadata. A file is parsed again only when its size or modification time changed; one that cannot be used
 * counts as none, its reason logged once per version of the file. The reader never writes it.
 */
public final class SourceMetadataFiles {

  private static final Logger LOG = LoggerFactory.getLogger(SourceMetadataFiles.class);

  /** A file as last read: its size and time, and what it gave (null when it could not be used). */
  private record Read(long size, long modified, SeriesMetadata metadata) {
  }

  /** The most files whose last read is remembered: the series being viewed, not the whole library's summaries. */
  static final int REMEMBERED = 512;

  private final Map<Path, Read> reads = java.util.Collections.synchronizedMap(
      new java.util.LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Path, Read> eldest) {
          return size() > REMEMBERED;
        }
      });

  /** The source metadata in {@code seriesFolder}, or null when it has none or it cannot be used. */
  public SeriesMetadata series(Path seriesFolder) {
    Path file = seriesFolder.resolve(SourceSeriesMetadata.FILE);
    BasicFileAttributes attributes;
    try {
      attributes = Files.readAttributes(file, BasicFileAttributes.class);
    } catch (NoSuchFileException e) {
      reads.remove(file);
      return null;
    } catch (IOException e) {
      LOG.warn("[LIBRARY] {} cannot be read, the series shows no source metadata: {}", file, e.toString());
      return null;
    }
    Read last = reads.get(file);
    long modified = attributes.lastModifiedTime().toMillis();
    if (last != null && last.size() == attributes.size() && last.modified() == modified) {
      return last.metadata();
    }
    SeriesMetadata metadata = null;
    try {
      metadata = of(SourceSeriesMetadata.read(seriesFolder));
    } catch (SourceSeriesMetadata.InvalidException e) {
      LOG.warn("[LIBRARY] {} is ignored, the series shows no source metadata: {}", file, e.getMessage());
    } catch (IOException e) {
      LOG.warn("[LIBRARY] {} cannot be read, the series shows no source metadata: {}", file, e.toString());
      return null;
    }
    reads.put(file, new Read(attributes.size(), modified, metadata));
    return metadata;
  }

  /**
   * What the file says, as series metadata: no rating (the rating access decides with comes from the chapters) and no
   * language (the file's is the original one, not the language of the books).
   */
  static SeriesMetadata of(SourceSeriesMetadata file) {
    List<SeriesMetadata.Author> authors = new ArrayList<>();
    for (SourceSeriesMetadata.Author author : file.authors()) {
      SeriesMetadata.Role role = role(author.role());
      String name = MetadataText.line(author.name());
      if (role != null && name != null && !authors.contains(new SeriesMetadata.Author(name, role))) {
        authors.add(new SeriesMetadata.Author(name, role));
      }
    }
    List<String> links = new ArrayList<>();
    for (SourceSeriesMetadata.Link link : file.links()) {
      String url = MetadataText.webLink(link.url());
      if (url != null && !links.contains(url)) {
        links.add(url);
      }
    }
    return new SeriesMetadata(MetadataText.line(file.title()), MetadataText.paragraphs(file.summary()), authors,
        lines(file.genres()), lines(file.tags()), null, null, links,
        file.year() != null && file.year() > 0 ? file.year() : null, SeriesMetadata.Status.fromMangaDex(file.status()),
        null);
  }

  private static List<String> lines(List<String> items) {
    return MetadataText.distinct(items.stream().map(MetadataText::line).filter(java.util.Objects::nonNull).toList());
  }

  private static SeriesMetadata.Role role(String code) {
    for (SeriesMetadata.Role role : SeriesMetadata.Role.values()) {
      if (role.code().equals(code == null ? "" : code.strip().toLowerCase(Locale.ROOT))) {
        return role;
      }
    }
    return null;
  }
}
