package io.mangacircus.reader.library;

import io.mangacircus.contracts.library.ChapterManifest;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.util.Set;

/**
 * Reads the {@code chapter.json} of a real chapter folder through this thread's buffer (no array per file for the
 * usual sizes). A plain file is opened without a link being followed and without an {@code lstat} first; a symbolic
 * link (the open refuses it) is resolved and must land inside the library, as {@link LibraryPaths#file} judges it.
 * Blocking.
 */
final class ManifestReader {

  /** The largest read buffer a thread keeps for manifests (a bigger manifest gets a buffer of its own). */
  private static final int KEPT_BUFFER_BYTES = 64 * 1024;
  /** Kept with its array: not a byte array wrapped anew for every read of every manifest. */
  private static final ThreadLocal<ByteBuffer> READ_BUFFER = ThreadLocal.withInitial(() -> ByteBuffer.allocate(8192));

  /** Options passed as kept sets and a kept array, not new ones (varargs) per call: a scan makes 100,000 calls. */
  private static final Set<OpenOption> READ = Set.of(StandardOpenOption.READ);
  private static final Set<OpenOption> READ_NO_FOLLOW = Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
  private static final FileAttribute<?>[] NO_ATTRIBUTES = {};

  private final LibraryPaths paths;

  ManifestReader(LibraryPaths paths) {
    this.paths = paths;
  }

  /**
   * The parsed manifest of a real chapter folder.
   *
   * @param outline whether it is read as a scan's outline ({@link ChapterManifest#parseOutline})
   */
  ChapterManifest read(Path folder, boolean outline)
      throws IOException, ChapterManifest.InvalidException, LibraryPaths.Refused, LibraryPaths.Unresolvable {
    ByteBuffer buffer = READ_BUFFER.get().clear();
    try (FileChannel channel = open(folder)) {
      while (true) {
        if (!buffer.hasRemaining()) {
          buffer = ByteBuffer.allocate(buffer.capacity() * 2).put(buffer.flip());
        }
        if (channel.read(buffer) < 0) {
          break;
        }
      }
    }
    if (buffer.capacity() <= KEPT_BUFFER_BYTES) {
      READ_BUFFER.set(buffer);
    }
    byte[] bytes = buffer.array();
    int length = buffer.position();
    return outline ? ChapterManifest.parseOutline(bytes, length) : ChapterManifest.parse(bytes, length);
  }

  /** The {@code chapter.json} of a real chapter folder, opened as {@link #read} says. */
  private FileChannel open(Path folder) throws IOException, LibraryPaths.Refused, LibraryPaths.Unresolvable {
    Path file = folder.resolve(ChapterManifest.FILE);
    try {
      return FileChannel.open(file, READ_NO_FOLLOW, NO_ATTRIBUTES);
    } catch (NoSuchFileException e) {
      throw new LibraryPaths.Refused("does not exist");
    } catch (IOException e) {
      // A link (ELOOP) or anything odd: judged the long way, with an lstat and the link resolved.
      return FileChannel.open(paths.file(folder, ChapterManifest.FILE, false), READ, NO_ATTRIBUTES);
    }
  }
}
