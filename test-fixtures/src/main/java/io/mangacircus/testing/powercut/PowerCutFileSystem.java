package io.mangacircus.testing.powercut;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.WatchService;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.nio.file.spi.FileSystemProvider;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;

/** A filesystem over a real folder that writes out what a power cut would leave; it sees only java.nio.file calls. */
public final class PowerCutFileSystem extends FileSystem {

  private static final FileSystem DISK = FileSystems.getDefault();

  private final DurableTree tree;
  private final PowerCutProvider provider;
  private final List<Consumer<Sync>> listeners = new CopyOnWriteArrayList<>();

  private PowerCutFileSystem(DurableTree tree) {
    this.tree = tree;
    this.provider = new PowerCutProvider(this, tree);
  }

  /**
   * Mounts over an existing folder of the default filesystem; everything already in it counts as durable. The model is
   * the weakest POSIX one: a write holds only once its file was fsynced, and a create, rename or delete only once its
   * directory was. Changes outside the folder are refused with an IOException; reads there are delegated.
   */
  public static PowerCutFileSystem over(Path realRoot) throws IOException {
    if (realRoot.getFileSystem() != DISK) {
      throw new IllegalArgumentException(realRoot + " is not on the default filesystem");
    }
    return new PowerCutFileSystem(DurableTree.scan(realRoot.toRealPath()));
  }

  /** The mount point: the real root (its real path, symbolic links resolved) as a path of this filesystem. */
  public Path root() {
    return wrap(tree.root());
  }

  /**
   * Calls {@code listener} after each fsync of a channel of this filesystem, once the model holds it, on the thread
   * that synced. It may call {@link #cut}; what it throws reaches the code that called force.
   */
  public void onSync(Consumer<Sync> listener) {
    listeners.add(listener);
  }

  /**
   * Writes what a power cut now would leave under the root into {@code target}, a folder of the default filesystem that
   * is created if missing and must be empty: the entries each directory had at its last fsync, and each file's content
   * at its last fsync (empty if it never had one). Returns {@code target}.
   */
  public Path cut(Path target) throws IOException {
    return tree.cut(target);
  }

  /** How many fsyncs (of files and of directories) this filesystem has seen. */
  public int syncs() {
    return tree.syncs();
  }

  PowerCutPath wrap(Path real) {
    return new PowerCutPath(this, real);
  }

  DurableTree tree() {
    return tree;
  }

  void announce(Sync sync) {
    for (Consumer<Sync> listener : listeners) {
      listener.accept(sync);
    }
  }

  @Override
  public FileSystemProvider provider() {
    return provider;
  }

  /** Nothing to release: the files stay on the real disk. */
  @Override
  public void close() {
  }

  @Override
  public boolean isOpen() {
    return true;
  }

  @Override
  public boolean isReadOnly() {
    return false;
  }

  @Override
  public String getSeparator() {
    return DISK.getSeparator();
  }

  @Override
  public Iterable<Path> getRootDirectories() {
    return StreamSupport.stream(DISK.getRootDirectories().spliterator(), false)
        .map(this::wrap).collect(Collectors.toList());
  }

  @Override
  public Iterable<FileStore> getFileStores() {
    return DISK.getFileStores();
  }

  @Override
  public Set<String> supportedFileAttributeViews() {
    return DISK.supportedFileAttributeViews();
  }

  @Override
  public Path getPath(String first, String... more) {
    return wrap(DISK.getPath(first, more));
  }

  @Override
  public PathMatcher getPathMatcher(String syntaxAndPattern) {
    PathMatcher matcher = DISK.getPathMatcher(syntaxAndPattern);
    return path -> path instanceof PowerCutPath ours && matcher.matches(ours.real());
  }

  @Override
  public UserPrincipalLookupService getUserPrincipalLookupService() {
    return DISK.getUserPrincipalLookupService();
  }

  @Override
  public WatchService newWatchService() {
    throw new UnsupportedOperationException("the power-cut filesystem has no watch service");
  }
}
