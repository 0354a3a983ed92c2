package io.mangacircus.testing.powercut;

import java.nio.file.Path;

/** One fsync: the path its channel was opened with (a later rename does not change it), and whether a directory's. */
public record Sync(Path path, boolean directory) {
}
