package io.mangacircus.scraper.source.html;

/** A source definition that cannot be used; the message names the file and the key at fault. */
public final class InvalidDefinitionException extends RuntimeException {

  private final String file;
  private final String key;

  /**
   * @param file the definition as configured ({@code conf/sources/x.json} or {@code classpath:/sources/x.json})
   * @param key the dotted key inside it, e.g. {@code chapters.item}; {@code (file)} for the file as a whole
   */
  public InvalidDefinitionException(String file, String key, String problem) {
    super(file + ": " + key + ": " + problem);
    this.file = file;
    this.key = key;
  }

  public String file() {
    return file;
  }

  public String key() {
    return key;
  }
}
