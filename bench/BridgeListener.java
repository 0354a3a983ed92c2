// A console stand-in for bench/scale-load.sh (R6): opens the reader's event-bus bridge over its raw WebSocket endpoint
// (/eventbus/websocket, as the console's SockJS client does when WebSocket is available) with an admin session cookie,
// registers for every address the bridge lets out (what the scraper console and the health page listen to), pings
// every 5 s as vertx-eventbus.js does, and reports what arrives. JDK only; loopback only.
// Usage: java bench/BridgeListener.java BASE_URL COOKIE      (COOKIE: "mc_session=...")
// Prints, one line each, flushed: "OPEN" once registered; "MSG <address>" per delivered event; "ERR <body>" per error
// frame (a refused frame, a session the bridge no longer accepts); "CLOSED <code> <reason>" or "FAILED <error>" if the
// socket ends (then exits 3). Stops on SIGTERM / SIGINT (exit 0 while the socket is still open).

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

public final class BridgeListener {

  /** The addresses the bridge lets out (reader-verticle ConsoleBridge.OUTBOUND). */
  static final List<String> ADDRESSES = List.of("mc.scraper.job.progress", "mc.scraper.circuit.state",
      "mc.scraper.incident.recorded", "mc.launcher.status", "mc.library.published");
  static final Pattern TYPE = Pattern.compile("^\\{\\s*\"type\"\\s*:\\s*\"([a-z]+)\"");
  static final Pattern ADDRESS = Pattern.compile("\"address\"\\s*:\\s*\"([^\"]*)\"");

  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println("usage: java bench/BridgeListener.java BASE_URL COOKIE");
      System.exit(2);
    }
    URI uri = URI.create(args[0].replaceFirst("^http", "ws") + "/eventbus/websocket");
    CountDownLatch ended = new CountDownLatch(1);
    WebSocket socket = HttpClient.newHttpClient().newWebSocketBuilder()
        .header("Cookie", args[1])
        .connectTimeout(Duration.ofSeconds(10))
        .buildAsync(uri, new Listener(ended))
        .get(20, TimeUnit.SECONDS);
    for (String address : ADDRESSES) {
      socket.sendText("{\"type\":\"register\",\"address\":\"" + address + "\",\"headers\":{}}", true).join();
    }
    say("OPEN");
    ScheduledExecutorService pinger = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "bridge-ping");
      t.setDaemon(true);
      return t;
    });
    pinger.scheduleAtFixedRate(() -> socket.sendText("{\"type\":\"ping\"}", true), 5, 5, TimeUnit.SECONDS);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      stopping = true;
      socket.sendClose(WebSocket.NORMAL_CLOSURE, "bye");
    }));
    ended.await();
    System.exit(3);
  }

  /** Set once this process is told to stop: its own close is not reported. */
  static volatile boolean stopping;

  static synchronized void say(String line) {
    System.out.println(line);
    System.out.flush();
  }

  /** Collects text frames (which may come in parts) and reports each whole one. */
  static final class Listener implements WebSocket.Listener {
    private final CountDownLatch ended;
    private final StringBuilder partial = new StringBuilder();
    private final java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();

    Listener(CountDownLatch ended) {
      this.ended = ended;
    }

    @Override
    public CompletionStage<?> onText(WebSocket socket, CharSequence data, boolean last) {
      partial.append(data);
      if (last) {
        String frame = partial.toString();
        partial.setLength(0);
        Matcher type = TYPE.matcher(frame);
        String kind = type.find() ? type.group(1) : "?";
        if (kind.equals("rec")) {
          Matcher address = ADDRESS.matcher(frame);
          say("MSG " + (address.find() ? address.group(1) : "?"));
        } else if (kind.equals("err")) {
          say("ERR " + frame);
        } else if (!kind.equals("pong")) {
          say("OTHER " + frame);
        }
      }
      socket.request(1);
      return null;
    }

    /** The bridge's raw WebSocket sends its frames as binary messages: the same JSON, UTF-8. */
    @Override
    public CompletionStage<?> onBinary(WebSocket socket, ByteBuffer data, boolean last) {
      byte[] part = new byte[data.remaining()];
      data.get(part);
      bytes.writeBytes(part); // whole before decoding: a part may end inside a UTF-8 character
      if (!last) {
        socket.request(1);
        return null;
      }
      String frame = bytes.toString(StandardCharsets.UTF_8);
      bytes.reset();
      return onText(socket, frame, true);
    }

    @Override
    public CompletionStage<?> onClose(WebSocket socket, int statusCode, String reason) {
      if (!stopping) {
        say("CLOSED " + statusCode + " " + reason);
      }
      ended.countDown();
      return CompletableFuture.completedFuture(null);
    }

    @Override
    public void onError(WebSocket socket, Throwable error) {
      say("FAILED " + error);
      ended.countDown();
    }
  }
}
