package io.mangacircus.launcher;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads the native libraries a process will need (SQLite's for the reader, Netty's epoll transport) on one background
 * thread while the main thread sets up Vert.x: each is unpacked from the jar into a temporary file and loaded, ≈ 0.3 s
 * of a start-up that was otherwise spent on one core of two. Whoever uses a library first waits for its loading to
 * finish (class initialisation is once per JVM), and a library that does not load is reported where it is used.
 */
final class NativeLibraryPreload {

  private static final Logger LOG = LoggerFactory.getLogger(NativeLibraryPreload.class);

  private NativeLibraryPreload() {
  }

  /** Starts the loading; returns at once. */
  static void start(Mode mode, boolean nativeTransport) {
    if (!mode.hostsReader() && !nativeTransport) {
      return;
    }
    Thread thread = new Thread(() -> {
      if (nativeTransport) {
        load("epoll", io.netty.channel.epoll.Epoll::isAvailable);
      }
      if (mode.hostsReader()) {
        load("SQLite", org.sqlite.SQLiteJDBCLoader::initialize);
      }
    }, "mc-native-preload");
    thread.setDaemon(true);
    thread.start();
  }

  private static void load(String name, java.util.concurrent.Callable<?> loader) {
    try {
      loader.call();
    } catch (Exception | LinkageError e) {
      LOG.debug("preloading the {} native library failed (its first use says so): {}", name, e.toString());
    }
  }
}
