package io.mangacircus.reader.library.archive;

import io.mangacircus.reader.library.archive.ArchiveIndex.Readable;
import io.mangacircus.reader.library.archive.ArchiveIndex.Unreadable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * Reads one small file that is not a page (a ComicInfo.xml) out of a ZIP archive into memory, without unpacking
 * anything else: the entry is found in the central directory, which passes the same safety rules as for pages, and
 * read through {@link ArchivePages#open} (capped at its declared size, CRC-checked). Never throws for a broken archive.
 */
public final class ArchiveEntryReader {

  private ArchiveEntryReader() {
  }

  /**
   * The shallowest entry whose name {@code wanted} accepts (fewest '/' separators, then natural order of names), read
   * whole when it declares at most {@code maxBytes}.
   */
  public static EntryContent read(Path archive, Predicate<String> wanted, long maxBytes) {
    Objects.requireNonNull(archive, "archive");
    Objects.requireNonNull(wanted, "wanted");
    ArchiveIndex.Result result = CentralDirectoryReader.read(archive, wanted);
    if (result instanceof Unreadable unreadable) {
      return new Refused("archive refused (" + unreadable.refusal() + "): " + unreadable.reason());
    }
    ArchiveIndex index = ((Readable) result).index();
    ArchiveEntry entry = index.pages().stream()
        .min(Comparator.comparingLong(ArchiveEntryReader::depth)
            .thenComparing(ArchiveEntry::name, NaturalOrder.INSTANCE))
        .orElse(null);
    if (entry == null) {
      return new Absent();
    }
    // One byte array holds the entry, so no cap goes past what an array can hold.
    if (entry.uncompressedSize() > Math.min(maxBytes, Integer.MAX_VALUE - 8)) {
      return new Refused("entry '" + entry.name() + "' is " + entry.uncompressedSize() + " bytes; at most "
          + maxBytes + " are read");
    }
    try (FileChannel channel = FileChannel.open(archive, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
        InputStream in = ArchivePages.open(channel, index, entry)) {
      // Read to the end, not just the declared size: the stream checks the size and CRC-32 only when it ends, and it
      // never yields more than the declared size.
      return new Found(entry.name(), in.readAllBytes());
    } catch (IOException e) {
      return new Refused("cannot read entry '" + entry.name() + "': " + e.getMessage());
    }
  }

  private static long depth(ArchiveEntry entry) {
    return entry.name().chars().filter(c -> c == '/').count();
  }

  /** What reading an entry found. */
  public sealed interface EntryContent permits Found, Absent, Refused {
  }

  /** The entry and its bytes. */
  public record Found(String name, byte[] bytes) implements EntryContent {
    public Found {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(bytes, "bytes");
    }
  }

  /** The archive is readable and holds no such entry. */
  public record Absent() implements EntryContent {
  }

  /** The archive or the entry cannot be read: hostile or broken archive, entry too big, I/O error, bad CRC. */
  public record Refused(String reason) implements EntryContent {
    public Refused {
      Objects.requireNonNull(reason, "reason");
    }
  }
}
