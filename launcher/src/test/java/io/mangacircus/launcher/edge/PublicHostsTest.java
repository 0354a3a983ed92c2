package io.mangacircus.launcher.edge;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class PublicHostsTest {

  @Test
  void withoutNamesEveryHostIsAnswered() {
    PublicHosts hosts = new PublicHosts(List.of());
    assertThat(hosts.checked()).isFalse();
    assertThat(hosts.admits("anything.example")).isTrue();
    assertThat(hosts.admits(null)).isTrue();
  }

  @Test
  void aNameWithoutAPortIsAnsweredOnAnyPortAndNoOtherName() {
    PublicHosts hosts = new PublicHosts(List.of("Manga.Example.org"));
    assertThat(hosts.admits("manga.example.org")).isTrue();
    assertThat(hosts.admits("MANGA.example.org:8443")).isTrue();
    assertThat(hosts.admits("manga.example.org.")).as("the fully qualified spelling").isTrue();
    assertThat(hosts.admits("rebound.attacker.example")).isFalse();
    assertThat(hosts.admits("manga.example.org.attacker.example")).isFalse();
    assertThat(hosts.admits(null)).as("no Host at all").isFalse();
    assertThat(hosts.admits("")).isFalse();
  }

  @Test
  void aNameWithAPortIsAnsweredOnThatPortOnly() {
    PublicHosts hosts = new PublicHosts(List.of("192.168.1.20:8080", "[::1]:8080"));
    assertThat(hosts.admits("192.168.1.20:8080")).isTrue();
    assertThat(hosts.admits("192.168.1.20:9090")).isFalse();
    assertThat(hosts.admits("[::1]:8080")).isTrue();
    assertThat(hosts.admits("[::1]:9090")).isFalse();
  }

  @Test
  void entriesThatAreNotHostNamesAreNamedAsProblems() {
    assertThat(PublicHosts.problem("manga.example.org")).isNull();
    assertThat(PublicHosts.problem("manga.example.org:443")).isNull();
    assertThat(PublicHosts.problem("[::1]:8080")).isNull();
    assertThat(PublicHosts.problem("https://manga.example.org")).contains("not a host name");
    assertThat(PublicHosts.problem("manga.example.org/reader")).contains("not a host name");
    assertThat(PublicHosts.problem(" ")).contains("empty");
  }
}
