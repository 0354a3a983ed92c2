package io.mangacircus.scraper.source;

/**
 * A fetched page body.
 *
 * @param contentType the Content-Type header (without parameters), may be empty
 * @param bytes the body
 */
public record PageBytes(String contentType, byte[] bytes) {
}
