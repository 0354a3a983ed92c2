package io.mangacircus.testing.powercut;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.ProviderMismatchException;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;

/** A path of the power-cut filesystem: the real path it stands for, and the filesystem, so that Files.* reach it. */
final class PowerCutPath implements Path {

  private final PowerCutFileSystem fileSystem;
  private final Path real;

  PowerCutPath(PowerCutFileSystem fileSystem, Path real) {
    this.fileSystem = fileSystem;
    this.real = real;
  }

  /** The path on the default filesystem this one stands for. */
  Path real() {
    return real;
  }

  private PowerCutPath wrap(Path path) {
    return path == null ? null : new PowerCutPath(fileSystem, path);
  }

  private Path unwrap(Path other) {
    if (other instanceof PowerCutPath path && path.fileSystem == fileSystem) {
      return path.real;
    }
    throw new ProviderMismatchException(other + " is not a path of the power-cut filesystem over " + fileSystem.root());
  }

  private boolean ours(Path other) {
    return other instanceof PowerCutPath path && path.fileSystem == fileSystem;
  }

  @Override
  public PowerCutFileSystem getFileSystem() {
    return fileSystem;
  }

  @Override
  public boolean isAbsolute() {
    return real.isAbsolute();
  }

  @Override
  public Path getRoot() {
    return wrap(real.getRoot());
  }

  @Override
  public Path getFileName() {
    return wrap(real.getFileName());
  }

  @Override
  public Path getParent() {
    return wrap(real.getParent());
  }

  @Override
  public int getNameCount() {
    return real.getNameCount();
  }

  @Override
  public Path getName(int index) {
    return wrap(real.getName(index));
  }

  @Override
  public Path subpath(int beginIndex, int endIndex) {
    return wrap(real.subpath(beginIndex, endIndex));
  }

  @Override
  public boolean startsWith(Path other) {
    return ours(other) && real.startsWith(unwrap(other));
  }

  @Override
  public boolean endsWith(Path other) {
    return ours(other) && real.endsWith(unwrap(other));
  }

  @Override
  public Path normalize() {
    return wrap(real.normalize());
  }

  @Override
  public Path resolve(Path other) {
    return wrap(real.resolve(unwrap(other)));
  }

  @Override
  public Path relativize(Path other) {
    return wrap(real.relativize(unwrap(other)));
  }

  @Override
  public URI toUri() {
    return URI.create(PowerCutProvider.SCHEME + real.toUri().toString().substring("file".length()));
  }

  @Override
  public Path toAbsolutePath() {
    return wrap(real.toAbsolutePath());
  }

  @Override
  public Path toRealPath(LinkOption... options) throws IOException {
    return wrap(real.toRealPath(options));
  }

  /** Always throws: java.io would reach the disk around the model, so a power cut could not be simulated. */
  @Override
  public File toFile() {
    throw new UnsupportedOperationException(this + " is a path of the power-cut filesystem: java.io.File would go "
        + "around it and its fsyncs would not be seen; use java.nio.file");
  }

  @Override
  public WatchKey register(WatchService watcher, WatchEvent.Kind<?>[] events, WatchEvent.Modifier... modifiers) {
    throw new UnsupportedOperationException("the power-cut filesystem has no watch service");
  }

  @Override
  public int compareTo(Path other) {
    return real.compareTo(unwrap(other));
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof PowerCutPath path && path.fileSystem == fileSystem && path.real.equals(real);
  }

  @Override
  public int hashCode() {
    return real.hashCode();
  }

  @Override
  public String toString() {
    return real.toString();
  }
}
