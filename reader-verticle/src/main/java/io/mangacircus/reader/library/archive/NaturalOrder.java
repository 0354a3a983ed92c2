package io.mangacircus.reader.library.archive;

import java.util.Comparator;

/**
 * Orders names the way a reader expects pages: runs of digits by their value ({@code page2} before {@code page10}),
 * the rest without regard to case, and names equal by those rules by their exact characters, so the order is total.
 */
public final class NaturalOrder implements Comparator<String> {

  /** The one instance; the comparator holds no state. */
  public static final NaturalOrder INSTANCE = new NaturalOrder();

  private NaturalOrder() {
  }

  @Override
  public int compare(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      char ca = a.charAt(i);
      char cb = b.charAt(j);
      if (isDigit(ca) && isDigit(cb)) {
        int endA = digitsEnd(a, i);
        int endB = digitsEnd(b, j);
        int byValue = compareNumbers(a, i, endA, b, j, endB);
        if (byValue != 0) {
          return byValue;
        }
        i = endA;
        j = endB;
      } else {
        int byChar = Character.compare(fold(ca), fold(cb));
        if (byChar != 0) {
          return byChar;
        }
        i++;
        j++;
      }
    }
    int byRest = Integer.compare(a.length() - i, b.length() - j);
    return byRest != 0 ? byRest : a.compareTo(b);
  }

  // Compared as digit strings, not parsed: a run of 30 digits in a file name must not overflow a long.
  private static int compareNumbers(String a, int startA, int endA, String b, int startB, int endB) {
    int sa = skipZeros(a, startA, endA);
    int sb = skipZeros(b, startB, endB);
    int byLength = Integer.compare(endA - sa, endB - sb);
    if (byLength != 0) {
      return byLength;
    }
    for (int k = 0; k < endA - sa; k++) {
      int byDigit = Character.compare(a.charAt(sa + k), b.charAt(sb + k));
      if (byDigit != 0) {
        return byDigit;
      }
    }
    return 0;
  }

  private static int skipZeros(String s, int start, int end) {
    int k = start;
    while (k < end - 1 && s.charAt(k) == '0') {
      k++;
    }
    return k;
  }

  private static int digitsEnd(String s, int start) {
    int k = start;
    while (k < s.length() && isDigit(s.charAt(k))) {
      k++;
    }
    return k;
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private static char fold(char c) {
    return Character.toLowerCase(Character.toUpperCase(c));
  }
}
