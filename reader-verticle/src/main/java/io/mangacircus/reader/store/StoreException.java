package io.mangacircus.reader.store;

/**
 * A store could not read or write its database (a broken file, a full disk, a constraint the caller did not expect).
 * Its message is the database driver's own, so that what callers log and answer names the actual failure.
 */
public final class StoreException extends Exception {

  private static final long serialVersionUID = 1L;

  public StoreException(String message, Throwable cause) {
    super(message, cause);
  }
}
