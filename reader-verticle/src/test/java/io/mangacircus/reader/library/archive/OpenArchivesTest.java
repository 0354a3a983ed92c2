package io.mangacircus.reader.library.archive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OpenArchivesTest {

  private static final long IDLE = TimeUnit.SECONDS.toNanos(30);

  @TempDir
  Path dir;

  private final AtomicLong clock = new AtomicLong(1_000_000_000L);

  private Path archive(String name) throws IOException {
    return Files.write(dir.resolve(name), new byte[] {1, 2, 3, 4});
  }

  @Test
  void theSendsOfOneArchivesPagesShareOneOpenFileThatStaysOpenBetweenThem() throws IOException {
    OpenArchives archives = new OpenArchives(4, IDLE, clock::get);
    Path a = archive("a.cbz");
    OpenArchives.Lease first = archives.lease(a, 4);
    OpenArchives.Lease second = archives.lease(a, 4);
    assertThat(second.channel()).isSameAs(first.channel());
    first.release();
    second.release();
    assertThat(first.channel().isOpen()).isTrue();
    assertThat(archives.lease(a, 4).channel()).isSameAs(first.channel());
    assertThat(archives.size()).isEqualTo(1);
  }

  @Test
  void beyondItsCapacityTheLeastRecentlySentArchiveIsClosedOnlyWhenItsLastSendEnds() throws IOException {
    OpenArchives archives = new OpenArchives(1, IDLE, clock::get);
    OpenArchives.Lease a = archives.lease(archive("a.cbz"), 4);
    OpenArchives.Lease b = archives.lease(archive("b.cbz"), 4);
    assertThat(archives.size()).isEqualTo(1);
    assertThat(a.channel().isOpen()).as("a send still reads it").isTrue();
    a.release();
    assertThat(a.channel().isOpen()).isFalse();
    b.release();
    assertThat(b.channel().isOpen()).isTrue();
  }

  @Test
  void afterAScanEveryArchiveIsClosedAtOnceOrWhenItsSendEnds() throws IOException {
    OpenArchives archives = new OpenArchives(4, IDLE, clock::get);
    OpenArchives.Lease idle = archives.lease(archive("a.cbz"), 4);
    idle.release();
    OpenArchives.Lease busy = archives.lease(archive("b.cbz"), 4);
    archives.forgetAll();
    assertThat(archives.size()).isZero();
    assertThat(idle.channel().isOpen()).isFalse();
    assertThat(busy.channel().isOpen()).isTrue();
    busy.release();
    assertThat(busy.channel().isOpen()).isFalse();
  }

  @Test
  void anArchiveNotSentFromForTheIdleTimeIsClosedWhenAnotherIsOpened() throws IOException {
    OpenArchives archives = new OpenArchives(4, IDLE, clock::get);
    OpenArchives.Lease old = archives.lease(archive("a.cbz"), 4);
    old.release();
    clock.addAndGet(IDLE - 1);
    archives.lease(archive("b.cbz"), 4).release();
    assertThat(old.channel().isOpen()).as("not idle long enough yet").isTrue();
    clock.addAndGet(2_000_000_000L);
    archives.lease(archive("c.cbz"), 4).release();
    assertThat(old.channel().isOpen()).isFalse();
    assertThat(archives.size()).isEqualTo(2);
  }

  @Test
  void anArchiveOfAnotherSizeThanTheOneOpenIsOpenedAfresh() throws IOException {
    OpenArchives archives = new OpenArchives(4, IDLE, clock::get);
    Path a = archive("a.cbz");
    OpenArchives.Lease before = archives.lease(a, 4);
    Files.write(a, new byte[] {1, 2, 3, 4, 5, 6});
    OpenArchives.Lease after = archives.lease(a, 6);
    assertThat(after.channel()).isNotSameAs(before.channel());
    assertThat(after.channel().size()).isEqualTo(6);
  }

  @Test
  void aLinkInPlaceOfAnArchiveIsNotFollowed() throws IOException {
    OpenArchives archives = new OpenArchives(4, IDLE, clock::get);
    Path link = Files.createSymbolicLink(dir.resolve("link.cbz"), archive("target.cbz"));
    assertThatThrownBy(() -> archives.lease(link, 4)).isInstanceOf(IOException.class);
    assertThat(archives.size()).isZero();
  }
}
