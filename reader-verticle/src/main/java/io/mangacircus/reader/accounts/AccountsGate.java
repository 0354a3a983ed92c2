package io.mangacircus.reader.accounts;

import io.mangacircus.reader.http.ApiReplies;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;

/**
 * Holds back the requests that may check a password or change accounts until the first start's admin account exists:
 * its password hash (≈ 1 s of CPU) is made after the reader already serves its pages, not before.
 */
public final class AccountsGate implements Handler<RoutingContext> {

  private final Future<?> accountsReady;

  /** @param accountsReady completes once the accounts are usable; a failure answers 503 {@code accounts_unavailable} */
  public AccountsGate(Future<?> accountsReady) {
    this.accountsReady = accountsReady;
  }

  @Override
  public void handle(RoutingContext ctx) {
    if (accountsReady.succeeded()) {
      ctx.next();
      return;
    }
    accountsReady.onComplete(done -> {
      if (done.succeeded()) {
        ctx.next();
      } else {
        ApiReplies.error(ctx, 503, "accounts_unavailable", "the reader could not set up its accounts: "
            + done.cause().getMessage() + "; the log says why");
      }
    });
  }
}
