package io.mangacircus.reader.library;

import static io.mangacircus.reader.ReaderUnderTest.as;
import static io.mangacircus.reader.ReaderUnderTest.basic;
import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.reader.ReaderUnderTest;
import io.mangacircus.testing.LibraryFixture;
import java.io.ByteArrayInputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A chapter downloaded as a CBZ, as a browser or reading app receives it: a stored ZIP of the page files in reading
 * order plus ComicInfo.xml, with an exact length, resumable by Range, and never a file from outside the library.
 */
class CbzDownloadTest {

  private static final String CBZ = "/api/series/moon/chapters/chapter-0001.cbz";

  @TempDir
  Path data;

  private ReaderUnderTest reader;
  private ReaderUnderTest.Session admin;
  private Path chapter;

  @BeforeEach
  void start() throws Exception {
    chapter = new LibraryFixture(data).chapter("moon", "Moon Circus", 1, 12, Instant.parse("2026-01-02T03:04:05Z"));
    reader = ReaderUnderTest.start(data);
    admin = reader.login("admin", ReaderUnderTest.ADMIN_PASSWORD);
  }

  @AfterEach
  void stop() throws Exception {
    reader.close();
  }

  @Test
  void theDownloadIsAStoredZipOfThePagesInReadingOrderThenComicInfoWithAnExactLength() throws Exception {
    byte[] comicInfo = "<?xml version=\"1.0\"?><ComicInfo><Series>Moon Circus</Series></ComicInfo>\n"
        .getBytes(StandardCharsets.UTF_8);
    Files.write(chapter.resolve("ComicInfo.xml"), comicInfo);

    HttpResponse<byte[]> answer = reader.bytes(as(admin, reader.get(CBZ)));

    assertThat(answer.statusCode()).isEqualTo(200);
    assertThat(answer.headers().firstValue("Content-Type")).hasValue("application/vnd.comicbook+zip");
    assertThat(answer.headers().firstValueAsLong("Content-Length")).hasValue(answer.body().length);
    assertThat(answer.headers().firstValue("Accept-Ranges")).hasValue("bytes");
    assertThat(answer.headers().firstValue("Content-Disposition")).hasValueSatisfying(v -> assertThat(v)
        .contains("filename=\"Moon Circus - 1.cbz\""));
    List<String> names = new ArrayList<>();
    try (ZipInputStream zip = new ZipInputStream(new ByteArrayInputStream(answer.body()))) {
      for (ZipEntry entry = zip.getNextEntry(); entry != null; entry = zip.getNextEntry()) {
        names.add(entry.getName());
        assertThat(entry.getMethod()).as(entry.getName() + " is stored").isEqualTo(ZipEntry.STORED);
        byte[] bytes = zip.readAllBytes();
        if (entry.getName().equals("ComicInfo.xml")) {
          assertThat(bytes).isEqualTo(comicInfo);
        } else {
          assertThat(bytes).as(entry.getName())
              .isEqualTo(Files.readAllBytes(chapter.resolve(entry.getName())));
        }
      }
    }
    List<String> expected = new ArrayList<>();
    for (int page = 1; page <= 12; page++) {
      expected.add(String.format("%03d.png", page));
    }
    expected.add("ComicInfo.xml");
    assertThat(names).isEqualTo(expected);
    Path file = data.resolve("download.cbz");
    Files.write(file, answer.body());
    try (ZipFile zip = new ZipFile(file.toFile())) {
      assertThat(zip.stream().map(ZipEntry::getName).toList()).as("the central directory agrees").isEqualTo(expected);
    }
  }

