// The floor for bench/pages.sh's reader row: a bare Vert.x HTTP server from the same fat jar (the same Vert.x, Netty,
// native transport and JVM options) that serves the bench library's files by path, as nginx does. It has no router,
// session, manifest, security headers or metrics. Each request's file is opened, sent with sendFile under TCP_CORK
// (the reader's own SendCork) and closed; one server per core, as the reader runs them. This is what the reader's
// stack costs before anything of the reader's own; PAGES_FLOOR=1 bench/pages.sh compares it with nginx and the reader.
// Usage: java -cp mangacircus.jar bench/BarePages.java ROOT PORT   (prints "READY <transport>" once it listens)
import io.mangacircus.reader.http.SendCork;
import io.vertx.core.AbstractVerticle;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.transport.Transport;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

public final class BarePages {

  private static final CharSequence JPEG = HttpHeaders.createOptimized("image/jpeg");

  public static void main(String[] args) throws IOException {
    Path root = Path.of(args[0]).toRealPath();
    int port = Integer.parseInt(args[1]);
    Transport transport = Transport.nativeTransport() == null ? Transport.NIO : Transport.nativeTransport();
    Vertx vertx = Vertx.builder().withTransport(transport).build();
    // As the reader's server: plain HTTP/1.1, no ALPN, no h2c upgrade, no WebSocket compression handler.
    HttpServerOptions options = new HttpServerOptions().setHost("127.0.0.1").setPort(port)
        .setHttp2ClearTextEnabled(false).setUseAlpn(false)
        .setPerFrameWebSocketCompressionSupported(false).setPerMessageWebSocketCompressionSupported(false);
    int servers = Runtime.getRuntime().availableProcessors();
    vertx.deployVerticle(() -> new AbstractVerticle() {
      @Override
      public void start(io.vertx.core.Promise<Void> started) {
        vertx.createHttpServer(options).requestHandler(request -> serve(root, request)).listen()
            .<Void>mapEmpty().onComplete(started);
      }
    }, new DeploymentOptions().setInstances(servers)).onComplete(ar -> {
      if (ar.failed()) {
        System.err.println("BarePages: " + ar.cause());
        System.exit(1);
      }
      System.out.println("READY " + (vertx.isNativeTransportEnabled() ? transport.name() : "nio"));
    });
  }

  private static void serve(Path root, HttpServerRequest request) {
    Path file = root.resolve(request.path().substring(1)).normalize();
    FileChannel channel;
    try {
      if (!file.startsWith(root)) {
        throw new IOException("outside the root");
      }
      channel = FileChannel.open(file, StandardOpenOption.READ);
    } catch (IOException | RuntimeException e) {
      request.response().setStatusCode(404).end();
      return;
    }
    request.response().putHeader(HttpHeaders.CONTENT_TYPE, JPEG);
    SendCork cork = SendCork.hold(request.connection());
    Future<Void> sent = request.response().sendFile(channel, 0, Long.MAX_VALUE);
    sent.onComplete(ar -> {
      cork.release();
      try {
        channel.close();
      } catch (IOException e) {
        // read-only
      }
    });
  }
}
