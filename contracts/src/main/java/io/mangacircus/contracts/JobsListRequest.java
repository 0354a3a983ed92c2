package io.mangacircus.contracts;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * The body of {@code mc.scraper.jobs.list}: {@code {v:1, state?, page?, size?}}. Without {@code page} and {@code size}
 * it asks for every job (as before paging); with either, for one page of at most {@link #MAX_SIZE} jobs. The reader's
 * {@code GET /api/admin/jobs} copies its query parameters here as text, so a page or size may be a number or a string
 * of digits.
 *
 * @param state only jobs in this state ({@link #STATES}), or null for every state
 * @param page the 1-based page, or null for every job
 * @param size jobs per page (1 to {@link #MAX_SIZE}), or null for every job
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record JobsListRequest(String state, Integer page, Integer size) implements Message {

  public static final int VERSION = ScraperRequests.VERSION;

  /** Jobs per page when only {@code page} is given. */
  public static final int DEFAULT_SIZE = 50;

  /** The largest page a request may ask for. */
  public static final int MAX_SIZE = 200;

  /** The job states a request may filter on, as the scraper writes them. */
  public static final List<String> STATES = List.of("pending", "ready", "active", "paused", "retry_wait",
      "unavailable", "quarantined", "done");

  private static final String TYPE = "JobsListRequest";

  /** Every job, in every state (the request of a client from before paging). */
  public static JobsListRequest all() {
    return new JobsListRequest(null, null, null);
  }

  /** Whether one page is asked for (else every job). */
  public boolean paged() {
    return page != null || size != null;
  }

  /** The page asked for, 1 when only a size was given. */
  public int pageOrFirst() {
    return page == null ? 1 : page;
  }

  /** The size asked for, {@link #DEFAULT_SIZE} when only a page was given. */
  public int sizeOrDefault() {
    return size == null ? DEFAULT_SIZE : size;
  }

  public JobsListRequest {
    if (state != null && !STATES.contains(state)) {
      throw new InvalidMessageException(ErrorCode.MALFORMED_MESSAGE, TYPE + ": unknown state '"
          + clip(state) + "' (one of " + String.join(", ", STATES) + ")");
    }
    inRange("page", page, 1, Integer.MAX_VALUE);
    inRange("size", size, 1, MAX_SIZE);
  }

  /** A body's page and size may be numbers or strings of digits, and an empty state or number is none. */
  @JsonCreator
  static JobsListRequest read(@JsonProperty("state") String state, @JsonProperty("page") Object page,
      @JsonProperty("size") Object size) {
    return new JobsListRequest(state == null || state.isEmpty() ? null : state, whole("page", page, Integer.MAX_VALUE),
        whole("size", size, MAX_SIZE));
  }

  public static JobsListRequest fromJson(Object body) {
    return MessageJson.read(body, JobsListRequest.class, VERSION);
  }

  /** A whole number given as a number or as a string of digits; null when absent or empty. */
  private static Integer whole(String field, Object value, int max) {
    if (value == null || (value instanceof String text && text.isEmpty())) {
      return null;
    }
    long number;
    if (value instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue())) {
      number = n.longValue();
    } else if (value instanceof String text && text.length() <= 10 && text.chars().allMatch(Character::isDigit)) {
      number = Long.parseLong(text);
    } else {
      throw new InvalidMessageException(ErrorCode.MALFORMED_MESSAGE, TYPE + ": '" + field
          + "' must be a whole number from 1 to " + max + ", got '" + clip(String.valueOf(value)) + "'");
    }
    inRange(field, number, 1, max);
    return (int) number;
  }

  /** {@code number} when it lies from min to max (null is none). */
  private static void inRange(String field, Number number, int min, int max) {
    if (number != null && (number.longValue() < min || number.longValue() > max)) {
      throw new InvalidMessageException(ErrorCode.MALFORMED_MESSAGE, TYPE + ": '" + field + "' must be from " + min
          + " to " + max + ", got " + number);
    }
  }

  /** A value quoted in an error: at most 40 characters. */
  private static String clip(String text) {
    return text.length() <= 40 ? text : text.substring(0, 40) + "…";
  }
}
