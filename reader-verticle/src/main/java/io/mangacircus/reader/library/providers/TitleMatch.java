package io.mangacircus.reader.library.providers;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * How well a provider's titles match a series' titles, from 0 (nothing in common) to 1 (the same once normalised):
 * case, accents, punctuation, a leading "The", volume suffixes and long-vowel romanisations (ou, oo, uu) do not count.
 * A score at or above the threshold is a confident match; below it a candidate is only offered.
 */
public final class TitleMatch {

  private static final Pattern MARKS = Pattern.compile("\\p{M}+");
  private static final Pattern BRACKETS = Pattern.compile("[(\\[{][^)\\]}]*[)\\]}]");
  private static final Pattern VOLUME = Pattern.compile(
      "\\s*[-,:]?\\s*\\b(vol(ume)?|v|tome|book|chapter|ch)\\.?\\s*\\d+(\\.\\d+)?\\b.*$");
  private static final Pattern NOT_WORD = Pattern.compile("[^\\p{L}\\p{N}]+");

  private final double threshold;

  /** @param threshold the confident score, 0..1 */
  public TitleMatch(double threshold) {
    if (!(threshold >= 0 && threshold <= 1)) {
      throw new IllegalArgumentException("a confidence threshold is between 0 and 1, not " + threshold);
    }
    this.threshold = threshold;
  }

  public double threshold() {
    return threshold;
  }

  /** Whether a score makes a confident match. */
  public boolean confident(double score) {
    return score >= threshold;
  }

  /** The best score of any of {@code wanted} against any of {@code offered}; 0 when either is empty. */
  public double score(Collection<String> wanted, Collection<String> offered) {
    double best = 0;
    for (String w : wanted) {
      for (String o : offered) {
        best = Math.max(best, score(w, o));
      }
    }
    return best;
  }

  /** One title against another. */
  public double score(String a, String b) {
    List<String> ta = tokens(a);
    List<String> tb = tokens(b);
    if (ta.isEmpty() || tb.isEmpty()) {
      return 0;
    }
    if (ta.equals(tb)) {
      return 1;
    }
    double words = dice(new HashSet<>(ta), new HashSet<>(tb));
    double letters = dice(bigrams(String.join("", ta)), bigrams(String.join("", tb)));
    // Word overlap rewards a shared phrase; letter pairs forgive a spelling that differs inside a word. The larger
    // counts, rounded so that equal inputs give equal scores whatever the order.
    return Math.round(Math.max(words, letters) * 1000) / 1000.0;
  }

  /** A title as the words that count, in order. */
  static List<String> tokens(String title) {
    if (title == null) {
      return List.of();
    }
    String text = Normalizer.normalize(title, Normalizer.Form.NFKD);
    text = MARKS.matcher(text).replaceAll("").toLowerCase(Locale.ROOT).replace("&", " and ");
    text = BRACKETS.matcher(text).replaceAll(" ");
    text = VOLUME.matcher(text).replaceAll("");
    List<String> words = new ArrayList<>();
    for (String word : NOT_WORD.split(text)) {
      if (!word.isEmpty()) {
        words.add(romanised(word));
      }
    }
    if (words.size() > 1 && words.get(0).equals("the")) {
      words.remove(0);
    }
    return words;
  }

  /** Long vowels written doubled (Hepburn without macrons: "shoujo", "kyoukai") as the short form. */
  private static String romanised(String word) {
    return word.replace("ou", "o").replace("oo", "o").replace("uu", "u");
  }

  private static Set<String> bigrams(String text) {
    Set<String> grams = new LinkedHashSet<>();
    for (int i = 0; i + 2 <= text.length(); i++) {
      grams.add(text.substring(i, i + 2));
    }
    if (grams.isEmpty() && !text.isEmpty()) {
      grams.add(text);
    }
    return grams;
  }

  private static double dice(Set<String> a, Set<String> b) {
    if (a.isEmpty() || b.isEmpty()) {
      return 0;
    }
    int common = 0;
    for (String s : a) {
      if (b.contains(s)) {
        common++;
      }
    }
    return 2.0 * common / (a.size() + b.size());
  }
}
