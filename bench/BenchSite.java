// Local HTTP site for bench/pipeline.sh: one title "bench" with CHAPTERS x PAGES_PER_CHAPTER distinct ~200 KB JPEGs,
// served from memory (byte-identical to the copies written to IMAGE_DIR). JDK only; loopback only.
// Usage: java bench/BenchSite.java PORT PAGES_PER_CHAPTER CHAPTERS IMAGE_DIR   (PORT 0 picks a free port)
// Prints "READY <baseUrl>" once listening; writes IMAGE_DIR/urls.txt (one absolute image URL per line) and the
// images as IMAGE_DIR/<chapterId>/<NNN>.jpg. Stops on SIGTERM / SIGINT.

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;
import javax.imageio.stream.MemoryCacheImageOutputStream;

public final class BenchSite {

  static final String TITLE_ID = "bench";
  static final int WIDTH = 1000;
  static final int HEIGHT = 1400;
  static final float QUALITY = 0.9f;
  /** Distinct base images (different pixels); every page also carries its own JPEG comment, so no two are equal. */
  static final int BASES = 16;
  /** Amplitude of the per-pixel noise: sets the JPEG size (about 200 KB at 1000x1400, quality 0.9). */
  static final int GRAIN = 3;

  public static void main(String[] args) throws Exception {
    if (args.length != 4) {
      System.err.println("usage: java bench/BenchSite.java PORT PAGES_PER_CHAPTER CHAPTERS IMAGE_DIR");
      System.exit(2);
    }
    int port = Integer.parseInt(args[0]);
    int pagesPerChapter = Integer.parseInt(args[1]);
    int chapters = Integer.parseInt(args[2]);
    Path imageDir = Path.of(args[3]);
    if (pagesPerChapter < 1 || pagesPerChapter > 999 || chapters < 1) {
      throw new IllegalArgumentException("need 1..999 pages per chapter and at least one chapter");
    }

    long started = System.nanoTime();
    byte[][] bases = renderBases(Math.min(BASES, pagesPerChapter * chapters));
    long rendered = System.nanoTime();

    // Page (c, p) = base JPEG with a COM segment naming the page inserted after SOI: distinct bytes, same decode cost.
    // Only the small head (SOI + COM) is kept per page; the body is shared with its base image.
    Page[][] pages = new Page[chapters][pagesPerChapter];
    long totalBytes = 0;
    for (int c = 0; c < chapters; c++) {
      Path chapterDir = Files.createDirectories(imageDir.resolve(chapterId(c)));
      for (int p = 0; p < pagesPerChapter; p++) {
        Page page = Page.of(bases[(c * pagesPerChapter + p) % bases.length],
            "mangacircus bench " + chapterId(c) + "/" + pageName(p));
        pages[c][p] = page;
        totalBytes += page.length();
        try (OutputStream out = Files.newOutputStream(chapterDir.resolve(pageName(p)))) {
          page.writeTo(out);
        }
      }
    }

    System.setProperty("sun.net.httpserver.nodelay", "true"); // no Nagle/delayed-ACK stalls on small HTML replies
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 64);
    String baseUrl = "http://127.0.0.1:" + server.getAddress().getPort();
    ExecutorService pool = Executors.newFixedThreadPool(8);
    server.setExecutor(pool);
    server.createContext("/", exchange -> {
      try {
        serve(exchange, pages, chapters, pagesPerChapter);
      } catch (RuntimeException e) {
        send(exchange, 500, "text/plain", String.valueOf(e).getBytes(StandardCharsets.UTF_8));
      } finally {
        exchange.close();
      }
    });

