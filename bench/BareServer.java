// The floor for "the reader answers N s after launch" on this machine: a bare Vert.x Web server from the same fat jar
// (the same Vert.x, Netty and JVM), one route answering GET /login.html with a few bytes, nothing else (no config, no
// logging set-up, no database, no metrics). bench/lib.sh's bare_server_ms compiles it first, so that javac's time is
// not counted, then times `java` to the first 200.
// Usage: java -cp mangacircus.jar:CLASSES BareServer PORT
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;

public final class BareServer {

  public static void main(String[] args) {
    Vertx vertx = Vertx.vertx();
    Router router = Router.router(vertx);
    router.get("/login.html").handler(rc -> rc.response().putHeader("content-type", "text/html").end("<p>login</p>"));
    vertx.createHttpServer().requestHandler(router).listen(Integer.parseInt(args[0]), "127.0.0.1")
        .onFailure(t -> {
          System.err.println("BareServer: " + t);
          System.exit(1);
        });
  }
}
