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
import java.util.ArrayList;
import java.util.List;

/**
 * {@code data/notifications/destinations.json}: the destinations and the heartbeat saved from the console's Settings
 * page, secrets included, written atomically with owner-only permissions (file 0600, folder 0700). Blocking; call it
 * off the event loop. A file that does not parse, or holds a value the config file would refuse, is never
 * overwritten.
 */
public final class SettingsFile {

  /** The file's schema version. */
  public static final int SCHEMA = 1;

  /** What the Settings page saved: destinations (none by default) and a heartbeat (null: none saved). */
  public record Saved(List<NotificationsConfig.Destination> destinations, NotificationsConfig.Heartbeat heartbeat) {
    /** Nothing saved. */
    public static final Saved NONE = new Saved(List.of(), null);

    public Saved {
      destinations = List.copyOf(destinations);
    }
  }

  private final Path file;

  public SettingsFile(Path folder) {
    this.file = folder.resolve("destinations.json");
  }

  public Path path() {
    return file;
  }

  /**
   * What was saved; {@link Saved#NONE} when the file does not exist.
   *
   * @throws CorruptStateFileException when it exists but cannot be read or understood (it is left untouched)
   */
  public Saved load() {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      return Saved.NONE;
    } catch (IOException e) {
      throw new CorruptStateFileException(file, "cannot be read: " + e.getMessage());
    }
    try {
      JsonObject json = new JsonObject(text);
      if (!Integer.valueOf(SCHEMA).equals(json.getInteger("schema"))) {
        throw new CorruptStateFileException(file, "has schema " + json.getValue("schema") + ", expected " + SCHEMA);
      }
      List<NotificationsConfig.Destination> destinations = new ArrayList<>();
      JsonArray array = json.getJsonArray("destinations", new JsonArray());
      for (Object entry : array) {
        destinations.add(destination((JsonObject) entry));
      }
      JsonObject beat = json.getJsonObject("heartbeat");
      NotificationsConfig.Heartbeat heartbeat = beat == null ? null
          : new NotificationsConfig.Heartbeat(beat.getString("url"), beat.getLong("intervalSeconds", 300L));
      Saved saved = new Saved(destinations, heartbeat);
      NotificationSettings.check(saved);
      return saved;
    } catch (DecodeException e) {
      throw new CorruptStateFileException(file, "is not valid JSON: " + e.getMessage());
    } catch (ClassCastException | NullPointerException | IllegalArgumentException e) {
      throw new CorruptStateFileException(file, "does not hold {schema: 1, destinations: [...], heartbeat} as "
          + "documented in docs/notifications.md: " + e.getMessage());
    } catch (io.mangacircus.contracts.InvalidConfigException e) {
      throw new CorruptStateFileException(file, "holds a value the Settings page would refuse: " + e.key() + " "
          + e.getMessage().substring(e.getMessage().lastIndexOf(": ") + 2));
    }
  }

  /** Writes everything saved (atomically, owner-only permissions). */
  public void save(Saved saved) throws IOException {
    Path folder = file.getParent();
    if (!Files.isDirectory(folder)) {
      DurableFiles.createDirectories(folder);
    }
    ownerOnly(folder, "rwx------");
    JsonArray destinations = new JsonArray();
    saved.destinations().forEach(d -> destinations.add(new JsonObject().put("name", d.name()).put("type", d.type())
        .put("url", d.url()).put("topic", d.topic()).put("token", d.token())
        .put("events", new JsonArray(NotificationsConfig.EVENT_KINDS.stream().filter(d.events()::contains).toList()))
        .put("maxPerHour", d.maxPerHour())));
    JsonObject json = new JsonObject().put("schema", SCHEMA).put("destinations", destinations);
    if (saved.heartbeat() != null) {
      json.put("heartbeat", new JsonObject().put("url", saved.heartbeat().url())
          .put("intervalSeconds", saved.heartbeat().intervalSeconds()));
    }
    // AtomicFiles' temp file is created owner-only (Files.createTempFile), so the secrets are never readable by others.
    AtomicFiles.write(file, json.encodePrettily().getBytes(StandardCharsets.UTF_8));
    ownerOnly(file, "rw-------");
  }

  private static NotificationsConfig.Destination destination(JsonObject json) {
    JsonArray events = json.getJsonArray("events");
    return new NotificationsConfig.Destination(required(json, "name"), required(json, "type"), required(json, "url"),
        json.getString("topic"), json.getString("token"),
        events == null ? null : java.util.Set.copyOf(events.stream().map(String.class::cast).toList()),
        json.getInteger("maxPerHour", 30));
  }

  private static String required(JsonObject json, String key) {
    String value = json.getString(key);
    if (value == null) {
      throw new IllegalArgumentException("\"" + key + "\" is missing");
    }
    return value;
  }

  private static void ownerOnly(Path path, String permissions) throws IOException {
    try {
      Files.setPosixFilePermissions(path, PosixFilePermissions.fromString(permissions));
    } catch (UnsupportedOperationException e) {
      // not a POSIX file system: its own defaults apply
    }
  }
}
