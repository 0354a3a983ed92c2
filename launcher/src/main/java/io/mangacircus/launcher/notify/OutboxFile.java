package io.mangacircus.launcher.notify;

import io.mangacircus.contracts.AtomicFiles;
import io.mangacircus.contracts.CorruptStateFileException;
import io.mangacircus.contracts.DurableFiles;
import io.mangacircus.launcher.config.NotificationsConfig;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code data/notifications/outbox.json}: the deliveries still to send, written atomically (owner-only, since messages
 * may name titles and incidents). Blocking; call it off the event loop. A file that does not parse is never
 * overwritten.
 */
public final class OutboxFile {

  /** The file's schema version. */
  public static final int SCHEMA = 1;

  private final Path file;

  public OutboxFile(Path folder) {
    this.file = folder.resolve("outbox.json");
  }

  public Path path() {
    return file;
  }

  /**
   * The saved deliveries, oldest first; none when the file does not exist.
   *
   * @throws CorruptStateFileException when it exists but cannot be read or understood (it is left untouched)
   */
  public List<Delivery> load() {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      return List.of();
    } catch (IOException e) {
      throw new CorruptStateFileException(file, "cannot be read: " + e.getMessage());
    }
    try {
      JsonObject json = new JsonObject(text);
      if (!Integer.valueOf(SCHEMA).equals(json.getInteger("schema"))) {
        throw new CorruptStateFileException(file, "has schema " + json.getValue("schema") + ", expected " + SCHEMA);
      }
      List<Delivery> deliveries = new ArrayList<>();
      for (Object entry : json.getJsonArray("deliveries")) {
        deliveries.add(delivery((JsonObject) entry));
      }
      return deliveries;
    } catch (DecodeException e) {
      throw new CorruptStateFileException(file, "is not valid JSON: " + e.getMessage());
    } catch (ClassCastException | NullPointerException | IllegalArgumentException
        | java.time.format.DateTimeParseException e) {
      throw new CorruptStateFileException(file, "does not hold {schema: 1, deliveries: [...]} as documented in "
          + "docs/notifications.md: " + e.getMessage());
    }
  }

  /** Writes every delivery (atomically, owner-only permissions). */
  public void save(List<Delivery> deliveries) throws IOException {
    Path folder = file.getParent();
    if (!Files.isDirectory(folder)) {
      DurableFiles.createDirectories(folder);
      ownerOnly(folder, "rwx------");
    }
    JsonArray array = new JsonArray();
    deliveries.forEach(d -> array.add(json(d)));
    AtomicFiles.write(file, new JsonObject().put("schema", SCHEMA).put("deliveries", array).encodePrettily()
        .getBytes(StandardCharsets.UTF_8));
    ownerOnly(file, "rw-------");
  }

  private static void ownerOnly(Path path, String permissions) throws IOException {
    try {
      Files.setPosixFilePermissions(path, PosixFilePermissions.fromString(permissions));
    } catch (UnsupportedOperationException e) {
      // not a POSIX file system: its own defaults apply
    }
  }

  private static JsonObject json(Delivery d) {
    Notification n = d.notification();
    return new JsonObject().put("id", d.id()).put("destination", d.destination()).put("attempts", d.attempts())
        .put("notBefore", d.notBefore().toString()).put("queuedAt", d.queuedAt().toString())
        .put("notification", new JsonObject().put("kind", n.kind()).put("key", n.key()).put("title", n.title())
            .put("message", n.message()).put("priority", n.priority()).put("tags", new JsonArray(n.tags()))
            .put("click", n.click()).put("at", n.at().toString()).put("repeats", n.repeats()))
        .put("target", d.target() == null ? null : new JsonObject().put("name", d.target().name())
            .put("type", d.target().type()).put("url", d.target().url()).put("topic", d.target().topic())
            .put("token", d.target().token()).put("maxPerHour", d.target().maxPerHour()));
  }

  private static Delivery delivery(JsonObject json) {
    JsonObject n = json.getJsonObject("notification");
    List<String> tags = n.getJsonArray("tags").stream().map(String.class::cast).toList();
    Notification notification = new Notification(required(n, "kind"), required(n, "key"), required(n, "title"),
        required(n, "message"), n.getInteger("priority"), tags, n.getString("click", ""),
        Instant.parse(required(n, "at")), n.getInteger("repeats", 0));
    JsonObject t = json.getJsonObject("target");
    NotificationsConfig.Destination target = t == null ? null : new NotificationsConfig.Destination(
        required(t, "name"), required(t, "type"), required(t, "url"), t.getString("topic"), t.getString("token"),
        java.util.Set.of("new-chapters"), t.getInteger("maxPerHour", 30));
    return new Delivery(required(json, "id"), required(json, "destination"), notification,
        json.getInteger("attempts"), Instant.parse(required(json, "notBefore")),
        Instant.parse(required(json, "queuedAt")), target);
  }

  private static String required(JsonObject json, String key) {
    String value = json.getString(key);
    if (value == null) {
      throw new IllegalArgumentException("\"" + key + "\" is missing");
    }
    return value;
  }
}
