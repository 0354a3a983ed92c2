package io.mangacircus.contracts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

/** The jobs list request: an old client's {@code {v:1}} asks for every job; paging is checked with clear reasons. */
class JobsListRequestTest {

  @Test
  void anOldClientsRequestAsksForEveryJob() {
    JobsListRequest request = JobsListRequest.fromJson(ScraperRequests.list());

    assertThat(request).isEqualTo(JobsListRequest.all());
    assertThat(request.paged()).isFalse();
  }

  @Test
  void pageAndSizeMayBeNumbersOrDigitsAndDefaultEachOther() {
    assertThat(JobsListRequest.fromJson(new JsonObject().put("v", 1).put("page", "3").put("size", 20)))
        .isEqualTo(new JobsListRequest(null, 3, 20));
    JobsListRequest onlyPage = JobsListRequest.fromJson(new JsonObject().put("v", 1).put("page", 2));
    assertThat(onlyPage.sizeOrDefault()).isEqualTo(JobsListRequest.DEFAULT_SIZE);
    JobsListRequest onlySize = JobsListRequest.fromJson(new JsonObject().put("v", 1).put("size", "10"));
    assertThat(onlySize.pageOrFirst()).isEqualTo(1);
    assertThat(JobsListRequest.fromJson(new JobsListRequest("done", 4, 200).toJson()))
        .isEqualTo(new JobsListRequest("done", 4, 200));
  }

  @Test
  void aBadPageSizeOrStateIsRefusedNamingIt() {
    assertThatThrownBy(() -> JobsListRequest.fromJson(new JsonObject().put("v", 1).put("size", 201)))
        .isInstanceOf(InvalidMessageException.class).hasMessageContaining("'size' must be from 1 to 200, got 201");
    assertThatThrownBy(() -> JobsListRequest.fromJson(new JsonObject().put("v", 1).put("page", "1.5")))
        .hasMessageContaining("'page' must be a whole number");
    assertThatThrownBy(() -> JobsListRequest.fromJson(new JsonObject().put("v", 1).put("page", 0)))
        .hasMessageContaining("'page' must be from 1");
    assertThatThrownBy(() -> JobsListRequest.fromJson(new JsonObject().put("v", 1).put("state", "asleep")))
        .hasMessageContaining("unknown state 'asleep'");
  }
}
