package io.mangacircus.launcher.lock;

import java.nio.file.Path;

/** Another process already owns a lock file. */
public final class LockHeldException extends java.io.IOException {

  public LockHeldException(Path file, String holder) {
    super(file + " is locked by another running process (" + (holder.isEmpty() ? "holder unknown" : holder) + ")");
  }
}
