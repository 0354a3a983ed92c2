package io.mangacircus.testing.powercut;

import java.io.IOException;
import java.net.URI;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AccessMode;
import java.nio.file.CopyOption;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileStore;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.ProviderMismatchException;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileAttributeView;
import java.nio.file.spi.FileSystemProvider;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;

/** Delegates each operation to the default filesystem and mirrors in the model the creates, renames and deletes. */
final class PowerCutProvider extends FileSystemProvider {

  static final String SCHEME = "powercut";

  private static final FileSystemProvider DISK = FileSystems.getDefault().provider();
  private static final LinkOption NOFOLLOW = LinkOption.NOFOLLOW_LINKS;

  private final PowerCutFileSystem fileSystem;
  private final DurableTree tree;

  PowerCutProvider(PowerCutFileSystem fileSystem, DurableTree tree) {
    this.fileSystem = fileSystem;
    this.tree = tree;
  }

  @Override
  public String getScheme() {
    return SCHEME;
  }

  @Override
  public FileSystem newFileSystem(URI uri, Map<String, ?> env) {
    throw new UnsupportedOperationException("a power-cut filesystem is made by PowerCutFileSystem.over(realRoot)");
  }

  @Override
  public FileSystem getFileSystem(URI uri) {
    checkScheme(uri);
    return fileSystem;
  }

  @Override
  public Path getPath(URI uri) {
    checkScheme(uri);
    return fileSystem.wrap(Path.of(URI.create("file" + uri.toString().substring(SCHEME.length()))));
  }

  private static void checkScheme(URI uri) {
    if (!SCHEME.equalsIgnoreCase(uri.getScheme())) {
      throw new IllegalArgumentException(uri + " is not a " + SCHEME + " URI");
    }
  }

  /** The real path, as the caller wrote it (relative paths stay relative to the working directory). */
  private Path real(Path path) {
    if (path instanceof PowerCutPath ours && ours.getFileSystem() == fileSystem) {
      return ours.real();
    }
    throw new ProviderMismatchException(path + " is not a path of the power-cut filesystem over " + fileSystem.root());
  }

  /** The real path, absolute and normalized, of a path this filesystem may change. */
  private Path inside(Path path) throws IOException {
    Path real = real(path).toAbsolutePath().normalize();
    if (!tree.contains(real)) {
      throw new IOException(
          path + " is outside the power-cut root " + tree.root() + ": only changes under it are modelled");
    }
    return real;
  }

  /** The model's node at {@code real}; null if nothing is there; refused if the disk has an entry the model lacks. */
  private Node existing(Path real) throws IOException {
    Node node = tree.find(real);
    if (node == null && Files.exists(real, NOFOLLOW)) {
      throw new IOException(real + " is not in the power-cut model: it was made around the filesystem "
          + "(java.io, the default filesystem or another process?)");
    }
    return node;
  }

  private Path notRoot(Path real) throws IOException {
    if (real.equals(tree.root())) {
      throw new IOException("the power-cut root " + real + " itself cannot be moved or deleted");
    }
    return real;
  }

  @Override
  public SeekableByteChannel newByteChannel(Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs)
      throws IOException {
    return newFileChannel(path, options, attrs);
  }

  @Override
  public FileChannel newFileChannel(Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs)
      throws IOException {
    if (options.contains(StandardOpenOption.DELETE_ON_CLOSE)) {
      throw new UnsupportedOperationException("DELETE_ON_CLOSE is not modelled by the power-cut filesystem");
    }
    Path real = inside(path);
    return tree.locked(() -> {
      Node node = existing(real);
      boolean creates = node == null
          && (options.contains(StandardOpenOption.CREATE) || options.contains(StandardOpenOption.CREATE_NEW));
      if (creates) {
        tree.folderOf(real);
      }
      FileChannel delegate = FileChannel.open(real, options, attrs);
      try {
        if (node == null) {
          node = Node.file();
          tree.link(real, node);
        }
        boolean readable = options.contains(StandardOpenOption.READ)
            || !(options.contains(StandardOpenOption.WRITE) || options.contains(StandardOpenOption.APPEND));
        FileChannel reader = readable ? delegate : FileChannel.open(real, StandardOpenOption.READ);
        return new SyncedChannel(fileSystem, path, node, delegate, reader);
      } catch (IOException | RuntimeException e) {
        delegate.close();
        throw e;
      }
    });
  }

