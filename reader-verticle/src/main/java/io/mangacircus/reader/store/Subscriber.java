package io.mangacircus.reader.store;

import java.util.List;

/** A user to alert, where, and which of the asked series they subscribed to. */
public record Subscriber(String username, AlertTarget target, List<String> series) {
}
