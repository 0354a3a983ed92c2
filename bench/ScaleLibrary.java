import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.imageio.ImageIO;

/**
 * The scale bench's library (bench/scale-inventory.sh), JDK only, and its latency probe.
 *
 * <pre>
 * java bench/ScaleLibrary.java library DATA [series=10000] [chapters=10] [pages=4]
 *   writes DATA/library/&lt;series&gt;/chapter-NNNN/{001.jpg.., chapter.json} as the scraper publishes it (a series
 *   marker .mangacircus-series.json per series folder, schema-1 chapter.json pretty-printed with source, titleId,
 *   series, chapterId, number, title, language, fingerprint, publishedAt and pages with size and sha256). Page files
 *   are hard links to a handful of small real JPEGs (javax.imageio) kept in DATA/.scale-pages; nothing is fsynced.
 *   Prints "LIBRARY series chapters pages seconds".
 * java bench/ScaleLibrary.java probe BASE COOKIE UNTIL_FILE PATH...
 *   requests each PATH (with the session cookie) round-robin, one at a time: 100 rounds of warm-up, then prints
 *   READY and measures until UNTIL_FILE exists; prints per path
 *   "PROBE path count errors p50_ms p99_ms max_ms" (errors: not 200, or an empty series list for /api/series).
 * </pre>
 */
public final class ScaleLibrary {

  private static final int ORIGINALS = 5;
  private static final String[] WORDS = {"circus", "night", "blade", "moon", "river", "dragon", "garden", "iron",
      "silent", "crimson", "academy", "chef", "saga", "hunter", "star", "winter", "tower", "spirit", "cafe", "summer"};

  public static void main(String[] args) throws Exception {
    if (args.length >= 2 && args[0].equals("library")) {
      int series = args.length > 2 ? Integer.parseInt(args[2]) : 10_000;
      int chapters = args.length > 3 ? Integer.parseInt(args[3]) : 10;
      int pages = args.length > 4 ? Integer.parseInt(args[4]) : 4;
      library(Path.of(args[1]), series, chapters, pages);
    } else if (args.length >= 5 && args[0].equals("probe")) {
      probe(args[1], args[2], Path.of(args[3]), Arrays.asList(args).subList(4, args.length));
    } else {
      System.err.println("usage: java bench/ScaleLibrary.java library DATA [series] [chapters] [pages]\n"
          + "       java bench/ScaleLibrary.java probe BASE COOKIE UNTIL_FILE PATH...");
      System.exit(2);
    }
  }

  // ---- library --------------------------------------------------------------------------------------------------

  private record Original(Path file, long size, String sha256) {
  }