  @Test
  void aRangeRequestResumesABrokenDownloadByteForByte() throws Exception {
    byte[] whole = reader.bytes(as(admin, reader.get(CBZ))).body();
    String etag = reader.bytes(as(admin, reader.get(CBZ))).headers().firstValue("ETag").orElseThrow();
    int cut = whole.length / 3 + 7;

    HttpResponse<byte[]> rest = reader.bytes(as(admin, reader.get(CBZ)).header("Range", "bytes=" + cut + "-")
        .header("If-Range", etag));
    HttpResponse<byte[]> middle = reader.bytes(as(admin, reader.get(CBZ)).header("Range", "bytes=100-4099"));
    HttpResponse<byte[]> tail = reader.bytes(as(admin, reader.get(CBZ)).header("Range", "bytes=-22"));
    HttpResponse<byte[]> beyond = reader.bytes(as(admin, reader.get(CBZ))
        .header("Range", "bytes=" + whole.length + "-"));

    assertThat(rest.statusCode()).isEqualTo(206);
    assertThat(rest.headers().firstValue("Content-Range"))
        .hasValue("bytes " + cut + "-" + (whole.length - 1) + "/" + whole.length);
    assertThat(rest.headers().firstValueAsLong("Content-Length")).hasValue(whole.length - cut);
    assertThat(rest.body()).isEqualTo(Arrays.copyOfRange(whole, cut, whole.length));
    assertThat(middle.statusCode()).isEqualTo(206);
    assertThat(middle.body()).isEqualTo(Arrays.copyOfRange(whole, 100, 4100));
    assertThat(tail.body()).as("the end record").isEqualTo(Arrays.copyOfRange(whole, whole.length - 22,
        whole.length));
    assertThat(beyond.statusCode()).isEqualTo(416);
    assertThat(beyond.headers().firstValue("Content-Range")).hasValue("bytes */" + whole.length);
  }

  @Test
  void twoDownloadsAndADownloadAfterARestartAreTheSameBytesUnderTheSameEtag() throws Exception {
    HttpResponse<byte[]> first = reader.bytes(as(admin, reader.get(CBZ)));
    HttpResponse<byte[]> second = reader.bytes(as(admin, reader.get(CBZ)));
    reader.close();
    reader = ReaderUnderTest.start(data);
    admin = reader.login("admin", ReaderUnderTest.ADMIN_PASSWORD);

    HttpResponse<byte[]> afterRestart = reader.bytes(as(admin, reader.get(CBZ)));

    String etag = first.headers().firstValue("ETag").orElseThrow();
    for (HttpResponse<byte[]> again : List.of(second, afterRestart)) {
      assertThat(again.statusCode()).isEqualTo(200);
      assertThat(again.headers().firstValue("ETag")).hasValue(etag);
      assertThat(LibraryFixture.sha256(again.body())).as("the bytes' SHA-256")
          .isEqualTo(LibraryFixture.sha256(first.body()));
      assertThat(KoreaderDigest.partialMd5(again.body())).isEqualTo(KoreaderDigest.partialMd5(first.body()));
    }
  }

  @Test
  void aRangeForAnOlderVersionOfTheArchiveGetsTheWholeArchive() throws Exception {
    byte[] whole = reader.bytes(as(admin, reader.get(CBZ))).body();

    HttpResponse<byte[]> answer = reader.bytes(as(admin, reader.get(CBZ)).header("Range", "bytes=10-")
        .header("If-Range", "\"cbz-something-else\""));

    assertThat(answer.statusCode()).isEqualTo(200);
    assertThat(answer.body()).isEqualTo(whole);
  }

  @Test
  void aChapterWithoutComicInfoGetsOneMadeFromItsManifest() throws Exception {
    HttpResponse<byte[]> answer = reader.bytes(as(admin, reader.get(CBZ)));

    Path file = data.resolve("download.cbz");
    Files.write(file, answer.body());
    try (ZipFile zip = new ZipFile(file.toFile())) {
      String info = new String(zip.getInputStream(zip.getEntry("ComicInfo.xml")).readAllBytes(),
          StandardCharsets.UTF_8);
      assertThat(info).contains("<Series>Moon Circus</Series>", "<Number>1</Number>", "<PageCount>12</PageCount>");
    }
  }

  @Test
  void aSeriesTitleWithControlCharactersStillGetsAWellFormedComicInfo() throws Exception {
    new LibraryFixture(data).chapter("bell", "Bell\u0007 Tower \u001B<&>", 1, 2, Instant.parse("2026-01-02T03:04:05Z"));

    HttpResponse<byte[]> answer = reader.bytes(as(admin, reader.get("/api/series/bell/chapters/chapter-0001.cbz")));

    Path file = data.resolve("bell.cbz");
    Files.write(file, answer.body());
    try (ZipFile zip = new ZipFile(file.toFile())) {
      byte[] info = zip.getInputStream(zip.getEntry("ComicInfo.xml")).readAllBytes();
      org.w3c.dom.Document parsed = javax.xml.parsers.DocumentBuilderFactory.newInstance().newDocumentBuilder()
          .parse(new java.io.ByteArrayInputStream(info));
      assertThat(parsed.getElementsByTagName("Series").item(0).getTextContent()).isEqualTo("Bell Tower <&>");
    }
  }