    List<String> urls = new ArrayList<>(chapters * pagesPerChapter);
    for (int c = 0; c < chapters; c++) {
      for (int p = 0; p < pagesPerChapter; p++) {
        urls.add(baseUrl + imagePath(c, p));
      }
    }
    Files.write(imageDir.resolve("urls.txt"), urls);
    server.start();

    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      server.stop(0);
      pool.shutdownNow();
    }));
    System.err.printf(Locale.ROOT, "bench site: %d pages, %.1f MB (avg %d KB), %d base images rendered in %.1f s,"
            + " ready after %.1f s%n", chapters * pagesPerChapter, totalBytes / 1e6,
        totalBytes / (1000L * chapters * pagesPerChapter), bases.length, (rendered - started) / 1e9,
        (System.nanoTime() - started) / 1e9);
    System.out.println("READY " + baseUrl);
    System.out.flush();
  }

  static String chapterId(int c) {
    return "c" + (c + 1);
  }

  static String pageName(int p) {
    return String.format(Locale.ROOT, "%03d.jpg", p + 1);
  }

  static String imagePath(int c, int p) {
    return "/img/" + TITLE_ID + "/" + chapterId(c) + "/" + pageName(p);
  }

  // ---- HTTP -------------------------------------------------------------------------------------------------------

  static void serve(HttpExchange exchange, Page[][] pages, int chapters, int pagesPerChapter) throws IOException {
    try (InputStream in = exchange.getRequestBody()) {
      in.transferTo(OutputStream.nullOutputStream()); // drain, so the connection can be kept alive
    }
    if (!"GET".equals(exchange.getRequestMethod()) && !"HEAD".equals(exchange.getRequestMethod())) {
      send(exchange, 405, "text/plain", "method not allowed\n".getBytes(StandardCharsets.UTF_8));
      return;
    }
    String[] parts = exchange.getRequestURI().getPath().split("/");
    // /series/bench                    -> ["", "series", "bench"]
    // /series/bench/chapter/c7         -> ["", "series", "bench", "chapter", "c7"]
    // /img/bench/c7/001.jpg            -> ["", "img", "bench", "c7", "001.jpg"]
    if (parts.length == 3 && parts[1].equals("series") && parts[2].equals(TITLE_ID)) {
      StringBuilder html = new StringBuilder("<!doctype html><html><head><title>Bench Series</title></head><body>\n"
          + "<h1 class=\"series-title\">Bench Series</h1>\n<ul class=\"chapters\">\n");
      for (int c = 0; c < chapters; c++) {
        html.append("<li class=\"chapter\" data-id=\"").append(chapterId(c)).append("\" data-number=\"").append(c + 1)
            .append("\" data-lang=\"en\"><a href=\"/series/").append(TITLE_ID).append("/chapter/")
            .append(chapterId(c)).append("\">Chapter ").append(c + 1).append("</a></li>\n");
      }
      html.append("</ul>\n</body></html>\n");
      send(exchange, 200, "text/html; charset=utf-8", html.toString().getBytes(StandardCharsets.UTF_8));
      return;
    }
    if (parts.length == 5 && parts[1].equals("series") && parts[2].equals(TITLE_ID) && parts[3].equals("chapter")) {
      int c = chapterIndex(parts[4], chapters);
      if (c >= 0) {
        StringBuilder html = new StringBuilder("<!doctype html><html><head><title>Chapter ").append(c + 1)
            .append("</title></head><body>\n<div class=\"pages\">\n");
        for (int p = 0; p < pagesPerChapter; p++) {
          html.append("<img class=\"page\" src=\"").append(imagePath(c, p)).append("\">\n");
        }
        html.append("</div>\n</body></html>\n");
        send(exchange, 200, "text/html; charset=utf-8", html.toString().getBytes(StandardCharsets.UTF_8));
        return;
      }
    }
    if (parts.length == 5 && parts[1].equals("img") && parts[2].equals(TITLE_ID)) {
      int c = chapterIndex(parts[3], chapters);
      int p = pageIndex(parts[4], pagesPerChapter);
      if (c >= 0 && p >= 0) {
        Page page = pages[c][p];
        exchange.getResponseHeaders().set("Content-Type", "image/jpeg");
        boolean head = "HEAD".equals(exchange.getRequestMethod());
        exchange.sendResponseHeaders(200, head ? -1 : page.length());
        if (!head) {
          try (OutputStream out = exchange.getResponseBody()) {
            page.writeTo(out);
          }
        }
        return;
      }
    }
    send(exchange, 404, "text/plain", "not found\n".getBytes(StandardCharsets.UTF_8));
  }

  static int chapterIndex(String id, int chapters) {
    if (!id.matches("c[0-9]{1,6}")) {
      return -1;
    }
    int c = Integer.parseInt(id.substring(1)) - 1;
    return c >= 0 && c < chapters ? c : -1;
  }

  static int pageIndex(String name, int pagesPerChapter) {
    if (!name.matches("[0-9]{3}\\.jpg")) {
      return -1;
    }
    int p = Integer.parseInt(name.substring(0, 3)) - 1;
    return p >= 0 && p < pagesPerChapter ? p : -1;
  }

  static void send(HttpExchange exchange, int status, String type, byte[] body) throws IOException {
    exchange.getResponseHeaders().set("Content-Type", type);
    boolean head = "HEAD".equals(exchange.getRequestMethod());
    exchange.sendResponseHeaders(status, head ? -1 : body.length); // exact Content-Length: keep-alive stays on
    if (!head) {
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    }
  }

  // ---- images -----------------------------------------------------------------------------------------------------

  /** Renders {@code count} different noisy page-like images in parallel and encodes them as JPEG. */
  static byte[][] renderBases(int count) throws Exception {
    ExecutorService workers = Executors.newFixedThreadPool(Math.max(1, Runtime.getRuntime().availableProcessors()));
    try {
      List<Future<byte[]>> jobs = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        int seed = i;
        jobs.add(workers.submit(() -> encode(render(seed))));
      }
      byte[][] out = new byte[count][];
      for (int i = 0; i < count; i++) {
        out[i] = jobs.get(i).get();
      }
      return out;
    } finally {
      workers.shutdown();
      workers.awaitTermination(1, TimeUnit.MINUTES);
    }
  }

  /** Gradients, a few panels and grain: roughly what a scanned page costs to encode and decode. */
  static BufferedImage render(int seed) {
    BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
    SplittableRandom random = new SplittableRandom(0x5EED_0000L + seed);
    int[] row = new int[WIDTH];
    int phase = seed * 37;
    for (int y = 0; y < HEIGHT; y++) {
      int panel = (y / 350 + seed) % 3;
      for (int x = 0; x < WIDTH; x++) {
        int base;
        if (x % 500 < 8 || y % 350 < 8) {
          base = 20; // panel borders
        } else if (panel == 0) {
          base = 128 + (int) (90 * Math.sin((x + phase) / 37.0) * Math.cos((y - phase) / 53.0));
        } else if (panel == 1) {
          base = 60 + (x * 3 + y * 2 + phase) / 40 % 160;
        } else {
          base = 235 - ((x / 50 + y / 50 + seed) % 2) * 110;
        }
        int grain = random.nextInt(-GRAIN, GRAIN + 1);
        int r = clamp(base + grain);
        int g = clamp(base + grain + random.nextInt(-2, 3));
        int b = clamp(base + grain + random.nextInt(-2, 3));
        row[x] = (r << 16) | (g << 8) | b;
      }
      image.setRGB(0, y, WIDTH, 1, row, 0, WIDTH);
    }
    return image;
  }

  static int clamp(int v) {
    return v < 0 ? 0 : Math.min(255, v);
  }

  static byte[] encode(BufferedImage image) throws IOException {
    ImageWriter writer = ImageIO.getImageWritersByFormatName("jpeg").next();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(256 * 1024);
    try (MemoryCacheImageOutputStream out = new MemoryCacheImageOutputStream(bytes)) {
      writer.setOutput(out);
      ImageWriteParam param = writer.getDefaultWriteParam();
      param.setCompressionMode(ImageWriteParam.MODE_EXPLICIT);
      param.setCompressionQuality(QUALITY);
      writer.write(null, new IIOImage(image, null, null), param);
    } finally {
      writer.dispose();
    }
    return bytes.toByteArray();
  }

  /**
   * A served page: {@code head} (SOI plus a COM segment naming the page) followed by {@code base} minus its SOI.
   * A valid JPEG with the base's pixels and bytes of its own.
   */
  record Page(byte[] head, byte[] base) {
    static Page of(byte[] base, String comment) {
      byte[] text = comment.getBytes(StandardCharsets.US_ASCII);
      int length = text.length + 2; // a segment length counts its own two bytes
      byte[] head = new byte[4 + length];
      head[0] = (byte) 0xFF;
      head[1] = (byte) 0xD8;
      head[2] = (byte) 0xFF;
      head[3] = (byte) 0xFE;
      head[4] = (byte) (length >> 8);
      head[5] = (byte) length;
      System.arraycopy(text, 0, head, 6, text.length);
      return new Page(head, base);
    }

    long length() {
      return head.length + base.length - 2L;
    }

    void writeTo(OutputStream out) throws IOException {
      out.write(head);
      out.write(base, 2, base.length - 2);
    }
  }
}
