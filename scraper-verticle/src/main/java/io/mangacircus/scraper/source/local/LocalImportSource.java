package io.mangacircus.scraper.source.local;

import io.mangacircus.contracts.library.PageImageType;
import io.mangacircus.scraper.source.ChapterInfo;
import io.mangacircus.scraper.source.FetchOutcome;
import io.mangacircus.scraper.source.LanguageCode;
import io.mangacircus.scraper.source.PageBytes;
import io.mangacircus.scraper.source.PageRef;
import io.mangacircus.scraper.source.Source;
import io.mangacircus.scraper.source.TitleInfo;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Enumeration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipFile;

/**
 * Imports titles from a folder on disk through the ordinary pipeline: every sub-folder of the import folder is a
 * title, and each CBZ/ZIP archive or image folder inside it is a chapter. Nothing is written or moved here; a corrupt
 * archive or an unreadable entry is a parser outcome (the job is quarantined, other titles go on).
 */
public final class LocalImportSource implements Source {

  /** Page images are the archive entries or files with these extensions. */
  private static final Pattern IMAGE = Pattern.compile("(?i).+\\.(jpe?g|png|webp|gif|avif)");
  private static final Pattern ARCHIVE = Pattern.compile("(?i).+\\.(cbz|zip)");
  private static final Pattern CHAPTER_NUMBER = Pattern.compile("(?i)(?:chapter|chap|ch|c)[ ._-]*(\\d+(?:\\.\\d+)?)");
  private static final Pattern ANY_NUMBER = Pattern.compile("(\\d+(?:\\.\\d+)?)");
  private static final Pattern ID = Pattern.compile("[^/\\\\\\x00-\\x1f]{1,200}");

  /** The largest page read from an archive or folder. */
  public static final long MAX_PAGE_BYTES = 64L * 1024 * 1024;

  private final String name;
  private final Path folder;
  private final String language;

  /** An import folder of English chapters. */
  public LocalImportSource(String name, Path folder) {
    this(name, folder, LanguageCode.DEFAULT);
  }

  /**
   * @param folder the import folder (option {@code folder}); read only
   * @param language the language of every chapter in it (option {@code language}), a code as {@link LanguageCode}
   *     gives it; files say nothing of their language, so one folder holds one language
   */
  public LocalImportSource(String name, Path folder, String language) {
    this.name = name;
    this.folder = folder.toAbsolutePath().normalize();
    this.language = language;
  }

  @Override
  public String name() {
    return name;
  }

  /** A corrupt archive is that title's problem, not a sign that anything changed for the others. */
  @Override
  public boolean parserFailuresAreSystemic() {
    return false;
  }

  /** Local import can search: by folder name. */
  @Override
  public boolean canSearch() {
    return true;
  }

  /**
   * The title folders whose name contains every word of {@code query} (case-insensitive), by name; each with its
   * chapter count (archives and image folders inside it).
   */
  @Override
  public Future<FetchOutcome<List<io.mangacircus.scraper.source.TitleHit>>> search(String query, int limit) {
    List<String> words = java.util.Arrays.stream(query.toLowerCase(Locale.ROOT).split("\\s+"))
        .filter(w -> !w.isEmpty()).toList();
    return blocking(() -> {
      List<io.mangacircus.scraper.source.TitleHit> hits = new ArrayList<>();
      List<Path> titles;
      try (Stream<Path> entries = Files.list(folder)) {
        titles = entries.filter(Files::isDirectory)
            .sorted(Comparator.comparing(p -> p.getFileName().toString())).toList();
      } catch (NoSuchFileException e) {
        return new FetchOutcome.Ok<>(List.of());
      }
      for (Path title : titles) {
        String id = title.getFileName().toString();
        String lower = id.toLowerCase(Locale.ROOT);
        if (hits.size() >= limit || titleFolder(id) == null || !words.stream().allMatch(lower::contains)) {
          continue;
        }
        int chapters;
        try (Stream<Path> entries = Files.list(title)) {
          chapters = (int) entries.filter(p -> Files.isDirectory(p)
              || ARCHIVE.matcher(p.getFileName().toString()).matches()).count();
        }
        hits.add(new io.mangacircus.scraper.source.TitleHit(id, id, List.of(), null, null, List.of(language), chapters,
            null, null));
      }
      return new FetchOutcome.Ok<>(hits);
    });
  }

