package io.mangacircus.reader.library.collection;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.reader.ReaderUnderTest;
import io.mangacircus.reader.ReaderUnderTest.Session;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.OutputStream;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A generated collection of 200 series and 2,000 archives (stored and deflated CBZs of random bytes, with a CBR, a
 * truncated ZIP, a zip bomb, an entry named {@code ../../etc/passwd}, a link out and an image folder among them): every
 * good book is read page by page through the reader and each page is byte for byte its entry as the JDK's own ZIP
 * reader reads it; every bad one is listed with its reason; the collection is left exactly as it was.
 */
class LargeCollectionTest {

  private static final int SERIES = 200;
  private static final int BOOKS = 10;

  @TempDir
  Path dir;

  @Test
  void twoThousandArchivesAreServedByteForByteAndTheBadOnesListedWithTheirReasons() throws Exception {
    Path root = Files.createDirectories(dir.resolve("collection"));
    Path outside = Files.createDirectories(dir.resolve("outside"));
    Map<String, List<byte[]>> expected = generate(root, outside);
    String before = CollectionFixture.fingerprint(root) + CollectionFixture.fingerprint(outside);
    Path data = Files.createDirectories(dir.resolve("data"));
    try (ReaderUnderTest reader = ReaderUnderTest.withCollections(data,
        List.of(CollectionServingTest.comics(root)))) {
      Session admin = reader.login("admin", ReaderUnderTest.ADMIN_PASSWORD);
      JsonArray series = CollectionServingTest.collectionSeries(reader, admin, SERIES);
      assertThat(series).hasSize(SERIES);
      // Series are read side by side (the reader serves many readers at once); each book's pages in order.
      java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(6);
      java.util.concurrent.atomic.AtomicInteger pages = new java.util.concurrent.atomic.AtomicInteger();
      Map<String, List<byte[]>> left = new java.util.concurrent.ConcurrentHashMap<>(expected);
      List<java.util.concurrent.Future<?>> reads = new ArrayList<>();
      for (Object s : series) {
        reads.add(pool.submit(() -> {
          readSeries(reader, admin, ((JsonObject) s).getString("id"), left, pages);
          return null;
        }));
      }
      for (java.util.concurrent.Future<?> read : reads) {
        read.get();
      }
      pool.shutdown();
      expected = left;
      assertThat(expected).as("good books the reader did not list").isEmpty();
      assertThat(pages.get()).isGreaterThan(SERIES * BOOKS);

      String status = reader.text(ReaderUnderTest.as(admin, reader.get("/api/admin/status"))).body();
      assertThat(status).contains(
          "comics:series-000/broken.cbr: "
              + (RarSupport.detect().available() ? "bsdtar failed" : RarSupport.MISSING),
          "comics:series-000/truncated.cbz: ", "comics:series-000/bomb.cbz: ", "comics:series-000/evil.cbz: ",
          "comics:series-000/out.cbz: " + CollectionScanner.SYMLINK_REASON);
    }
    assertThat(CollectionFixture.fingerprint(root) + CollectionFixture.fingerprint(outside)).isEqualTo(before);
  }

  /** Reads every page of every book of a series, checking each against (and taking) the book's expected pages. */
  private static void readSeries(ReaderUnderTest reader, Session admin, String id, Map<String, List<byte[]>> expected,
      java.util.concurrent.atomic.AtomicInteger pages) throws Exception {
    JsonObject one = new JsonObject(reader.text(ReaderUnderTest.as(admin, reader.get("/api/series/" + id))).body());
    for (Object c : one.getJsonArray("chapters")) {
      JsonObject chapter = (JsonObject) c;
      String book = one.getString("titleId") + "/" + chapter.getString("title");
      List<byte[]> want = expected.remove(book);
      assertThat(want).as("book %s is one of the good ones", book).isNotNull();
      assertThat(chapter.getInteger("pages")).as(book).isEqualTo(want.size());
      for (int i = 0; i < want.size(); i++) {
        HttpResponse<byte[]> page = reader.bytes(ReaderUnderTest.as(admin, reader.get("/api/series/" + id
            + "/chapters/" + chapter.getString("id") + "/pages/" + (i + 1))));
        assertThat(page.statusCode()).as("%s page %d", book, i + 1).isEqualTo(200);
        assertThat(page.body()).as("%s page %d", book, i + 1).isEqualTo(want.get(i));
        pages.incrementAndGet();
      }
    }
  }

