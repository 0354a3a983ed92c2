package io.mangacircus.contracts;

import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
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
 * @param follow whether nightly discovery checks the title for new chapters (absent or null: false)
 */
public record AddTitleRequest(String source, String title, Boolean autoConfirm, String language,
    List<String> preferredGroups, @JsonSetter(nulls = Nulls.AS_EMPTY) boolean follow) implements Message {

  public static final int VERSION = 1;

  /** The language of a request that names none. */
  public static final String DEFAULT_LANGUAGE = "en";

  /** The most preferred groups a request may name. */
  public static final int MAX_GROUPS = 20;

  public AddTitleRequest {
    MessageFields.atMost(AddTitleRequest.class, "title",
        MessageFields.operatorText(AddTitleRequest.class, "title", title), 500);
    language = language == null ? DEFAULT_LANGUAGE
        : MessageFields.optionalLanguage(AddTitleRequest.class, "language", language);
    preferredGroups = groups(preferredGroups == null ? List.of() : List.copyOf(preferredGroups));
    MessageFields.operatorText(AddTitleRequest.class, "source", source);
  }

  /** Today's request: English, no group preference, not followed. */
  public AddTitleRequest(String source, String title, Boolean autoConfirm) {
    this(source, title, autoConfirm, DEFAULT_LANGUAGE, List.of(), false);
  }

  public static AddTitleRequest fromJson(Object body) {
    return MessageJson.read(body, AddTitleRequest.class, VERSION);
  }

  private static List<String> groups(List<String> groups) {
    if (groups.size() > MAX_GROUPS) {
      throw MessageFields.refused(AddTitleRequest.class, "preferredGroups", "names more than " + MAX_GROUPS + " groups");
    }
    for (String group : groups) {
      if (group.isBlank() || group.length() > 100) {
        throw MessageFields.refused(AddTitleRequest.class, "preferredGroups",
            "must hold non-empty group ids of at most 100 characters");
      }
      OperatorText.problem("preferredGroups", group, false).ifPresent(problem -> {
        throw new InvalidMessageException(ErrorCode.MALFORMED_MESSAGE, "AddTitleRequest: " + problem);
      });
    }
    if (groups.stream().distinct().count() != groups.size()) {
      throw MessageFields.refused(AddTitleRequest.class, "preferredGroups", "names a group twice");
    }
    return groups;
  }
}
