package io.mangacircus.scraper.publish;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import io.mangacircus.contracts.CorruptStateFileException;
import io.mangacircus.contracts.library.ChapterManifest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Reads what a staging folder records, changing nothing: its {@code checkpoint.json} header and the pages of its
 * {@code checkpoint.log} (only the last line may be torn, and then counts as absent), or, for a folder compacted for
 * publication, the pages of its {@code chapter.json}; a page that names an impossible file, size or hash is refused.
 */
final class CheckpointReader {

  private static final int LEGACY_SCHEMA = 1;
  private static final Pattern PAGE_FILE = Pattern.compile("[0-9]{3,}\\.[a-z0-9]{1,8}");
  private static final Pattern SHA256 = Pattern.compile("[0-9a-f]{64}");
  private static final ObjectReader HEADER = StagingFolder.mapper().readerFor(Checkpoint.class);
  private static final ObjectReader PAGE = StagingFolder.mapper().readerFor(Checkpoint.Page.class);

  private CheckpointReader() {
  }

  /**
   * What a staging folder records, read without changing anything.
   *
   * @param header the header, or (for a folder compacted for publication) one made from its {@code chapter.json};
   *     null when the folder has neither
   * @param compacted whether it was read from {@code chapter.json}
   * @param logEnd where the log's last complete, parsable line ends
   */
  record Recorded(Checkpoint header, boolean compacted, long logEnd) {
  }

  /**
   * What {@code folder} records: the header with every page of the log (a torn last line left out), or the pages of
   * its {@code chapter.json} when it was compacted for publication.
   *
   * @throws CorruptStateFileException when the header, a log line before the last or {@code chapter.json} cannot be
   *     parsed, or records an impossible page
   */
  static Recorded read(Path folder, ObjectMapper mapper) {
    Path headerFile = folder.resolve(StagingFolder.CHECKPOINT);
    Path logFile = folder.resolve(StagingFolder.CHECKPOINT_LOG);
    Checkpoint header;
    try {
      header = HEADER.readValue(Files.readAllBytes(headerFile));
    } catch (NoSuchFileException e) {
      return readCompacted(folder);
    } catch (IOException | RuntimeException e) {
      throw new CorruptStateFileException(headerFile, "cannot be parsed: " + e.getMessage());
    }
    if (header.schema() != StagingFolder.HEADER_SCHEMA && header.schema() != LEGACY_SCHEMA) {
      throw new CorruptStateFileException(headerFile, "has unknown schema " + header.schema());
    }
    if (header.schema() == StagingFolder.HEADER_SCHEMA && !header.pages().isEmpty()) {
      throw new CorruptStateFileException(headerFile, "is a schema 2 header that lists pages");
    }
    TreeMap<Integer, Checkpoint.Page> recorded = new TreeMap<>();
    for (Checkpoint.Page page : header.pages()) {
      if (!plausible(page, header.manifest().size())) {
        throw new CorruptStateFileException(headerFile, "records an impossible page " + page);
      }
      recorded.put(page.index(), page);
    }
    byte[] log;
    try {
      log = Files.readAllBytes(logFile);
    } catch (NoSuchFileException e) {
      log = new byte[0];
    } catch (IOException e) {
      throw new CorruptStateFileException(logFile, "cannot be read: " + e.getMessage());
    }
    long logEnd = 0;
    int start = 0;
    while (start < log.length) {
      int newline = indexOf(log, (byte) '\n', start);
      int end = newline < 0 ? log.length : newline;
      Checkpoint.Page page = parseLine(mapper, log, start, end, header.manifest().size());
      boolean last = newline < 0 || newline + 1 == log.length;
      if (page == null || newline < 0) {
        if (!last) {
          throw new CorruptStateFileException(logFile, "line " + (lineNumber(log, start)) + " cannot be parsed ("
              + "only the last line may be torn)");
        }
        // A torn last line: the page in flight when the process stopped. It counts as absent.
        break;
      }
      recorded.put(page.index(), page);
      logEnd = newline + 1;
      start = newline + 1;
    }
    Checkpoint merged = new Checkpoint(header.schema(), header.fingerprint(), header.source(), header.titleId(),
        header.chapterId(), header.manifest(), new ArrayList<>(recorded.values()), header.updatedAt());
    return new Recorded(merged, false, logEnd);
  }

  /**
   * A folder without a header: new, or compacted for publication (header and log removed after {@code chapter.json}
   * was written) and not renamed yet because the process stopped; its pages are then those of {@code chapter.json}.
   */
  private static Recorded readCompacted(Path folder) {
    ChapterManifest manifest;
    try {
      manifest = ChapterManifest.read(folder);
    } catch (NoSuchFileException e) {
      if (Files.exists(folder.resolve(StagingFolder.CHECKPOINT_LOG))) {
        throw new CorruptStateFileException(folder.resolve(StagingFolder.CHECKPOINT_LOG), "has no "
            + StagingFolder.CHECKPOINT + " header beside it");
      }
      return new Recorded(null, false, 0);
    } catch (IOException | ChapterManifest.InvalidException e) {
      throw new CorruptStateFileException(folder.resolve(ChapterManifest.FILE), "cannot be parsed: " + e.getMessage());
    }
    List<Checkpoint.Page> pages = new ArrayList<>();
    for (ChapterManifest.Page page : manifest.pages()) {
      Checkpoint.Page recorded = new Checkpoint.Page(page.index(), page.file(), page.size(), page.sha256());
      if (!plausible(recorded, Integer.MAX_VALUE)) {
        throw new CorruptStateFileException(folder.resolve(ChapterManifest.FILE), "records an impossible page "
            + recorded);
      }
      pages.add(recorded);
    }
    return new Recorded(new Checkpoint(0, manifest.fingerprint(), manifest.source(), manifest.titleId(),
        manifest.chapterId(), List.of(), pages, manifest.publishedAt()), true, 0);
  }

  /** One log line as a page; null when it is not one (unparsable, or naming an impossible page). */
  private static Checkpoint.Page parseLine(ObjectMapper mapper, byte[] log, int start, int end, int pageCount) {
    if (end <= start) {
      return null;
    }
    try {
      Checkpoint.Page page = PAGE.readValue(log, start, end - start);
      return plausible(page, pageCount) ? page : null;
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  private static boolean plausible(Checkpoint.Page page, int pageCount) {
    return page != null && page.index() >= 1 && page.index() <= pageCount && page.file() != null
        && PAGE_FILE.matcher(page.file()).matches() && page.size() >= 0 && page.sha256() != null
        && SHA256.matcher(page.sha256()).matches();
  }

  private static int indexOf(byte[] bytes, byte value, int from) {
    for (int i = from; i < bytes.length; i++) {
      if (bytes[i] == value) {
        return i;
      }
    }
    return -1;
  }

  private static int lineNumber(byte[] bytes, int offset) {
    int line = 1;
    for (int i = 0; i < offset; i++) {
      if (bytes[i] == '\n') {
        line++;
      }
    }
    return line;
  }
}
