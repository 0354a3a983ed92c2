package io.mangacircus.contracts;

/** Thrown by a message record's {@code fromJson} when a body does not match its contract. */
public final class InvalidMessageException extends RuntimeException {

  private final ErrorCode code;

  public InvalidMessageException(ErrorCode code, String message) {
    super(message);
    this.code = code;
  }

  /** The code the receiver replies with. */
  public ErrorCode code() {
    return code;
  }
}
