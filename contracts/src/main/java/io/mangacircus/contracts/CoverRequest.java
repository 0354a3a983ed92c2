package io.mangacircus.contracts;

import io.vertx.core.json.JsonObject;
import java.util.regex.Pattern;

/**
 * Asks for a cover's bytes ({@code mc.scraper.covers.fetch}) by the opaque id a search or preview reply handed out;
 * never by URL.
 *
 * @param source the source's name
 * @param coverId the cover's opaque id
 */
public record CoverRequest(String source, String coverId) {

  public static final int VERSION = 1;

  private static final Pattern ID = Pattern.compile("[A-Za-z0-9_-]{1,100}");

  public JsonObject toJson() {
    return new JsonObject().put("v", VERSION).put("source", source).put("coverId", coverId);
  }

  public static CoverRequest fromJson(Object body) {
    String type = "CoverRequest";
    JsonObject json = MessageFields.object(body, type);
    MessageFields.requireVersion(json, type, VERSION);
    String coverId = MessageFields.string(json, type, "coverId");
    if (!ID.matcher(coverId).matches()) {
      throw new InvalidMessageException(ErrorCode.MALFORMED_MESSAGE,
          type + ": field 'coverId' must be an id a search or preview handed out (letters, digits, '-', '_')");
    }
    return new CoverRequest(MessageFields.operatorString(json, type, "source"), coverId);
  }
}
