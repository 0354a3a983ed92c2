package io.mangacircus.reader;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One collection library of {@code reader.libraries}: a folder MangaCircus reads in place and never writes.
 *
 * @param name its name: what the admin assigns users and what a series' library is called; {@code [a-z0-9-]{1,32}},
 *     not {@code downloads} (the scraper's library)
 * @param kind {@code collection} (the only kind configured here: the downloads library is the data folder's)
 * @param path the collection's folder, absolute
 * @param rescanMinutes minutes between rescans that do not wait for a change to be noticed (a network filesystem
 *     reports none); default 60, 0 = only when a change is noticed or the admin asks
 * @param watch whether changes are watched for ({@code WatchService}); default true
 */
public record LibraryConfig(String name, @JsonProperty(required = false) String kind, String path,
    @JsonProperty(required = false) Integer rescanMinutes, @JsonProperty(required = false) Boolean watch) {

  /** The kind of library this section configures. */
  public static final String COLLECTION = "collection";

  private static final Pattern NAME = Pattern.compile("[a-z0-9-]{1,32}");

  public LibraryConfig {
    kind = kind == null ? COLLECTION : kind;
    rescanMinutes = rescanMinutes == null ? 60 : rescanMinutes;
    watch = watch == null ? Boolean.TRUE : watch;
  }

  /** What is wrong with this entry, in words for the operator; empty when nothing is. */
  public Optional<String> problem() {
    if (name == null || !NAME.matcher(name).matches()) {
      return Optional.of("name '" + name + "' must be 1 to 32 of a-z, 0-9 and '-'");
    }
    if (name.equals("downloads")) {
      return Optional.of("name 'downloads' is the scraper's library; choose another");
    }
    if (!COLLECTION.equals(kind)) {
      return Optional.of("kind '" + kind + "' is not 'collection' (the downloads library is the data folder's)");
    }
    if (path == null || path.isBlank()) {
      return Optional.of("has no path");
    }
    try {
      if (!Path.of(path).isAbsolute()) {
        return Optional.of("path '" + path + "' must be absolute");
      }
    } catch (InvalidPathException e) {
      return Optional.of("path '" + path + "' is not a path: " + e.getMessage());
    }
    if (rescanMinutes < 0 || rescanMinutes > 10_080) {
      return Optional.of("rescanMinutes must be between 0 and 10080");
    }
    return Optional.empty();
  }

  /** The collection's folder. */
  public Path folder() {
    return Path.of(path).normalize();
  }
}
