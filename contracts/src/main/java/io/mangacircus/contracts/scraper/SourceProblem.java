package io.mangacircus.contracts.scraper;

import io.mangacircus.contracts.InvalidMessageException;
import io.mangacircus.contracts.MessageFields;
import io.mangacircus.contracts.MessageJson;
import io.mangacircus.contracts.MessagePart;

/**
 * Why one source gave no results in a search reply, while the others still answered.
 *
 * @param source source name
 * @param code {@link #CANNOT_SEARCH}, {@link #CIRCUIT_OPEN}, {@link #RATE_LIMITED}, {@link #SOURCE_FAILED} or
 *     {@link #UNKNOWN_SOURCE}
 * @param message what an operator reads
 */
public record SourceProblem(String source, String code, String message) implements MessagePart {

  /** The source's type offers no search. */
  public static final String CANNOT_SEARCH = "cannot_search";
  /** The source's circuit is open: nothing was asked. */
  public static final String CIRCUIT_OPEN = "circuit_open";
  /** The source refused with 429 or asked us to hold. */
  public static final String RATE_LIMITED = "rate_limited";
  /** The request failed (network, HTTP error, an answer we cannot read). */
  public static final String SOURCE_FAILED = "source_failed";
  /** No source of that name is configured. */
  public static final String UNKNOWN_SOURCE = "unknown_source";

  public SourceProblem {
    MessageFields.required(SourceProblem.class, "source", source);
    MessageFields.nonBlank(SourceProblem.class, "code", code);
  }

  /** Parses one problem; throws {@link InvalidMessageException} when it does not match. */
  public static SourceProblem fromJson(Object body) {
    return MessageJson.read(body, SourceProblem.class);
  }
}
