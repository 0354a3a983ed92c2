package io.mangacircus.scraper.source;

/**
 * One page of a chapter's manifest.
 *
 * @param index 1-based position
 * @param key a stable identity of the page that does not change when its URL is re-signed (e.g. its file name);
 *     the staging fingerprint is built from keys
 * @param url where to fetch it now
 */
public record PageRef(int index, String key, String url) {
}
