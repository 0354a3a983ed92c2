package io.mangacircus.launcher;

import io.mangacircus.reader.http.HttpMount;
import io.vertx.ext.web.Router;
import java.util.concurrent.atomic.AtomicReference;

/** Holds the reader's router while the reader is deployed; the launcher's HTTP server delegates to it. */
public final class RouterSlot implements HttpMount {

  private final AtomicReference<Router> current = new AtomicReference<>();

  @Override
  public void attach(Router router) {
    current.set(router);
  }

  @Override
  public void detach(Router router) {
    current.compareAndSet(router, null);
  }

  /** The attached router, or null while the reader is down. */
  public Router router() {
    return current.get();
  }
}
