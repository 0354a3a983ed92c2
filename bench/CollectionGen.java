import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * Writes collections for bench/collections.sh.
 * {@code scale <root> <series> <books> <pages> <bytes>}: series folders of stored CBZs, each page distinct random bytes.
 * {@code from <root> <folder>}: one series whose books are the chapter folders of a bench library series, each as a
 * stored CBZ of its page files in name order (the same image bytes the reader's page route sends as loose files).
 * Prints {@code COLLECTION <archives> <pages> <seconds>}.
 */
public class CollectionGen {

  public static void main(String[] args) throws IOException {
    long started = System.nanoTime();
    Path root = Files.createDirectories(Path.of(args[1]));
    int archives = 0;
    long pages = 0;
    if (args[0].equals("scale")) {
      int series = Integer.parseInt(args[2]);
      int books = Integer.parseInt(args[3]);
      int perBook = Integer.parseInt(args[4]);
      int bytes = Integer.parseInt(args[5]);
      Random random = new Random(10_000);
      byte[] content = new byte[bytes];
      for (int s = 0; s < series; s++) {
        Path folder = Files.createDirectories(root.resolve(String.format("Series %05d", s)));
        for (int b = 1; b <= books; b++) {
          try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(folder.resolve("Vol " + b + ".cbz")))) {
            for (int p = 1; p <= perBook; p++) {
              random.nextBytes(content);
              stored(zip, String.format("%03d.jpg", p), content);
            }
          }
          archives++;
          pages += perBook;
        }
      }
    } else {
      Path series = Files.createDirectories(root.resolve("Bench Series"));
      try (Stream<Path> chapters = Files.list(Path.of(args[2]))) {
        for (Path chapter : chapters.filter(Files::isDirectory).sorted().toList()) {
          List<Path> files;
          try (Stream<Path> list = Files.list(chapter)) {
            files = list.filter(f -> f.toString().endsWith(".jpg")).sorted().toList();
          }
          try (OutputStream out = Files.newOutputStream(series.resolve(chapter.getFileName() + ".cbz"));
              ZipOutputStream zip = new ZipOutputStream(out)) {
            for (Path file : files) {
              stored(zip, file.getFileName().toString(), Files.readAllBytes(file));
              pages++;
            }
          }
          archives++;
        }
      }
    }
    System.out.printf("COLLECTION %d %d %.1f%n", archives, pages, (System.nanoTime() - started) / 1e9);
  }

  private static void stored(ZipOutputStream zip, String name, byte[] content) throws IOException {
    ZipEntry entry = new ZipEntry(name);
    entry.setMethod(ZipEntry.STORED);
    CRC32 crc = new CRC32();
    crc.update(content);
    entry.setSize(content.length);
    entry.setCompressedSize(content.length);
    entry.setCrc(crc.getValue());
    zip.putNextEntry(entry);
    zip.write(content);
    zip.closeEntry();
  }
}
