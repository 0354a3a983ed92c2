// The durable floor for bench/pipeline.sh: the fastest downloader that keeps MangaCircus's promise (a kill at any
// instant loses at most the page in flight), JDK only. Sequential keep-alive GETs (java.net.http.HttpClient, HTTP/1.1,
// one connection) of every URL in URLS_FILE; per page, nothing but: write OUT_DIR/.NNNNN.jpg.part, fsync it, rename it
// to NNNNN.jpg, fsync OUT_DIR (the rename survives a power cut, as MangaCircus's staging does), append one checkpoint line {"index":N,"file":…,"size":…,"sha256":…} (hex SHA-256 of the body, as
// MangaCircus's Fingerprints.sha256) to OUT_DIR/checkpoint.log, which stays open, and fdatasync the log.
// With --decode it also decodes every page as MangaCircus's "decode" validation does (ImageIO, every 4th pixel) and
// reports that decode's CPU alone (thread CPU time around the decode), i.e. what full validation costs per page.
// With --no-dir-fsync it skips the folder fsync: the floor of a promise that holds across a kill but not a power cut
// (MangaCircus before its staging folder was fsynced per page), for before/after comparisons.
// Usage: java bench/DurableFloor.java URLS_FILE OUT_DIR [--decode] [--no-dir-fsync]
// Prints one line when done (times from its own first request, so the source launcher's compile time is not in it):
//   FLOOR pages=N bytes=B wall_ns=W cpu_ns=C decode_cpu_ns=D jit_cpu_ns=J
// cpu_ns: the whole process's CPU (user + system, every thread: JIT and GC included) over the download.
// jit_cpu_ns: the part of it spent by the JIT compiler threads (warm-up of a young JVM, not a per-page cost).

import com.sun.management.OperatingSystemMXBean;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;
import javax.imageio.ImageReadParam;
import javax.imageio.ImageReader;
import javax.imageio.stream.ImageInputStream;
import javax.imageio.stream.MemoryCacheImageInputStream;

public final class DurableFloor {

  public static void main(String[] args) throws Exception {
    List<String> flags = List.of(args).subList(Math.min(2, args.length), args.length);
    if (args.length < 2 || !List.of("--decode", "--no-dir-fsync").containsAll(flags)) {
      System.err.println("usage: java bench/DurableFloor.java URLS_FILE OUT_DIR [--decode] [--no-dir-fsync]");
      System.exit(2);
    }
    List<String> urls = Files.readAllLines(Path.of(args[0])).stream().filter(s -> !s.isBlank()).toList();
    Path out = Files.createDirectories(Path.of(args[1]));
    boolean decode = flags.contains("--decode");
    boolean dirFsync = !flags.contains("--no-dir-fsync");
    ImageIO.setUseCache(false);   // as PageValidator: no temporary file per decode
    OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(10)).build();
    long decodeCpu = 0;
    long bytes = 0;
    long cpu0 = os.getProcessCpuTime();
    long jit0 = compilerCpuNs();
    long start = System.nanoTime();
    try (FileChannel log = FileChannel.open(out.resolve("checkpoint.log"), StandardOpenOption.CREATE,
        StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
      for (int i = 0; i < urls.size(); i++) {
        int index = i + 1;
        HttpResponse<byte[]> response = client.send(HttpRequest.newBuilder(URI.create(urls.get(i)))
            .timeout(Duration.ofSeconds(30)).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
        if (response.statusCode() != 200) {
          throw new IOException(urls.get(i) + " answered " + response.statusCode());
        }
        byte[] body = response.body();
        if (decode) {
          long t = threads.getCurrentThreadCpuTime();
          decodeOrFail(body, urls.get(i));
          decodeCpu += threads.getCurrentThreadCpuTime() - t;
        }
        String name = String.format(Locale.ROOT, "%05d.jpg", index);
        Path part = out.resolve("." + name + ".part");
        try (FileChannel channel = FileChannel.open(part, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING)) {
          ByteBuffer buffer = ByteBuffer.wrap(body);
          while (buffer.hasRemaining()) {
            channel.write(buffer);
          }
          channel.force(true);
        }
        Files.move(part, out.resolve(name), StandardCopyOption.ATOMIC_MOVE);
        if (dirFsync) {
          try (FileChannel folder = FileChannel.open(out, StandardOpenOption.READ)) {
            folder.force(true);
          }
        }
        String line = "{\"index\":" + index + ",\"file\":\"" + name + "\",\"size\":" + body.length + ",\"sha256\":\""
            + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body)) + "\"}\n";
        ByteBuffer entry = ByteBuffer.wrap(line.getBytes(StandardCharsets.UTF_8));
        while (entry.hasRemaining()) {
          log.write(entry);
        }
        log.force(false);
        bytes += body.length;
      }
    }
    long wall = System.nanoTime() - start;
    long cpu = os.getProcessCpuTime() - cpu0;
    long jit = compilerCpuNs() - jit0;
    System.out.println("FLOOR pages=" + urls.size() + " bytes=" + bytes + " wall_ns=" + wall + " cpu_ns=" + cpu
        + " decode_cpu_ns=" + decodeCpu + " jit_cpu_ns=" + jit);
  }

  /** CPU of this JVM's JIT compiler threads (C1/C2) so far, from /proc/self/task (Linux): warm-up, not per page. */
  private static long compilerCpuNs() throws IOException {
    long ticks = 0;
    try (var tasks = Files.list(Path.of("/proc/self/task"))) {
      for (Path task : (Iterable<Path>) tasks::iterator) {
        try {
          if (Files.readString(task.resolve("comm")).startsWith("C")
              && Files.readString(task.resolve("comm")).contains("CompilerThre")) {
            String stat = Files.readString(task.resolve("stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            ticks += Long.parseLong(fields[11]) + Long.parseLong(fields[12]);   // utime, stime
          }
        } catch (IOException gone) {
          // a compiler thread that ended meanwhile
        }
      }
    }
    return ticks * 10_000_000L;   // USER_HZ is 100 on Linux
  }

  /** The decode PageValidator does for "decode" validation: the first reader, every 4th pixel in each direction. */
  private static void decodeOrFail(byte[] body, String url) throws IOException {
    try (ImageInputStream in = new MemoryCacheImageInputStream(new ByteArrayInputStream(body))) {
      Iterator<ImageReader> readers = ImageIO.getImageReaders(in);
      if (!readers.hasNext()) {
        throw new IOException(url + ": no image reader");
      }
      ImageReader reader = readers.next();
      try {
        reader.setInput(in, true, true);
        ImageReadParam param = reader.getDefaultReadParam();
        param.setSourceSubsampling(4, 4, 0, 0);
        BufferedImage image = reader.read(0, param);
        if (image == null || reader.getWidth(0) < 1 || reader.getHeight(0) < 1) {
          throw new IOException(url + ": does not decode");
        }
      } finally {
        reader.dispose();
      }
    }
  }
}
