package io.mangacircus.reader.http;

import io.vertx.ext.web.Router;

/**
 * Where the reader plugs its routes into the HTTP server its launcher owns, so that health stays
 * answerable on the reader port even while the reader itself is down.
 */
public interface HttpMount {

  /** Serve {@code router} for every path the launcher does not answer itself. */
  void attach(Router router);

  /** Stop serving {@code router}; a no-op when another router has been attached since. */
  void detach(Router router);
}
