package io.mangacircus.reader.library.metadata;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.contracts.rating.AgeRating;
import io.mangacircus.reader.library.metadata.BookComicInfo.Manga;
import io.mangacircus.reader.library.metadata.ComicInfoReader.Missing;
import io.mangacircus.reader.library.metadata.ComicInfoReader.Parsed;
import io.mangacircus.reader.library.metadata.ComicInfoReader.Result;
import io.mangacircus.reader.library.metadata.ComicInfoReader.Unusable;
import io.mangacircus.reader.library.metadata.SeriesMetadata.Author;
import io.mangacircus.reader.library.metadata.SeriesMetadata.Role;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What is read from a ComicInfo.xml, and that hostile or broken ones end as a reason, never as harm. */
class ComicInfoReaderTest {

  static final String FULL = """
      <?xml version="1.0" encoding="utf-8"?>
      <ComicInfo xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
        <Title>  The Bell  </Title>
        <Series>Frieren: Beyond Journey's End</Series>
        <Number>10.5</Number>
        <Count>13</Count>
        <Volume>2</Volume>
        <Summary>An elf mage
      outlives\ther party.</Summary>
        <Year>2020</Year>
        <Month>4</Month>
        <Day>17</Day>
        <Writer>Kanehito Yamada</Writer>
        <Penciller>Tsukasa Abe, Second Artist</Penciller>
        <Inker>Ink One</Inker>
        <Colorist>Color One</Colorist>
        <Letterer>Letter One</Letterer>
        <CoverArtist>Cover One</CoverArtist>
        <Editor>Edit One</Editor>
        <Translator>Trans One</Translator>
        <Publisher>Shogakukan</Publisher>
        <Genre>Fantasy, Adventure,  , fantasy</Genre>
        <Tags>elves, magic</Tags>
        <Web>https://mangadex.org/title/abc  javascript:alert(1) http://example.org/x not-a-url</Web>
        <LanguageISO>pt_BR</LanguageISO>
        <Manga>YesAndRightToLeft</Manga>
        <AgeRating>Teen</AgeRating>
        <Pages><Page Image="0" Type="FrontCover"><Title>ignored</Title></Page></Pages>
        <SomethingNew>ignored</SomethingNew>
      </ComicInfo>
      """;

  @TempDir
  Path dir;

  private static BookComicInfo parsed(Result result) {
    assertThat(result).as(result.toString()).isInstanceOf(Parsed.class);
    return ((Parsed) result).info();
  }

  private static String unusable(Result result) {
    assertThat(result).as(result.toString()).isInstanceOf(Unusable.class);
    return ((Unusable) result).reason();
  }

