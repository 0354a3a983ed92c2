package io.mangacircus.contracts;

import io.vertx.core.json.JsonObject;

/** A record inside a message (a list entry, a nested object): its components as a JSON object, without {@code v}. */
public interface MessagePart {

  /** The object to put in a message. */
  default JsonObject toJson() {
    return MessageJson.write((Record) this);
  }
}
