package io.mangacircus.reader.store;

/** An account with its password hash, as login and account changes read it. */
public record User(long id, String username, String passwordHash, String role, boolean disabled) {
}
