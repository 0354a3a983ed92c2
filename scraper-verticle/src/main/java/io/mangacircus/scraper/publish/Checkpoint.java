package io.mangacircus.scraper.publish;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;
import java.util.List;

/**
 * What a staging folder records: its {@code checkpoint.json} header (which chapter it belongs to) with every validated
 * page. Schema 2 headers carry no pages (they are the lines of {@code checkpoint.log}); schema 1 headers, written by
 * earlier versions, carry the pages themselves.
 *
 * @param schema 2 (header only), 1 (an earlier version's checkpoint with its pages), 0 when read from the
 *     {@code chapter.json} of a folder compacted for publication
 * @param fingerprint the chapter fingerprint (also the folder's name)
 * @param source source name
 * @param titleId source title id
 * @param chapterId source chapter id
 * @param manifest the page keys in order; empty when read from a folder compacted for publication
 * @param pages the validated pages (when read back: the header's, then the log's, the last line of an index winning)
 * @param updatedAt when the header was written
 */
public record Checkpoint(int schema, String fingerprint, String source, String titleId, String chapterId,
    List<String> manifest, @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Page> pages, Instant updatedAt) {

  public Checkpoint {
    manifest = manifest == null ? List.of() : List.copyOf(manifest);
    pages = pages == null ? List.of() : List.copyOf(pages);
  }

  /**
   * One validated page, also one line of {@code checkpoint.log}.
   *
   * @param index 1-based position in the manifest
   * @param file its file name in the staging folder ({@code 007.jpg})
   * @param size bytes
   * @param sha256 hex SHA-256 of the bytes
   */
  public record Page(int index, String file, long size, String sha256) {
  }
}