  @Override
  public Future<FetchOutcome<TitleInfo>> title(String titleRef) {
    return blocking(() -> {
      Path title = titleFolder(titleRef.trim());
      if (title == null) {
        return new FetchOutcome.NotFound<>("no folder '" + titleRef + "' in the import folder " + folder);
      }
      List<ChapterInfo> chapters = new ArrayList<>();
      try (Stream<Path> entries = Files.list(title)) {
        for (Path entry : entries.sorted(Comparator.comparing(p -> p.getFileName().toString())).toList()) {
          String file = entry.getFileName().toString();
          boolean archive = Files.isRegularFile(entry) && ARCHIVE.matcher(file).matches();
          if (!file.startsWith(".") && (archive || hasImages(entry))) {
            String base = archive ? file.substring(0, file.lastIndexOf('.')) : file;
            chapters.add(new ChapterInfo(file, numberOf(base, chapters.size() + 1), base, language));
          }
        }
      }
      chapters.sort(Comparator.comparing((ChapterInfo c) -> new java.math.BigDecimal(c.number()))
          .thenComparing(ChapterInfo::id));
      return new FetchOutcome.Ok<>(new TitleInfo(title.getFileName().toString(), title.getFileName().toString(),
          chapters, List.of(language)));
    });
  }

  @Override
  public Future<FetchOutcome<List<PageRef>>> pages(String titleId, ChapterInfo chapter) {
    return blocking(() -> {
      Path source = chapterPath(titleId, chapter.id());
      if (source == null) {
        return new FetchOutcome.NotFound<>("chapter '" + chapter.id() + "' of '" + titleId + "' is gone");
      }
      List<String> names = new ArrayList<>();
      if (Files.isDirectory(source)) {
        try (Stream<Path> files = Files.list(source)) {
          files.filter(Files::isRegularFile).map(p -> p.getFileName().toString())
              .filter(n -> IMAGE.matcher(n).matches() && !n.startsWith(".")).forEach(names::add);
        }
      } else {
        try (ZipFile zip = new ZipFile(source.toFile())) {
          Enumeration<? extends ZipEntry> entries = zip.entries();
          while (entries.hasMoreElements()) {
            ZipEntry entry = entries.nextElement();
            String n = entry.getName();
            if (!entry.isDirectory() && IMAGE.matcher(n).matches() && !n.startsWith("__MACOSX/")
                && !n.substring(n.lastIndexOf('/') + 1).startsWith(".")) {
              names.add(n);
            }
          }
        } catch (ZipException e) {
          return new FetchOutcome.ParseError<>("archive " + chapter.id() + " of '" + titleId
              + "' is not a readable ZIP/CBZ: " + e.getMessage());
        }
      }
      if (names.isEmpty()) {
        return new FetchOutcome.ParseError<>("chapter " + chapter.id() + " of '" + titleId + "' holds no page images");
      }
      names.sort(NaturalOrder.INSTANCE);
      List<PageRef> pages = new ArrayList<>();
      for (String n : names) {
        pages.add(new PageRef(pages.size() + 1, n, "local:" + titleId + "/" + chapter.id() + "!" + n));
      }
      return new FetchOutcome.Ok<>(pages);
    });
  }

  @Override
  public Future<FetchOutcome<PageBytes>> page(PageRef page) {
    return blocking(() -> {
      String ref = page.url().substring("local:".length());
      int bang = ref.indexOf('!');
      int slash = ref.indexOf('/');
      if (!page.url().startsWith("local:") || bang < 0 || slash < 0 || slash > bang) {
        return new FetchOutcome.ParseError<>("page " + page.index() + " has no local reference");
      }
      Path source = chapterPath(ref.substring(0, slash), ref.substring(slash + 1, bang));
      String entryName = ref.substring(bang + 1);
      if (source == null) {
        return new FetchOutcome.NotFound<>("page " + page.index() + ": its chapter is gone from the import folder");
      }
      byte[] bytes;
      if (Files.isDirectory(source)) {
        Path file = source.resolve(entryName).normalize();
        if (!file.getParent().equals(source) || Files.size(file) > MAX_PAGE_BYTES) {
          return new FetchOutcome.ParseError<>("page " + page.index() + " (" + entryName + ") cannot be imported");
        }
        bytes = Files.readAllBytes(file);
      } else {
        try (ZipFile zip = new ZipFile(source.toFile())) {
          ZipEntry entry = zip.getEntry(entryName);
          if (entry == null) {
            return new FetchOutcome.NotFound<>("page " + page.index() + ": entry " + entryName + " is gone");
          }
          try (InputStream in = zip.getInputStream(entry)) {
            bytes = in.readNBytes((int) MAX_PAGE_BYTES + 1);
          }
          if (bytes.length > MAX_PAGE_BYTES) {
            return new FetchOutcome.ParseError<>("page " + page.index() + " (" + entryName + ") is over 64 MiB");
          }
        } catch (ZipException e) {
          return new FetchOutcome.ParseError<>("page " + page.index() + " (" + entryName + ") cannot be read: "
              + e.getMessage());
        }
      }
      return new FetchOutcome.Ok<>(new PageBytes(PageImageType.mediaType(entryName), bytes));
    });
  }

