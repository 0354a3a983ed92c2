package io.mangacircus.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** What the JVM's user may do that decides how PostgreSQL can run: whether it is root, whether it may unshare. */
final class RunningUser {

  private RunningUser() {
  }

  /** Whether this process runs as root (uid 0), read from /proc/self's owner. */
  static boolean isRoot() {
    try {
      return ((Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid")) == 0;
    } catch (IOException | UnsupportedOperationException e) {
      return "root".equals(System.getProperty("user.name"));
    }
  }

  /** Whether {@code unshare -U true} succeeds: zonky needs a user namespace to run PostgreSQL as root. */
  static boolean canUnshareUserNamespace() {
    try {
      Process process = new ProcessBuilder("unshare", "-U", "true")
          .redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD)
          .start();
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        return false;
      }
      return process.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
