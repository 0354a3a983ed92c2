package io.mangacircus.support.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mangacircus.contracts.InvalidConfigException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigSecretsTest {

  private static final String SECRET = "s3cret pass";
  private static final String ENV_KEY = "reader.databasePasswordEnv";
  private static final String FILE_KEY = "reader.databasePasswordFile";
  private static final Map<String, String> ENV = Map.of("DB_PASSWORD", SECRET, "EMPTY", "");

  @TempDir Path dir;

  private Optional<String> read(String variable, String file) {
    return ConfigSecrets.read(ENV_KEY, variable, FILE_KEY, file, dir, ENV::get);
  }

  private void refused(String variable, String file, String key, String problem) {
    assertThatThrownBy(() -> read(variable, file)).isInstanceOfSatisfying(InvalidConfigException.class, e -> {
      assertThat(e.key()).isEqualTo(key);
      assertThat(e.problem()).contains(problem).doesNotContain(SECRET);
    });
  }

  @Test
  void neitherKeySetMeansNoSecret() {
    assertThat(read(null, null)).isEmpty();
  }

  @Test
  void theSecretComesFromTheNamedVariable() {
    assertThat(read("DB_PASSWORD", null)).contains(SECRET);
  }

  @Test
  void aRelativeFileStartsAtTheWorkingFolderAndOneTrailingLineBreakIsNotPartOfTheSecret() throws Exception {
    Files.writeString(dir.resolve("unix"), " " + SECRET + " \n");
    Files.writeString(dir.resolve("windows"), SECRET + "\r\n");
    Files.writeString(dir.resolve("two-lines"), SECRET + "\n\n");
    assertThat(read(null, "unix")).as("spaces are kept: they may be part of it").contains(" " + SECRET + " ");
    assertThat(read(null, dir.resolve("windows").toString())).contains(SECRET);
    assertThat(read(null, "two-lines")).contains(SECRET + "\n");
  }

  @Test
  void bothKeysSetAreRefusedNamingTheFileKey() throws Exception {
    Files.writeString(dir.resolve("password"), SECRET);
    refused("DB_PASSWORD", "password", FILE_KEY, "give either databasePasswordEnv or databasePasswordFile, not both");
  }

  @Test
  void anUnsetOrEmptyVariableIsNamedAndASecretGivenInItsPlaceIsNotEchoed() {
    refused("UNSET_VARIABLE", null, ENV_KEY, "the environment variable UNSET_VARIABLE is not set or empty");
    refused("EMPTY", null, ENV_KEY, "EMPTY is not set or empty");
    refused(SECRET, null, ENV_KEY, "must be the name of an environment variable");
  }

  @Test
  void aMissingEmptyOrOversizeFileIsNamed() throws Exception {
    refused(null, "missing", FILE_KEY, "the file " + dir.resolve("missing") + " cannot be read (NoSuchFileException)");
    Files.writeString(dir.resolve("empty"), "\n");
    refused(null, "empty", FILE_KEY, "is empty");
    Files.write(dir.resolve("big"), new byte[ConfigSecrets.MAX_FILE_BYTES + 1]);
    refused(null, "big", FILE_KEY, "is larger than 65536 bytes");
    refused(null, " ", FILE_KEY, "must be the path of a file");
    refused(null, "bad\0name", FILE_KEY, "is not a usable path");
  }
}
