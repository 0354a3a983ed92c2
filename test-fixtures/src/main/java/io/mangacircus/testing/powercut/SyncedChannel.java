package io.mangacircus.testing.powercut;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.util.Arrays;

/** A channel to the real file whose force also makes the node's current state durable in the model. */
final class SyncedChannel extends FileChannel {

  private final PowerCutFileSystem fileSystem;
  private final Path path;
  private final Node node;
  private final FileChannel delegate;
  private final FileChannel reader;

  /**
   * {@code reader} reads the same open file as {@code delegate} (it is the delegate when that one is readable), so a
   * force snapshots the right bytes even after the file was renamed or unlinked.
   */
  SyncedChannel(PowerCutFileSystem fileSystem, Path path, Node node, FileChannel delegate, FileChannel reader) {
    this.fileSystem = fileSystem;
    this.path = path;
    this.node = node;
    this.delegate = delegate;
    this.reader = reader;
  }

  @Override
  public void force(boolean metaData) throws IOException {
    delegate.force(metaData);
    DurableTree tree = fileSystem.tree();
    if (node.isDirectory()) {
      tree.syncDirectory(node);
    } else {
      tree.syncFile(node, this::currentContent);
    }
    fileSystem.announce(new Sync(path, node.isDirectory()));
  }

  private byte[] currentContent() throws IOException {
    long size = reader.size();
    if (size > Integer.MAX_VALUE - 8) {
      throw new IOException(path + " is too large for the power-cut model (" + size + " bytes)");
    }
    ByteBuffer content = ByteBuffer.allocate((int) size);
    // Positional reads: the position the writer relies on stays where it is.
    while (content.hasRemaining() && reader.read(content, content.position()) >= 0) {
      continue;
    }
    return content.hasRemaining() ? Arrays.copyOf(content.array(), content.position()) : content.array();
  }

  private static WritableByteChannel unwrap(WritableByteChannel channel) {
    return channel instanceof SyncedChannel synced ? synced.delegate : channel;
  }

  private static ReadableByteChannel unwrap(ReadableByteChannel channel) {
    return channel instanceof SyncedChannel synced ? synced.delegate : channel;
  }

  @Override
  public int read(ByteBuffer destination) throws IOException {
    return delegate.read(destination);
  }

  @Override
  public long read(ByteBuffer[] destinations, int offset, int length) throws IOException {
    return delegate.read(destinations, offset, length);
  }

  @Override
  public int read(ByteBuffer destination, long position) throws IOException {
    return delegate.read(destination, position);
  }

  @Override
  public int write(ByteBuffer source) throws IOException {
    return delegate.write(source);
  }

  @Override
  public long write(ByteBuffer[] sources, int offset, int length) throws IOException {
    return delegate.write(sources, offset, length);
  }

  @Override
  public int write(ByteBuffer source, long position) throws IOException {
    return delegate.write(source, position);
  }

  @Override
  public long position() throws IOException {
    return delegate.position();
  }

  @Override
  public FileChannel position(long newPosition) throws IOException {
    delegate.position(newPosition);
    return this;
  }

  @Override
  public long size() throws IOException {
    return delegate.size();
  }

  @Override
  public FileChannel truncate(long size) throws IOException {
    delegate.truncate(size);
    return this;
  }

  @Override
  public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
    return delegate.transferTo(position, count, unwrap(target));
  }

  @Override
  public long transferFrom(ReadableByteChannel source, long position, long count) throws IOException {
    return delegate.transferFrom(unwrap(source), position, count);
  }

  /** Writes through the mapping reach the model at this channel's next force, not at {@code MappedByteBuffer.force}. */
  @Override
  public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
    return delegate.map(mode, position, size);
  }

  @Override
  public FileLock lock(long position, long size, boolean shared) throws IOException {
    return new HeldLock(this, delegate.lock(position, size, shared));
  }

  @Override
  public FileLock tryLock(long position, long size, boolean shared) throws IOException {
    FileLock held = delegate.tryLock(position, size, shared);
    return held == null ? null : new HeldLock(this, held);
  }

  @Override
  protected void implCloseChannel() throws IOException {
    try {
      delegate.close();
    } finally {
      if (reader != delegate) {
        reader.close();
      }
    }
  }

  /** A lock of the real file, presented as a lock of this channel. */
  private static final class HeldLock extends FileLock {

    private final FileLock held;

    HeldLock(SyncedChannel channel, FileLock held) {
      super(channel, held.position(), held.size(), held.isShared());
      this.held = held;
    }

    @Override
    public boolean isValid() {
      return held.isValid();
    }

    @Override
    public void release() throws IOException {
      held.release();
    }
  }
}
