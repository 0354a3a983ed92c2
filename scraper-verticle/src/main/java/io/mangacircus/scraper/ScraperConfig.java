package io.mangacircus.scraper;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The scraper service's typed configuration (the {@code scraper} section of {@code conf/mangacircus.json}).
 *
 * @param statusLogIntervalSeconds how often the scraper logs a one-line heartbeat with its instance id,
 *     in seconds; 0 disables it. Default 300; 0..86400.
 */
public record ScraperConfig(long statusLogIntervalSeconds) {

  @JsonCreator
  public ScraperConfig(@JsonProperty(value = "statusLogIntervalSeconds", required = true) long statusLogIntervalSeconds) {
    this.statusLogIntervalSeconds = statusLogIntervalSeconds;
  }
}
