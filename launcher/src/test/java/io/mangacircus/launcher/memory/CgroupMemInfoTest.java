package io.mangacircus.launcher.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.net.URISyntaxException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Memory readings from fixture copies of {@code /sys/fs/cgroup} and {@code /proc} (src/test/resources/memory/*): the
 * cgroup's limit when one binds, the host's figures otherwise, and the source named either way.
 */
class CgroupMemInfoTest {

  private static CgroupMemInfo fixture(String name) throws URISyntaxException {
    Path root = Path.of(CgroupMemInfoTest.class.getResource("/memory/" + name).toURI());
    return new CgroupMemInfo(root.resolve("sys/fs/cgroup"), root.resolve("proc/self/cgroup"),
        root.resolve("proc/meminfo"));
  }

  @Test
  void aContainerUnderACgroupV2LimitIsMeasuredAgainstItsLimitLeavingOutInactiveFilePages() throws Exception {
    CgroupMemInfo reader = fixture("v2-limited");

    // (450 MiB current − 50 MiB inactive_file) / 512 MiB; the host itself is only 6 % used.
    assertThat(reader.usedPercent().getAsDouble()).isCloseTo(78.125, within(0.001));
    assertThat(reader.source()).isEqualTo("cgroup v2 limit 512 MiB");
  }

  @Test
  void aServiceWithItsOwnCgroupV2LimitOnTheHostUsesItsOwnGroupNotTheRoot() throws Exception {
    CgroupMemInfo reader = fixture("v2-nested");

    // (240 MiB − 16 MiB) / 256 MiB: the limit of the process's own group, not its unlimited parent.
    assertThat(reader.usedPercent().getAsDouble()).isCloseTo(87.5, within(0.001));
    assertThat(reader.source()).isEqualTo("cgroup v2 limit 256 MiB");
  }

  @Test
  void aCgroupV2WithoutALimitFallsBackToTheHostsMeminfo() throws Exception {
    CgroupMemInfo reader = fixture("v2-unlimited");

    assertThat(reader.usedPercent().getAsDouble()).isCloseTo(75.0, within(0.001));
    assertThat(reader.source()).isEqualTo("host /proc/meminfo");
  }

  @Test
  void aCgroupLimitLargerThanTheHostsRamIsIgnoredForTheHostsFigures() throws Exception {
    CgroupMemInfo reader = fixture("v2-above-host");

    assertThat(reader.usedPercent().getAsDouble()).isCloseTo(75.0, within(0.001));
    assertThat(reader.source()).isEqualTo("host /proc/meminfo");
  }

  @Test
  void aContainerUnderACgroupV1LimitUsesTotalInactiveFile() throws Exception {
    CgroupMemInfo reader = fixture("v1-limited");

    // (900 MiB usage − 100 MiB total_inactive_file) / 1024 MiB.
    assertThat(reader.usedPercent().getAsDouble()).isCloseTo(78.125, within(0.001));
    assertThat(reader.source()).isEqualTo("cgroup v1 limit 1024 MiB");
  }

  @Test
  void aCgroupV1WithTheKernelsUnlimitedNumberFallsBackToTheHostsMeminfo() throws Exception {
    CgroupMemInfo reader = fixture("v1-unlimited");

    assertThat(reader.usedPercent().getAsDouble()).isCloseTo(75.0, within(0.001));
    assertThat(reader.source()).isEqualTo("host /proc/meminfo");
  }

  @Test
  void nothingReadableGivesNoReadingRatherThanAGuess() {
    CgroupMemInfo reader = new CgroupMemInfo(Path.of("/nonexistent/cgroup"), Path.of("/nonexistent/self"),
        Path.of("/nonexistent/meminfo"));

    assertThat(reader.usedPercent()).isEmpty();
    assertThat(reader.source()).isEqualTo("host /proc/meminfo");
  }
}
