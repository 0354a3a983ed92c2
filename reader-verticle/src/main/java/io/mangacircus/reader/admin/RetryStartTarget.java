package io.mangacircus.reader.admin;

import io.mangacircus.contracts.ServiceStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Which launcher a retry start goes to, from the launchers' last published states: the one the caller names, else the
 * one launcher (not silent) whose service is blocked. It sends nothing itself.
 */
public final class RetryStartTarget {

  /** A launcher as last heard on the status address: its node, when, and each service's status by its wire name. */
  public record Launcher(String node, Instant heardAt, Map<String, String> statusOfService) {
  }

  /** Where a retry start goes, or why it goes nowhere. */
  public sealed interface Choice permits ToNode, ToAnyLauncher, UnknownNode, Ambiguous {
  }

  /** To that launcher's own address. */
  public record ToNode(String node) implements Choice {
  }

  /**
   * To the service's shared address: no launcher heard from has it blocked, so whichever launcher gets the request
   * answers (it refuses unless its service is blocked).
   */
  public record ToAnyLauncher() implements Choice {
  }

  /** Nowhere: the named launcher was never heard from, or does not host the service; the message says which. */
  public record UnknownNode(String node, String message) implements Choice {
  }

  /** Nowhere: several launchers have the service blocked (sorted); the caller names one. */
  public record Ambiguous(List<String> nodes) implements Choice {
    public Ambiguous {
      nodes = List.copyOf(nodes);
    }
  }

  private final Duration silentAfter;

  /** @param silentAfter a launcher not heard from for longer is silent (its process may be gone) and never picked */
  public RetryStartTarget(Duration silentAfter) {
    this.silentAfter = silentAfter;
  }

  /**
   * @param node the launcher the caller names ({@code <mode>@<host>:<pid>}), or null to pick the blocked one; a named
   *     launcher is taken even when silent, as the caller asked for it (an unreachable one then fails to answer)
   */
  public Choice choose(String service, String node, Collection<Launcher> launchers, Instant now) {
    if (node != null) {
      Launcher named = launchers.stream().filter(l -> l.node().equals(node)).findFirst().orElse(null);
      if (named == null) {
        return new UnknownNode(node, "no launcher '" + node + "' has been heard from (see GET /api/admin/status)");
      }
      if (!named.statusOfService().containsKey(service)) {
        return new UnknownNode(node, "the launcher '" + node + "' does not host the " + service);
      }
      return new ToNode(node);
    }
    List<String> blocked = launchers.stream()
        .filter(l -> !l.heardAt().plus(silentAfter).isBefore(now))
        .filter(l -> ServiceStatus.BLOCKED.wire().equals(l.statusOfService().get(service)))
        .map(Launcher::node).sorted().toList();
    if (blocked.isEmpty()) {
      return new ToAnyLauncher();
    }
    return blocked.size() == 1 ? new ToNode(blocked.get(0)) : new Ambiguous(blocked);
  }
}
