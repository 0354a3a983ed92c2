package io.mangacircus.scraper.source.suwayomi;

import io.mangacircus.contracts.InvalidConfigException;
import io.mangacircus.support.config.ConfigSecrets;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The {@code options} of a {@code suwayomi} source (docs/sources.md, "Suwayomi bridge"). The password is read from an
 * environment variable or a file, never from the configuration itself, and never appears in {@link #toString()} or in
 * an error message.
 *
 * @param sourceId the Suwayomi source id (a 64-bit number Suwayomi sends as a string), digits only; null for
 *     credentials alone ({@link #credentials})
 * @param auth how MangaCircus authenticates to the Suwayomi server
 * @param username the basic-auth user; null with {@link Auth#NONE}
 * @param password the basic-auth password; null with {@link Auth#NONE}
 */
public record SuwayomiOptions(String sourceId, Auth auth, String username, String password) {

  /** The keys this type knows. */
  public static final Set<String> KEYS = Set.of("sourceId", "auth", "username", "passwordEnv", "passwordFile");

  /** The most bytes of a password file read. */

  /** How requests to the Suwayomi server authenticate (Suwayomi's {@code server.authMode}). */
  public enum Auth {
    /** Suwayomi's {@code authMode = "none"}: nothing is sent. */
    NONE("none"),
    /** Suwayomi's {@code authMode = "basic_auth"}: {@code Authorization: Basic} on every request, pages included. */
    BASIC("basic");

    private final String wire;

    Auth(String wire) {
      this.wire = wire;
    }

    /** The word the configuration uses. */
    public String wire() {
      return wire;
    }
  }

  /** The value of the {@code Authorization} header every request carries; null when none is sent. */
  public String authorization() {
    if (auth != Auth.BASIC) {
      return null;
    }
    return "Basic " + Base64.getEncoder().encodeToString((username + ":" + password)
        .getBytes(StandardCharsets.UTF_8));
  }

  /** Never the password. */
  @Override
  public String toString() {
    return "SuwayomiOptions[sourceId=" + sourceId + ", auth=" + auth.wire()
        + (auth == Auth.BASIC ? ", username=" + username + ", password=(hidden)" : "") + "]";
  }

  /**
   * Reads and checks a source's options.
   *
   * @param keyPrefix the options' own key, e.g. {@code scraper.sources.bridge.options}, for messages
   * @param workingDir where a relative {@code passwordFile} starts
   * @param environment the environment variables by name ({@code System::getenv} outside tests)
   * @throws InvalidConfigException naming the key of an unknown, missing or bad option (never the password)
   */
  public static SuwayomiOptions of(String keyPrefix, Map<String, Object> options, Path workingDir,
      Function<String, String> environment) {
    for (String key : options.keySet()) {
      if (!KEYS.contains(key)) {
        throw new InvalidConfigException(keyPrefix + "." + key, "is not a suwayomi option (known: "
            + String.join(", ", new TreeSet<>(KEYS)) + ")");
      }
    }
    String sourceId = sourceId(keyPrefix + ".sourceId", options.get("sourceId"));
    SuwayomiOptions server = credentials(keyPrefix, options, workingDir, environment);
    return new SuwayomiOptions(sourceId, server.auth(), server.username(), server.password());
  }

  /**
   * The credentials alone ({@code auth}, {@code username}, {@code passwordEnv}, {@code passwordFile}, read and checked
   * as {@link #of} does; other keys are not looked at), for a call about the whole server rather than one of its
   * sources (the list of installed sources): the result's {@code sourceId} is null.
   *
   * @throws InvalidConfigException naming the key of a missing or bad option (never the password)
   */
  public static SuwayomiOptions credentials(String keyPrefix, Map<String, Object> options, Path workingDir,
      Function<String, String> environment) {
    Auth auth = auth(keyPrefix + ".auth", options.get("auth"));
    Object username = options.get("username");
    Object passwordEnv = options.get("passwordEnv");
    Object passwordFile = options.get("passwordFile");
    if (auth == Auth.NONE) {
      for (String key : new String[] {"username", "passwordEnv", "passwordFile"}) {
        if (options.get(key) != null) {
          throw new InvalidConfigException(keyPrefix + "." + key, "is only used with \"auth\": \"basic\"");
        }
      }
      return new SuwayomiOptions(null, auth, null, null);
    }
    if (!(username instanceof String user) || user.isBlank() || user.contains(":")) {
      throw new InvalidConfigException(keyPrefix + ".username", "is required with \"auth\": \"basic\": the user of "
          + "Suwayomi's server.authUsername (no ':')");
    }
    if ((passwordEnv == null) == (passwordFile == null)) {
      throw new InvalidConfigException(keyPrefix + ".passwordEnv", "exactly one of passwordEnv (an environment "
          + "variable's name) or passwordFile (a file's path) is required with \"auth\": \"basic\"");
    }
    String password = ConfigSecrets.read(keyPrefix + ".passwordEnv", text(keyPrefix + ".passwordEnv", passwordEnv),
        keyPrefix + ".passwordFile", text(keyPrefix + ".passwordFile", passwordFile), workingDir, environment)
        .orElseThrow();
    return new SuwayomiOptions(null, auth, user, password);
  }

  private static String sourceId(String key, Object value) {
    if (value == null) {
      throw new InvalidConfigException(key, "is required: the id of the source on the Suwayomi server, e.g. "
          + "\"2499283573021220255\" (its sources query or its Browse page lists them)");
    }
    String id = value instanceof String s ? s.trim() : null;
    if (id == null || !id.matches("-?\\d{1,19}")) {
      throw new InvalidConfigException(key, "must be a Suwayomi source id written as a string of digits, e.g. "
          + "\"2499283573021220255\", got " + value);
    }
    try {
      Long.parseLong(id);
    } catch (NumberFormatException e) {
      throw new InvalidConfigException(key, "is larger than a Suwayomi source id can be (64 bits), got " + value);
    }
    return id;
  }

  private static Auth auth(String key, Object value) {
    if (value == null) {
      return Auth.NONE;
    }
    for (Auth auth : Auth.values()) {
      if (auth.wire().equals(value)) {
        return auth;
      }
    }
    if ("simple_login".equals(value) || "ui_login".equals(value)) {
      throw new InvalidConfigException(key, "Suwayomi's " + value + " mode is not supported yet: set the server's "
          + "authMode to basic_auth (or none) and use \"basic\" (or \"none\") here");
    }
    throw new InvalidConfigException(key, "must be \"none\" or \"basic\", got " + value);
  }

  private static String text(String key, Object value) {
    if (value != null && !(value instanceof String)) {
      throw new InvalidConfigException(key, "must be text, got " + value.getClass().getSimpleName().toLowerCase(
          Locale.ROOT));
    }
    return (String) value;
  }
}
