package io.mangacircus.contracts;

import java.util.Arrays;

/** The supervision status of one service, as launchers report and persist it. */
public enum ServiceStatus {
  /** Being deployed. */
  STARTING("starting"),
  /** Deployed and answering. */
  UP("up"),
  /** Failed; waiting out its backoff before the next deploy. */
  RESTARTING("restarting"),
  /** Crash budget spent (or its state file is unreadable): left undeployed until an operator acts. */
  REPAIR_REQUIRED("repair-required"),
  /** Stopped on purpose (shutdown). */
  STOPPED("stopped");

  private final String wire;

  ServiceStatus(String wire) {
    this.wire = wire;
  }

  /** The lower-case name used in JSON, files and health data. */
  public String wire() {
    return wire;
  }

  /** The status for its wire name; an {@link InvalidMessageException} for anything else. */
  public static ServiceStatus ofWire(String wire) {
    return Arrays.stream(values()).filter(s -> s.wire.equals(wire)).findFirst()
        .orElseThrow(() -> new InvalidMessageException(ErrorCode.MALFORMED_MESSAGE, "unknown service status '" + wire + "'"));
  }
}
