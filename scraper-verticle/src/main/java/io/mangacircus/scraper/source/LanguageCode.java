package io.mangacircus.scraper.source;

import io.mangacircus.contracts.InvalidMessageException;
import io.mangacircus.contracts.MessageFields;
import java.util.Optional;

/**
 * A chapter language as a source configuration or a site writes it, in the form jobs ask for it: trimmed,
 * lower-cased, {@code _} read as {@code -} ({@code pt_BR} is {@code pt-br}). The rule is the one a job's
 * {@code language} field is checked by ({@link MessageFields#language}), so every language a source gives can be asked
 * for.
 */
public final class LanguageCode {

  /** The language of a source that says nothing of it. */
  public static final String DEFAULT = "en";

  private LanguageCode() {
  }

  /** The code {@code raw} names, or empty when it is not an ISO 639 code with optional BCP 47 parts. */
  public static Optional<String> of(String raw) {
    if (raw == null || raw.isBlank() || raw.length() > 35) {
      return Optional.empty();
    }
    try {
      return Optional.of(MessageFields.language("source", "language", raw.replace('_', '-')));
    } catch (InvalidMessageException e) {
      return Optional.empty();
    }
  }
}
