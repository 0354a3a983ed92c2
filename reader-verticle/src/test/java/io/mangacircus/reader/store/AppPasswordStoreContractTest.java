package io.mangacircus.reader.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.reader.store.StoreEngines.Engine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** App passwords, on either engine: names unique per user, found by lookup or sync key for accounts not disabled. */
@ParameterizedClass
@EnumSource(Engine.class)
class AppPasswordStoreContractTest extends ContractTestBase {

  @Test
  void aNameIsUniquePerUserAndTheListIsOldestFirst() throws Exception {
    long rita = stores.users().createUser("rita", "hash", "reader", now);
    long eve = stores.users().createUser("eve", "hash", "reader", now);

    long tablet = stores.appPasswords().createAppPassword(rita, "tablet", "Abcd", "h1", AppScope.READ, null, now)
        .orElseThrow();
    long phone = stores.appPasswords().createAppPassword(rita, "phone", "Efgh", "h2", AppScope.READ_PROGRESS,
        "sync-1", now.plusSeconds(1)).orElseThrow();

    assertThat(stores.appPasswords().createAppPassword(rita, "tablet", "Zzzz", "h9", AppScope.READ, null, now))
        .as("a second app password by the same name").isEmpty();
    assertThat(stores.appPasswords().createAppPassword(eve, "tablet", "Ijkl", "h3", AppScope.READ, null, now))
        .as("another user's app password by that name").isPresent();
    reopen();
    assertThat(stores.appPasswords().appPasswords(rita)).containsExactly(
        new AppPassword(tablet, "tablet", AppScope.READ, false, now, null),
        new AppPassword(phone, "phone", AppScope.READ_PROGRESS, true, now.plusSeconds(1), null));
  }

  @Test
  void candidatesAreFoundByLookupOnlyForAccountsThatAreNotDisabled() throws Exception {
    long rita = stores.users().createUser("Rita", "hash", "admin", now);
    long eve = stores.users().createUser("eve", "hash", "reader", now);
    long ritas = stores.appPasswords().createAppPassword(rita, "tablet", "Same", "h1", AppScope.READ, null, now)
        .orElseThrow();
    long eves = stores.appPasswords().createAppPassword(eve, "tablet", "Same", "h2", AppScope.READ_PROGRESS, null,
        now).orElseThrow();

    assertThat(stores.appPasswords().appPasswordCandidates("rita", "Same")).containsExactly(
        new AppPasswordCandidate(ritas, rita, "Rita", "admin", "h1", AppScope.READ));
    assertThat(stores.appPasswords().appPasswordCandidates("Same")).containsExactlyInAnyOrder(
        new AppPasswordCandidate(ritas, rita, "Rita", "admin", "h1", AppScope.READ),
        new AppPasswordCandidate(eves, eve, "eve", "reader", "h2", AppScope.READ_PROGRESS));
    assertThat(stores.appPasswords().appPasswordCandidates("rita", "Other")).isEmpty();

    stores.users().setDisabled("eve", true);

    assertThat(stores.appPasswords().appPasswordCandidates("Same")).extracting(AppPasswordCandidate::id)
        .containsExactly(ritas);
    assertThat(stores.appPasswords().appPasswordCandidates("eve", "Same")).isEmpty();
  }

  @Test
  void aSyncKeyFindsItsAppPasswordForTheUserInAnyCase() throws Exception {
    long rita = stores.users().createUser("rita", "hash", "reader", now);
    long eve = stores.users().createUser("eve", "hash", "reader", now);
    long ritas = stores.appPasswords().createAppPassword(rita, "kobo", "Abcd", "h1", AppScope.READ_PROGRESS, "key",
        now).orElseThrow();
    stores.appPasswords().createAppPassword(eve, "kobo", "Efgh", "h2", AppScope.READ_PROGRESS, "key", now);

    assertThat(stores.appPasswords().appPasswordsBySyncKey("RITA", "key")).extracting(AppPasswordCandidate::id)
        .containsExactly(ritas);
    assertThat(stores.appPasswords().appPasswordsBySyncKey("rita", "other")).isEmpty();
    stores.users().setDisabled("rita", true);
    assertThat(stores.appPasswords().appPasswordsBySyncKey("rita", "key")).isEmpty();
  }

  @Test
  void useIsRecordedAndARevokedAppPasswordIsGone() throws Exception {
    long rita = stores.users().createUser("rita", "hash", "reader", now);
    long eve = stores.users().createUser("eve", "hash", "reader", now);
    long tablet = stores.appPasswords().createAppPassword(rita, "tablet", "Abcd", "h1", AppScope.READ, null, now)
        .orElseThrow();

    stores.appPasswords().appPasswordUsed(tablet, now.plusSeconds(30));
    assertThat(stores.appPasswords().appPasswords(rita)).singleElement()
        .satisfies(p -> assertThat(p.lastUsedAt()).isEqualTo(now.plusSeconds(30)));

    assertThat(stores.appPasswords().deleteAppPassword(eve, tablet)).as("another user's id").isFalse();
    assertThat(stores.appPasswords().deleteAppPassword(rita, tablet)).isTrue();
    assertThat(stores.appPasswords().deleteAppPassword(rita, tablet)).isFalse();
    assertThat(stores.appPasswords().appPasswords(rita)).isEmpty();
    assertThat(stores.appPasswords().appPasswordCandidates("Abcd")).isEmpty();
  }
}