  private static void library(Path data, int series, int chapters, int pages) throws Exception {
    long start = System.nanoTime();
    Path library = data.resolve("library");
    Path originals = data.resolve(".scale-pages");
    Files.createDirectories(library);
    Files.createDirectories(originals);
    List<Original> jpegs = new ArrayList<>();
    for (int i = 0; i < ORIGINALS; i++) {
      byte[] bytes = jpeg(i);
      Path file = originals.resolve(String.format(Locale.ROOT, "page-%d.jpg", i));
      Files.write(file, bytes);
      jpegs.add(new Original(file, bytes.length, sha256(bytes)));
    }
    Instant base = Instant.parse("2026-01-01T00:00:00Z");
    int threads = Math.max(2, Runtime.getRuntime().availableProcessors());
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<Future<?>> done = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int first = t;
      done.add(pool.submit(() -> {
        for (int s = first; s < series; s += threads) {
          writeSeries(library, s, chapters, pages, jpegs, base);
        }
        return null;
      }));
    }
    try {
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdownNow();   // a failed series ends the program instead of leaving the other thread running
    }
    System.out.printf(Locale.ROOT, "LIBRARY %d %d %d %.1f%n", series, (long) series * chapters,
        (long) series * chapters * pages, (System.nanoTime() - start) / 1e9);
  }

  /**
   * Series whose pages link to one copy of each original: ext4 allows 65,000 links to a file, and 100,000 chapters of
   * 4 pages over 5 originals would need 80,000 each; 2,000 series x 10 chapters x 4 pages / 5 = 16,000 per copy.
   */
  private static final int SERIES_PER_COPY = 2000;

  /** The original's copy for a block of series (made on first use; block 0 is the original itself). */
  private static synchronized Path copyFor(Original original, int block) throws IOException {
    if (block == 0) {
      return original.file();
    }
    Path copy = original.file().resolveSibling(original.file().getFileName().toString().replace(".jpg",
        "-" + block + ".jpg"));
    if (!Files.exists(copy)) {
      Files.copy(original.file(), copy);
    }
    return copy;
  }

  private static void writeSeries(Path library, int s, int chapters, int pages, List<Original> jpegs, Instant base) {
    // Titles in another order than folder names, as in a real library (folders are slugs of titles plus suffixes).
    String title = cap(WORDS[(s * 7) % WORDS.length]) + " " + cap(WORDS[(s * 13 + 3) % WORDS.length]) + " "
        + String.format(Locale.ROOT, "%05d", s + 1);
    String slug = title.toLowerCase(Locale.ROOT).replace(' ', '-');
    String source = "scale";
    String titleId = "t" + (s + 1);
    Path folder = library.resolve(slug);
    try {
      Files.createDirectories(folder);
      Files.writeString(folder.resolve(".mangacircus-series.json"), "{\n  \"source\" : \"" + source
          + "\",\n  \"titleId\" : \"" + titleId + "\",\n  \"series\" : \"" + title + "\"\n}");
      for (int c = 1; c <= chapters; c++) {
        Path chapter = folder.resolve(String.format(Locale.ROOT, "chapter-%04d", c));
        Files.createDirectories(chapter);
        StringBuilder json = new StringBuilder(1024);
        Instant published = base.plusSeconds((long) s * 3600 + c * 60L);
        json.append("{\n  \"schema\" : 1,\n  \"source\" : \"").append(source).append("\",\n  \"titleId\" : \"")
            .append(titleId).append("\",\n  \"series\" : \"").append(title).append("\",\n  \"chapterId\" : \"")
            .append(titleId).append("-c").append(c).append("\",\n  \"number\" : \"").append(c)
            .append("\",\n  \"title\" : \"Chapter ").append(c).append("\",\n  \"language\" : \"en\",\n")
            .append("  \"fingerprint\" : \"").append(sha256((slug + "/" + c).getBytes(StandardCharsets.UTF_8)))
            .append("\",\n  \"publishedAt\" : \"").append(published).append("\",\n  \"pages\" : [ ");
        for (int p = 1; p <= pages; p++) {
          Original original = jpegs.get((s + c + p) % jpegs.size());
          String file = String.format(Locale.ROOT, "%03d.jpg", p);
          Files.createLink(chapter.resolve(file), copyFor(original, s / SERIES_PER_COPY));
          json.append(p > 1 ? ", " : "").append("{\n    \"index\" : ").append(p).append(",\n    \"file\" : \"")
              .append(file).append("\",\n    \"size\" : ").append(original.size()).append(",\n    \"sha256\" : \"")
              .append(original.sha256()).append("\"\n  }");
        }
        json.append(" ]\n}");
        Files.writeString(chapter.resolve("chapter.json"), json);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String cap(String word) {
    return Character.toUpperCase(word.charAt(0)) + word.substring(1);
  }

  /** A small portrait JPEG with a caption and a tint, so that the originals differ. */
  private static byte[] jpeg(int i) throws IOException {
    BufferedImage image = new BufferedImage(240, 360, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    g.setColor(Color.getHSBColor(i / (float) ORIGINALS, 0.3f, 0.95f));
    g.fillRect(0, 0, 240, 360);
    g.setColor(Color.DARK_GRAY);
    g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 40));
    g.drawString("page " + (i + 1), 40, 180);
    g.dispose();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    if (!ImageIO.write(image, "jpg", out)) {
      throw new IOException("no JPEG writer");
    }
    return out.toByteArray();
  }

  private static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  // ---- probe ----------------------------------------------------------------------------------------------------

  private static void probe(String base, String cookie, Path until, List<String> paths) throws Exception {
    HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(5)).build();
    int n = paths.size();
    List<List<Long>> times = new ArrayList<>();
    int[] errors = new int[n];
    for (int i = 0; i < n; i++) {
      times.add(new ArrayList<>());
    }
    boolean accept503 = "1".equals(System.getenv("PROBE_HEALTH_503"));
    AtomicBoolean stop = new AtomicBoolean();
    int warmup = 100;
    for (int round = 0; !stop.get(); round++) {
      if (round == warmup) {
        times.forEach(List::clear);
        Arrays.fill(errors, 0);
        System.out.println("READY");
        System.out.flush();
      }
      if (round >= warmup && Files.exists(until)) {
        stop.set(true);
      }
      for (int i = 0; i < n; i++) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + paths.get(i))).header("Cookie", cookie)
            .timeout(Duration.ofSeconds(30)).GET().build();
        long t0 = System.nanoTime();
        try {
          HttpResponse<byte[]> response = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
          long took = System.nanoTime() - t0;
          times.get(i).add(took);
          // In reader mode nobody answers the scraper's ping: /health/ready answers 503, which is its answer.
          boolean bad = response.statusCode() != 200 && !(accept503 && response.statusCode() == 503
              && paths.get(i).startsWith("/health/"));
          if (!bad && paths.get(i).startsWith("/api/series?")) {
            // never an empty list while a scan runs
            bad = new String(response.body(), StandardCharsets.UTF_8).contains("\"series\":[]");
          }
          if (bad) {
            errors[i]++;
          }
        } catch (IOException e) {
          times.get(i).add(System.nanoTime() - t0);
          errors[i]++;
        }
      }
    }
    for (int i = 0; i < n; i++) {
      long[] sorted = times.get(i).stream().mapToLong(Long::longValue).sorted().toArray();
      System.out.printf(Locale.ROOT, "PROBE %s %d %d %.2f %.2f %.2f%n", paths.get(i), sorted.length, errors[i],
          pct(sorted, 0.50), pct(sorted, 0.99), sorted.length == 0 ? 0 : sorted[sorted.length - 1] / 1e6);
    }
  }

  private static double pct(long[] sorted, double q) {
    if (sorted.length == 0) {
      return 0;
    }
    int at = (int) Math.ceil(q * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, at))] / 1e6;
  }
}
