package io.mangacircus.reader.library;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.contracts.Addresses;
import io.mangacircus.contracts.scraper.SourcesReply;
import io.mangacircus.testing.MutableClock;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A series' link to its title's page: from the title id itself, or from the scraper's title page addresses. */
class SourceLinksTest {

  private static final String UUID = "5f1c9a2e-0c3b-4c1e-9d2a-3b4c5d6e7f80";

  private final Vertx vertx = Vertx.vertx();
  private final MutableClock clock = new MutableClock();
  private final AtomicInteger asked = new AtomicInteger();

  @AfterEach
  void stop() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  private MessageConsumer<Object> scraper(SourcesReply reply) throws Exception {
    MessageConsumer<Object> consumer = vertx.eventBus().consumer(Addresses.SCRAPER_SOURCES_LIST, message -> {
      asked.incrementAndGet();
      message.reply(reply.toJson());
    });
    consumer.completion().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    return consumer;
  }

  private static String await(Future<String> link) throws Exception {
    return link.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @Test
  void aTitleOfASourceWithATitlePageLinksThereWithItsIdPutIn() throws Exception {
    scraper(new SourcesReply(List.of(new SourcesReply.Source("md", "site-with-pages", true, "closed",
        "https://example.org/title/{titleId}"), new SourcesReply.Source("shelf", "local", true, "closed"))));
    SourceLinks links = new SourceLinks(vertx, 2_000, clock);

    assertThat(await(links.titleUrl("md", UUID))).isEqualTo("https://example.org/title/" + UUID);
    assertThat(await(links.titleUrl("shelf", "some-folder"))).as("a source without title pages").isNull();
    assertThat(await(links.titleUrl("gone", UUID))).as("a source the scraper does not list").isNull();
    assertThat(await(links.titleUrl("md", "a/../b"))).as("an id that is not plain is never put in").isNull();
    assertThat(await(links.titleUrl("md", ""))).isNull();
    assertThat(asked.get()).as("asked once while fresh").isEqualTo(1);
  }

  @Test
  void aTitleIdThatIsAnAddressIsItsOwnLinkWithoutAskingTheScraper() throws Exception {
    SourceLinks links = new SourceLinks(vertx, 2_000, clock);
    assertThat(await(links.titleUrl("site", "https://example.org/comic/7"))).isEqualTo("https://example.org/comic/7");
    assertThat(await(links.titleUrl("site", "http://example.org/comic/7"))).isEqualTo("http://example.org/comic/7");
    assertThat(asked.get()).isZero();
  }

  @Test
  void withoutAScraperThereIsNoLinkAndItIsAskedAgainOnlyAfterAWhile() throws Exception {
    SourceLinks links = new SourceLinks(vertx, 2_000, clock);
    assertThat(await(links.titleUrl("md", UUID))).isNull();

    scraper(new SourcesReply(List.of(new SourcesReply.Source("md", "site-with-pages", true, "closed",
        "https://example.org/title/{titleId}"))));
    assertThat(await(links.titleUrl("md", UUID))).as("a failure is not retried at once").isNull();
    assertThat(asked.get()).isZero();

    clock.advance(SourceLinks.RETRY_AFTER);
    assertThat(await(links.titleUrl("md", UUID))).isEqualTo("https://example.org/title/" + UUID);
    assertThat(asked.get()).isEqualTo(1);
  }

  @Test
  void stalePagesAreAnsweredAtOnceAndAskedAgainInTheBackground() throws Exception {
    MessageConsumer<Object> first = scraper(new SourcesReply(List.of(new SourcesReply.Source("md", "t", true,
        "closed", "https://old.example/{titleId}"))));
    SourceLinks links = new SourceLinks(vertx, 2_000, clock);
    assertThat(await(links.titleUrl("md", "t1"))).isEqualTo("https://old.example/t1");
    first.unregister().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    scraper(new SourcesReply(List.of(new SourcesReply.Source("md", "t", true, "closed",
        "https://new.example/{titleId}"))));

    clock.advance(SourceLinks.FRESH_FOR);
    assertThat(await(links.titleUrl("md", "t1"))).as("the kept address while the new one is asked")
        .isEqualTo("https://old.example/t1");
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    String now = null;
    while (System.nanoTime() < until && !"https://new.example/t1".equals(now)) {
      Thread.sleep(20);
      now = await(links.titleUrl("md", "t1"));
    }
    assertThat(now).isEqualTo("https://new.example/t1");
    assertThat(asked.get()).isEqualTo(2);
  }

  @Test
  void onlyAPlainIdIsPutIntoAnAddress() {
    assertThat(SourceLinks.link("https://x.example/t/{titleId}", "abc-1.2_~")).isEqualTo("https://x.example/t/abc-1.2_~");
    assertThat(SourceLinks.link("https://x.example/t/{titleId}", "a b")).isNull();
    assertThat(SourceLinks.link("https://x.example/t/", "abc")).as("an address without the placeholder").isNull();
    assertThat(SourceLinks.link(null, "abc")).isNull();
  }
}
