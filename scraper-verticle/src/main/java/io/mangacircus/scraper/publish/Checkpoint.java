package io.mangacircus.scraper.publish;

import java.time.Instant;
import java.util.List;

/**
 * The {@code checkpoint.json} of a staging folder: which chapter it belongs to and every validated page.
 *
 * @param schema 1
 * @param fingerprint the chapter fingerprint (also the folder's name)
 * @param source source name
 * @param titleId source title id
 * @param chapterId source chapter id
 * @param manifest the page keys in order
 * @param pages the validated pages
 * @param updatedAt when it was last written
 */
public record Checkpoint(int schema, String fingerprint, String source, String titleId, String chapterId,
    List<String> manifest, List<Page> pages, Instant updatedAt) {

  public Checkpoint {
    manifest = List.copyOf(manifest);
    pages = List.copyOf(pages);
  }

  /**
   * One validated page.
   *
   * @param index 1-based position in the manifest
   * @param file its file name in the staging folder ({@code 007.jpg})
   * @param size bytes
   * @param sha256 hex SHA-256 of the bytes
   */
  public record Page(int index, String file, long size, String sha256) {
  }
}
