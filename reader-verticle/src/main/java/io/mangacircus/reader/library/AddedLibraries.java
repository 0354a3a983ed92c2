package io.mangacircus.reader.library;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mangacircus.contracts.AtomicFiles;
import io.mangacircus.contracts.CorruptStateFileException;
import io.mangacircus.reader.LibraryConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code data/libraries.json}: the collections an admin added on the admin page (those of the config file are not
 * here). The reader is its only writer; each change is written atomically; a file that fails to parse is reported and
 * never overwritten (adding or removing answers an error until it is repaired or removed). Blocking.
 */
final class AddedLibraries {

  static final String FILE = "libraries.json";
  static final int SCHEMA = 1;

  private static final ObjectMapper MAPPER = new ObjectMapper()
      .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  record Kept(int schema, List<LibraryConfig> libraries) {
  }

  private final Path file;

  AddedLibraries(Path dataDir) {
    this.file = dataDir.resolve(FILE);
  }

  /** The added collections; none when there is no file. */
  List<LibraryConfig> load() throws CorruptStateFileException {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      return List.of();
    } catch (IOException e) {
      throw new CorruptStateFileException(file, "cannot be read: " + e.getMessage());
    }
    try {
      Kept kept = MAPPER.readValue(bytes, Kept.class);
      if (kept.schema() != SCHEMA) {
        throw new CorruptStateFileException(file, "has schema " + kept.schema() + ", this version reads " + SCHEMA);
      }
      List<LibraryConfig> libraries = kept.libraries() == null ? List.of() : kept.libraries();
      for (LibraryConfig library : libraries) {
        if (library.problem().isPresent()) {
          throw new CorruptStateFileException(file, "lists a library that is not one: " + library.problem().get());
        }
      }
      return List.copyOf(libraries);
    } catch (IOException e) {
      throw new CorruptStateFileException(file, "does not parse: "
          + String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
    }
  }

  void save(List<LibraryConfig> libraries) throws IOException {
    AtomicFiles.write(file, MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(new Kept(SCHEMA, libraries)));
  }
}
