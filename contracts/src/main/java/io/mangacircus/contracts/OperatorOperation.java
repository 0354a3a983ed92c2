package io.mangacircus.contracts;

import io.vertx.core.http.HttpMethod;
import java.util.List;
import java.util.function.Function;

/**
 * The operator's scraper operations, declared once: each is one scraper request address, the reader's HTTP admin route
 * that forwards to it and the console bridge's permission to send to it. The reader generates its routes and the
 * bridge's inbound allow-list from this table, and the scraper registers one consumer per row (its
 * {@code operator.OperatorRequests}); adding an operation is one line here, its address in {@link Addresses} and the
 * scraper's handler for the row (docs/architecture.md, "Where a change goes").
 *
 * <p>A route's request message is {@code {v: version}}, plus every path parameter under its own name, plus the listed
 * body fields copied from the JSON body (a route with body fields needs a JSON object body), plus the listed query
 * parameters.
 */
public enum OperatorOperation {

  /** {@code ?state=&page=&size=} (every job without page and size; docs/api.md). */
  JOBS_LIST(Addresses.SCRAPER_JOBS_LIST, HttpMethod.GET, "/api/admin/jobs", JobsListRequest::fromJson,
      JobsListRequest.VERSION, List.of(), 200, List.of("state", "page", "size")),
  /** 201 with the new job; 200 when an outstanding job for the same title already existed (reply's {@code created}). */
  JOBS_ADD(Addresses.SCRAPER_JOBS_ADD, HttpMethod.POST, "/api/admin/jobs", AddTitleRequest::fromJson,
      AddTitleRequest.VERSION, List.of("source", "title", "autoConfirm", "language", "preferredGroups", "follow"), 201),
  JOBS_CONFIRM(Addresses.SCRAPER_JOBS_CONFIRM, HttpMethod.POST, "/api/admin/jobs/:jobId/confirm", JobRequest::fromJson,
      JobRequest.VERSION, List.of(), 200),
  JOBS_PAUSE(Addresses.SCRAPER_JOBS_PAUSE, HttpMethod.POST, "/api/admin/jobs/:jobId/pause", JobRequest::fromJson,
      JobRequest.VERSION, List.of(), 200),
  JOBS_RESUME(Addresses.SCRAPER_JOBS_RESUME, HttpMethod.POST, "/api/admin/jobs/:jobId/resume", JobRequest::fromJson,
      JobRequest.VERSION, List.of(), 200),
  JOBS_RETRY(Addresses.SCRAPER_JOBS_RETRY, HttpMethod.POST, "/api/admin/jobs/:jobId/retry", JobRequest::fromJson,
      JobRequest.VERSION, List.of(), 200),
  /** A failed job leaves the queue (its published chapters stay). */
  JOBS_DISMISS(Addresses.SCRAPER_JOBS_DISMISS, HttpMethod.POST, "/api/admin/jobs/:jobId/dismiss", JobRequest::fromJson,
      JobRequest.VERSION, List.of(), 200),
  /** A finished job leaves the queue (its published chapters stay). */
  JOBS_DELETE(Addresses.SCRAPER_JOBS_DELETE, HttpMethod.DELETE, "/api/admin/jobs/:jobId", JobRequest::fromJson,
      JobRequest.VERSION, List.of(), 200),
  INCIDENTS_LIST(Addresses.SCRAPER_INCIDENTS_LIST, HttpMethod.GET, "/api/admin/incidents", ScraperRequests::checkList,
      ScraperRequests.VERSION, List.of(), 200),
  LANES_LIST(Addresses.SCRAPER_LANES_LIST, HttpMethod.GET, "/api/admin/lanes", ScraperRequests::checkList,
      ScraperRequests.VERSION, List.of(), 200),
  LANES_PAUSE(Addresses.SCRAPER_LANES_PAUSE, HttpMethod.POST, "/api/admin/lanes/:source/pause", LaneRequest::fromJson,
      LaneRequest.VERSION, List.of(), 200),
  LANES_RESUME(Addresses.SCRAPER_LANES_RESUME, HttpMethod.POST, "/api/admin/lanes/:source/resume",
      LaneRequest::fromJson, LaneRequest.VERSION, List.of(), 200),
  LANES_PACING(Addresses.SCRAPER_LANES_PACING, HttpMethod.PUT, "/api/admin/lanes/:source/pacing",
      LanePacingRequest::fromJson, LanePacingRequest.VERSION, List.of("pageDelayMs", "chapterDelayMs"), 200),
  DISCOVERY_GET(Addresses.SCRAPER_DISCOVERY_GET, HttpMethod.GET, "/api/admin/discovery", ScraperRequests::checkList,
      ScraperRequests.VERSION, List.of(), 200),
  DISCOVERY_SET(Addresses.SCRAPER_DISCOVERY_SET, HttpMethod.PUT, "/api/admin/discovery",
      DiscoverySettingsRequest::fromJson, DiscoverySettingsRequest.VERSION, List.of("enabled", "time"), 200),
  DISCOVERY_RUN(Addresses.SCRAPER_DISCOVERY_RUN, HttpMethod.POST, "/api/admin/discovery/run",
      ScraperRequests::checkList, ScraperRequests.VERSION, List.of(), 200);

  private final String address;
  private final HttpMethod method;
  private final String path;
  private final Function<Object, ?> decoder;
  private final int version;
  private final List<String> bodyFields;
  private final int successStatus;
  private final List<String> queryFields;

  OperatorOperation(String address, HttpMethod method, String path, Function<Object, ?> decoder, int version,
      List<String> bodyFields, int successStatus) {
    this(address, method, path, decoder, version, bodyFields, successStatus, List.of());
  }

  OperatorOperation(String address, HttpMethod method, String path, Function<Object, ?> decoder, int version,
      List<String> bodyFields, int successStatus, List<String> queryFields) {
    this.queryFields = queryFields;
    this.address = address;
    this.method = method;
    this.path = path;
    this.decoder = decoder;
    this.version = version;
    this.bodyFields = bodyFields;
    this.successStatus = successStatus;
  }

  /** The scraper's request/reply address ({@link Addresses}). */
  public String address() {
    return address;
  }

  /** The HTTP method of the reader's admin route. */
  public HttpMethod method() {
    return method;
  }

  /** The reader's admin route; its {@code :name} parameters become the message fields of the same names. */
  public String path() {
    return path;
  }

  /** The request record's decoder ({@code fromJson}), which the scraper's consumer applies to the message body. */
  public Function<Object, ?> decoder() {
    return decoder;
  }

  /** The message version ({@code v}) the route sends. */
  public int version() {
    return version;
  }

  /** The fields the route copies from its JSON body into the message (none: the body is not read). */
  public List<String> bodyFields() {
    return bodyFields;
  }

  /**
   * The query parameters the route copies into the message, as text (absent ones are left out); a route with query
   * fields checks its message with {@link #decoder} before sending it, so bad input is a 400 from the reader.
   */
  public List<String> queryFields() {
    return queryFields;
  }

  /** The HTTP status of a successful answer. */
  public int successStatus() {
    return successStatus;
  }
}
