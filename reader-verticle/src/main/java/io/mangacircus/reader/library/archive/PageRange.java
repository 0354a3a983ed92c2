package io.mangacircus.reader.library.archive;

/**
 * Where one entry's data lies in its archive file: for a stored page, exactly the image's bytes, to be sent as a file
 * region ({@code sendFile(channel, offset, length)}) without copying through the heap.
 *
 * @param offset file offset of the entry's first data byte
 * @param length bytes of data (the compressed size)
 */
public record PageRange(long offset, long length) {

  public PageRange {
    if (offset < 0 || length < 0) {
      throw new IllegalArgumentException("negative offset or length: " + offset + ", " + length);
    }
  }
}
