package io.mangacircus.launcher;

import java.util.Optional;

/**
 * Switches Netty's own flight-recorder events (its buffer allocator's chunk and buffer events) off at start-up unless
 * the operator set {@code -Dio.netty.jfr.enabled} or the process was started with a flight recording
 * ({@code -XX:StartFlightRecording}). With them on, Netty's first buffer allocation, during the reader's start, sets up
 * the JDK's event metadata and generates a handler class per event type: ≈ 0.3 s of CPU on a start that is CPU-bound
 * (docs/operations.md#start-up-time). Netty reads the property once, when it first loads.
 */
final class NettyFlightEvents {

  /** Netty's switch for its flight-recorder events (Netty's default: on wherever the JDK has a flight recorder). */
  static final String PROPERTY = "io.netty.jfr.enabled";

  private NettyFlightEvents() {
  }

  /**
   * The value to give {@link #PROPERTY}, or empty to leave it as it is.
   *
   * @param given the property's value as the operator set it, or null
   * @param recordingAtStart whether a flight recording was started with the JVM
   */
  static Optional<String> value(String given, boolean recordingAtStart) {
    return given != null || recordingAtStart ? Optional.empty() : Optional.of("false");
  }

  /** Applies {@link #value} to this JVM; call it before anything loads Netty (and before logging is set up). */
  static void applyToThisProcess() {
    value(System.getProperty(PROPERTY), recordingAtStart()).ifPresent(v -> System.setProperty(PROPERTY, v));
  }

  private static boolean recordingAtStart() {
    try {
      return jdk.jfr.FlightRecorder.isInitialized();
    } catch (LinkageError e) {
      return false;   // a runtime without the jdk.jfr module: Netty finds no flight recorder either
    }
  }
}
