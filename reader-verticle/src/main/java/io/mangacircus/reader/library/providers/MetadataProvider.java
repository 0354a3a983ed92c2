package io.mangacircus.reader.library.providers;

import io.vertx.core.Future;
import java.util.List;
import java.util.Optional;

/** A public metadata service asked by title (only the title is sent), paced and cached by its client. */
public interface MetadataProvider {

  /** Its name in routes and in {@code series-metadata.json}. */
  String name();

  /** The series it finds for a title, best first as it ranks them. */
  Future<List<ProviderEntry>> search(String title);

  /** One series by the provider's id, with everything it says; empty when it has none by that id. */
  Future<Optional<ProviderEntry>> details(String id);
}
