package io.mangacircus.testing.powercut;

import java.nio.file.Path;

/**
 * One fsync seen by the power-cut filesystem: the path its channel was opened with (a later rename does not change it)
 * and whether it synced a directory's entries rather than a file's content.
 */
public record Sync(Path path, boolean directory) {
}
