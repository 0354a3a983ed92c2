// Request/reply ping reader -> scraper on the event bus for bench/scale-bus.sh (P6): this JVM runs the product's
// launcher exactly as `mangacircus.jar` builds it (VertxFactory, LaunchPlan.standard, LauncherVerticle) and then sends
// PingRequests to Addresses.SCRAPER_PING, one at a time, from one event-loop context (as the reader's routes do),
// timing each from send to reply.
// Usage: java -cp launcher/target/mangacircus.jar bench/BusPing.java MODE CONF DATA PORT REQUESTS WARMUPS
//   MODE local:   `all` mode in this JVM: the reader and the scraper on the local event bus (what one JVM does)
//   MODE cluster: `reader --cluster` in this JVM, joined by Hazelcast to a `scraper --cluster` process started by the
//                 caller with a config listing both members (the daemon pair on loopback)
//   CONF: the --conf file (cluster name, port and members for the pair); DATA: a fresh data folder for this JVM;
//   PORT: the reader's HTTP port. WARMUPS: one or more increasing counts, comma-separated ("5000,50000"): for each,
//   REQUESTS measured pings once that many pings were sent before them (the JIT compiles the path meanwhile, in both
//   JVMs), so one run shows the same pair early and settled.
// Prints per window "PING mode=<m> after=<pings sent before> requests=<n> p50_us=<..> p90_us=<..> p99_us=<..>
// p999_us=<..> max_us=<..> mean_us=<..> rate=<per s> cpu_ms=<this JVM's CPU over the measured requests>", then
// exits 0; any failed or timed-out ping exits 1.

import io.mangacircus.contracts.Addresses;
import io.mangacircus.contracts.PingRequest;
import io.mangacircus.launcher.LaunchPlan;
import io.mangacircus.launcher.LauncherVerticle;
import io.mangacircus.launcher.Mode;
import io.mangacircus.launcher.VertxFactory;
import io.mangacircus.launcher.config.ConfigLoader;
import io.mangacircus.launcher.config.MangaCircusConfig;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonObject;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

public final class BusPing {

  public static void main(String[] args) throws Exception {
    if (args.length != 6 || !(args[0].equals("local") || args[0].equals("cluster"))) {
      System.err.println(
          "usage: java -cp mangacircus.jar bench/BusPing.java local|cluster CONF DATA PORT REQUESTS WARMUPS");
      System.exit(2);
    }
    boolean clustered = args[0].equals("cluster");
    int requests = Integer.parseInt(args[4]);
    int[] warmups = Arrays.stream(args[5].split(",")).mapToInt(Integer::parseInt).toArray();
    MangaCircusConfig config = new ConfigLoader().load(Optional.of(Path.of(args[1])), Map.of(),
        new ConfigLoader.CommandLineOverrides(args[2], Integer.parseInt(args[3]), null, null, null));
    Mode mode = clustered ? Mode.READER : Mode.ALL;

    VertxFactory.ProcessVertx process = VertxFactory.create(config, clustered).toCompletionStage()
        .toCompletableFuture().get(120, TimeUnit.SECONDS);
    Vertx vertx = process.vertx();
    int code = 1;
    try {
      vertx.deployVerticle(new LauncherVerticle(LaunchPlan.standard(config, mode, process.metricsRegistryName())))
          .toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
      Context context = vertx.getOrCreateContext();
      awaitScraper(vertx, context);
      long sent = 0;
      for (int warmup : warmups) {
        run(vertx, context, (int) Math.max(0, warmup - sent)); // unmeasured
        sent = Math.max(sent, warmup);
        Map<String, Long> threads0 = threadCpuByGroup();
        long cpu0 = processCpuNs();
        long start = System.nanoTime();
        long[] latencies = run(vertx, context, requests);
        long wall = System.nanoTime() - start;
        long cpu = processCpuNs() - cpu0;
        Map<String, Long> threads1 = threadCpuByGroup();
        StringBuilder split = new StringBuilder();
        long listed = threads1.entrySet().stream()
            .mapToLong(e -> e.getValue() - threads0.getOrDefault(e.getKey(), 0L)).sum();
        threads1.entrySet().stream()
            .map(e -> Map.entry(e.getKey(), e.getValue() - threads0.getOrDefault(e.getKey(), 0L)))
            .filter(e -> e.getValue() >= 20_000_000L)
            .sorted((a, b) -> Long.compare(b.getValue(), a.getValue()))
            .forEach(e -> split.append(' ').append(e.getKey()).append('=').append(e.getValue() / 1_000_000)
                .append("ms"));
        System.out.println("THREADS after=" + sent + split + " JIT/GC/other=" + Math.max(0, cpu - listed) / 1_000_000
            + "ms");
        Arrays.sort(latencies);
        double mean = Arrays.stream(latencies).average().orElse(0);
        System.out.printf(Locale.ROOT, "PING mode=%s after=%d requests=%d p50_us=%.1f p90_us=%.1f p99_us=%.1f"
                + " p999_us=%.1f max_us=%.1f mean_us=%.1f rate=%.0f cpu_ms=%d%n", args[0], sent, requests,
            pct(latencies, 50), pct(latencies, 90), pct(latencies, 99), pct(latencies, 99.9),
            latencies[latencies.length - 1] / 1e3, mean / 1e3, requests / (wall / 1e9), cpu / 1_000_000);
        sent += requests;
      }
      code = 0;
    } catch (Exception e) {
      System.err.println("BusPing: " + e);
      e.printStackTrace();
    } finally {
      try {
        vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
      } catch (Exception e) {
        System.err.println("BusPing: Vert.x did not close cleanly: " + e);
      }
    }
    System.exit(code);
  }

