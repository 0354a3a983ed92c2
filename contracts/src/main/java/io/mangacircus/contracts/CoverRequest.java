package io.mangacircus.contracts;

import java.util.regex.Pattern;

/**
 * Asks for a cover's bytes ({@code mc.scraper.covers.fetch}) by the opaque id a search or preview reply handed out;
 * never by URL.
 *
 * @param source the source's name
 * @param coverId the cover's opaque id
 */
public record CoverRequest(String source, String coverId) implements Message {

  public static final int VERSION = 1;

  private static final Pattern ID = Pattern.compile("[A-Za-z0-9_-]{1,100}");

  public CoverRequest {
    if (!ID.matcher(MessageFields.nonBlank(CoverRequest.class, "coverId", coverId)).matches()) {
      throw MessageFields.refused(CoverRequest.class, "coverId",
          "must be an id a search or preview handed out (letters, digits, '-', '_')");
    }
    MessageFields.operatorText(CoverRequest.class, "source", source);
  }

  public static CoverRequest fromJson(Object body) {
    return MessageJson.read(body, CoverRequest.class, VERSION);
  }
}
