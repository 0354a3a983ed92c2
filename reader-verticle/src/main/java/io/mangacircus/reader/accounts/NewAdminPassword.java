package io.mangacircus.reader.accounts;

import java.util.Objects;

/**
 * An admin account the reader made with a generated password, for the one notice that shows it to the operator. Its
 * {@link #toString()} leaves the password out, so logging the record by mistake shows nothing secret.
 *
 * @param username the account's name
 * @param password the generated password, in clear
 */
public record NewAdminPassword(String username, String password) {

  public NewAdminPassword {
    Objects.requireNonNull(username, "username");
    Objects.requireNonNull(password, "password");
  }

  @Override
  public String toString() {
    return "NewAdminPassword[username=" + username + ", password=(not shown)]";
  }
}
