package io.mangacircus.launcher.health;

import io.mangacircus.contracts.Addresses;
import io.mangacircus.contracts.PingReply;
import io.mangacircus.contracts.PingRequest;
import io.mangacircus.contracts.ServiceStatus;
import io.mangacircus.launcher.supervision.ServiceSupervisor;
import io.vertx.core.Context;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.healthchecks.HealthChecks;
import io.vertx.ext.healthchecks.Status;
import java.util.List;
import java.util.function.Supplier;

/**
 * Builds the {@code /health/live} and {@code /health/ready} procedures: one ping check per service
 * (hosted here or reached over the event bus) and a {@code supervisor} check that fails while anything is parked
 * or blocked.
 */
public final class ReadinessChecks {

  private ReadinessChecks() {
  }

  /** Liveness: the launcher's event loop answers. */
  public static HealthChecks liveness(Vertx vertx, Context launcher, String node) {
    long startedAt = System.currentTimeMillis();
    return HealthChecks.create(vertx).register("launcher", promise -> onLauncher(launcher, promise, () -> Status.OK(
        new JsonObject().put("node", node).put("uptimeSeconds", (System.currentTimeMillis() - startedAt) / 1000))));
  }

  /**
   * Readiness.
   *
   * @param checkedServices the services to ping, in order; a hosted one is pinged on this process only
   * @param hosted the services supervised by this process
   * @param timeoutMs how long each ping may take
   * @param launcher the launcher's context: the supervisors' state is read there
   */
  public static HealthChecks readiness(Vertx vertx, Context launcher, List<String> checkedServices,
      List<ServiceSupervisor> hosted, long timeoutMs) {
    HealthChecks checks = HealthChecks.create(vertx);
    for (String service : checkedServices) {
      boolean local = hosted.stream().anyMatch(s -> s.name().equals(service));
      checks.register(service, timeoutMs + 1000, promise -> ping(vertx, service, local, timeoutMs, promise));
    }
    checks.register("supervisor", timeoutMs, promise -> onLauncher(launcher, promise, () -> supervisor(hosted)));
    return checks;
  }

  /**
   * Completes {@code promise} with {@code check} run on the launcher's event loop. HTTP requests are served on several
   * event loops, but the supervisors' state is only changed on the launcher's, and liveness means that loop answers.
   * The result is handed back on the caller's context, where the health handler writes the response.
   */
  private static void onLauncher(Context launcher, Promise<Status> promise, Supplier<Status> check) {
    Context caller = Vertx.currentContext();
    launcher.runOnContext(v -> {
      Status status = check.get();
      if (caller == null || caller == launcher) {
        promise.complete(status);
      } else {
        caller.runOnContext(w -> promise.complete(status));
      }
    });
  }

  private static void ping(Vertx vertx, String service, boolean local, long timeoutMs, Promise<Status> promise) {
    DeliveryOptions options = new DeliveryOptions().setSendTimeout(timeoutMs).setLocalOnly(local);
    vertx.eventBus().request(Addresses.pingOf(service), new PingRequest("health").toJson(), options)
        .onSuccess(reply -> {
          PingReply ping = PingReply.fromJson(reply.body());
          promise.complete(Status.OK(new JsonObject().put("instance", ping.instance())
              .put("startedAt", ping.startedAtEpochMs())));
        })
        .onFailure(t -> {
          JsonObject data = new JsonObject().put("message", service + " did not answer within " + timeoutMs + " ms");
          if (t instanceof ReplyException reply) {
            data.put("reason", reply.failureType().name())
                .put("message", switch (reply.failureType()) {
                  case NO_HANDLERS -> service + " is unreachable (no handler on the event bus)";
                  case TIMEOUT -> service + " did not answer within " + timeoutMs + " ms";
                  default -> service + " refused the ping: " + reply.getMessage();
                });
          } else {
            data.put("reason", "ERROR").put("message", t.toString());
          }
          promise.complete(Status.KO(data));
        });
  }

  private static Status supervisor(List<ServiceSupervisor> hosted) {
    JsonObject services = new JsonObject();
    JsonObject parked = new JsonObject();
    JsonObject blocked = new JsonObject();
    List<String> starting = new java.util.ArrayList<>();
    for (ServiceSupervisor supervisor : hosted) {
      services.put(supervisor.name(), supervisor.state().toJson());
      // Not deployed yet (the scraper waits for the reader, then loads its queue): it may already answer pings from
      // the start of its deploy, but it is not ready before the deploy is done.
      if (supervisor.status() == ServiceStatus.STARTING || supervisor.status() == ServiceStatus.STOPPED) {
        starting.add(supervisor.name());
      } else if (supervisor.status() == ServiceStatus.REPAIR_REQUIRED) {
        parked.put(supervisor.name(), supervisor.parkedReason().orElse("repair-required"));
      } else if (supervisor.status() == ServiceStatus.BLOCKED) {
        blocked.put(supervisor.name(), supervisor.blockedReason().orElse("blocked"));
      }
    }
    JsonObject data = new JsonObject().put("services", services);
    if (parked.isEmpty() && blocked.isEmpty() && starting.isEmpty()) {
      return Status.OK(data);
    }
    List<String> reasons = new java.util.ArrayList<>();
    if (!starting.isEmpty()) {
      reasons.add("starting: " + String.join(", ", starting));
    }
    if (!blocked.isEmpty()) {
      // The whole sentence: it names the file, so the operator knows what to repair without another lookup.
      blocked.forEach(e -> reasons.add("blocked: " + e.getValue() + " (" + e.getKey() + ")"));
      data.put("blocked", blocked);
    }
    if (!parked.isEmpty()) {
      reasons.add("repair-required: " + String.join(", ", parked.fieldNames()));
      data.put("parked", parked);
    }
    return Status.KO(data.put("reason", String.join("; ", reasons)));
  }
}
