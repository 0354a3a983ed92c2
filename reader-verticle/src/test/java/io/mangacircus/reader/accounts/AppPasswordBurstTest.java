package io.mangacircus.reader.accounts;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.reader.ReaderUnderTest;
import io.mangacircus.testing.LibraryFixture;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A reading app opens many connections at once with the same app password (a page stream, a download of a chapter):
 * every one is admitted, by one key derivation, never turned away as busy by the password threads it would fill.
 */
class AppPasswordBurstTest {

  private static final int CONNECTIONS = 48;

  @TempDir
  Path data;

  @Test
  void manyConnectionsOfferingOneAppPasswordTogetherAreAllAdmitted() throws Exception {
    new LibraryFixture(data).chapter("moon", "Moon Circus", 1, 2, Instant.parse("2026-01-01T03:04:05Z"));
    try (ReaderUnderTest reader = ReaderUnderTest.start(data)) {
      ReaderUnderTest.Session admin = reader.login("admin", ReaderUnderTest.ADMIN_PASSWORD);
      reader.createReader(admin, "ivy", "ivy-reads-a-lot-of-manga");
      String secret = reader.createAppPassword(reader.login("ivy", "ivy-reads-a-lot-of-manga"), "Mihon")
          .getString("password");
      String basic = "Basic " + Base64.getEncoder().encodeToString(("ivy:" + secret)
          .getBytes(StandardCharsets.UTF_8));

      for (String path : List.of("/komga/api/v1/books/bW9vbi9jaGFwdGVyLTAwMDE/pages/1",
          "/api/series/moon/chapters/chapter-0001/pages/2")) {
        List<CompletableFuture<HttpResponse<Void>>> answers = new ArrayList<>();
        for (int i = 0; i < CONNECTIONS; i++) {
          // A client each: a connection each, as an app's parallel downloads open them.
          HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
          answers.add(client.sendAsync(HttpRequest.newBuilder(URI.create(reader.base() + path))
              .timeout(Duration.ofSeconds(30)).header("Authorization", basic).build(),
              HttpResponse.BodyHandlers.discarding()));
        }
        List<Integer> statuses = new ArrayList<>();
        for (CompletableFuture<HttpResponse<Void>> answer : answers) {
          statuses.add(answer.get().statusCode());
        }
        assertThat(statuses).as(path).containsOnly(200);
      }
    }
  }
}
