package io.mangacircus.launcher.migrate;

import java.util.List;

/** How a copy of a reader database into PostgreSQL ended; every outcome but {@link Copied} wrote nothing. */
public sealed interface CopyOutcome {

  /** The rows were copied and the target then held exactly the source's rows, table by table. */
  record Copied(List<TableDigest> tables) implements CopyOutcome {
  }

  /** The target already held exactly the source's rows: nothing written. */
  record AlreadyCopied(List<TableDigest> tables) implements CopyOutcome {
  }

  /** The target holds other rows and emptying it was not asked for: nothing written. */
  record TargetNotEmpty(List<TableDigest> source, List<TableDigest> target) implements CopyOutcome {
  }

  /** The target's tables or columns are not the source's (the schemas differ): nothing written. */
  record SchemaDiffers(String difference) implements CopyOutcome {
  }

  /** After copying, a table of the target did not hold the source's rows: rolled back, nothing written. */
  record VerifyFailed(TableDigest source, TableDigest target) implements CopyOutcome {
  }
}
