package io.mangacircus.scraper.queue;

import io.mangacircus.contracts.AtomicFiles;
import io.mangacircus.contracts.DurableFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the change journal {@code queue.json.journal}: each line appended and fdatasynced, a torn last line (a crash
 * during an append) cut off before the next one, the whole journal replaced atomically after a snapshot. Not
 * thread-safe: used under the store's lock.
 */
final class JournalFile {

  /** The queue store's logger: the journal's lines read as the store's. */
  private static final Logger LOG = LoggerFactory.getLogger(QueueStore.class);

  private final Path journal;
  /** The journal's bytes up to its last whole line, as loaded (a torn last line is cut off before the next append). */
  private long journalLength;
  private int journalLines;
  private java.nio.channels.FileChannel channel;

  JournalFile(Path journal) {
    this.journal = journal;
  }

  /** What a load found: where the journal's whole lines end and how many there are. */
  void loaded(long length, int lines) {
    journalLength = length;
    journalLines = lines;
  }

  /** The journal's bytes up to its last whole line. */
  long length() {
    return journalLength;
  }

  /** Its whole lines. */
  int lines() {
    return journalLines;
  }

  /** Appends one line and fdatasyncs it; the length and line count advance only once it is durable. */
  void append(byte[] line) throws IOException {
    if (channel == null) {
      // A new journal's entry (and scraper/'s, when new) is durable before its first line counts.
      channel = DurableFiles.open(journal, java.nio.file.StandardOpenOption.WRITE);
      if (channel.size() > journalLength) {
        // A torn last line (ignored by the load): cut off, or the next line would follow it on the same line.
        channel.truncate(journalLength);
      }
      channel.position(journalLength);
    }
    java.nio.ByteBuffer buffer = java.nio.ByteBuffer.wrap(line);
    while (buffer.hasRemaining()) {
      channel.write(buffer);
    }
    channel.force(false);
    journalLength += line.length;
    journalLines++;
  }

  /**
   * The journal becomes {@code lines} (the lines past the snapshot just written): written atomically, so that a crash
   * leaves either the whole old journal or the new one.
   */
  void replaceWith(List<byte[]> lines) throws IOException {
    close();
    long length = 0;
    for (byte[] line : lines) {
      length += line.length;
    }
    if (lines.isEmpty()) {
      if (Files.exists(journal)) {
        try (java.nio.channels.FileChannel empty = java.nio.channels.FileChannel.open(journal,
            java.nio.file.StandardOpenOption.WRITE)) {
          empty.truncate(0);
          empty.force(true);
        }
      }
    } else {
      java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream((int) length);
      for (byte[] line : lines) {
        out.write(line);
      }
      AtomicFiles.write(journal, out.toByteArray());
    }
    journalLength = length;
    journalLines = lines.size();
  }

  /** Closes the journal's channel (the next append opens it again). */
  void close() {
    if (channel != null) {
      try {
        channel.close();
      } catch (IOException e) {
        LOG.warn("[QUEUE] could not close {}: {}", journal, e.toString());
      }
      channel = null;
    }
  }
}
