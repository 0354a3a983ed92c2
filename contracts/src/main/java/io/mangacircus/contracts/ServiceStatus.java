package io.mangacircus.contracts;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;

/** The supervision status of one service, as launchers report and persist it. */
public enum ServiceStatus {
  /** Being deployed. */
  STARTING("starting"),
  /** Deployed and answering. */
  UP("up"),
  /** Failed; waiting out its backoff before the next deploy. */
  RESTARTING("restarting"),
  /** Crash budget spent: left undeployed until an operator acts. */
  REPAIR_REQUIRED("repair-required"),
  /**
   * A state file it needs does not parse: stopped once, without retries and without spending crash budget, the file
   * left untouched; a restart of the process or an operator's retry start deploys it again.
   */
  BLOCKED("blocked"),
  /** Stopped on purpose (shutdown). */
  STOPPED("stopped");

  private final String wire;

  ServiceStatus(String wire) {
    this.wire = wire;
  }

  /** The lower-case name used in JSON, files and health data. */
  @JsonValue
  public String wire() {
    return wire;
  }

  /** The status for its wire name; an {@link InvalidMessageException} for anything else. */
  @JsonCreator
  public static ServiceStatus ofWire(String wire) {
    return Arrays.stream(values()).filter(s -> s.wire.equals(wire)).findFirst()
        .orElseThrow(() -> new InvalidMessageException(ErrorCode.MALFORMED_MESSAGE, "unknown service status '" + wire + "'"));
  }
}
