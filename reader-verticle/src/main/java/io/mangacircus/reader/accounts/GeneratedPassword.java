package io.mangacircus.reader.accounts;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;

/**
 * Passwords the system makes up (the first admin's, a command-line reset's) and the framed notice that shows one,
 * once, to the operator: who it is for, the password alone on its line, and how to change it.
 */
public final class GeneratedPassword {

  /** Letters and digits without the look-alikes 0/O/o, 1/l/I: about 5.75 bits a character. */
  private static final String ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789";

  /** Characters in a generated password (about 115 random bits). */
  public static final int LENGTH = 20;

  /** The frame's top and bottom line; the password sits alone on the line after {@link #PASSWORD_LINE}. */
  public static final String FRAME = "=".repeat(78);

  /** The line that precedes the password in the notice. */
  public static final String PASSWORD_LINE = "  password (shown only this once, never logged again):";

  private static final SecureRandom RANDOM = new SecureRandom();

  private GeneratedPassword() {
  }

  /** A new random password of {@link #LENGTH} characters. */
  public static String create() {
    StringBuilder password = new StringBuilder(LENGTH);
    for (int i = 0; i < LENGTH; i++) {
      password.append(ALPHABET.charAt(RANDOM.nextInt(ALPHABET.length())));
    }
    return password.toString();
  }

  /**
   * The framed notice, one string of lines (no trailing newline). It never puts the password after a
   * {@code password:} key, which the log redaction would mask.
   *
   * @param headline what happened, for example {@code first start: created the admin account}
   */
  public static String notice(String headline, String username, String password) {
    List<String> lines = new ArrayList<>();
    lines.add(FRAME);
    lines.add("  MangaCircus " + headline);
    lines.add("");
    lines.add("  user name " + username);
    lines.add(PASSWORD_LINE);
    lines.add("");
    lines.add("      " + password);
    lines.add("");
    lines.add("  Keep it somewhere safe now. To change it: log in as an admin and set a new one");
    lines.add("  on the Users page (/admin/users.html). Locked out? Stop MangaCircus and run");
    lines.add("      bin/mangacircus reset-password " + username);
    lines.add("  which prints a new password once and ends " + username + "'s sessions.");
    lines.add(FRAME);
    return String.join(System.lineSeparator(), lines);
  }
}
