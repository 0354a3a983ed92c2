package io.mangacircus.contracts;

/**
 * Every event-bus address of MangaCircus, declared once. Names are {@code mc.<owner>.<noun>.<verb>}.
 * {@code docs/event-bus.md} lists the same addresses with their message shapes.
 */
public final class Addresses {

  /**
   * Request/reply. Liveness ping of the reader service. Body {@link PingRequest}, reply {@link PingReply}.
   * Callers use a short timeout (supervision default 2000 ms).
   */
  public static final String READER_PING = "mc.reader.ping";

  /**
   * Request/reply. Liveness ping of the scraper service. Body {@link PingRequest}, reply {@link PingReply}.
   * The reader's readiness check uses it to tell whether the scraper is reachable (default timeout 2000 ms).
   */
  public static final String SCRAPER_PING = "mc.scraper.ping";

  /**
   * Publish. A launcher's supervision state, sent whenever one of its services changes status.
   * Body {@link LauncherStatus}.
   */
  public static final String LAUNCHER_STATUS = "mc.launcher.status";

  private Addresses() {
  }

  /** The ping address of a service by its name ({@code reader} or {@code scraper}). */
  public static String pingOf(String service) {
    return "mc." + service + ".ping";
  }
}
