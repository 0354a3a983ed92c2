package io.mangacircus.reader.library.collection;

/** How a book of a collection holds its pages. */
public enum BookKind {
  /** A ZIP file named .cbz or .zip, read in place through its central directory. */
  CBZ,
  /** A RAR file named .cbr or .rar, readable only through bsdtar. */
  CBR,
  /** A folder of image files. */
  FOLDER
}
