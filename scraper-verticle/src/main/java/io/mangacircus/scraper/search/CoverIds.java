package io.mangacircus.scraper.search;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The opaque cover ids handed out in search and preview replies, each standing for a URL a source gave: a cover is
 * fetched by its id only, so no request can make the scraper fetch a URL of its choosing. The same URL always gets the
 * same id; at most {@code capacity} are remembered (the least recently used forgotten first).
 */
public final class CoverIds {

  /** A cover a source named. */
  public record Cover(String source, String url) {
  }

  private final Map<String, Cover> byId;

  public CoverIds(int capacity) {
    this.byId = new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, Cover> eldest) {
        return size() > capacity;
      }
    };
  }

  /** The id of a source's cover URL (remembered from now on); null for no URL. */
  public synchronized String idOf(String source, String url) {
    if (url == null || url.isBlank()) {
      return null;
    }
    String id = digest(source + "\u0000" + url);
    byId.put(id, new Cover(source, url));
    return id;
  }

  /** The cover an id stands for, when it was handed out for {@code source} and is still remembered. */
  public synchronized Optional<Cover> cover(String source, String id) {
    Cover cover = byId.get(id);
    return cover != null && cover.source().equals(source) ? Optional.of(cover) : Optional.empty();
  }

  private static String digest(String text) {
    try {
      byte[] hash = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      return Base64.getUrlEncoder().withoutPadding().encodeToString(hash).substring(0, 32);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