  private static Result parse(String xml) {
    return ComicInfoReader.parse(xml.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void everySupportedElementIsReadTrimmedAndCleaned() {
    BookComicInfo info = parsed(parse(FULL));
    assertThat(info.title()).isEqualTo("The Bell");
    assertThat(info.series()).isEqualTo("Frieren: Beyond Journey's End");
    assertThat(info.number()).isEqualTo("10.5");
    assertThat(info.count()).isEqualTo(13);
    assertThat(info.volume()).isEqualTo(2);
    assertThat(info.summary()).isEqualTo("An elf mage\noutlives her party.");
    assertThat(info.year()).isEqualTo(2020);
    assertThat(info.month()).isEqualTo(4);
    assertThat(info.day()).isEqualTo(17);
    assertThat(info.authors()).containsExactly(
        new Author("Kanehito Yamada", Role.WRITER),
        new Author("Tsukasa Abe", Role.PENCILLER),
        new Author("Second Artist", Role.PENCILLER),
        new Author("Ink One", Role.INKER),
        new Author("Color One", Role.COLORIST),
        new Author("Letter One", Role.LETTERER),
        new Author("Cover One", Role.COVER),
        new Author("Edit One", Role.EDITOR),
        new Author("Trans One", Role.TRANSLATOR));
    assertThat(info.publisher()).isEqualTo("Shogakukan");
    assertThat(info.genres()).containsExactly("Fantasy", "Adventure");
    assertThat(info.tags()).containsExactly("elves", "magic");
    assertThat(info.links()).containsExactly("https://mangadex.org/title/abc", "http://example.org/x");
    assertThat(info.language()).isEqualTo("pt-BR");
    assertThat(info.manga()).isEqualTo(Manga.YES_AND_RIGHT_TO_LEFT);
    assertThat(info.ageRating()).isEqualTo(AgeRating.fromComicInfo("Teen"));
  }

  @Test
  void aMinimalFileLeavesEverythingElseMissing() {
    BookComicInfo info = parsed(parse("<ComicInfo><Series>Solo</Series><Year>-1</Year><Count>x</Count></ComicInfo>"));
    assertThat(info.series()).isEqualTo("Solo");
    assertThat(info.year()).isNull();
    assertThat(info.count()).isNull();
    assertThat(info.title()).isNull();
    assertThat(info.summary()).isNull();
    assertThat(info.authors()).isEmpty();
    assertThat(info.genres()).isEmpty();
    assertThat(info.links()).isEmpty();
    assertThat(info.language()).isNull();
    assertThat(info.manga()).isNull();
    assertThat(info.ageRating()).isEqualTo(AgeRating.UNRATED);
  }

  @Test
  void controlCharactersAreDropped() {
    BookComicInfo info = parsed(parse("<?xml version=\"1.1\"?><ComicInfo><Series>Bell&#x7;s&#x1b;[31m</Series>"
        + "<Summary>one&#x1;\ntwo</Summary></ComicInfo>"));
    assertThat(info.series()).isEqualTo("Bells[31m");
    assertThat(info.summary()).isEqualTo("one\ntwo");
  }

  @Test
  void aMalformedFileGivesItsReason() {
    assertThat(unusable(parse("<ComicInfo><Series>Cut short</Ser"))).startsWith("ComicInfo.xml is not well-formed");
    assertThat(unusable(parse(""))).startsWith("ComicInfo.xml is not well-formed");
    assertThat(unusable(parse("<Comic><Series>x</Series></Comic>"))).isEqualTo("root element is <Comic>, not <ComicInfo>");
  }

  @Test
  void aDeclaredEncodingIsHonouredAndInvalidBytesAreRefusedWithoutPrintingAnything() throws IOException {
    byte[] latin1 = "<?xml version='1.0' encoding='ISO-8859-1'?><ComicInfo><Series>Caf\u00e9</Series></ComicInfo>"
        .getBytes(StandardCharsets.ISO_8859_1);
    assertThat(parsed(ComicInfoReader.parse(latin1)).series()).isEqualTo("Caf\u00e9");
    java.io.PrintStream stderr = System.err;
    java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
    System.setErr(new java.io.PrintStream(printed, true, StandardCharsets.UTF_8));
    try {
      byte[] notUtf8 = "<ComicInfo><Series>Caf\u00e9</Series></ComicInfo>".getBytes(StandardCharsets.ISO_8859_1);
      assertThat(unusable(ComicInfoReader.parse(notUtf8))).isEqualTo("ComicInfo.xml holds bytes that are not valid UTF-8");
    } finally {
      System.setErr(stderr);
    }
    assertThat(printed.toString(StandardCharsets.UTF_8)).isEmpty();
  }

  @Test
  void oddBytesGiveAReasonNeverAnException() {
    assertThat(parse("<?xml version=\"1.0\" encoding=\"x-no-such-charset\"?><ComicInfo/>"))
        .isInstanceOf(Unusable.class);
    assertThat(parse("<ComicInfo><Series>&undeclared;</Series></ComicInfo>")).isInstanceOf(Unusable.class);
    assertThat(ComicInfoReader.parse(new byte[] {(byte) 0xFE, (byte) 0xFF, 0, '<', 0})).isInstanceOf(Unusable.class);
    byte[] noise = new byte[4096];
    new java.util.Random(36).nextBytes(noise);
    assertThat(ComicInfoReader.parse(noise)).isInstanceOf(Unusable.class);
    assertThat(parsed(parse("\uFEFF<ComicInfo><Series>BOM</Series></ComicInfo>")).series()).isEqualTo("BOM");
  }

  @Test
  void anExternalEntityIsNeverResolved() throws IOException {
    Path secret = Files.writeString(dir.resolve("secret.txt"), "TOP-SECRET-CONTENT");
    String xml = "<?xml version=\"1.0\"?>\n<!DOCTYPE ComicInfo [<!ENTITY xxe SYSTEM \"" + secret.toUri() + "\">]>\n"
        + "<ComicInfo><Summary>&xxe;</Summary></ComicInfo>";
    String reason = unusable(parse(xml));
    assertThat(reason).contains("DOCTYPE").doesNotContain("TOP-SECRET-CONTENT");
    String external = "<!DOCTYPE ComicInfo SYSTEM \"" + secret.toUri() + "\"><ComicInfo><Series>x</Series></ComicInfo>";
    assertThat(unusable(parse(external))).contains("DOCTYPE").doesNotContain("TOP-SECRET-CONTENT");
  }

  @Test
  void anEntityBombIsRefusedQuickly() {
    StringBuilder xml = new StringBuilder("<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n<!ENTITY lol \"lol\">\n");
    for (int i = 1; i <= 9; i++) {
      xml.append("<!ENTITY lol").append(i).append(" \"");
      xml.append(("&lol" + (i == 1 ? "" : i - 1) + ";").repeat(10)).append("\">\n");
    }
    xml.append("]>\n<ComicInfo><Summary>&lol9;</Summary></ComicInfo>");
    long start = System.nanoTime();
    String reason = unusable(parse(xml.toString()));
    assertThat(reason).contains("DOCTYPE");
    assertThat((System.nanoTime() - start) / 1_000_000).as("milliseconds to refuse").isLessThan(2_000);
  }

  @Test
  void aFileOverTheCapIsRefusedBeforeParsing() {
    byte[] big = new byte[ComicInfoReader.MAX_BYTES + 1];
    assertThat(unusable(ComicInfoReader.parse(big))).isEqualTo("ComicInfo.xml is " + big.length
        + " bytes; at most " + ComicInfoReader.MAX_BYTES + " are read");
  }

  @Test
  void aComicInfoIsFoundInStoredAndDeflatedArchivesAtTheRootAndOneFolderDownInAnyCase() throws IOException {
    for (boolean stored : new boolean[] {true, false}) {
      Path root = TestCbz.write(dir.resolve("root-" + stored + ".cbz"), stored,
          "001.jpg", "image", "comicinfo.XML", FULL);
      assertThat(parsed(ComicInfoReader.fromArchive(root)).series()).isEqualTo("Frieren: Beyond Journey's End");
      Path nested = TestCbz.write(dir.resolve("nested-" + stored + ".cbz"), stored,
          "Vol 1/001.jpg", "image", "Vol 1/COMICINFO.xml", "<ComicInfo><Series>Nested</Series></ComicInfo>");
      assertThat(parsed(ComicInfoReader.fromArchive(nested)).series()).isEqualTo("Nested");
    }
  }

  @Test
  void theRootComicInfoWinsAndDeeperOrHiddenOnesAreIgnored() throws IOException {
    Path both = TestCbz.write(dir.resolve("both.cbz"), false,
        "A/ComicInfo.xml", "<ComicInfo><Series>Folder</Series></ComicInfo>",
        "ComicInfo.xml", "<ComicInfo><Series>Root</Series></ComicInfo>");
    assertThat(parsed(ComicInfoReader.fromArchive(both)).series()).isEqualTo("Root");
    Path deep = TestCbz.write(dir.resolve("deep.cbz"), true,
        "a/b/ComicInfo.xml", "<ComicInfo/>", "__MACOSX/ComicInfo.xml", "<ComicInfo/>", "001.jpg", "image");
    assertThat(ComicInfoReader.fromArchive(deep)).isInstanceOf(Missing.class);
  }

  @Test
  void anArchiveWithoutAComicInfoIsMissingAndABrokenOneUnusable() throws IOException {
    Path none = TestCbz.write(dir.resolve("none.cbz"), true, "001.jpg", "image", "notes.xml", "<ComicInfo/>");
    assertThat(ComicInfoReader.fromArchive(none)).isInstanceOf(Missing.class);
    Path broken = Files.writeString(dir.resolve("broken.cbz"), "not a zip");
    assertThat(unusable(ComicInfoReader.fromArchive(broken))).contains("NOT_A_ZIP");
  }
}