  /** Writes the collection; answers every good book's pages (as the JDK reads them) by "series/book". */
  private static Map<String, List<byte[]>> generate(Path root, Path outside) throws IOException {
    Random random = new Random(36);
    Map<String, List<byte[]>> books = new HashMap<>();
    for (int s = 0; s < SERIES; s++) {
      String name = String.format("series-%03d", s);
      Path series = Files.createDirectories(root.resolve(name));
      for (int b = 1; b <= BOOKS; b++) {
        String title = "vol-" + String.format("%02d", b);
        Path file = series.resolve(title + ".cbz");
        write(file, random, b % 2 == 0 ? ZipEntry.DEFLATED : ZipEntry.STORED, 1 + random.nextInt(3));
        books.put(name + "/" + title, entries(file));
      }
    }
    Path first = root.resolve("series-000");
    Path folder = Files.createDirectories(first.resolve("vol-11 loose pages"));
    List<byte[]> images = new ArrayList<>();
    for (int p = 1; p <= 3; p++) {
      byte[] image = bytes(random);
      Files.write(folder.resolve("p" + p + ".png"), image);
      images.add(image);
    }
    books.put("series-000/vol-11 loose pages", images);
    Files.write(first.resolve("broken.cbr"), "Rar!\u001a\u0007\u0000 cut".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
    Path whole = write(first.resolve("whole.tmp"), random, ZipEntry.DEFLATED, 3);
    byte[] all = Files.readAllBytes(whole);
    Files.write(first.resolve("truncated.cbz"), java.util.Arrays.copyOf(all, all.length / 2));
    Files.delete(whole);
    CollectionFixture.bomb(first.resolve("bomb.cbz"));
    CollectionFixture.cbz(first.resolve("evil.cbz"), ZipEntry.DEFLATED, "p1.jpg", "../../etc/passwd");
    Files.createSymbolicLink(first.resolve("out.cbz"), CollectionFixture.cbz(outside.resolve("secret.cbz"),
        ZipEntry.STORED, "s.jpg"));
    return books;
  }

  /** A CBZ of {@code pages} random images, named so that their natural order is their order in the file. */
  private static Path write(Path file, Random random, int method, int pages) throws IOException {
    try (OutputStream out = Files.newOutputStream(file); ZipOutputStream zip = new ZipOutputStream(out)) {
      for (int p = 1; p <= pages; p++) {
        CollectionFixture.entry(zip, String.format("page-%02d.jpg", p), bytes(random), method);
      }
    }
    return file;
  }

  /** 256 bytes to 2 KB that deflate a little (a run of repeated bytes in random ones), as image data does. */
  private static byte[] bytes(Random random) {
    byte[] content = new byte[256 + random.nextInt(1792)];
    random.nextBytes(content);
    java.util.Arrays.fill(content, 0, content.length / 4, (byte) 7);
    return content;
  }

  /** The archive's entries' bytes in name order, as the JDK's ZipFile reads them. */
  private static List<byte[]> entries(Path file) throws IOException {
    List<byte[]> pages = new ArrayList<>();
    try (ZipFile zip = new ZipFile(file.toFile())) {
      List<ZipEntry> entries = new ArrayList<>(Collections.list(zip.entries()));
      entries.sort(java.util.Comparator.comparing(ZipEntry::getName));
      for (ZipEntry entry : entries) {
        pages.add(zip.getInputStream(entry).readAllBytes());
      }
    }
    return pages;
  }
}
