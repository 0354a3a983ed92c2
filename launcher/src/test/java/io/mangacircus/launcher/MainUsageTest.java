package io.mangacircus.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.launcher.config.ConfigLoader;
import org.junit.jupiter.api.Test;

/** What {@code --help} tells an operator: the start script's name, and every environment variable the config reads. */
class MainUsageTest {

  private final String usage = Main.commandLine().getUsageMessage();

  @Test
  void helpNamesEveryEnvironmentVariableTheConfigReadsWithItsKey() {
    assertThat(ConfigLoader.ENVIRONMENT_KEYS).containsKeys("MANGACIRCUS_ADMIN_PASSWORD", "MANGACIRCUS_ADMIN_TOKEN");
    ConfigLoader.ENVIRONMENT_KEYS.forEach((variable, key) -> assertThat(usage)
        .as("--help names %s (%s)", variable, key).containsPattern("(?m)^\\s+" + variable + "\\s+" + key));
  }

  @Test
  void helpSaysTheStartScript() {
    assertThat(usage).startsWith("Usage: bin/mangacircus ").doesNotContain("mangacircus.jar [");
    assertThat(Main.commandLine().getSubcommands().get("reset-password").getUsageMessage())
        .startsWith("Usage: bin/mangacircus reset-password ");
    assertThat(Main.commandLine().getSubcommands().get("suwayomi-sources")).as("the suwayomi-sources command")
        .isNotNull();
    assertThat(Main.commandLine().getSubcommands().get("suwayomi-sources").getUsageMessage())
        .startsWith("Usage: bin/mangacircus suwayomi-sources ").contains("--password-env").contains("--password-file");
    assertThat(Main.commandLine().getSubcommands().get("migrate-db")).as("the migrate-db command").isNotNull();
    assertThat(Main.commandLine().getSubcommands().get("migrate-db").getUsageMessage())
        .startsWith("Usage: bin/mangacircus migrate-db ").contains("--from").contains("--to").contains("--replace");
  }
}
