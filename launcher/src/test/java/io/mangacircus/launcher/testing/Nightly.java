package io.mangacircus.launcher.testing;

/**
 * Whether this is the nightly run ({@code -Dmangacircus.nightly=true}): ITs whose designed waits scale (rate windows,
 * number of random kills) pick their long variant then, and a short one that asserts the same thing otherwise.
 */
public final class Nightly {

  /** The system property that asks for the long variants; Maven passes {@code -D} on its command line through. */
  public static final String PROPERTY = "mangacircus.nightly";

  private Nightly() {
  }

  /** True in the nightly run. */
  public static boolean on() {
    return Boolean.getBoolean(PROPERTY);
  }

  /** {@code nightly} in the nightly run, {@code quick} otherwise. */
  public static <T> T pick(T quick, T nightly) {
    return on() ? nightly : quick;
  }

  /** {@code nightly} in the nightly run, {@code quick} otherwise. */
  public static int pick(int quick, int nightly) {
    return on() ? nightly : quick;
  }
}
