package io.mangacircus.launcher.notify;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The same event key within the window is one message: the first one goes out at once, repeats are only counted, and
 * when the window closes with repeats one summary says how many there were.
 */
public final class Deduplicator {

  private record Window(Instant openedAt, Notification first, int repeats) {
  }

  private final Duration window;
  private final InstantSource clock;
  private final Map<String, Window> windows = new HashMap<>();

  public Deduplicator(Duration window, InstantSource clock) {
    this.window = window;
    this.clock = clock;
  }

  /** True when {@code notification} should go out now; false when it is a repeat within its key's window. */
  public boolean offer(Notification notification) {
    Instant now = clock.instant();
    Window open = windows.get(notification.key());
    if (open != null && now.isBefore(open.openedAt().plus(window))) {
      windows.put(notification.key(), new Window(open.openedAt(), open.first(), open.repeats() + 1));
      return false;
    }
    if (window.isZero()) {
      return true;
    }
    windows.put(notification.key(), new Window(now, notification, 0));
    return true;
  }

  /** Closes the windows that have ended; returns one summary for each that saw repeats. */
  public List<Notification> closeEnded() {
    Instant now = clock.instant();
    List<Notification> summaries = new ArrayList<>();
    for (Iterator<Window> it = windows.values().iterator(); it.hasNext(); ) {
      Window open = it.next();
      if (!now.isBefore(open.openedAt().plus(window))) {
        it.remove();
        if (open.repeats() > 0) {
          summaries.add(open.first().repeated(open.repeats(), window.toMinutes(), now));
        }
      }
    }
    return summaries;
  }

  /** How many keys have an open window. */
  public int openWindows() {
    return windows.size();
  }
}
