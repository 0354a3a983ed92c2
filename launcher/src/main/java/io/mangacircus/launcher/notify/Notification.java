package io.mangacircus.launcher.notify;

import java.time.Instant;
import java.util.List;

/**
 * One message for the operator, before it is shaped for a destination: what happened, what the system did and what
 * the operator should do are in {@code message}.
 *
 * @param kind the event kind ({@code incident}, {@code repair-required}, ... as in the config's {@code events})
 * @param key the dedup key: the same key within the window is one message
 * @param title one line
 * @param message the body, plain text
 * @param priority 1 (min) to 5 (urgent), ntfy's scale
 * @param tags short words (ntfy shows them as emoji when they name one)
 * @param click the console page to open, or empty
 * @param at when the event happened
 * @param repeats how many more times the same key was seen in the dedup window (0 for a first message)
 */
public record Notification(String kind, String key, String title, String message, int priority, List<String> tags,
    String click, Instant at, int repeats) {

  public Notification {
    tags = List.copyOf(tags);
    click = click == null ? "" : click;
    if (priority < 1 || priority > 5) {
      throw new IllegalArgumentException("priority must be 1 to 5, got " + priority);
    }
  }

  /** The summary of a dedup window: the same message, saying how many more times it happened. */
  public Notification repeated(int times, long windowMinutes, Instant now) {
    return new Notification(kind, key, title + " (" + times + " more in " + windowMinutes + " min)",
        message + "\n\nThis happened " + times + " more time" + (times == 1 ? "" : "s") + " in the last "
            + windowMinutes + " minutes.", priority, tags, click, now, times);
  }
}