  /** The title's folder, if {@code id} names a direct sub-folder of the import folder (never anything outside). */
  private Path titleFolder(String id) throws IOException {
    if (!ID.matcher(id).matches() || id.equals(".") || id.equals("..") || id.startsWith(".")) {
      return null;
    }
    Path title = folder.resolve(id).normalize();
    if (!title.getParent().equals(folder) || !Files.isDirectory(title)) {
      return null;
    }
    try {
      return title.toRealPath().startsWith(folder.toRealPath()) ? title : null;
    } catch (NoSuchFileException e) {
      return null;
    }
  }

  private Path chapterPath(String titleId, String chapterId) throws IOException {
    Path title = titleFolder(titleId);
    if (title == null || !ID.matcher(chapterId).matches() || chapterId.startsWith(".")) {
      return null;
    }
    Path chapter = title.resolve(chapterId).normalize();
    return chapter.getParent().equals(title) && Files.exists(chapter) ? chapter : null;
  }

  private static boolean hasImages(Path entry) throws IOException {
    if (!Files.isDirectory(entry)) {
      return false;
    }
    try (Stream<Path> files = Files.list(entry)) {
      return files.anyMatch(p -> Files.isRegularFile(p) && IMAGE.matcher(p.getFileName().toString()).matches());
    }
  }

  /** "Chapter 12.5", "c012", "v01 ch 3" → the chapter number; else the last number; else the position. */
  static String numberOf(String name, int position) {
    Matcher chapter = CHAPTER_NUMBER.matcher(name);
    String found = null;
    while (chapter.find()) {
      found = chapter.group(1);
    }
    if (found == null) {
      Matcher any = ANY_NUMBER.matcher(name);
      while (any.find()) {
        found = any.group(1);
      }
    }
    if (found == null) {
      return String.valueOf(position);
    }
    return new java.math.BigDecimal(found).stripTrailingZeros().toPlainString();
  }

  /** Runs file work off the event loop when called on one (lanes are worker verticles and run it in place). */
  private static <T> Future<FetchOutcome<T>> blocking(Callable<FetchOutcome<T>> work) {
    Callable<FetchOutcome<T>> guarded = () -> {
      try {
        return work.call();
      } catch (IOException e) {
        return new FetchOutcome.ParseError<>("import folder: " + e);
      }
    };
    Context context = Vertx.currentContext();
    if (context == null || !Context.isOnEventLoopThread()) {
      try {
        return Future.succeededFuture(guarded.call());
      } catch (Exception e) {
        return Future.failedFuture(e);
      }
    }
    return context.owner().executeBlocking(guarded, false);
  }

  /** Orders "2.jpg" before "10.jpg": digit runs compare as numbers. */
  static final class NaturalOrder implements Comparator<String> {
    static final NaturalOrder INSTANCE = new NaturalOrder();
    private static final Pattern CHUNK = Pattern.compile("\\d+|\\D+");

    @Override
    public int compare(String a, String b) {
      Matcher x = CHUNK.matcher(a);
      Matcher y = CHUNK.matcher(b);
      while (x.find() && y.find()) {
        String p = x.group();
        String q = y.group();
        int c = Character.isDigit(p.charAt(0)) && Character.isDigit(q.charAt(0))
            ? new java.math.BigInteger(p).compareTo(new java.math.BigInteger(q)) : p.compareToIgnoreCase(q);
        if (c != 0) {
          return c;
        }
      }
      return Integer.compare(a.length(), b.length());
    }
  }
}
