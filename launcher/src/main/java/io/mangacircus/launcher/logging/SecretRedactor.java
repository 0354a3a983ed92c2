package io.mangacircus.launcher.logging;

import java.util.List;
import java.util.Locale;
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

  /**
   * Text every match of a rule contains, in lower case: each rule's keyword or key contains one of these. A line with
   * none of them (most lines) skips the regular expressions, which cost ≈ 20 % of a busy recovery's CPU when every line
   * went through all three.
   */
  static final List<String> STEMS = List.of("bearer", "basic", "cookie", "pass", "pwd", "secret", "token", "api",
      "session", "sig", "credential", "authorization");

  private SecretRedactor() {
  }

  /** The text with every secret value masked; null stays null. */
  public static String redact(String text) {
    if (text == null || text.isEmpty() || !mayHoldSecret(text)) {
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

  /** False only when no rule can match: the rules are case-insensitive for ASCII letters, as lower-casing is. */
  private static boolean mayHoldSecret(String text) {
    String lower = text.toLowerCase(Locale.ROOT);
    for (String stem : STEMS) {
      if (lower.contains(stem)) {
        return true;
      }
    }
    return false;
  }
}
