package io.mangacircus.launcher.supervision;

/** Turns a failure into the sentence operators read in health data and the console: its message, not its class. */
public final class FailureText {

  private FailureText() {
  }

  /**
   * The innermost useful message of {@code error}'s cause chain (a wrapper that only repeats its cause's
   * {@code toString()} adds nothing); the simple class name only when no message exists at all.
   */
  public static String of(Throwable error) {
    if (error == null) {
      return "no cause recorded";
    }
    Throwable t = error;
    while (t.getCause() != null && t.getCause() != t
        && (t.getMessage() == null || t.getMessage().equals(t.getCause().toString()))) {
      t = t.getCause();
    }
    String message = t.getMessage();
    if (message == null || message.isBlank()) {
      return "an unexpected " + t.getClass().getSimpleName() + " without a message";
    }
    return message;
  }
}
