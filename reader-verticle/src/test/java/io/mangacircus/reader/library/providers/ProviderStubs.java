package io.mangacircus.reader.library.providers;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;

import com.github.tomakehurst.wiremock.WireMockServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Stand-ins for AniList and MangaUpdates on a WireMock server, answering as the real services do. The answers under
 * {@code src/test/resources/providers/} follow the shapes these projects read from the real APIs: AniList's
 * {@code Page.media} and {@code Media} queries as the AniList API v2 docs (anilist.gitbook.io) and Komf
 * ({@code Snd-R/komf}, its AniList fragment {@code aniListManga}: title{romaji english native}, synonyms, tags{name},
 * staff.edges{role node{name{full}}}) show them; MangaUpdates' {@code POST /v1/series/search} answer
 * ({@code results[].record{series_id, title, url, description, image.url, type, year, genres[].genre}, hit_title}) as
 * Mihon's MangaUpdates tracker ({@code eu.kanade.tachiyomi.data.track.mangaupdates.dto.Record}) reads it, and
 * {@code GET /v1/series/{id}} ({@code associated[].title, categories[].category/votes, authors[].name/type
 * Author|Artist, publishers[].publisher_name/type, status, completed}) as Komf's {@code SeriesJson} reads it.
 */
final class ProviderStubs {

  static final String ANILIST_PATH = "/graphql";

  private ProviderStubs() {
  }

  static String resource(String name) {
    try (InputStream in = ProviderStubs.class.getResourceAsStream("/providers/" + name)) {
      if (in == null) {
        throw new IllegalStateException("no test resource providers/" + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** AniList's search (a {@code Page} query with {@code search}) and its {@code Media(id: 30013)} query. */
  static void aniList(WireMockServer server) {
    server.stubFor(post(urlEqualTo(ANILIST_PATH)).withRequestBody(matchingJsonPath("$.variables.search"))
        .willReturn(json(resource("anilist-search.json"))));
    server.stubFor(post(urlEqualTo(ANILIST_PATH)).withRequestBody(matchingJsonPath("$.variables[?(@.id == 30013)]"))
        .willReturn(json(resource("anilist-media.json"))));
  }

  /** MangaUpdates' search and its series 55099564912. */
  static void mangaUpdates(WireMockServer server) {
    server.stubFor(post(urlEqualTo("/v1/series/search")).withRequestBody(matchingJsonPath("$.search"))
        .willReturn(json(resource("mangaupdates-search.json"))));
    server.stubFor(get(urlEqualTo("/v1/series/55099564912")).willReturn(json(resource("mangaupdates-series.json"))));
  }

  static com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder json(String body) {
    return aResponse().withStatus(200).withHeader("Content-Type", "application/json; charset=utf-8").withBody(body);
  }
}