  @Override
  public AsynchronousFileChannel newAsynchronousFileChannel(Path path, Set<? extends OpenOption> options,
      ExecutorService executor, FileAttribute<?>... attrs) {
    throw new UnsupportedOperationException("the power-cut filesystem has no asynchronous channels: use FileChannel");
  }

  @Override
  public void createDirectory(Path dir, FileAttribute<?>... attrs) throws IOException {
    Path real = inside(dir);
    tree.locked(() -> {
      if (real.equals(tree.root())) {
        throw new FileAlreadyExistsException(dir.toString());
      }
      existing(real);
      tree.folderOf(real);
      Files.createDirectory(real, attrs);
      tree.link(real, Node.directory());
      return null;
    });
  }

  /** Moves the node (a directory with its subtree); what a cut keeps changes only when the folders are synced. */
  @Override
  public void move(Path source, Path target, CopyOption... options) throws IOException {
    Path from = notRoot(inside(source));
    Path to = notRoot(inside(target));
    tree.locked(() -> {
      Node node = existing(from);
      existing(to);
      tree.folderOf(to);
      Files.move(from, to, options);
      tree.unlink(from);
      tree.link(to, node);
      return null;
    });
  }

  /** The copy is a new node whose content was never synced. The source may be outside the root. */
  @Override
  public void copy(Path source, Path target, CopyOption... options) throws IOException {
    Path from = real(source).toAbsolutePath().normalize();
    Path to = notRoot(inside(target));
    tree.locked(() -> {
      existing(to);
      tree.folderOf(to);
      Files.copy(from, to, options);
      if (!from.equals(to)) {
        tree.link(to, Files.isDirectory(to, NOFOLLOW) ? Node.directory() : Node.file());
      }
      return null;
    });
  }

  @Override
  public void delete(Path path) throws IOException {
    Path real = notRoot(inside(path));
    tree.locked(() -> {
      existing(real);
      Files.delete(real);
      tree.unlink(real);
      return null;
    });
  }

  @Override
  public void createSymbolicLink(Path link, Path target, FileAttribute<?>... attrs) {
    throw new UnsupportedOperationException("the power-cut filesystem does not model symbolic links");
  }

  @Override
  public void createLink(Path link, Path existing) {
    throw new UnsupportedOperationException("the power-cut filesystem does not model hard links");
  }

  @Override
  public Path readSymbolicLink(Path link) {
    throw new UnsupportedOperationException("the power-cut filesystem does not model symbolic links");
  }

  @Override
  public DirectoryStream<Path> newDirectoryStream(Path dir, DirectoryStream.Filter<? super Path> filter)
      throws IOException {
    DirectoryStream<Path> entries = DISK.newDirectoryStream(real(dir), entry -> filter.accept(fileSystem.wrap(entry)));
    return new DirectoryStream<>() {
      @Override
      public Iterator<Path> iterator() {
        Iterator<Path> real = entries.iterator();
        return new Iterator<>() {
          @Override
          public boolean hasNext() {
            return real.hasNext();
          }

          @Override
          public Path next() {
            return fileSystem.wrap(real.next());
          }
        };
      }

      @Override
      public void close() throws IOException {
        entries.close();
      }
    };
  }

  @Override
  public boolean isSameFile(Path path, Path path2) throws IOException {
    return path2 instanceof PowerCutPath other && other.getFileSystem() == fileSystem
        && DISK.isSameFile(real(path), real(path2));
  }

  @Override
  public boolean isHidden(Path path) throws IOException {
    return DISK.isHidden(real(path));
  }

  @Override
  public FileStore getFileStore(Path path) throws IOException {
    return DISK.getFileStore(real(path));
  }

  @Override
  public void checkAccess(Path path, AccessMode... modes) throws IOException {
    DISK.checkAccess(real(path), modes);
  }

  @Override
  public <V extends FileAttributeView> V getFileAttributeView(Path path, Class<V> type, LinkOption... options) {
    return DISK.getFileAttributeView(real(path), type, options);
  }

  @Override
  public <A extends BasicFileAttributes> A readAttributes(Path path, Class<A> type, LinkOption... options)
      throws IOException {
    return DISK.readAttributes(real(path), type, options);
  }

  @Override
  public Map<String, Object> readAttributes(Path path, String attributes, LinkOption... options) throws IOException {
    return DISK.readAttributes(real(path), attributes, options);
  }

  @Override
  public void setAttribute(Path path, String attribute, Object value, LinkOption... options) throws IOException {
    DISK.setAttribute(real(path), attribute, value, options);
  }
}
