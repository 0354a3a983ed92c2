// The long queue and the big staging area for bench/scale-recovery.sh and bench/scale-queue.sh, JDK only: writes, under
// DATA_DIR, data/scraper/queue.json (schema 4, sequence 0, no journal: a queue as this version keeps it, so a first
// start does not include the one-off rewrite of an older schema; one job a line) with JOBS jobs in
// mixed states, and OPEN open chapters (stage "fetching", each with its fingerprint) in mixed recovery states, plus
// staging folders of no job. Every job belongs to source "bench", whose lane is saved paused (so a started scraper
// claims nothing; recovery still runs).
// Usage: java bench/ScaleQueue.java DATA_DIR [JOBS=10000] [OPEN=10000]
//
// Jobs: the even ones carry the open chapters (2 each at the default sizes) and are active 40 %, pending 30 %,
// paused 20 %, retry_wait 10 %; the odd ones are done 60 %, ready 20 %, quarantined 10 %, unavailable 10 %. Every job
// has at least 8 chapters (published, open, planned).
// Open chapters, by position modulo 20 (what recovery must conclude):
//   complete 25 %  the library already holds it (series folder with its marker, chapter.json naming it with the
//                  fingerprint, pages): recorded as published, never fetched again;
//   partial  30 %  staging with a valid checkpoint.json header and checkpoint.log (5 of 10 pages): still;
//   torn     15 %  the same, the log's last line cut in the middle (the page in flight): still, 4 pages;
//   corrupt  10 %  a checkpoint.json that is not JSON: unknown, nothing changed;
//   source   20 %  nothing staged: only the source can tell (a source look-up, paced and capped).
// Orphans: OPEN / 20 staging folders with a valid checkpoint that no job names (recovery leaves them alone).
// Page files are hard links to three small real JPEGs written once under DATA_DIR/scale-src.
// Prints one line when done: SCALEQUEUE jobs=N open=N complete=N partial=N torn=N corrupt=N source=N orphans=N
//   bytes=<queue.json size> ms=<time>

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import javax.imageio.ImageIO;

public class ScaleQueue {

  static final String SOURCE = "bench";
  static final int MANIFEST_PAGES = 10;
  static final String STAGING_PREFIX = ".staging-mcscraper-resume-";

  enum Kind { COMPLETE, PARTIAL, TORN, CORRUPT, SOURCE }

  record Image(String file, byte[] bytes, String sha256) {
  }

  final Path data;
  final Path library;
  final List<Image> images = new ArrayList<>();
  final Path src;
  final int[] counts = new int[Kind.values().length];
  final String now = Instant.parse("2026-12-01T10:00:00Z").toString();

  ScaleQueue(Path data) {
    this.data = data;
    this.library = data.resolve("library");
    this.src = data.resolve("scale-src");
  }

  public static void main(String[] args) throws Exception {
    if (args.length < 1) {
      System.err.println("usage: java bench/ScaleQueue.java DATA_DIR [JOBS=10000] [OPEN=10000]");
      System.exit(2);
    }
    int jobs = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
    int open = args.length > 2 ? Integer.parseInt(args[2]) : 10_000;
    if (jobs < 2 || open < 0) {
      System.err.println("JOBS must be at least 2 and OPEN not negative");
      System.exit(2);
    }
    long start = System.nanoTime();
    ScaleQueue generator = new ScaleQueue(Path.of(args[0]));
    long bytes = generator.write(jobs, open);
    System.out.printf("SCALEQUEUE jobs=%d open=%d complete=%d partial=%d torn=%d corrupt=%d source=%d orphans=%d "
            + "bytes=%d ms=%d%n", jobs, open, generator.counts[0], generator.counts[1], generator.counts[2],
        generator.counts[3], generator.counts[4], open / 20, bytes, (System.nanoTime() - start) / 1_000_000);
  }