  @Test
  void anAppPasswordDownloadsTheChapterOverBasic() throws Exception {
    String secret = reader.createAppPassword(admin, "Panels").getString("password");

    HttpResponse<byte[]> answer = reader.bytes(basic("admin", secret, reader.get(CBZ)));

    assertThat(answer.statusCode()).isEqualTo(200);
    assertThat(answer.headers().firstValueAsLong("Content-Length")).hasValue(answer.body().length);
  }

  @Test
  void traversalAttemptsOnTheDownloadRouteAreRefused() throws Exception {
    Path outside = Files.createDirectories(data.resolve("outside").resolve("chapter-0009"));
    Files.write(outside.resolve("secret.png"), LibraryFixture.png("secret"));
    Files.createSymbolicLink(data.resolve("library").resolve("moon").resolve("chapter-0009"), outside);

    for (String path : List.of("/api/series/moon/chapters/..%2F..%2Freader.db.cbz",
        "/api/series/..%2Foutside/chapters/chapter-0009.cbz", "/api/series/moon/chapters/%2e%2e.cbz",
        "/api/series/moon/chapters/.hidden.cbz", "/api/series/moon/chapters/chapter-0009.cbz",
        "/api/series/moon/chapters/chapter-0002.cbz", "/api/series/moon/chapters/..%5Cchapter-0001.cbz")) {
      HttpResponse<String> answer = reader.text(as(admin, reader.get(path)));
      assertThat(answer.statusCode()).as(path + ": " + answer.body()).isIn(400, 404);
    }
  }

  @Test
  void theDownloadNeedsASessionOrAnAppPassword() throws Exception {
    assertThat(reader.text(reader.get(CBZ)).statusCode()).isEqualTo(401);
  }

  @Test
  void aChapterRepublishedByTheFolderRenameIsDownloadedWithItsNewPages() throws Exception {
    byte[] before = reader.bytes(as(admin, reader.get(CBZ))).body();
    Path next = new LibraryFixture(data.resolve("next")).chapter("moon", "Moon Circus", 1, 9,
        Instant.parse("2026-02-03T04:05:06Z"));
    deleteTree(chapter);
    Files.move(next, chapter, java.nio.file.StandardCopyOption.ATOMIC_MOVE);

    HttpResponse<byte[]> answer = reader.bytes(as(admin, reader.get(CBZ)));

    assertThat(answer.statusCode()).isEqualTo(200);
    assertThat(answer.body()).isNotEqualTo(before);
    assertThat(answer.headers().firstValueAsLong("Content-Length")).hasValue(answer.body().length);
    List<String> names = new ArrayList<>();
    try (ZipInputStream zip = new ZipInputStream(new ByteArrayInputStream(answer.body()))) {
      for (ZipEntry entry = zip.getNextEntry(); entry != null; entry = zip.getNextEntry()) {
        names.add(entry.getName());
        byte[] bytes = zip.readAllBytes();
        if (!entry.getName().equals("ComicInfo.xml")) {
          assertThat(bytes).as(entry.getName()).isEqualTo(Files.readAllBytes(chapter.resolve(entry.getName())));
        }
      }
    }
    assertThat(names).hasSize(10).endsWith("ComicInfo.xml");
  }

  @Test
  void aDeletedChapterIsNotFoundAfterItWasDownloaded() throws Exception {
    assertThat(reader.bytes(as(admin, reader.get(CBZ))).statusCode()).isEqualTo(200);
    deleteTree(chapter);

    HttpResponse<String> answer = reader.text(as(admin, reader.get(CBZ)));

    assertThat(answer.statusCode()).isEqualTo(404);
    assertThat(answer.body()).contains("not_found");
  }

  @Test
  void repeatedDownloadsAndRangesFromKeptPageFilesAreIdentical() throws Exception {
    byte[] first = reader.bytes(as(admin, reader.get(CBZ))).body();
    for (int i = 0; i < 5; i++) {
      assertThat(reader.bytes(as(admin, reader.get(CBZ))).body()).isEqualTo(first);
      HttpResponse<byte[]> part = reader.bytes(as(admin, reader.get(CBZ)).header("Range", "bytes=" + (i * 997) + "-"));
      assertThat(part.statusCode()).isEqualTo(206);
      assertThat(part.body()).isEqualTo(Arrays.copyOfRange(first, i * 997, first.length));
    }
  }

  private static void deleteTree(Path folder) throws Exception {
    try (var walk = Files.walk(folder)) {
      for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
