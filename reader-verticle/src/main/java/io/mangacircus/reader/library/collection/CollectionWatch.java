package io.mangacircus.reader.library.collection;

import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Notices changes in a collection with the platform's {@link WatchService} (inotify on Linux): the collection's folder
 * and each series folder in it (a book's own folder changes its series folder's entry when it is replaced). A burst of
 * changes (a series copied in) is told once, after {@code quiet} without another. Where watching does not work (a
 * network filesystem whose changes made by other hosts are never reported, or too many folders for the watch limit)
 * the periodic rescan is what finds changes; this only makes a local change show sooner. One daemon thread per
 * collection; it never writes anything.
 */
public final class CollectionWatch implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(CollectionWatch.class);

  private final Path root;
  private final Duration quiet;
  private final Runnable changed;
  private final WatchService service;
  private final Thread thread;

  private CollectionWatch(Path root, Duration quiet, Runnable changed) throws IOException {
    this.root = root;
    this.quiet = quiet;
    this.changed = changed;
    this.service = FileSystems.getDefault().newWatchService();
    register(root);
    try (DirectoryStream<Path> children = Files.newDirectoryStream(root)) {
      for (Path child : children) {
        if (Files.isDirectory(child, LinkOption.NOFOLLOW_LINKS)) {
          register(child);
        }
      }
    }
    this.thread = new Thread(this::run, "collection-watch-" + root.getFileName());
    thread.setDaemon(true);
  }

  /**
   * Watches {@code root}, telling {@code changed} (on the watch's thread) after each burst of changes; empty-handed
   * (logged) when the folder cannot be watched.
   */
  public static java.util.Optional<CollectionWatch> start(Path root, Duration quiet, Runnable changed) {
    try {
      CollectionWatch watch = new CollectionWatch(root, quiet, changed);
      watch.thread.start();
      return java.util.Optional.of(watch);
    } catch (IOException | RuntimeException e) {
      LOG.warn("[LIBRARY] changes in {} cannot be watched ({}); it is rescanned periodically only", root,
          e.toString());
      return java.util.Optional.empty();
    }
  }

  private void register(Path folder) throws IOException {
    folder.register(service, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_DELETE,
        StandardWatchEventKinds.ENTRY_MODIFY);
  }

  private void run() {
    try {
      while (true) {
        WatchKey key = service.take();
        drain(key);
        // Wait for the burst to end: every further change restarts the quiet period.
        for (WatchKey more = service.poll(quiet.toMillis(), TimeUnit.MILLISECONDS); more != null;
            more = service.poll(quiet.toMillis(), TimeUnit.MILLISECONDS)) {
          drain(more);
        }
        try {
          changed.run();
        } catch (RuntimeException e) {
          LOG.warn("[LIBRARY] a change in {} could not start a rescan: {}", root, e.toString());
        }
      }
    } catch (InterruptedException | ClosedWatchServiceException e) {
      // closed
    }
  }

  /** Takes a key's events; a new series folder is watched too. */
  private void drain(WatchKey key) {
    Path folder = (Path) key.watchable();
    for (WatchEvent<?> event : key.pollEvents()) {
      if (event.kind() == StandardWatchEventKinds.ENTRY_CREATE && folder.equals(root)
          && event.context() instanceof Path name) {
        Path child = root.resolve(name);
        if (Files.isDirectory(child, LinkOption.NOFOLLOW_LINKS)) {
          try {
            register(child);
          } catch (IOException e) {
            LOG.debug("[LIBRARY] {} cannot be watched: {}", child, e.toString());
          }
        }
      }
    }
    key.reset();
  }

  @Override
  public void close() {
    try {
      service.close();
    } catch (IOException e) {
      // nothing held
    }
    thread.interrupt();
  }
}
