package io.mangacircus.launcher.edge;

/**
 * Where one HTTP/1.1 connection is between requests, and so which deadline runs: while a request's head is being read,
 * the header deadline; while nothing is asked or answered, the idle deadline; while a request's body is read or an
 * answer is written, none, so that a slow phone's upload or download is never cut. A connection upgraded to a WebSocket
 * has none either. Pipelined requests are answered in turn and a head that arrives during an answer is timed from the
 * answer's end.
 */
final class ConnectionPhase {

  /** What to do with the connection's deadline after an event. */
  enum Deadline {
    /** Start the header deadline now (replacing any other). */
    HEADERS,
    /** Start the idle deadline now (replacing any other). */
    IDLE,
    /** No deadline runs. */
    NONE,
    /** Leave the deadline as it is. */
    KEEP
  }

  private boolean readingHead;
  private boolean readingBody;
  private int unanswered;
  private boolean upgraded;

  /** The connection is open: nothing is asked yet. */
  Deadline opened() {
    return Deadline.IDLE;
  }

  /** Bytes arrived. */
  Deadline bytes() {
    if (upgraded || readingBody || readingHead) {
      return Deadline.KEEP;
    }
    readingHead = true;
    return unanswered == 0 ? Deadline.HEADERS : Deadline.KEEP;
  }

  /** A request's head is complete. */
  Deadline head() {
    readingHead = false;
    readingBody = true;
    unanswered++;
    return Deadline.NONE;
  }

  /** A request's body is complete (or it had none). */
  Deadline bodyEnd() {
    readingBody = false;
    return unanswered == 0 && !upgraded ? Deadline.IDLE : Deadline.KEEP;
  }

  /** An answer is written out to its end. */
  Deadline answered() {
    unanswered = Math.max(0, unanswered - 1);
    if (upgraded || unanswered > 0 || readingBody) {
      return Deadline.KEEP;
    }
    return readingHead ? Deadline.HEADERS : Deadline.IDLE;
  }

  /** The connection became a WebSocket: HTTP deadlines end. */
  Deadline upgraded() {
    upgraded = true;
    return Deadline.NONE;
  }
}
