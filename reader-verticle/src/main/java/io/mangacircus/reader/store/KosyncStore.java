package io.mangacircus.reader.store;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * KOReader sync's own data: which chapter a KOReader document id names (the ids of the CBZ the reader serves, recorded
 * when it is served or computed on demand) and each user's last push per document (the device that pushed it, and the
 * raw position for a document that names no chapter). Reading positions themselves live in {@link ProgressStore}.
 * Blocking: call it from a worker thread or {@code executeBlocking}, never from an event loop.
 */
public interface KosyncStore {

  /** How KOReader computed a document id: its partial MD5 of the file, or the MD5 of the file's name. */
  enum Kind {
    BINARY("binary"), FILENAME("filename");

    private final String wire;

    Kind(String wire) {
      this.wire = wire;
    }

    public String wire() {
      return wire;
    }

    /** The kind a store reads back. */
    public static Kind of(String wire) {
      return "binary".equals(wire) ? BINARY : FILENAME;
    }
  }

  /** One document id of a chapter. */
  record Document(String document, String series, String chapter, Kind kind) {
  }

  /**
   * One push as KOReader sent it.
   *
   * @param percentage the fraction of the document read, 0 to 1
   * @param at when the reader received it (what a pull reports as its {@code timestamp})
   */
  record Push(String document, String progress, double percentage, String device, String deviceId, Instant at) {
  }

  /** Records document ids; an id recorded before for another chapter now names this one (the newest serve wins). */
  void record(List<Document> documents, Instant now) throws StoreException;

  /** The chapter a document id names, if recorded. */
  Optional<Document> document(String document) throws StoreException;

  /** The user's last push for a document, if any. */
  Optional<Push> lastPush(long userId, String document) throws StoreException;

  /** Keeps the push as the user's last for its document. */
  void savePush(long userId, Push push) throws StoreException;
}
