package io.mangacircus.reader.accounts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mangacircus.reader.store.Account;
import io.mangacircus.reader.store.ReaderStores;
import io.mangacircus.reader.store.StoreEngines;
import io.mangacircus.reader.store.StoreEngines.Engine;
import io.mangacircus.reader.store.StoreException;
import io.mangacircus.reader.store.UserStore;
import io.mangacircus.testing.MutableClock;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The first admin on a real database of each engine, when another reader starting on the same empty database makes it
 * first: the other reader makes its admin between this one's look ("no admin") and its insert.
 */
@ParameterizedClass
@EnumSource(Engine.class)
class FirstAdminTest {

  @Parameter
  Engine engine;

  @TempDir
  Path work;

  private final MutableClock clock = new MutableClock();
  private ReaderStores stores;

  @BeforeEach
  void open() throws Exception {
    stores = StoreEngines.open(engine, work);
  }

  @AfterEach
  void close() throws Exception {
    stores.close();
  }

  /** The real user store, with {@code beforeInsert} run just before its first {@code createUser}. */
  private UserStore racing(StoreCall beforeInsert) {
    UserStore real = stores.users();
    boolean[] raced = {false};
    return (UserStore) Proxy.newProxyInstance(UserStore.class.getClassLoader(), new Class<?>[] {UserStore.class},
        (proxy, method, args) -> {
          if (method.getName().equals("createUser") && !raced[0]) {
            raced[0] = true;
            beforeInsert.run(real);
          }
          try {
            return method.invoke(real, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
  }

  @FunctionalInterface
  private interface StoreCall {
    void run(UserStore real) throws StoreException;
  }

  @Test
  void aReaderThatLosesTheRaceForTheFirstAdminFindsItMadeAndMakesNone() throws Exception {
    UserStore users = racing(real -> real.createUser("admin", "the-other-readers-hash", "admin", clock.instant()));

    Optional<NewAdminPassword> made = FirstAdmin.ensure(users, "", clock);

    assertThat(made).as("no password shown: this reader's account was never stored").isEmpty();
    assertThat(stores.users().accounts()).extracting(Account::username).containsExactly("admin");
    assertThat(stores.users().user("admin").orElseThrow().passwordHash()).isEqualTo("the-other-readers-hash");
  }

  @Test
  void aFailedInsertWithNoAdminMadeElsewhereStillFailsTheStart() {
    // A user named admin that is no admin: this reader's insert fails on the name, and still no admin exists.
    UserStore users = racing(real -> real.createUser("ADMIN", "hash", "reader", clock.instant()));

    assertThatThrownBy(() -> FirstAdmin.ensure(users, "configured-password-1", clock))
        .isInstanceOf(StoreException.class);
  }

  @Test
  void aLoneReaderMakesTheAdminWithTheConfiguredPassword() throws Exception {
    assertThat(FirstAdmin.ensure(stores.users(), "configured-password-1", clock)).isEmpty();

    assertThat(PasswordHasher.verifyAccount("configured-password-1".toCharArray(),
        stores.users().user("admin").orElseThrow().passwordHash())).isTrue();
  }
}
