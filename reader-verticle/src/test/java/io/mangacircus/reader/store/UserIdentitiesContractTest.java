package io.mangacircus.reader.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mangacircus.contracts.rating.AgeLimit;
import io.mangacircus.reader.access.UserAccess;
import io.mangacircus.reader.store.StoreEngines.Engine;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** Sign-in identities, on either engine: each (issuer, subject) signs in as one account, made with it in one step. */
@ParameterizedClass
@EnumSource(Engine.class)
class UserIdentitiesContractTest extends ContractTestBase {

  private static final String ISSUER = "https://auth.example.org";

  @Test
  void anAccountCreatedWithItsIdentityIsFoundByItWithItsAccessAfterARestart() throws Exception {
    UserAccess access = UserAccess.only(Set.of("downloads"), AgeLimit.NONE);

    long id = stores.users().createUserWithIdentity("alice", "!none", "reader", access, ISSUER, "sub-1", now);
    reopen();

    assertThat(stores.users().userByIdentity(ISSUER, "sub-1"))
        .contains(new User(id, "alice", "!none", "reader", false));
    assertThat(stores.users().userByIdentity("https://other.example.org", "sub-1")).isEmpty();
    assertThat(stores.users().access("alice")).contains(access);
  }

  @Test
  void aTakenNameOrIdentityWritesNothing() throws Exception {
    stores.users().createUser("bob", "!none", "reader", now);
    stores.users().createUserWithIdentity("carol", "!none", "reader", UserAccess.EVERYTHING, ISSUER, "sub-c", now);

    assertThatThrownBy(() -> stores.users().createUserWithIdentity("BOB", "!none", "reader", UserAccess.EVERYTHING,
        ISSUER, "sub-b", now)).isInstanceOf(StoreException.class);
    assertThatThrownBy(() -> stores.users().createUserWithIdentity("dave", "!none", "reader", UserAccess.EVERYTHING,
        ISSUER, "sub-c", now)).isInstanceOf(StoreException.class);

    assertThat(stores.users().userByIdentity(ISSUER, "sub-b")).isEmpty();
    assertThat(stores.users().user("dave")).as("the account is not left without its identity").isEmpty();
  }

  @Test
  void linkingAddsAnIdentityOnceAndARoleChangeIsKept() throws Exception {
    long id = stores.users().createUser("erin", "!none", "reader", now);

    assertThat(stores.users().linkIdentity(id, ISSUER, "sub-e", now)).isTrue();
    assertThat(stores.users().linkIdentity(id, ISSUER, "sub-e", now)).isFalse();
    assertThat(stores.users().linkIdentity(id + 100, ISSUER, "sub-x", now)).isFalse();
    assertThat(stores.users().userByIdentity(ISSUER, "sub-e").map(User::id)).contains(id);
    assertThat(stores.users().setRole(id, "admin")).isTrue();
    assertThat(stores.users().userById(id).map(User::role)).contains("admin");
    assertThat(stores.users().setRole(id + 100, "admin")).isFalse();
  }
}
