package io.mangacircus.support.config;

import io.mangacircus.contracts.InvalidConfigException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Function;

/**
 * Reads a secret that the configuration names by where it lives, an environment variable or a file, so the value is
 * never in the configuration, a log line or a message: every error names the key at fault and never the secret.
 */
public final class ConfigSecrets {

  /** A file larger than this is some other file named by mistake, not a secret. */
  public static final int MAX_FILE_BYTES = 64 * 1024;

  private ConfigSecrets() {}

  /**
   * The secret held by the environment variable or the file these two keys name (at most one of them; null for a key
   * that is not set). One trailing line break in a file, as editors and {@code echo} leave it, is not part of it.
   *
   * @param envKey the full key naming the variable, e.g. {@code reader.databasePasswordEnv}
   * @param variable the variable's name, or null
   * @param fileKey the full key naming the file, e.g. {@code reader.databasePasswordFile}
   * @param file the file's path, or null; a relative one starts at {@code workingDir}
   * @param environment the environment variables by name ({@code System::getenv} outside tests)
   * @return the secret; empty when neither key is set
   * @throws InvalidConfigException naming the key at fault when both are set, the variable is unset or empty, or the
   *     file is unreadable, empty or too large
   */
  public static Optional<String> read(String envKey, String variable, String fileKey, String file, Path workingDir,
      Function<String, String> environment) {
    if (variable != null && file != null) {
      throw new InvalidConfigException(fileKey, "give either " + leaf(envKey) + " or " + leaf(fileKey) + ", not both");
    }
    if (variable != null) {
      return Optional.of(fromEnvironment(envKey, variable, environment));
    }
    if (file != null) {
      return Optional.of(fromFile(fileKey, file, workingDir));
    }
    return Optional.empty();
  }

  private static String fromEnvironment(String key, String variable, Function<String, String> environment) {
    if (!variable.matches("[A-Za-z_][A-Za-z0-9_]*")) {
      throw new InvalidConfigException(key, "must be the name of an environment variable (letters, digits, _), "
          + "not the secret itself");
    }
    String value = environment.apply(variable);
    if (value == null || value.isEmpty()) {
      throw new InvalidConfigException(key, "the environment variable " + variable + " is not set or empty");
    }
    return value;
  }

  private static String fromFile(String key, String name, Path workingDir) {
    if (name.isBlank()) {
      throw new InvalidConfigException(key, "must be the path of a file holding the secret");
    }
    Path file;
    try {
      file = workingDir.resolve(name.strip());
    } catch (InvalidPathException e) {
      throw new InvalidConfigException(key, "is not a usable path");
    }
    String value;
    try {
      value = Files.size(file) > MAX_FILE_BYTES ? null : Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new InvalidConfigException(key, "the file " + file + " cannot be read (" + e.getClass().getSimpleName()
          + ")");
    }
    if (value == null) {
      throw new InvalidConfigException(key, "the file " + file + " is larger than " + MAX_FILE_BYTES
          + " bytes: not a secret");
    }
    value = value.endsWith("\r\n") ? value.substring(0, value.length() - 2)
        : value.endsWith("\n") ? value.substring(0, value.length() - 1) : value;
    if (value.isEmpty()) {
      throw new InvalidConfigException(key, "the file " + file + " is empty");
    }
    return value;
  }

  private static String leaf(String key) {
    return key.substring(key.lastIndexOf('.') + 1);
  }
}
