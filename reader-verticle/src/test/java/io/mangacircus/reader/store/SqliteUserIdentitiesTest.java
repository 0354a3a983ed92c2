package io.mangacircus.reader.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mangacircus.contracts.rating.AgeLimit;
import io.mangacircus.reader.access.UserAccess;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Sign-in identities in {@code reader.db}: each (issuer, subject) signs in as one account. */
class SqliteUserIdentitiesTest {

  private static final String ISSUER = "https://auth.example.org";

  @TempDir
  Path dir;

  private final Instant now = Instant.parse("2026-12-04T23:00:00Z");

  @Test
  void anAccountCreatedWithItsIdentityIsFoundByItWithItsAccess() throws Exception {
    try (SqliteDatabase db = SqliteDatabase.open(dir.resolve("reader.db"))) {
      UserStore users = new SqliteUserStore(db);
      UserAccess access = UserAccess.only(Set.of("downloads"), AgeLimit.NONE);

      long id = users.createUserWithIdentity("alice", "!none", "reader", access, ISSUER, "sub-1", now);

      assertThat(users.userByIdentity(ISSUER, "sub-1")).hasValueSatisfying(u -> {
        assertThat(u.id()).isEqualTo(id);
        assertThat(u.username()).isEqualTo("alice");
      });
      assertThat(users.userByIdentity("https://other.example.org", "sub-1")).isEmpty();
      assertThat(users.access("alice")).contains(access);
    }
  }

  @Test
  void aTakenNameOrIdentityWritesNothing() throws Exception {
    try (SqliteDatabase db = SqliteDatabase.open(dir.resolve("reader.db"))) {
      UserStore users = new SqliteUserStore(db);
      users.createUser("bob", "!none", "reader", now);
      users.createUserWithIdentity("carol", "!none", "reader", UserAccess.EVERYTHING, ISSUER, "sub-c", now);

      assertThatThrownBy(() -> users.createUserWithIdentity("BOB", "!none", "reader", UserAccess.EVERYTHING, ISSUER,
          "sub-b", now)).isInstanceOf(StoreException.class);
      assertThatThrownBy(() -> users.createUserWithIdentity("dave", "!none", "reader", UserAccess.EVERYTHING, ISSUER,
          "sub-c", now)).isInstanceOf(StoreException.class);

      assertThat(users.userByIdentity(ISSUER, "sub-b")).isEmpty();
      assertThat(users.user("dave")).as("the account is not left without its identity").isEmpty();
    }
  }

  @Test
  void linkingAddsAnIdentityOnceAndEndsWithTheAccount() throws Exception {
    try (SqliteDatabase db = SqliteDatabase.open(dir.resolve("reader.db"))) {
      UserStore users = new SqliteUserStore(db);
      long id = users.createUser("erin", "!none", "reader", now);

      assertThat(users.linkIdentity(id, ISSUER, "sub-e", now)).isTrue();
      assertThat(users.linkIdentity(id, ISSUER, "sub-e", now)).isFalse();
      assertThat(users.linkIdentity(id + 100, ISSUER, "sub-x", now)).isFalse();
      assertThat(users.userByIdentity(ISSUER, "sub-e").map(User::id)).contains(id);
      assertThat(users.setRole(id, "admin")).isTrue();
      assertThat(users.userById(id).map(User::role)).contains("admin");
    }
  }
}
