package io.mangacircus.reader.library.providers;

/** A provider did not answer usefully: unreachable, a server error, still rate-limited, or an answer not understood. */
public final class ProviderFailure extends RuntimeException {

  private final String provider;

  public ProviderFailure(String provider, String message) {
    super(provider + ": " + message);
    this.provider = provider;
  }

  public String provider() {
    return provider;
  }
}
