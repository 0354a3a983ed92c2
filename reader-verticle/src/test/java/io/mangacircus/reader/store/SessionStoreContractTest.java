package io.mangacircus.reader.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.reader.store.StoreEngines.Engine;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** Sessions, on either engine: found by their token's hash until they expire or end, kept across a restart. */
@ParameterizedClass
@EnumSource(Engine.class)
class SessionStoreContractTest extends ContractTestBase {

  @Test
  void sessionsExpireAndEndOnLogout() throws Exception {
    SessionStore sessions = stores.sessions();
    long id = stores.users().createUser("bob", "hash", "reader", now);
    sessions.createSession("h1", id, "csrf", now, now.plus(Duration.ofHours(1)));

    assertThat(sessions.session("h1", now.plus(Duration.ofMinutes(59)))).hasValueSatisfying(s -> {
      assertThat(s.tokenHash()).isEqualTo("h1");
      assertThat(s.userId()).isEqualTo(id);
      assertThat(s.username()).isEqualTo("bob");
      assertThat(s.role()).isEqualTo("reader");
      assertThat(s.csrfToken()).isEqualTo("csrf");
      assertThat(s.expiresAt()).isEqualTo(now.plus(Duration.ofHours(1)));
      assertThat(s.appScope()).isNull();
    });
    assertThat(sessions.session("h1", now.plus(Duration.ofHours(1)))).isEmpty();
    sessions.deleteSession("h1");
    assertThat(sessions.session("h1", now)).isEmpty();
  }

  @Test
  void aSessionOutlivesARestartAndIsNotFoundWhileItsUserIsDisabled() throws Exception {
    long id = stores.users().createUser("bob", "hash", "reader", now);
    stores.sessions().createSession("h1", id, "csrf", now, now.plus(Duration.ofHours(1)));

    reopen();

    assertThat(stores.sessions().session("h1", now)).isPresent();
    stores.sessions().createSession("h2", id, "csrf-2", now, now.plus(Duration.ofHours(1)));
    stores.users().setDisabled("bob", true);
    assertThat(stores.sessions().session("h2", now)).as("a disabling ends the user's sessions").isEmpty();
    stores.users().setDisabled("bob", false);
    stores.sessions().createSession("h3", id, "csrf-3", now, now.plus(Duration.ofHours(1)));
    assertThat(stores.sessions().session("h3", now)).isPresent();
  }

  @Test
  void anotherUsersSessionsAreLeftAlone() throws Exception {
    long bob = stores.users().createUser("bob", "hash", "reader", now);
    long eve = stores.users().createUser("eve", "hash", "reader", now);
    stores.sessions().createSession("bob-1", bob, "csrf", now, now.plus(Duration.ofHours(1)));
    stores.sessions().createSession("eve-1", eve, "csrf", now, now.plus(Duration.ofHours(1)));

    stores.users().setDisabled("bob", true);

    assertThat(stores.sessions().session("eve-1", now)).hasValueSatisfying(
        s -> assertThat(s.username()).isEqualTo("eve"));
  }
}
