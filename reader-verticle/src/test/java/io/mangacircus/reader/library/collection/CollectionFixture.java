package io.mangacircus.reader.library.collection;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * Writes a small collection with every kind of book and every kind of trouble a scan meets, and fingerprints a tree
 * (paths, sizes, mtimes, bytes, link targets) to prove a scan left it as it was. Test code: it writes files directly.
 */
final class CollectionFixture {

  /** The collection's root, inside the test's temporary folder. */
  final Path root;
  /** A folder next to the collection, where the symbolic links lead. */
  final Path outside;

  private CollectionFixture(Path root, Path outside) {
    this.root = root;
    this.outside = outside;
  }

  /**
   * Writes under {@code dir}: {@code collection/} with
   * Alpha (v1 stored 3 pages, v2 deflated 2 pages, v10 stored 1 page, a copy of Gamma's Vol 1, a notes.txt),
   * Beta (image folder "Chapter 1" with p1, p2, p10, a .txt and p3.jpg, a link to a file outside; "Chapter 2" with
   * no image; Beta 3.cbr; truncated.cbz; bomb.cbz; evil.cbz with ../../etc/passwd; escape.cbz, a link to a CBZ
   * outside), Gamma (Vol 1.cbz of 4 pages), a loose "Loose One.cbz" of 2 pages,
   * a loose Alpha.cbz of 1 page (same title as the Alpha folder), and Outside, a link to the outside folder.
   */
  static CollectionFixture write(Path dir) throws IOException {
    Path root = Files.createDirectories(dir.resolve("collection"));
    Path outside = Files.createDirectories(dir.resolve("outside"));
    cbz(outside.resolve("secret.cbz"), ZipEntry.STORED, "s1.jpg", "s2.jpg");
    Files.writeString(outside.resolve("passwd"), "root:x:0:0");

    Path alpha = Files.createDirectories(root.resolve("Alpha"));
    cbz(alpha.resolve("Alpha v1.cbz"), ZipEntry.STORED, "p3.jpg", "p1.jpg", "p2.jpg");
    cbz(alpha.resolve("Alpha v2.cbz"), ZipEntry.DEFLATED, "b.png", "a.png");
    cbz(alpha.resolve("Alpha v10.cbz"), ZipEntry.STORED, "only.webp");
    Files.writeString(alpha.resolve("notes.txt"), "not a book");

    Path beta = Files.createDirectories(root.resolve("Beta"));
    Path chapter1 = Files.createDirectories(beta.resolve("Chapter 1"));
    for (String name : new String[] {"p10.jpg", "p2.jpg", "p1.jpg"}) {
      Files.writeString(chapter1.resolve(name), "image " + name);
    }
    Files.writeString(chapter1.resolve("readme.txt"), "not a page");
    Files.createSymbolicLink(chapter1.resolve("p3.jpg"), outside.resolve("passwd"));
    Path chapter2 = Files.createDirectories(beta.resolve("Chapter 2"));
    Files.writeString(chapter2.resolve("info.txt"), "no images here");
    Files.write(beta.resolve("Beta 3.cbr"), "Rar!\u001a\u0007\u0000 any bytes".getBytes(StandardCharsets.ISO_8859_1));
    Path whole = cbz(beta.resolve("whole.tmp"), ZipEntry.DEFLATED, "x1.jpg", "x2.jpg");
    byte[] bytes = Files.readAllBytes(whole);
    Files.write(beta.resolve("truncated.cbz"), java.util.Arrays.copyOf(bytes, bytes.length / 2));
    Files.delete(whole);
    bomb(beta.resolve("bomb.cbz"));
    cbz(beta.resolve("evil.cbz"), ZipEntry.DEFLATED, "p1.jpg", "../../etc/passwd");
    Files.createSymbolicLink(beta.resolve("escape.cbz"), outside.resolve("secret.cbz"));

    Path gamma = Files.createDirectories(root.resolve("Gamma"));
    cbz(gamma.resolve("Vol 1.cbz"), ZipEntry.DEFLATED, "1.jpg", "2.jpg", "3.jpg", "4.jpg");
    Files.copy(gamma.resolve("Vol 1.cbz"), alpha.resolve("Vol 1.cbz"));

    cbz(root.resolve("Loose One.cbz"), ZipEntry.STORED, "a.jpg", "b.jpg");
    cbz(root.resolve("Alpha.cbz"), ZipEntry.STORED, "cover.jpg");
    Files.createSymbolicLink(root.resolve("Outside"), outside);
    return new CollectionFixture(root, outside);
  }

  /** A CBZ of one small image per name, each entry stored or deflated. */
  static Path cbz(Path file, int method, String... names) throws IOException {
    try (OutputStream out = Files.newOutputStream(file); ZipOutputStream zip = new ZipOutputStream(out)) {
      for (String name : names) {
        entry(zip, name, ("image " + file.getFileName() + " " + name).getBytes(StandardCharsets.UTF_8), method);
      }
    }
    return file;
  }

  /** Writes one entry, stored (with its sizes and CRC-32 up front, as ZIP requires) or deflated. */
  static void entry(ZipOutputStream zip, String name, byte[] content, int method) throws IOException {
    ZipEntry entry = new ZipEntry(name);
    entry.setMethod(method);
    if (method == ZipEntry.STORED) {
      CRC32 crc = new CRC32();
      crc.update(content);
      entry.setSize(content.length);
      entry.setCompressedSize(content.length);
      entry.setCrc(crc.getValue());
    }
    zip.putNextEntry(entry);
    zip.write(content);
    zip.closeEntry();
  }

  /** One page of 10 MB of zeros, deflated to a few KB: far over the 100 times expansion allowed. */
  static void bomb(Path file) throws IOException {
    try (OutputStream out = Files.newOutputStream(file); ZipOutputStream zip = new ZipOutputStream(out)) {
      zip.putNextEntry(new ZipEntry("page.jpg"));
      byte[] zeros = new byte[1 << 20];
      for (int i = 0; i < 10; i++) {
        zip.write(zeros);
      }
      zip.closeEntry();
    }
  }

  /** Moves a file's mtime forward by a minute, so a scan sees it changed whatever the filesystem's time resolution. */
  static void touchLater(Path file) throws IOException {
    FileTime before = Files.getLastModifiedTime(file);
    Files.setLastModifiedTime(file, FileTime.fromMillis(before.toMillis() + 60_000));
  }

  /**
   * A fingerprint of every entry under {@code dir}, links not followed: each path with its type, size, mtime and
   * content hash (a link's target instead), folders' mtimes included, so a file created and removed shows too.
   */
  static String fingerprint(Path dir) throws IOException {
    MessageDigest all = sha256();
    Files.walkFileTree(dir, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult preVisitDirectory(Path folder, BasicFileAttributes attrs) {
        update(all, "d " + dir.relativize(folder) + " " + attrs.lastModifiedTime().toMillis());
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
        String content = attrs.isSymbolicLink() ? "-> " + Files.readSymbolicLink(file)
            : HexFormat.of().formatHex(sha256().digest(Files.readAllBytes(file)));
        update(all, "f " + dir.relativize(file) + " " + attrs.size() + " " + attrs.lastModifiedTime().toMillis()
            + " " + content);
        return FileVisitResult.CONTINUE;
      }
    });
    return HexFormat.of().formatHex(all.digest());
  }

  private static void update(MessageDigest digest, String line) {
    digest.update((line + "\n").getBytes(StandardCharsets.UTF_8));
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
