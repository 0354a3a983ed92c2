package io.mangacircus.launcher.logging;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Masks secrets in log text: passwords, bearer and basic credentials, cookies, and signed query strings
 * ({@code token=}, {@code signature=}, {@code X-Amz-Signature=} and friends). Keeps the key, replaces the value.
 */
public final class SecretRedactor {

  /** What a masked value is replaced with. */
  public static final String MASK = "***";

  private record Rule(Pattern pattern, String replacement) {
  }

  private static final List<Rule> RULES = List.of(
      // Authorization headers and bare bearer/basic credentials.
      new Rule(Pattern.compile("(?i)\\b(bearer|basic)\\s+[A-Za-z0-9._~+/=\\-]{4,}"), "$1 " + MASK),
      // Cookie and Set-Cookie headers: the whole value up to the end of the line.
      new Rule(Pattern.compile("(?i)\\b((?:set-)?cookie\\s*[:=]\\s*)[^\\r\\n]+"), "$1" + MASK),
      // key=value, key: value and "key": "value" for secret-bearing keys, including query parameters.
      new Rule(Pattern.compile("(?i)([\"']?\\b(?:password|passwd|pwd|pass|secret|client_secret|token|access_token"
          + "|refresh_token|api[_-]?key|apikey|session|sessionid|signature|sig|x-amz-signature|x-amz-credential"
          + "|x-amz-security-token|x-goog-signature|authorization)[\"']?\\s*[=:]\\s*[\"']?)([^\\s&\"',;}]+)"),
          "$1" + MASK));

  private SecretRedactor() {
  }

  /** The text with every secret value masked; null stays null. */
  public static String redact(String text) {
    if (text == null || text.isEmpty()) {
      return text;
    }
    String result = text;
    for (Rule rule : RULES) {
      Matcher matcher = rule.pattern().matcher(result);
      if (matcher.find()) {
        result = matcher.replaceAll(rule.replacement());
      }
    }
    return result;
  }
}
