package io.mangacircus.launcher;

import io.mangacircus.reader.accounts.GeneratedPassword;
import io.mangacircus.reader.accounts.NewAdminPassword;
import java.io.PrintStream;
import java.util.Optional;

/**
 * The operator's "Ready" block on the console once a process with the reader serves: where to open it and, on a
 * first start, the generated admin password with how to change it. Printed straight to standard output, never
 * through the log, so it carries no log prefixes and a log file or log shipper never holds the password
 * (docs/operations.md, "Accounts").
 */
public final class ReadyNotice {

  private final PrintStream out;
  private final boolean json;
  private String url;
  private boolean accountsKnown;
  private NewAdminPassword generated;
  private boolean printed;

  /**
   * A notice for a process that hosts the reader: the block waits for the reader's accounts too, since a first start
   * makes the admin password after the services are up (its hash takes about a second).
   *
   * @param out where the block goes (the process's standard output)
   * @param json whether standard output carries JSON log lines ({@code log.format: json}): the block is then one JSON
   *     object on one line, as every other line there, so a collector reading them still parses each one
   */
  public ReadyNotice(PrintStream out, boolean json) {
    this.out = out;
    this.json = json;
  }

  /** The reader's accounts are ready: with the admin password it generated, if it made one. */
  public synchronized void accounts(Optional<NewAdminPassword> made) {
    if (printed) {
      // An admin made later (the reader restarted with none left): its password must still reach the operator.
      made.ifPresent(password -> print(block(url, password)));
      return;
    }
    accountsKnown = true;
    generated = made.orElse(generated);
    printWhenComplete();
  }

  /** The process serves at {@code url} (its services started). */
  public synchronized void ready(String readerUrl) {
    this.url = readerUrl;
    printWhenComplete();
  }

  private void printWhenComplete() {
    if (printed || url == null || !accountsKnown) {
      return;
    }
    printed = true;
    print(generated == null ? "Ready: open " + url : block(url, generated));
  }

  private void print(String text) {
    out.println(json ? new io.vertx.core.json.JsonObject().put("timestamp", java.time.Instant.now().toString())
        .put("level", "WARN").put("logger", ReadyNotice.class.getName()).put("message", text).encode() : text);
    out.flush();
  }

  /** The framed block of a first start: one line to act on, then how to change the password. */
  static String block(String url, NewAdminPassword made) {
    String nl = System.lineSeparator();
    return GeneratedPassword.FRAME + nl
        + "Ready: open " + (url == null ? "the reader" : url) + ", user " + made.username() + ", password "
        + made.password() + nl
        + "  The password is shown only this once and is never written to the log." + nl
        + "  To change it: log in and use the Users page (/admin/users.html)." + nl
        + "  Locked out? Stop MangaCircus and run" + nl
        + "      bin/mangacircus reset-password " + made.username() + nl
        + GeneratedPassword.FRAME;
  }
}
