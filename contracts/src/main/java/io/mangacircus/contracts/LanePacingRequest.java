package io.mangacircus.contracts;

/**
 * New pacing for a lane; a null delay returns to the configured default.
 *
 * @param source the source's name
 * @param pageDelayMs delay between page fetches, ms (0..600000), or null
 * @param chapterDelayMs delay between chapters, ms (0..3600000), or null
 */
public record LanePacingRequest(String source, Long pageDelayMs, Long chapterDelayMs) implements Message {

  public static final int VERSION = 1;

  public LanePacingRequest {
    MessageFields.operatorText(LanePacingRequest.class, "source", source);
    delay("pageDelayMs", pageDelayMs, 600_000);
    delay("chapterDelayMs", chapterDelayMs, 3_600_000);
  }

  private static void delay(String field, Long value, long max) {
    if (value != null && (value < 0 || value > max)) {
      throw MessageFields.refused(LanePacingRequest.class, field, "must be a whole number of ms between 0 and " + max);
    }
  }

  public static LanePacingRequest fromJson(Object body) {
    return MessageJson.read(body, LanePacingRequest.class, VERSION);
  }
}
