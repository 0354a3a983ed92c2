package io.mangacircus.contracts;

import java.util.Locale;
import java.util.regex.Pattern;

/** Checks the language codes requests carry ({@code en}, {@code pt-br}, {@code es-la}, {@code zh-hk}). */
public final class LanguageCodes {

  /** The language a request without one means. */
  public static final String DEFAULT = "en";

  private static final Pattern CODE = Pattern.compile("[a-z]{2,3}(-[a-z0-9]{2,8}){0,2}");

  private LanguageCodes() {
  }

  /** The code in lower case, or a MALFORMED_MESSAGE failure naming the field; null stays null. */
  public static String check(String type, String field, String value) {
    if (value == null) {
      return null;
    }
    String code = value.trim().toLowerCase(Locale.ROOT);
    if (!CODE.matcher(code).matches()) {
      throw new InvalidMessageException(ErrorCode.MALFORMED_MESSAGE, type + ": field '" + field
          + "' must be a language code such as 'en' or 'pt-br' (2-3 letters, optional '-' parts)");
    }
    return code;
  }
}
