package io.mangacircus.reader.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The service worker keeps what the pages readable offline need to start: every script, style and image the library,
 * series, reader and offline pages load, and every module those scripts import, however deep. A module added to the
 * reader and missing from the worker's list would leave a stored chapter unreadable offline. Those pages also preload
 * every module they import, so a page opened from the worker's copies fetches its scripts in one round.
 */
class ServiceWorkerAssetsTest {

  private static final Set<String> OFFLINE_PAGES = Set.of("/index.html", "/series.html", "/read.html",
      "/offline.html");
  private static final Pattern PAGE_ASSET = Pattern.compile("(?:src|href)=\"(/[^\"?#]+\\.(?:js|css|svg|png))\"");
  private static final Pattern IMPORT = Pattern.compile(
      "(?:import\\s[^'\"]*?from\\s*|import\\s*\\(\\s*|import\\s+)['\"](\\.{1,2}/[^'\"]+|/[^'\"]+)['\"]");
  private static final Pattern STATIC_IMPORT = Pattern.compile(
      "^import\\s[^'\"]*?from\\s*['\"](\\.{1,2}/[^'\"]+)['\"]|^import\\s+['\"](\\.{1,2}/[^'\"]+)['\"]",
      Pattern.MULTILINE);
  private static final Pattern MODULE_SCRIPT = Pattern.compile("<script type=\"module\" src=\"(/[^\"]+)\"");
  private static final Pattern MODULE_PRELOAD = Pattern.compile("<link rel=\"modulepreload\" href=\"(/[^\"]+)\"");
  private static final Pattern ASSETS = Pattern.compile("const ASSETS = \\[(.*?)\\];", Pattern.DOTALL);

  private static String webroot(String path) throws IOException {
    try (InputStream in = ServiceWorkerAssetsTest.class.getResourceAsStream("/webroot" + path)) {
      assertThat(in).as("webroot" + path).isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /** A module path resolved against the module importing it. */
  private static String resolve(String from, String target) {
    if (target.startsWith("/")) {
      return target;
    }
    Deque<String> parts = new ArrayDeque<>();
    String[] base = from.substring(1).split("/");
    for (int i = 0; i < base.length - 1; i++) {
      parts.addLast(base[i]);
    }
    for (String part : target.split("/")) {
      if (part.equals("..")) {
        parts.removeLast();
      } else if (!part.equals(".")) {
        parts.addLast(part);
      }
    }
    return "/" + String.join("/", parts);
  }

  @Test
  void theWorkerKeepsEveryAssetTheOfflinePagesLoadAndEveryModuleTheyImport() throws IOException {
    Set<String> needed = new LinkedHashSet<>(OFFLINE_PAGES);
    Deque<String> modules = new ArrayDeque<>();
    for (String page : OFFLINE_PAGES) {
      Matcher asset = PAGE_ASSET.matcher(webroot(page));
      while (asset.find()) {
        if (needed.add(asset.group(1)) && asset.group(1).endsWith(".js")) {
          modules.add(asset.group(1));
        }
      }
    }
    while (!modules.isEmpty()) {
      String module = modules.removeFirst();
      Matcher imported = IMPORT.matcher(webroot(module));
      while (imported.find()) {
        String path = resolve(module, imported.group(1));
        if (needed.add(path)) {
          modules.add(path);
        }
      }
    }
    Matcher list = ASSETS.matcher(webroot("/sw.js"));
    assertThat(list.find()).as("sw.js declares const ASSETS = [...]").isTrue();
    Set<String> kept = new TreeSet<>();
    Matcher entry = Pattern.compile("'([^']+)'").matcher(list.group(1));
    while (entry.find()) {
      kept.add(entry.group(1));
    }

    assertThat(needed).as("the offline pages' scripts, styles and images, imports included").contains("/js/read.js",
        "/js/reader/view.js");
    Set<String> missing = new TreeSet<>(needed);
    missing.removeAll(kept);
    assertThat(missing).as("loaded by a page readable offline but not kept by sw.js").isEmpty();
  }

  @Test
  void everyPageReadableOfflinePreloadsEveryModuleItsScriptsImport() throws IOException {
    for (String page : OFFLINE_PAGES) {
      String html = webroot(page);
      Set<String> scripts = new LinkedHashSet<>();
      Matcher script = MODULE_SCRIPT.matcher(html);
      while (script.find()) {
        scripts.add(script.group(1));
      }
      Set<String> imported = new TreeSet<>();
      Deque<String> modules = new ArrayDeque<>(scripts);
      while (!modules.isEmpty()) {
        String module = modules.removeFirst();
        Matcher found = STATIC_IMPORT.matcher(webroot(module));
        while (found.find()) {
          String path = resolve(module, found.group(1) != null ? found.group(1) : found.group(2));
          if (!scripts.contains(path) && imported.add(path)) {
            modules.add(path);
          }
        }
      }
      Set<String> preloaded = new TreeSet<>();
      Matcher preload = MODULE_PRELOAD.matcher(html);
      while (preload.find()) {
        preloaded.add(preload.group(1));
      }
      assertThat(imported).as(page + ": its scripts import modules").isNotEmpty();
      assertThat(preloaded).as(page + ": modulepreload links, one per imported module").isEqualTo(imported);
    }
  }
}
