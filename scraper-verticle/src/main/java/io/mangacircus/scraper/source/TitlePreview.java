package io.mangacircus.scraper.source;

import java.time.Instant;
import java.util.List;

/**
 * A title's details and every chapter (all languages, all groups) as a source describes them before anything is
 * added; its cover is the source's own URL.
 *
 * @param titleId the source's title id
 * @param title its name
 * @param altTitles other names
 * @param description may be empty
 * @param tags genres and themes
 * @param year year of first publication, or null
 * @param status e.g. {@code ongoing}, or null
 * @param coverUrl where its cover is, or null
 * @param url the title's page, or null
 * @param groups scanlation groups that uploaded chapters
 * @param chapters every chapter in reading order
 */
public record TitlePreview(String titleId, String title, List<String> altTitles, String description, List<String> tags,
    Integer year, String status, String coverUrl, String url, List<Group> groups, List<Chapter> chapters) {

  public TitlePreview {
    altTitles = List.copyOf(altTitles);
    tags = List.copyOf(tags);
    groups = List.copyOf(groups);
    chapters = List.copyOf(chapters);
  }

  /** A scanlation group. */
  public record Group(String id, String name) {
  }

  /**
   * One chapter.
   *
   * @param info the chapter as inspection lists it (language, schedule, external host)
   * @param groupIds groups that uploaded it
   * @param publishedAt when the source published it, or null
   */
  public record Chapter(ChapterInfo info, List<String> groupIds, Instant publishedAt) {

    public Chapter {
      groupIds = List.copyOf(groupIds);
    }
  }

  /** The languages the chapters are in, in first-seen order. */
  public List<String> languages() {
    return chapters.stream().map(c -> c.info().language()).filter(l -> l != null && !l.isEmpty()).distinct().toList();
  }

  /** A preview made of a title's inspection: its chapters, nothing else known. */
  public static TitlePreview of(TitleInfo info, String url) {
    return new TitlePreview(info.id(), info.title(), List.of(), "", List.of(), null, null, null, url, List.of(),
        info.chapters().stream().map(c -> new Chapter(c, List.of(), null)).toList());
  }
}