  /** Pings until the scraper answers (a clustered scraper answers once both members joined): up to 60 s. */
  static void awaitScraper(Vertx vertx, Context context) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (true) {
      CompletableFuture<Void> done = new CompletableFuture<>();
      context.runOnContext(v -> vertx.eventBus().request(Addresses.SCRAPER_PING,
              new PingRequest("bench").toJson(), new DeliveryOptions().setSendTimeout(1000))
          .onComplete(ar -> {
            if (ar.succeeded()) {
              done.complete(null);
            } else {
              done.completeExceptionally(ar.cause());
            }
          }));
      try {
        done.get(5, TimeUnit.SECONDS);
        return;
      } catch (Exception e) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("the scraper did not answer a ping within 60 s: " + e);
        }
        Thread.sleep(200); // the cluster is still forming: poll again
      }
    }
  }

  /** {@code n} pings, the next sent when the previous is answered; returns each one's latency in ns. */
  static long[] run(Vertx vertx, Context context, int n) throws Exception {
    long[] latencies = new long[n];
    CompletableFuture<Void> done = new CompletableFuture<>();
    JsonObject body = new PingRequest("bench").toJson();
    DeliveryOptions options = new DeliveryOptions().setSendTimeout(5000);
    Runnable[] next = new Runnable[1];
    int[] i = {0};
    next[0] = () -> {
      long sent = System.nanoTime();
      vertx.eventBus().<JsonObject>request(Addresses.SCRAPER_PING, body, options).onComplete(ar -> {
        latencies[i[0]] = System.nanoTime() - sent;
        if (ar.failed()) {
          done.completeExceptionally(new IllegalStateException("ping " + (i[0] + 1) + " failed: " + ar.cause()));
        } else if (!"scraper".equals(ar.result().body().getString("service"))) {
          done.completeExceptionally(new IllegalStateException("unexpected reply " + ar.result().body()));
        } else if (++i[0] == n) {
          done.complete(null);
        } else {
          next[0].run();
        }
      });
    };
    if (n == 0) {
      return latencies;
    }
    context.runOnContext(v -> next[0].run());
    done.get(10L + n / 100, TimeUnit.SECONDS);
    return latencies;
  }

  static double pct(long[] sorted, double p) {
    int index = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, index))] / 1e3;
  }

  /** CPU time per thread group ("vert.x-eventloop-thread-2" -> "vert.x-eventloop-thread"), ns. */
  static Map<String, Long> threadCpuByGroup() {
    java.lang.management.ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    Map<String, Long> groups = new java.util.TreeMap<>();
    for (java.lang.management.ThreadInfo info : mx.getThreadInfo(mx.getAllThreadIds())) {
      if (info == null) {
        continue;
      }
      long ns = mx.getThreadCpuTime(info.getThreadId());
      if (ns > 0) {
        String group = info.getThreadName().replaceAll("^hz\\.[^.]+\\.", "hz.").replaceAll("[-#.]?[0-9]+$", "");
        groups.merge(group, ns, Long::sum);
      }
    }
    return groups;
  }

  static long processCpuNs() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }
}
