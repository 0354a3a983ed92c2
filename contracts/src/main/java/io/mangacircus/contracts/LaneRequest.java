package io.mangacircus.contracts;

/**
 * Names one source lane, for pause and resume.
 *
 * @param source the source's name
 */
public record LaneRequest(String source) implements Message {

  public static final int VERSION = 1;

  public LaneRequest {
    MessageFields.operatorText(LaneRequest.class, "source", source);
  }

  public static LaneRequest fromJson(Object body) {
    return MessageJson.read(body, LaneRequest.class, VERSION);
  }
}
