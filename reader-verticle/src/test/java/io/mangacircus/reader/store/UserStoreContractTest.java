package io.mangacircus.reader.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mangacircus.contracts.rating.AgeLimit;
import io.mangacircus.contracts.rating.AgeRating;
import io.mangacircus.reader.access.UserAccess;
import io.mangacircus.reader.store.StoreEngines.Engine;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** Accounts, on either engine: names unique and ordered regardless of case; changes end sessions in one step. */
@ParameterizedClass
@EnumSource(Engine.class)
class UserStoreContractTest extends ContractTestBase {

  @Test
  void userNamesAreFoundAndUniqueRegardlessOfCase() throws Exception {
    long id = stores.users().createUser("Alice", "hash-1", "admin", now);

    assertThat(stores.users().user("alice")).contains(new User(id, "Alice", "hash-1", "admin", false));
    assertThat(stores.users().user("ALICE")).isPresent();
    assertThat(stores.users().userById(id)).contains(new User(id, "Alice", "hash-1", "admin", false));
    assertThat(stores.users().user("bob")).isEmpty();
    assertThat(stores.users().userById(id + 1)).isEmpty();
    assertThatThrownBy(() -> stores.users().createUser("aLiCe", "hash-2", "reader", now))
        .isInstanceOf(StoreException.class);
    assertThat(stores.users().accounts()).hasSize(1);
  }

  @Test
  void accountsAreListedByNameRegardlessOfCaseAndKeptAcrossARestart() throws Exception {
    stores.users().createUser("carol", "hash", "reader", now);
    stores.users().createUser("Bob", "hash", "admin", now.plusSeconds(1));
    stores.users().createUser("alice", "hash", "reader", now.plusSeconds(2));
    stores.users().createUser("Zed", "hash", "reader", now.plusSeconds(3));

    reopen();

    assertThat(stores.users().accounts()).containsExactly(
        new Account("alice", "reader", false, now.plusSeconds(2)),
        new Account("Bob", "admin", false, now.plusSeconds(1)),
        new Account("carol", "reader", false, now),
        new Account("Zed", "reader", false, now.plusSeconds(3)));
    assertThat(stores.users().accesses().keySet()).containsExactly("alice", "Bob", "carol", "Zed");
  }

  @Test
  void onlyAdminsThatAreNotDisabledCount() throws Exception {
    stores.users().createUser("root", "hash", "admin", now);
    stores.users().createUser("boss", "hash", "admin", now);
    stores.users().createUser("rita", "hash", "reader", now);
    assertThat(stores.users().countAdmins()).isEqualTo(2);

    assertThat(stores.users().setDisabled("BOSS", true)).isTrue();

    assertThat(stores.users().countAdmins()).isEqualTo(1);
    assertThat(stores.users().user("boss")).hasValueSatisfying(u -> assertThat(u.disabled()).isTrue());
    assertThat(stores.users().setDisabled("nobody", true)).isFalse();
  }

  @Test
  void aPasswordResetEndsTheUsersSessionsAndAppPasswordsAndRecordsHowManyInOneStep() throws Exception {
    long rita = stores.users().createUser("rita", "old-hash", "reader", now);
    long eve = stores.users().createUser("eve", "hash", "reader", now);
    stores.sessions().createSession("rita-1", rita, "csrf", now, now.plus(Duration.ofHours(1)));
    stores.sessions().createSession("eve-1", eve, "csrf", now, now.plus(Duration.ofHours(1)));
    stores.appPasswords().createAppPassword(rita, "tablet", "Abcd", "h1", AppScope.READ, null, now);
    stores.appPasswords().createAppPassword(rita, "phone", "Efgh", "h2", AppScope.READ, null, now);
    stores.appPasswords().createAppPassword(eve, "tablet", "Ijkl", "h3", AppScope.READ, null, now);

    assertThat(stores.users().setPassword("RITA", "new-hash", now.plusSeconds(60))).isTrue();

    assertThat(stores.users().user("rita")).hasValueSatisfying(
        u -> assertThat(u.passwordHash()).isEqualTo("new-hash"));
    assertThat(stores.sessions().session("rita-1", now)).isEmpty();
    assertThat(stores.appPasswords().appPasswords(rita)).isEmpty();
    assertThat(stores.appPasswords().appPasswordsEnded(rita))
        .contains(new AppPasswordsEnded(now.plusSeconds(60), 2));
    assertThat(stores.sessions().session("eve-1", now)).as("another user's session").isPresent();
    assertThat(stores.appPasswords().appPasswords(eve)).as("another user's app password").hasSize(1);
    assertThat(stores.appPasswords().appPasswordsEnded(eve)).isEmpty();
    assertThat(stores.users().setPassword("nobody", "hash", now)).isFalse();
  }

  @Test
  void aResetOfAUserWithoutAppPasswordsRecordsNoEnding() throws Exception {
    long rita = stores.users().createUser("rita", "old-hash", "reader", now);

    assertThat(stores.users().setPassword("rita", "new-hash", now)).isTrue();

    assertThat(stores.appPasswords().appPasswordsEnded(rita)).isEmpty();
  }

  @Test
  void changingOnesOwnPasswordKeepsTheAskingSessionAndTheAppPasswords() throws Exception {
    long rita = stores.users().createUser("rita", "old-hash", "reader", now);
    stores.sessions().createSession("asking", rita, "csrf", now, now.plus(Duration.ofHours(1)));
    stores.sessions().createSession("other", rita, "csrf", now, now.plus(Duration.ofHours(1)));
    stores.appPasswords().createAppPassword(rita, "tablet", "Abcd", "h1", AppScope.READ, null, now);

    assertThat(stores.users().changeOwnPassword(rita, "new-hash", "asking")).isTrue();

    assertThat(stores.users().userById(rita)).hasValueSatisfying(
        u -> assertThat(u.passwordHash()).isEqualTo("new-hash"));
    assertThat(stores.sessions().session("asking", now)).isPresent();
    assertThat(stores.sessions().session("other", now)).isEmpty();
    assertThat(stores.appPasswords().appPasswords(rita)).hasSize(1);
    assertThat(stores.users().changeOwnPassword(rita + 100, "hash", "asking")).isFalse();
  }

  @Test
  void anAccountsAccessIsKeptAcrossARestartAndAnUnknownAccountHasNone() throws Exception {
    UserAccess limited = UserAccess.only(Set.of("downloads", "comics"), AgeLimit.atMost(AgeRating.TWELVE_PLUS));
    UserAccess nothing = UserAccess.only(Set.of(), AgeLimit.atMost(AgeRating.NINE_PLUS).withUnratedShown(true));
    stores.users().createUser("rita", "hash", "reader", now);
    stores.users().createUser("kid", "hash", "reader", now);
    stores.users().createUser("all", "hash", "reader", now);
    assertThat(stores.users().access("rita")).contains(UserAccess.EVERYTHING);
    assertThat(stores.users().setAccess("rita", limited)).isTrue();
    assertThat(stores.users().setAccess("KID", nothing)).isTrue();
    assertThat(stores.users().setAccess("nobody", limited)).isFalse();

    reopen();

    assertThat(stores.users().access("RITA")).contains(limited);
    assertThat(stores.users().accesses()).containsEntry("kid", nothing).containsEntry("rita", limited)
        .containsEntry("all", UserAccess.EVERYTHING);
    assertThat(stores.users().access("nobody")).isEmpty();
  }
}
