package io.mangacircus.contracts;

import io.vertx.core.json.JsonObject;

/**
 * A message record: its JSON body is {@code v} (the record's {@code VERSION} constant) followed by its components, as
 * {@link MessageJson} writes them.
 */
public interface Message {

  /** The body to send. */
  default JsonObject toJson() {
    return MessageJson.write((Record) this, MessageJson.version(getClass()));
  }
}
