package io.mangacircus.scraper.queue;

import io.mangacircus.contracts.DurableFiles;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;

/** Appends one JSON object a line to {@code data/scraper/events.log}; never rewrites what is there. */
public final class EventLog implements AutoCloseable {

  private final Path file;
  private final FileChannel channel;

  public EventLog(Path file) {
    this.file = file;
    try {
      this.channel = DurableFiles.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open " + file, e);
    }
  }

  /** Appends {@code event} with {@code at} and {@code type} set, and forces it to disk. */
  public synchronized void append(String type, Instant at, JsonObject event) {
    JsonObject line = new JsonObject().put("at", at.toString()).put("type", type).mergeIn(event);
    ByteBuffer bytes = ByteBuffer.wrap((line.encode() + "\n").getBytes(StandardCharsets.UTF_8));
    try {
      while (bytes.hasRemaining()) {
        channel.write(bytes);
      }
      channel.force(false);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot append to " + file, e);
    }
  }

  /** Appends one line per event, in order, all at {@code at}, and forces them to disk once. */
  public synchronized void appendAll(java.util.List<java.util.Map.Entry<String, JsonObject>> events, Instant at) {
    StringBuilder lines = new StringBuilder();
    for (java.util.Map.Entry<String, JsonObject> event : events) {
      lines.append(new JsonObject().put("at", at.toString()).put("type", event.getKey()).mergeIn(event.getValue())
          .encode()).append('\n');
    }
    ByteBuffer bytes = ByteBuffer.wrap(lines.toString().getBytes(StandardCharsets.UTF_8));
    try {
      while (bytes.hasRemaining()) {
        channel.write(bytes);
      }
      channel.force(false);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot append to " + file, e);
    }
  }

  @Override
  public synchronized void close() throws IOException {
    channel.close();
  }
}
