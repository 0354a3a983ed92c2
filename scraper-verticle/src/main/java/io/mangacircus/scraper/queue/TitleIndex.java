package io.mangacircus.scraper.queue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The ids of each title's jobs (source and title id), in the queue's order: an add looks its title up here instead of
 * walking every job (a walk over 10,000 jobs touched each one's strings: most of an add's time). A job's source and
 * title never change, so only adding and removing a job change this. Under the queue's lock.
 */
final class TitleIndex {

  private final Map<String, List<String>> idsByTitle = new HashMap<>();

  /** The ids of the title's jobs, in the queue's order; empty when it has none. */
  List<String> ids(String source, String titleId) {
    return idsByTitle.getOrDefault(titleKey(source, titleId), List.of());
  }

  void add(Job job) {
    idsByTitle.computeIfAbsent(titleKey(job.source(), job.titleId()), key -> new ArrayList<>(1)).add(job.id());
  }

  void remove(Job job) {
    String key = titleKey(job.source(), job.titleId());
    List<String> ids = idsByTitle.get(key);
    if (ids != null && ids.remove(job.id()) && ids.isEmpty()) {
      idsByTitle.remove(key);
    }
  }

  private static String titleKey(String source, String titleId) {
    return source + '\u0000' + titleId;
  }
}
