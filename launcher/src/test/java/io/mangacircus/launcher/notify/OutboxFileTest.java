package io.mangacircus.launcher.notify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mangacircus.contracts.CorruptStateFileException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The outbox file: round trip, owner-only, and a file that does not parse is refused and left as it is. */
class OutboxFileTest {

  @TempDir
  Path data;

  private static Delivery delivery(String id) {
    Instant at = Instant.parse("2026-12-01T10:00:00Z");
    return new Delivery(id, "phone", new Notification("incident", "k", "t", "m\nline 2", 4, List.of("warning"), "",
        at, 2), 3, at.plusSeconds(40), at);
  }

  @Test
  void savedDeliveriesComeBackAsTheyWere() throws Exception {
    OutboxFile file = new OutboxFile(data.resolve("notifications"));
    file.save(List.of(delivery("a"), delivery("b")));
    assertThat(file.load()).containsExactly(delivery("a"), delivery("b"));
  }

  @Test
  void aMissingFileIsAnEmptyOutbox() {
    assertThat(new OutboxFile(data.resolve("notifications")).load()).isEmpty();
  }

  @Test
  void theFileAndItsFolderAreOwnerOnly() throws Exception {
    OutboxFile file = new OutboxFile(data.resolve("notifications"));
    file.save(List.of(delivery("a")));
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file.path()))).isEqualTo("rw-------");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file.path().getParent())))
        .isEqualTo("rwx------");
  }

  @Test
  void aCorruptFileIsRefusedNamingItAndLeftUntouched() throws Exception {
    Path folder = Files.createDirectories(data.resolve("notifications"));
    Path outbox = folder.resolve("outbox.json");
    Files.writeString(outbox, "{\"schema\":1,\"deliveries\":[{\"id\":");
    OutboxFile file = new OutboxFile(folder);
    assertThatThrownBy(file::load).isInstanceOf(CorruptStateFileException.class)
        .hasMessageContaining(outbox.toString()).hasMessageContaining("not valid JSON");
    Files.writeString(outbox, "{\"schema\":1,\"deliveries\":[{\"id\":\"x\"}]}");
    assertThatThrownBy(file::load).isInstanceOf(CorruptStateFileException.class)
        .hasMessageContaining("does not hold");
    assertThat(Files.readString(outbox)).isEqualTo("{\"schema\":1,\"deliveries\":[{\"id\":\"x\"}]}");
  }

  @Test
  void aReadersDeliveryKeepsItsTargetAcrossASave() throws Exception {
    OutboxFile file = new OutboxFile(data.resolve("notifications"));
    Delivery base = delivery("r");
    Delivery alert = new Delivery("r", "reader:alice", base.notification(), 0, base.notBefore(), base.queuedAt(),
        new io.mangacircus.launcher.config.NotificationsConfig.Destination("reader:alice", "webhook",
            "https://hooks.example/alice", "", "bearer", java.util.Set.of("new-chapters"), 30));
    file.save(List.of(alert));
    assertThat(file.load()).containsExactly(alert);
  }
}
