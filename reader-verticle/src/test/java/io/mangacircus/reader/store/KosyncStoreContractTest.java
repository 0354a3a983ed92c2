package io.mangacircus.reader.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.reader.store.KosyncStore.Document;
import io.mangacircus.reader.store.KosyncStore.Kind;
import io.mangacircus.reader.store.KosyncStore.Push;
import io.mangacircus.reader.store.StoreEngines.Engine;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * KOReader sync's own data on each engine: the chapter a document id names (the newest serve wins), and each user's
 * last push per document, kept exactly as KOReader sent it, across a reopen, gone with the user.
 */
@ParameterizedClass
@EnumSource(Engine.class)
class KosyncStoreContractTest {

  private static final Instant NOW = Instant.parse("2026-12-04T10:00:00.123456789Z");

  @Parameter
  Engine engine;

  @TempDir
  Path dir;

  private ContractDatabase database;
  private KosyncStore store;
  private long ann;
  private long bob;

  @BeforeEach
  void open() throws Exception {
    database = ContractDatabase.fresh(engine, dir);
    store = database.stores().kosync();
    ann = database.stores().users().createUser("ann", "hash", "reader", NOW);
    bob = database.stores().users().createUser("bob", "hash", "reader", NOW);
  }

  @AfterEach
  void close() throws Exception {
    database.close();
  }

  @Test
  void aDocumentIdNamesTheChapterOfItsNewestServe() throws Exception {
    store.record(List.of(new Document("b1", "moon", "ch-1", Kind.BINARY),
        new Document("f1", "moon", "ch-1", Kind.FILENAME)), NOW);
    store.record(List.of(), NOW);

    assertThat(store.document("b1")).contains(new Document("b1", "moon", "ch-1", Kind.BINARY));
    assertThat(store.document("f1")).contains(new Document("f1", "moon", "ch-1", Kind.FILENAME));
    assertThat(store.document("unknown")).isEmpty();

    store.record(List.of(new Document("f1", "sun", "ch-9", Kind.BINARY)), NOW.plusSeconds(1));
    assertThat(store.document("f1")).as("the newest serve wins")
        .contains(new Document("f1", "sun", "ch-9", Kind.BINARY));
    assertThat(store.document("b1")).contains(new Document("b1", "moon", "ch-1", Kind.BINARY));
  }

  @Test
  void aUsersLastPushPerDocumentIsKeptAsSentAndReplacedByTheNext() throws Exception {
    Push first = new Push("b1", "/body/DocFragment[3]", 0.1 + 0.2, "Kobo", "dev-1", NOW);
    Push next = new Push("b1", "42", 1.0 / 3, "Boox", "dev-2", NOW.plusSeconds(5));
    store.savePush(ann, first);
    store.savePush(bob, new Push("b1", "7", 0.5, "Phone", "dev-3", NOW));

    assertThat(store.lastPush(ann, "b1")).as("every digit of the fraction and of the instant").contains(first);
    store.savePush(ann, next);
    assertThat(store.lastPush(ann, "b1")).contains(next);
    assertThat(store.lastPush(ann, "other")).isEmpty();
    assertThat(store.lastPush(bob, "b1").orElseThrow().device()).isEqualTo("Phone");
  }

  @Test
  void documentsAndPushesSurviveAReopenAndPushesGoWithTheirUser() throws Exception {
    store.record(List.of(new Document("b1", "moon", "ch-1", Kind.BINARY)), NOW);
    Push push = new Push("b1", "12", 0.25, "Kobo", "dev-1", NOW);
    store.savePush(ann, push);
    store.savePush(bob, push);

    database.reopen();
    store = database.stores().kosync();
    assertThat(store.document("b1")).contains(new Document("b1", "moon", "ch-1", Kind.BINARY));
    assertThat(store.lastPush(ann, "b1")).contains(push);

    database.deleteUser(ann);
    assertThat(store.lastPush(ann, "b1")).isEmpty();
    assertThat(store.lastPush(bob, "b1")).contains(push);
    assertThat(store.document("b1")).as("a document id belongs to no user").isPresent();
  }
}
