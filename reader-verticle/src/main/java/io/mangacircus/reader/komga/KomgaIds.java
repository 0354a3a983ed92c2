package io.mangacircus.reader.komga;

import io.mangacircus.reader.library.LibraryFiles;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;

/**
 * Komga book ids for our chapters: one opaque path segment, the unpadded base64url of {@code seriesId/chapterId}, so
 * that it is unique across series (chapter folder names repeat between series), the same after a restart or a rescan,
 * and recorded nowhere. A series id is the series folder's id as it is. No Vert.x.
 */
public final class KomgaIds {

  private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
  private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

  /** A chapter a book id names. */
  public record ChapterRef(String seriesId, String chapterId) {
  }

  private KomgaIds() {
  }

  /** The book id of a chapter. */
  public static String bookId(String seriesId, String chapterId) {
    return ENCODER.encodeToString((seriesId + "/" + chapterId).getBytes(StandardCharsets.UTF_8));
  }

  /**
   * The chapter {@code bookId} names; empty when it is not a book id this server made (not base64url, ids that cannot
   * name a library folder, or another spelling of the same bytes, so that each chapter has exactly one id).
   */
  public static Optional<ChapterRef> chapter(String bookId) {
    if (bookId == null || bookId.isEmpty() || bookId.length() > 500) {
      return Optional.empty();
    }
    String decoded;
    try {
      decoded = new String(DECODER.decode(bookId), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
    int slash = decoded.indexOf('/');
    if (slash < 0) {
      return Optional.empty();
    }
    String series = decoded.substring(0, slash);
    String chapter = decoded.substring(slash + 1);
    if (!LibraryFiles.validId(series) || !LibraryFiles.validId(chapter) || !bookId(series, chapter).equals(bookId)) {
      return Optional.empty();
    }
    return Optional.of(new ChapterRef(series, chapter));
  }
}
