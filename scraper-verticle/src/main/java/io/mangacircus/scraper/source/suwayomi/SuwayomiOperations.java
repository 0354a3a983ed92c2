package io.mangacircus.scraper.source.suwayomi;

/**
 * The GraphQL operations the bridge sends to a Suwayomi server, as text. Each follows the schema of Suwayomi-Server
 * (paths under {@code server/src/main/kotlin/suwayomi/tachidesk/}); ids of sources are {@code LongString} (sent and
 * answered as JSON strings), ids of mangas and chapters {@code Int}. Only operations present on every server since
 * v1.0.0 are used ({@code fetchManga} and {@code fetchChapters} rather than the newer {@code fetchMangaAndChapters}).
 */
final class SuwayomiOperations {

  private SuwayomiOperations() {
  }

  /**
   * The configured source, for its language and to learn whether it is still installed (an uninstalled extension's
   * source is not listed). {@code graphql/queries/SourceQuery.kt} ({@code source(id: LongString!)}) and
   * {@code graphql/types/SourceType.kt}.
   */
  static final String SOURCE = """
      query Source($id: LongString!) {
        source(id: $id) { id name lang displayName isNsfw }
      }""";

  /**
   * A search of the source, page 1; it writes the found mangas into Suwayomi's database, which gives each its
   * {@code Int} id. {@code graphql/mutations/SourceMutation.kt} ({@code fetchSourceManga}, {@code FetchSourceMangaInput},
   * {@code FetchSourceMangaType.SEARCH}) and {@code graphql/types/MangaType.kt}.
   */
  static final String SEARCH = """
      mutation Search($source: LongString!, $query: String, $page: Int!) {
        fetchSourceManga(input: {source: $source, type: SEARCH, page: $page, query: $query}) {
          hasNextPage
          mangas { id title thumbnailUrl url realUrl initialized sourceId author artist description genre status }
        }
      }""";

  /**
   * A manga's details, fetched from the source. {@code graphql/mutations/MangaMutation.kt} ({@code fetchManga},
   * {@code FetchMangaInput}) and {@code graphql/types/MangaType.kt}.
   */
  static final String MANGA = """
      mutation MangaDetails($id: Int!) {
        fetchManga(input: {id: $id}) {
          manga { id title description author artist genre status thumbnailUrl url realUrl sourceId initialized }
        }
      }""";

  /**
   * A manga's chapter list, fetched from the source, ordered by {@code sourceOrder} (1 = oldest).
   * {@code graphql/mutations/ChapterMutation.kt} ({@code fetchChapters}, {@code FetchChaptersInput}) and
   * {@code graphql/types/ChapterType.kt} ({@code uploadDate}: epoch milliseconds as a string).
   */
  static final String CHAPTERS = """
      mutation Chapters($mangaId: Int!) {
        fetchChapters(input: {mangaId: $mangaId}) {
          chapters { id name chapterNumber scanlator uploadDate sourceOrder url realUrl pageCount mangaId }
        }
      }""";

  /**
   * A chapter's page list, fetched from the source right before its pages are read: the answer's paths
   * ({@code /api/v1/manga/{mangaId}/chapter/{sourceOrder}/page/{index}}) serve images only after this call, and
   * {@code sourceOrder} shifts when the source adds chapters, so they are never built from older answers.
   * {@code graphql/mutations/ChapterMutation.kt} ({@code fetchChapterPages}, {@code FetchChapterPagesInput}).
   */
  static final String PAGES = """
      mutation Pages($chapterId: Int!) {
        fetchChapterPages(input: {chapterId: $chapterId}) { pages chapter { id mangaId sourceOrder pageCount } }
      }""";

  /**
   * Every source the server has installed, for an operator choosing a {@code sourceId}; with no {@code first} the
   * whole list comes in one answer. {@code graphql/queries/SourceQuery.kt} ({@code sources}, {@code SourceNodeList}),
   * {@code graphql/types/SourceType.kt} and {@code graphql/types/ExtensionType.kt}.
   */
  static final String INSTALLED_SOURCES = """
      query InstalledSources {
        sources { nodes { id name lang displayName isNsfw extension { pkgName } } }
      }""";
}
