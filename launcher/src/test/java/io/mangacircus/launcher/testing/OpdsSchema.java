package io.mangacircus.launcher.testing;

import com.thaiopensource.util.PropertyMapBuilder;
import com.thaiopensource.validate.ValidateProperty;
import com.thaiopensource.validate.ValidationDriver;
import com.thaiopensource.validate.rng.CompactSchemaReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.xml.sax.ErrorHandler;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;

/**
 * The OPDS 1.2 RELAX NG schema (with Atom's, RFC 4287, underneath) in a real validator (jing): what a feed violates,
 * line by line. The one correction to the published schema and the PSE template filling are explained in
 * {@code src/test/resources/opds-schema/README.md}.
 */
public final class OpdsSchema {

  /** The published pattern, which excludes every URI containing {@code r} or {@code t}. */
  static final String PUBLISHED_URI_PATTERN = "'.*[ <>{}|^`\"\\nrt].*'";
  static final String CORRECTED_URI_PATTERN = "'.*[ <>{}|^`\"\\n\\r\\t].*'";

  private final Path schema;

  private OpdsSchema(Path schema) {
    this.schema = schema;
  }

  /** Copies the schemas out of the test resources into {@code folder}, correcting the URI pattern. */
  public static OpdsSchema load(Path folder) {
    try {
      String opds = resource("opds.rnc");
      if (!opds.contains(PUBLISHED_URI_PATTERN)) {
        throw new IllegalStateException("opds.rnc no longer has the published URI pattern; review the correction");
      }
      Files.writeString(folder.resolve("opds.rnc"), opds.replace(PUBLISHED_URI_PATTERN, CORRECTED_URI_PATTERN));
      Files.writeString(folder.resolve("atom.rnc"), resource("atom.rnc"));
      return new OpdsSchema(folder.resolve("opds.rnc"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Every error the validator reports in {@code feed} (empty: valid), its PSE page template filled first. */
  public List<String> errors(String feed) {
    List<String> errors = new ArrayList<>();
    ErrorHandler collect = new ErrorHandler() {
      @Override
      public void warning(SAXParseException e) {
      }

      @Override
      public void error(SAXParseException e) {
        errors.add(e.getLineNumber() + ":" + e.getColumnNumber() + " " + e.getMessage());
      }

      @Override
      public void fatalError(SAXParseException e) {
        error(e);
      }
    };
    PropertyMapBuilder properties = new PropertyMapBuilder();
    properties.put(ValidateProperty.ERROR_HANDLER, collect);
    ValidationDriver driver = new ValidationDriver(properties.toPropertyMap(), CompactSchemaReader.getInstance());
    try {
      if (!driver.loadSchema(ValidationDriver.fileInputSource(schema.toFile()))) {
        throw new IllegalStateException("the OPDS schema does not load: " + errors);
      }
      String filled = feed.replace("{pageNumber}", "0").replace("{maxWidth}", "1200");
      if (!driver.validate(new InputSource(new StringReader(filled))) && errors.isEmpty()) {
        errors.add("invalid (no detail reported)");
      }
    } catch (SAXException | IOException e) {
      errors.add("not readable: " + e.getMessage());
    }
    return errors;
  }

  private static String resource(String name) throws IOException {
    try (InputStream in = OpdsSchema.class.getResourceAsStream("/opds-schema/" + name)) {
      if (in == null) {
        throw new IOException("test resource opds-schema/" + name + " is missing");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