  long write(int jobs, int open) throws Exception {
    Files.createDirectories(data.resolve("scraper"));
    Files.createDirectories(library);
    Files.createDirectories(src);
    for (int i = 0; i < 3; i++) {
      byte[] jpeg = jpeg(i);
      Image image = new Image(String.format("p%d.jpg", i), jpeg, sha256(jpeg));
      Files.write(src.resolve(image.file()), jpeg);
      images.add(image);
    }
    int carriers = (jobs + 1) / 2;
    int perJob = open == 0 ? 0 : (open + carriers - 1) / carriers;
    int chaptersPerJob = Math.max(8, perJob + 4);
    Path queue = data.resolve("scraper/queue.json");
    Path part = queue.resolveSibling("queue.json.part");
    int openLeft = open;
    int openIndex = 0;
    try (OutputStream out = new java.io.BufferedOutputStream(Files.newOutputStream(part), 1 << 20)) {
      out.write(("{\"schema\":4,\"sequence\":0,\"jobs\":[").getBytes(StandardCharsets.UTF_8));
      for (int j = 0; j < jobs; j++) {
        String id = String.format("j-%08x", j);
        String titleId = String.format("scale-title-%05d", j);
        String title = String.format("Scale Title %05d", j);
        boolean carrier = j % 2 == 0;
        int openHere = carrier ? Math.min(perJob, openLeft) : 0;
        openLeft -= openHere;
        String state = carrier ? switch (j / 2 % 10) {
          case 0, 1, 2, 3 -> "active";
          case 4, 5, 6 -> "pending";
          case 7, 8 -> "paused";
          default -> "retry_wait";
        } : switch (j / 2 % 10) {
          case 0, 1, 2, 3, 4, 5 -> "done";
          case 6, 7 -> "ready";
          case 8 -> "quarantined";
          default -> "unavailable";
        };
        StringBuilder chapters = new StringBuilder();
        for (int c = 1; c <= chaptersPerJob; c++) {
          String chapterId = "c" + c;
          String stage;
          String fingerprint = null;
          int pages = 0;
          if (state.equals("done") || carrier && c <= 3) {
            stage = "published";
            fingerprint = sha256((id + "/" + chapterId).getBytes(StandardCharsets.UTF_8));
            pages = MANIFEST_PAGES;
          } else if (carrier && c <= 3 + openHere) {
            stage = "fetching";
            fingerprint = sha256((id + "/" + chapterId).getBytes(StandardCharsets.UTF_8));
            pages = MANIFEST_PAGES;
            openChapter(Kind.values()[kindOf(openIndex++)], titleId, title, chapterId, c, fingerprint);
          } else {
            stage = "planned";
          }
          if (c > 1) {
            chapters.append(',');
          }
          chapters.append("{\"id\":\"").append(chapterId).append("\",\"number\":\"").append(c)
              .append("\",\"title\":\"Chapter ").append(c).append("\",\"stage\":\"").append(stage)
              .append("\",\"pages\":").append(pages).append(",\"fingerprint\":")
              .append(fingerprint == null ? "null" : "\"" + fingerprint + "\"").append(",\"reason\":null}");
        }
        boolean inspected = true;
        boolean confirmed = !state.equals("ready");
        String reason = switch (state) {
          case "paused" -> "\"paused by the operator\"";
          case "retry_wait" -> "\"network: connection refused\"";
          case "quarantined" -> "\"parser: no pages found (attempt 5 of 5: quarantined)\"";
          case "unavailable" -> "\"chapter_gone: the source no longer lists it\"";
          default -> "null";
        };
        String retryAt = state.equals("retry_wait") ? "\"2099-01-01T00:00:00Z\"" : "null";
        String line = "{\"id\":\"" + id + "\",\"source\":\"" + SOURCE + "\",\"titleId\":\"" + titleId
            + "\",\"title\":\"" + title + "\",\"state\":\"" + state + "\",\"inspected\":" + inspected
            + ",\"confirmed\":" + confirmed + ",\"attempts\":0,\"interruptions\":0,\"createdAt\":\"" + now
            + "\",\"updatedAt\":\"" + now + "\",\"leasedUntil\":null,\"leaseOwner\":null,\"retryAt\":" + retryAt
            + ",\"reason\":" + reason + ",\"chapters\":[" + chapters + "],\"networkRetries\":0,\"stalls\":0,"
            + "\"language\":\"en\",\"preferredGroups\":[]}";
        out.write(((j == 0 ? "\n" : ",\n") + line).getBytes(StandardCharsets.UTF_8));
      }
      out.write(("\n],\"lanes\":{\"" + SOURCE + "\":{\"paused\":true,\"pauseReason\":\"paused for the scale bench\","
          + "\"pageDelayMs\":null,\"chapterDelayMs\":null,\"holdUntil\":null,\"holdReason\":null}},\"incidents\":[]}")
          .getBytes(StandardCharsets.UTF_8));
    }
    if (openLeft > 0) {
      throw new IllegalStateException(openLeft + " open chapters found no job");
    }
    Files.move(part, queue, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    for (int o = 0; o < open / 20; o++) {
      String fingerprint = sha256(("orphan/" + o).getBytes(StandardCharsets.UTF_8));
      staging(fingerprint, "scale-orphan-" + o, "c1", 5, false);
    }
    return Files.size(queue);
  }

  /** Complete 5/20, partial 6/20, torn 3/20, corrupt 2/20, source 4/20, interleaved. */
  static int kindOf(int index) {
    int r = index % 20;
    return r < 5 ? 0 : r < 11 ? 1 : r < 14 ? 2 : r < 16 ? 3 : 4;
  }

  void openChapter(Kind kind, String titleId, String title, String chapterId, int number, String fingerprint)
      throws IOException {
    counts[kind.ordinal()]++;
    switch (kind) {
      case COMPLETE -> published(titleId, title, chapterId, number, fingerprint);
      case PARTIAL -> staging(fingerprint, titleId, chapterId, 5, false);
      case TORN -> staging(fingerprint, titleId, chapterId, 5, true);
      case CORRUPT -> {
        Path folder = library.resolve(STAGING_PREFIX + fingerprint);
        Files.createDirectories(folder);
        Files.writeString(folder.resolve("checkpoint.json"), "{\"schema\":2,\"fingerprint\":\"" + fingerprint
            + "\",\"source\":\u0000\u0000 not json");
        link(folder, 1);
      }
      case SOURCE -> {
        // Nothing on disk: only the source can say whether it is still listed.
      }
    }
  }

  /** A staging folder with its header and {@code pages} validated pages; {@code torn}: the last line cut short. */
  void staging(String fingerprint, String titleId, String chapterId, int pages, boolean torn) throws IOException {
    Path folder = library.resolve(STAGING_PREFIX + fingerprint);
    Files.createDirectories(folder);
    StringBuilder manifest = new StringBuilder();
    for (int p = 1; p <= MANIFEST_PAGES; p++) {
      manifest.append(p > 1 ? "," : "").append('"').append(String.format("%03d.jpg", p)).append('"');
    }
    Files.writeString(folder.resolve("checkpoint.json"), "{\"schema\":2,\"fingerprint\":\"" + fingerprint
        + "\",\"source\":\"" + SOURCE + "\",\"titleId\":\"" + titleId + "\",\"chapterId\":\"" + chapterId
        + "\",\"manifest\":[" + manifest + "],\"updatedAt\":\"" + now + "\"}");
    StringBuilder log = new StringBuilder();
    for (int p = 1; p <= pages; p++) {
      Image image = link(folder, p);
      String line = "{\"index\":" + p + ",\"file\":\"" + String.format("%03d.jpg", p) + "\",\"size\":"
          + image.bytes().length + ",\"sha256\":\"" + image.sha256() + "\"}";
      log.append(torn && p == pages ? line.substring(0, line.length() / 2) : line + "\n");
    }
    Files.writeString(folder.resolve("checkpoint.log"), log);
  }

  /** What a publication leaves: the series folder with its marker, the chapter folder with chapter.json and pages. */
  void published(String titleId, String title, String chapterId, int number, String fingerprint) throws IOException {
    Path series = library.resolve(title.toLowerCase().replaceAll("[^a-z0-9]+", "-"));
    if (!Files.isDirectory(series)) {
      Files.createDirectories(series);
      Files.writeString(series.resolve(".mangacircus-series.json"), "{\"source\":\"" + SOURCE + "\",\"titleId\":\""
          + titleId + "\",\"series\":\"" + title + "\"}");
    }
    Path folder = series.resolve(String.format("chapter-%04d", number));
    Files.createDirectories(folder);
    StringBuilder pages = new StringBuilder();
    for (int p = 1; p <= MANIFEST_PAGES; p++) {
      Image image = link(folder, p);
      pages.append(p > 1 ? "," : "").append("{\"index\":").append(p).append(",\"file\":\"")
          .append(String.format("%03d.jpg", p)).append("\",\"size\":").append(image.bytes().length)
          .append(",\"sha256\":\"").append(image.sha256()).append("\"}");
    }
    Files.writeString(folder.resolve("chapter.json"), "{\"schema\":1,\"source\":\"" + SOURCE + "\",\"titleId\":\""
        + titleId + "\",\"series\":\"" + title + "\",\"chapterId\":\"" + chapterId + "\",\"number\":\"" + number
        + "\",\"title\":\"Chapter " + number + "\",\"language\":\"en\",\"fingerprint\":\"" + fingerprint
        + "\",\"publishedAt\":\"" + now + "\",\"pages\":[" + pages + "]}");
  }

  /** Page {@code p} of a folder: a hard link to one of the three JPEGs (a copy where links are not supported). */
  Image link(Path folder, int p) throws IOException {
    Image image = images.get(p % images.size());
    Path target = folder.resolve(String.format("%03d.jpg", p));
    try {
      Files.createLink(target, src.resolve(image.file()));
    } catch (UnsupportedOperationException | java.nio.file.FileSystemException e) {
      Files.write(target, image.bytes());
    }
    return image;
  }

  static byte[] jpeg(int seed) throws IOException {
    BufferedImage image = new BufferedImage(96, 144, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    g.setColor(new Color(40 + 60 * seed, 90, 200 - 50 * seed));
    g.fillRect(0, 0, 96, 144);
    g.setColor(Color.WHITE);
    g.drawString("page " + seed, 10, 70);
    g.dispose();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ImageIO.write(image, "jpg", out);
    return out.toByteArray();
  }

  static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
