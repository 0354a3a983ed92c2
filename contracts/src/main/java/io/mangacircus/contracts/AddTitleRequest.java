package io.mangacircus.contracts;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * Adds a title to the queue. {@code language}, {@code preferredGroups} and {@code follow} are optional in v1: a body
 * without them means English, no group preference, not followed.
 *
 * @param source the source's name
 * @param title the source's title id, or a title URL
 * @param autoConfirm true to download right after inspection; null uses the scraper's {@code autoConfirm} setting
 * @param language the language to download, lower case ({@code en} by default)
 * @param preferredGroups MangaDex scanlation group ids in order of preference (empty: first uploaded wins)
 * @param follow whether nightly discovery checks the title for new chapters
 */
public record AddTitleRequest(String source, String title, Boolean autoConfirm, String language,
    List<String> preferredGroups, boolean follow) {

  public static final int VERSION = 1;

  /** The most preferred groups a request may name. */
  public static final int MAX_GROUPS = 20;

  public AddTitleRequest {
    language = language == null ? LanguageCodes.DEFAULT : language;
    preferredGroups = preferredGroups == null ? List.of() : List.copyOf(preferredGroups);
  }

  /** Today's request: English, no group preference, not followed. */
  public AddTitleRequest(String source, String title, Boolean autoConfirm) {
    this(source, title, autoConfirm, LanguageCodes.DEFAULT, List.of(), false);
  }

  public JsonObject toJson() {
    return new JsonObject().put("v", VERSION).put("source", source).put("title", title)
        .put("autoConfirm", autoConfirm).put("language", language).put("preferredGroups", new JsonArray(preferredGroups))
        .put("follow", follow);
  }

  public static AddTitleRequest fromJson(Object body) {
    String type = "AddTitleRequest";
    JsonObject json = MessageFields.object(body, type);
    MessageFields.requireVersion(json, type, VERSION);
    String title = MessageFields.operatorString(json, type, "title");
    if (title.length() > 500) {
      throw new InvalidMessageException(ErrorCode.MALFORMED_MESSAGE, type + ": field 'title' is longer than 500");
    }
    Object auto = json.getValue("autoConfirm");
    if (auto != null && !(auto instanceof Boolean)) {
      throw new InvalidMessageException(ErrorCode.MALFORMED_MESSAGE, type + ": field 'autoConfirm' must be a boolean");
    }
    String language = LanguageCodes.check(type, "language", MessageFields.optionalString(json, type, "language"));
    List<String> groups = groups(type, MessageFields.optionalStrings(json, type, "preferredGroups"));
    Boolean follow = MessageFields.optionalBoolean(json, type, "follow");
    return new AddTitleRequest(MessageFields.operatorString(json, type, "source"), title, (Boolean) auto, language,
        groups, follow != null && follow);
  }

  private static List<String> groups(String type, List<String> groups) {
    if (groups.size() > MAX_GROUPS) {
      throw new InvalidMessageException(ErrorCode.MALFORMED_MESSAGE,
          type + ": field 'preferredGroups' names more than " + MAX_GROUPS + " groups");
    }
    for (String group : groups) {
      if (group.isBlank() || group.length() > 100) {
        throw new InvalidMessageException(ErrorCode.MALFORMED_MESSAGE,
            type + ": field 'preferredGroups' must hold non-empty group ids of at most 100 characters");
      }
      OperatorText.problem("preferredGroups", group, false).ifPresent(problem -> {
        throw new InvalidMessageException(ErrorCode.MALFORMED_MESSAGE, type + ": " + problem);
      });
    }
    if (groups.stream().distinct().count() != groups.size()) {
      throw new InvalidMessageException(ErrorCode.MALFORMED_MESSAGE,
          type + ": field 'preferredGroups' names a group twice");
    }
    return groups;
  }
}
