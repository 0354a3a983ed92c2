package io.mangacircus.launcher.sources;

import static io.mangacircus.testing.MangaDexApi.TITLE_ID;

/** The MangaDex title the launcher's ITs download ({@link io.mangacircus.testing.MangaDexApi} serves it). */
final class MangaDexFixtures {

  static final String TITLE_URL = "https://mangadex.org/title/" + TITLE_ID + "/the-circus-at-dawn";
  static final String TITLE = "The Circus at Dawn";

  private MangaDexFixtures() {
  }
}
