package io.mangacircus.contracts;

/**
 * Asks for one title's details and chapters before adding it ({@code mc.scraper.titles.preview}).
 *
 * @param source the source's name
 * @param titleId the source's title id (as a search result names it)
 */
public record PreviewRequest(String source, String titleId) implements Message {

  public static final int VERSION = 1;

  public PreviewRequest {
    MessageFields.atMost(PreviewRequest.class, "titleId",
        MessageFields.operatorText(PreviewRequest.class, "titleId", titleId), 500);
    MessageFields.operatorText(PreviewRequest.class, "source", source);
  }

  public static PreviewRequest fromJson(Object body) {
    return MessageJson.read(body, PreviewRequest.class, VERSION);
  }
}
