package io.mangacircus.launcher.testing;

import io.mangacircus.contracts.Addresses;
import io.mangacircus.contracts.PingReply;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import java.util.UUID;

/** Service stand-ins that fail the ways the supervisor must notice. */
public final class TestServices {

  private TestServices() {
  }

  /** Answers its ping like a real service, then throws from a timer after {@code delayMs}. */
  public static final class ThrowsFromTimer extends VerticleBase {
    private final String name;
    private final long delayMs;

    public ThrowsFromTimer(String name, long delayMs) {
      this.name = name;
      this.delayMs = delayMs;
    }

    @Override
    public Future<?> start() {
      String instance = UUID.randomUUID().toString();
      vertx.setTimer(delayMs, id -> {
        throw new IllegalStateException(name + " blew up in a timer");
      });
      return vertx.eventBus().consumer(Addresses.pingOf(name),
          m -> m.reply(new PingReply(name, instance, System.currentTimeMillis()).toJson())).completion();
    }
  }

  /** Registers its ping address but never answers: a hung service. */
  public static final class NeverAnswers extends VerticleBase {
    private final String name;

    public NeverAnswers(String name) {
      this.name = name;
    }

    @Override
    public Future<?> start() {
      return vertx.eventBus().consumer(Addresses.pingOf(name), m -> { }).completion();
    }
  }

  /** Fails its deployment. */
  public static final class FailsToDeploy extends VerticleBase {
    @Override
    public Future<?> start() {
      return Future.failedFuture(new IllegalStateException("cannot open its database"));
    }
  }
}
