package io.mangacircus.scraper.queue;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.mangacircus.contracts.rating.AgeRating;
import java.time.Instant;
import java.util.List;

/**
 * One title to download from one source, as persisted in {@code queue.json}. Immutable: the queue replaces it.
 *
 * @param id stable job id
 * @param source source name
 * @param titleId the source's title id (the dedupe key is source + titleId)
 * @param title human title, known after inspection (the title id until then)
 * @param state current state
 * @param inspected whether metadata was read
 * @param confirmed whether the operator (or auto-confirm) allowed the download
 * @param attempts failed attempts that count against the limit (system interruptions do not)
 * @param interruptions stops that were the system's own doing (shutdown, lease expiry, crash)
 * @param createdAt when it was added
 * @param updatedAt last change
 * @param leasedUntil lease expiry while a lane works on it, else null
 * @param leaseOwner the lane holding the lease, else null
 * @param retryAt when a {@code retry_wait} job becomes pending again, else null
 * @param reason why it is paused, waiting, unavailable or quarantined, else null
 * @param chapters its chapters in reading order
 * @param networkRetries job-level retries spent on network failures (one is allowed; the next failure quarantines)
 * @param stalls stall recoveries so far (one requeue; the next stall quarantines); an operator retry resets it
 * @param language the language to download ({@code en} for a job saved before jobs had one)
 * @param preferredGroups scanlation group ids in order of preference (empty: the first uploaded of each number)
 * @param ageRating the source's age rating of the title as its last inspection found it, an {@link AgeRating#code()};
 *     null when the source gives none (and for a job saved before jobs had one), left out of the file then
 */
public record Job(String id, String source, String titleId, String title, JobState state, boolean inspected,
    boolean confirmed, int attempts, int interruptions, Instant createdAt, Instant updatedAt, Instant leasedUntil,
    String leaseOwner, Instant retryAt, String reason, List<ChapterEntry> chapters, int networkRetries, int stalls,
    String language, List<String> preferredGroups, @JsonInclude(JsonInclude.Include.NON_NULL) String ageRating) {

  public Job {
    chapters = List.copyOf(chapters);
    language = language == null || language.isBlank() ? "en" : language;
    preferredGroups = preferredGroups == null ? List.of() : List.copyOf(preferredGroups);
    // Unknown codes (a file edited by hand) say nothing, as unrated does.
    ageRating = AgeRating.fromCode(ageRating == null ? "" : ageRating).filter(AgeRating::rated).map(AgeRating::code)
        .orElse(null);
  }

  /** A job its source has not rated (yet). */
  public Job(String id, String source, String titleId, String title, JobState state, boolean inspected,
      boolean confirmed, int attempts, int interruptions, Instant createdAt, Instant updatedAt, Instant leasedUntil,
      String leaseOwner, Instant retryAt, String reason, List<ChapterEntry> chapters, int networkRetries, int stalls,
      String language, List<String> preferredGroups) {
    this(id, source, titleId, title, state, inspected, confirmed, attempts, interruptions, createdAt, updatedAt,
        leasedUntil, leaseOwner, retryAt, reason, chapters, networkRetries, stalls, language, preferredGroups, null);
  }

  /** A job in English without a group preference (as every job was before jobs had a language). */
  public Job(String id, String source, String titleId, String title, JobState state, boolean inspected,
      boolean confirmed, int attempts, int interruptions, Instant createdAt, Instant updatedAt, Instant leasedUntil,
      String leaseOwner, Instant retryAt, String reason, List<ChapterEntry> chapters, int networkRetries, int stalls) {
    this(id, source, titleId, title, state, inspected, confirmed, attempts, interruptions, createdAt, updatedAt,
        leasedUntil, leaseOwner, retryAt, reason, chapters, networkRetries, stalls, "en", List.of());
  }

  /** The source's age rating of the title ({@link AgeRating#UNRATED} when it gives none). */
  @JsonIgnore
  public AgeRating rating() {
    return ageRating == null ? AgeRating.UNRATED : AgeRating.fromCode(ageRating).orElse(AgeRating.UNRATED);
  }

  /** The dedupe key. */
  public String key() {
    return key(source, titleId);
  }

  /** The dedupe key of a source and title id. */
  public static String key(String source, String titleId) {
    return source + "\u0000" + titleId;
  }

  /** Chapters published so far. */
  public long publishedChapters() {
    return chapters.stream().filter(c -> c.stage() == ChapterStage.PUBLISHED).count();
  }

  /** Whether every chapter has reached a terminal stage or has nothing to download yet (scheduled, external). */
  public boolean allChaptersSettled() {
    return chapters.stream().allMatch(c -> c.stage().terminal() || c.stage().awaitsSource());
  }

  Job with(JobState newState, Instant now, String why) {
    return new Job(id, source, titleId, title, newState, inspected, confirmed, attempts, interruptions, createdAt, now,
        newState == JobState.ACTIVE ? leasedUntil : null, newState == JobState.ACTIVE ? leaseOwner : null,
        newState == JobState.RETRY_WAIT ? retryAt : null, why, chapters, networkRetries, stalls, language, preferredGroups,
        ageRating);
  }

  Job withLease(Instant until, String owner) {
    return new Job(id, source, titleId, title, state, inspected, confirmed, attempts, interruptions, createdAt,
        updatedAt, until, owner, retryAt, reason, chapters, networkRetries, stalls, language, preferredGroups,
        ageRating);
  }

  Job withCounters(int newAttempts, int newInterruptions) {
    return new Job(id, source, titleId, title, state, inspected, confirmed, newAttempts, newInterruptions, createdAt,
        updatedAt, leasedUntil, leaseOwner, retryAt, reason, chapters, networkRetries, stalls, language, preferredGroups,
        ageRating);
  }

  Job withRetryAt(Instant at) {
    return new Job(id, source, titleId, title, state, inspected, confirmed, attempts, interruptions, createdAt,
        updatedAt, leasedUntil, leaseOwner, at, reason, chapters, networkRetries, stalls, language, preferredGroups,
        ageRating);
  }

  Job withInspection(String newTitle, List<ChapterEntry> newChapters, boolean isConfirmed, AgeRating newRating) {
    return new Job(id, source, titleId, newTitle, state, true, isConfirmed, attempts, interruptions, createdAt,
        updatedAt, leasedUntil, leaseOwner, retryAt, reason, newChapters, networkRetries, stalls, language,
        preferredGroups,
        newRating == null ? null : newRating.code());
  }

  Job withConfirmed() {
    return new Job(id, source, titleId, title, state, inspected, true, attempts, interruptions, createdAt, updatedAt,
        leasedUntil, leaseOwner, retryAt, reason, chapters, networkRetries, stalls, language, preferredGroups,
        ageRating);
  }

  Job withFailureCounters(int newNetworkRetries, int newStalls) {
    return new Job(id, source, titleId, title, state, inspected, confirmed, attempts, interruptions, createdAt,
        updatedAt, leasedUntil, leaseOwner, retryAt, reason, chapters, newNetworkRetries, newStalls, language, preferredGroups,
        ageRating);
  }

  Job withChapters(List<ChapterEntry> newChapters, Instant now) {
    return new Job(id, source, titleId, title, state, inspected, confirmed, attempts, interruptions, createdAt, now,
        leasedUntil, leaseOwner, retryAt, reason, newChapters, networkRetries, stalls, language, preferredGroups,
        ageRating);
  }
}
