package io.mangacircus.reader.library.archive;

import io.mangacircus.reader.library.archive.ArchiveIndex.Refusal;
import io.mangacircus.reader.library.archive.ArchiveIndex.Unreadable;

/**
 * The safety rules one central directory entry must pass, and the archive-wide limits of a ZIP bomb; each broken rule
 * is a refusal with its reason, never an exception. RAR books ({@code RarPages}) are held to the same limits and
 * name rules.
 */
public final class EntryRules {

  /**
   * Entries an archive may hold. A volume holds a few hundred pages and a large omnibus a few thousand; 10,000 keeps a
   * hostile central directory from costing more than about a megabyte of index and a few milliseconds of scan.
   */
  public static final int MAX_ENTRIES = 10_000;

  /** Bytes of central directory read into memory: 10,000 entries with names of over 1,600 characters each. */
  static final long MAX_CENTRAL_DIRECTORY_BYTES = 16L << 20;

  /** Expansion of a deflated entry, and of all deflated entries together, beyond which the archive is a bomb. */
  public static final long MAX_RATIO = 100;

  /** Uncompressed bytes of all entries together beyond which the archive is a bomb. */
  public static final long MAX_TOTAL_UNCOMPRESSED = 2L << 30;

  /**
   * Entries up to this size are exempt from the ratio rule: a small, very regular file (a blank XML, an empty page)
   * can compress more than 100 times, yet cannot inflate to anything harmful. They still count in the totals.
   */
  static final long RATIO_FLOOR = 64 * 1024;

  // General purpose bit flag bit 0: the entry is encrypted (APPNOTE 4.4.4).
  private static final int FLAG_ENCRYPTED = 1;
  // Unix file type bits, the upper 16 bits of the external attributes when the entry was made on Unix.
  private static final int S_IFMT = 0170000;
  private static final int S_IFLNK = 0120000;

  private long totalUncompressed;
  private long deflatedCompressed;
  private long deflatedUncompressed;

  /** The first rule the entry breaks, or null. Adds the entry to the archive's totals. */
  Unreadable check(String name, int flags, long externalAttributes, int method, long compressed, long uncompressed) {
    if ((flags & FLAG_ENCRYPTED) != 0) {
      return new Unreadable(Refusal.ENCRYPTED, "entry " + quoted(name) + " is encrypted");
    }
    String unsafe = unsafeName(name);
    if (unsafe != null) {
      return new Unreadable(Refusal.UNSAFE_NAME, "entry " + quoted(name) + " " + unsafe);
    }
    // Checked whatever the "made by" host says: no other host puts an S_IFLNK pattern in these bits by chance.
    if ((((externalAttributes >>> 16) & S_IFMT)) == S_IFLNK) {
      return new Unreadable(Refusal.SYMLINK, "entry " + quoted(name) + " is a symbolic link");
    }
    if (method == ArchiveEntry.DEFLATED && uncompressed > RATIO_FLOOR && uncompressed > MAX_RATIO * compressed) {
      return new Unreadable(Refusal.ZIP_BOMB, "entry " + quoted(name) + " inflates " + compressed + " bytes to "
          + uncompressed + " (more than " + MAX_RATIO + " times)");
    }
    if (method == ArchiveEntry.STORED && compressed != uncompressed) {
      return new Unreadable(Refusal.ZIP_BOMB, "stored entry " + quoted(name) + " declares " + compressed
          + " bytes in the file but " + uncompressed + " bytes of content");
    }
    totalUncompressed += uncompressed;
    if (totalUncompressed > MAX_TOTAL_UNCOMPRESSED) {
      return new Unreadable(Refusal.ZIP_BOMB, "entries inflate to more than " + MAX_TOTAL_UNCOMPRESSED
          + " bytes in all");
    }
    if (method == ArchiveEntry.DEFLATED) {
      deflatedCompressed += compressed;
      deflatedUncompressed += uncompressed;
      if (deflatedUncompressed > RATIO_FLOOR && deflatedUncompressed > MAX_RATIO * deflatedCompressed) {
        return new Unreadable(Refusal.ZIP_BOMB, "deflated entries inflate " + deflatedCompressed + " bytes to "
            + deflatedUncompressed + " in all (more than " + MAX_RATIO + " times)");
      }
    }
    return null;
  }

  /** Why a name is unsafe to use under a folder, or null when it is safe. */
  public static String unsafeName(String name) {
    if (name.isEmpty()) {
      return "has an empty name";
    }
    if (name.indexOf('\0') >= 0) {
      return "has a NUL character in its name";
    }
    String slashed = name.replace('\\', '/');
    if (slashed.startsWith("/")) {
      return "is an absolute path";
    }
    if (slashed.length() >= 2 && slashed.charAt(1) == ':' && Character.isLetter(slashed.charAt(0))) {
      return "is an absolute path with a drive letter";
    }
    for (String segment : slashed.split("/", -1)) {
      if (segment.equals("..")) {
        return "climbs out of the archive with ..";
      }
    }
    return null;
  }

  /** Whether a name is a page: an image that is not a folder, a hidden file or macOS's resource-fork copy. */
  public static boolean isPage(String name) {
    if (name.endsWith("/") || !ArchiveEntry.isImageName(name)) {
      return false;
    }
    for (String segment : name.replace('\\', '/').split("/")) {
      if (segment.startsWith(".") || segment.equals("__MACOSX")) {
        return false;
      }
    }
    return true;
  }

  private static String quoted(String name) {
    String shown = name.length() > 200 ? name.substring(0, 200) + "..." : name;
    return "'" + shown.replaceAll("\\p{Cntrl}", "?") + "'";
  }
}
