package io.mangacircus.launcher.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.introspect.AnnotatedConstructor;
import com.fasterxml.jackson.databind.introspect.AnnotatedMember;
import com.fasterxml.jackson.databind.introspect.AnnotatedParameter;
import com.fasterxml.jackson.databind.introspect.JacksonAnnotationIntrospector;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.fasterxml.jackson.databind.type.LogicalType;
import io.mangacircus.contracts.InvalidConfigException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Builds the typed configuration: embedded defaults, then the config file, then environment variables,
 * then command-line options, each overriding the one before. Every problem names its key.
 */
public final class ConfigLoader {

  /** Where the shipped defaults (the repository's {@code conf/mangacircus.json}) sit in the jar. */
  public static final String DEFAULTS_RESOURCE = "/defaults/mangacircus.json";

  /** The config file used when no {@code --conf} is given and it exists. */
  public static final Path DEFAULT_CONF_FILE = Path.of("conf", "mangacircus.json");

  /** Environment variables that override single keys, and the key each one sets. */
  public static final Map<String, String> ENVIRONMENT_KEYS = Map.ofEntries(
      Map.entry("MANGACIRCUS_DATA", "dataDir"),
      Map.entry("MANGACIRCUS_PORT", "http.port"),
      Map.entry("MANGACIRCUS_HEALTH_PORT", "http.healthPort"),
      Map.entry("MANGACIRCUS_BIND", "http.bind"),
      Map.entry("MANGACIRCUS_METRICS_TOKEN", "metrics.token"),
      Map.entry("MANGACIRCUS_ADMIN_TOKEN", "reader.adminToken"),
      Map.entry("MANGACIRCUS_ADMIN_PASSWORD", "reader.initialAdminPassword"),
      Map.entry("MANGACIRCUS_LOG_FORMAT", "log.format"),
      Map.entry("MANGACIRCUS_CLUSTER_NAME", "cluster.name"),
      Map.entry("MANGACIRCUS_CLUSTER_MEMBERS", "cluster.members"),
      Map.entry("MANGACIRCUS_ANILIST_CLIENT_SECRET", "reader.trackers.anilist.clientSecret"),
      Map.entry("MANGACIRCUS_MYANIMELIST_CLIENT_SECRET", "reader.trackers.myanimelist.clientSecret"),
      Map.entry("MANGACIRCUS_KITSU_CLIENT_SECRET", "reader.trackers.kitsu.clientSecret"));

  private static final Pattern MISSING_PROPERTY = Pattern.compile("Missing required creator property '([^']+)'");

  private static final List<String> INTEGER_KEYS = List.of("http.port", "http.healthPort");

  /**
   * Values given on the command line; null means "not given".
   */
  public record CommandLineOverrides(String dataDir, Integer port, Integer healthPort, String bind,
      List<String> clusterMembers, boolean demo) {

    public CommandLineOverrides(String dataDir, Integer port, Integer healthPort, String bind,
        List<String> clusterMembers) {
      this(dataDir, port, healthPort, bind, clusterMembers, false);
    }

    /** No command-line overrides at all. */
    public static CommandLineOverrides none() {
      return new CommandLineOverrides(null, null, null, null, null, false);
    }
  }

  /**
   * Config records are bound as they are: every component of a record is a required key, so a key missing from the
   * merged tree is named. A creator that spells its parameters out with {@code @JsonProperty} (a source, whose keys
   * are optional) keeps what it says. This is {@code FAIL_ON_MISSING_CREATOR_PROPERTIES} for records only: that
   * feature cannot be switched off for the few creators whose keys are optional.
   */
  private static final class RecordComponentsRequired extends JacksonAnnotationIntrospector {
    @Override
    public Boolean hasRequiredMarker(AnnotatedMember member) {
      Boolean declared = super.hasRequiredMarker(member);
      if (declared != null) {
        return declared;
      }
      return member instanceof AnnotatedParameter parameter && parameter.getOwner() instanceof AnnotatedConstructor
          && parameter.getDeclaringClass().isRecord() ? Boolean.TRUE : null;
    }
  }

  private final ObjectMapper mapper;

  public ConfigLoader() {
    mapper = new ObjectMapper()
        .setAnnotationIntrospector(new RecordComponentsRequired())
        .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
        .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
        .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT);
    mapper.coercionConfigFor(LogicalType.Integer).setCoercion(CoercionInputShape.String, CoercionAction.Fail);
    mapper.coercionConfigFor(LogicalType.Float).setCoercion(CoercionInputShape.String, CoercionAction.Fail);
    mapper.coercionConfigFor(LogicalType.Textual).setCoercion(CoercionInputShape.Integer, CoercionAction.Fail);
  }

  /**
   * Loads and validates.
   *
   * @param confFile the file named by {@code --conf}, or empty to use {@code conf/mangacircus.json} when present
   * @param environment the process environment (only {@link #ENVIRONMENT_KEYS} are read)
   * @param cli command-line overrides
   * @throws InvalidConfigException naming the key (or the file) at fault
   */
  public MangaCircusConfig load(Optional<Path> confFile, Map<String, String> environment, CommandLineOverrides cli) {
    ObjectNode tree = defaults();
    Optional<Path> file = confFile.or(() -> Files.isRegularFile(DEFAULT_CONF_FILE)
        ? Optional.of(DEFAULT_CONF_FILE) : Optional.empty());
    file.ifPresent(path -> merge(tree, readFile(path), ""));
    applyEnvironment(tree, environment);
    applyCommandLine(tree, cli);
    trustProxyAsList(tree);
    return bind(tree).validate();
  }

  /**
   * {@code reader.trustProxy} used to be a boolean: {@code false} still means no proxy; {@code true} (believe forwarded
   * headers from whoever connects) is refused, since it would let any client pick the address it is throttled by.
   */
  private static void trustProxyAsList(ObjectNode tree) {
    JsonNode reader = tree.get("reader");
    JsonNode trust = reader == null ? null : reader.get("trustProxy");
    if (trust != null && trust.isBoolean()) {
      if (trust.booleanValue()) {
        throw new InvalidConfigException("reader.trustProxy", "true is no longer accepted: list the addresses your "
            + "reverse proxy connects from, e.g. [\"127.0.0.1\"] when it runs on the same machine, or the container "
            + "network's range such as [\"172.16.0.0/12\"]; [] (or false) when there is no proxy");
      }
      ((ObjectNode) reader).set("trustProxy", JsonNodeFactory.instance.arrayNode());
    }
  }

  private ObjectNode defaults() {
    try (InputStream in = ConfigLoader.class.getResourceAsStream(DEFAULTS_RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("embedded defaults " + DEFAULTS_RESOURCE + " are missing from the jar");
      }
      return (ObjectNode) mapper.readTree(in);
    } catch (IOException e) {
      throw new UncheckedIOException("embedded defaults " + DEFAULTS_RESOURCE + " cannot be read", e);
    }
  }

  private ObjectNode readFile(Path path) {
    String where = path.toString();
    try {
      JsonNode node = mapper.readTree(utf8(path, Files.readAllBytes(path)));
      if (node == null || !node.isObject()) {
        throw new InvalidConfigException(where, "the config file must hold one JSON object");
      }
      return (ObjectNode) node;
    } catch (NoSuchFileException e) {
      throw new InvalidConfigException(where, "the config file does not exist");
    } catch (JsonProcessingException e) {
      throw new InvalidConfigException(where, "not valid JSON at line " + e.getLocation().getLineNr()
          + ", column " + e.getLocation().getColumnNr() + ": " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new InvalidConfigException(where, "the config file cannot be read: " + e.getMessage());
    }
  }

  /** The file's text; a file that is not UTF-8 (a binary, or another encoding) is refused saying where and why. */
  private static String utf8(Path path, byte[] bytes) {
    CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(bytes);
    CharBuffer out = CharBuffer.allocate(bytes.length);
    CoderResult result = decoder.decode(in, out, true);
    if (result.isError()) {
      throw new InvalidConfigException(path.toString(), String.format(java.util.Locale.ROOT,
          "the config file is not valid UTF-8 text (byte 0x%02X at offset %d), so it cannot be JSON: is it the right "
              + "file, or saved in another encoding?", bytes[in.position()] & 0xFF, in.position()));
    }
    decoder.flush(out);
    return out.flip().toString();
  }

  /** Objects merge key by key; any other value replaces the default, but a section is never replaced by null. */
  private static void merge(ObjectNode target, ObjectNode overlay, String prefix) {
    Iterator<Map.Entry<String, JsonNode>> fields = overlay.fields();
    while (fields.hasNext()) {
      Map.Entry<String, JsonNode> field = fields.next();
      JsonNode existing = target.get(field.getKey());
      if (existing instanceof ObjectNode existingObject && field.getValue() instanceof ObjectNode overlayObject) {
        merge(existingObject, overlayObject, prefix + field.getKey() + ".");
      } else if (existing instanceof ObjectNode && field.getValue().isNull()) {
        throw new InvalidConfigException(prefix + field.getKey(), "is a section: give it an object (or leave it out "
            + "for the defaults), not null");
      } else {
        target.set(field.getKey(), field.getValue());
      }
    }
  }

  private void applyEnvironment(ObjectNode tree, Map<String, String> environment) {
    ENVIRONMENT_KEYS.forEach((variable, key) -> {
      String value = environment.get(variable);
      if (value == null) {
        return;
      }
      String describedKey = key + " (from " + variable + ")";
      if (INTEGER_KEYS.contains(key)) {
        set(tree, key, new IntNode(parseInt(value, describedKey)));
      } else if ("cluster.members".equals(key)) {
        set(tree, key, list(Arrays.asList(value.split(","))));
      } else {
        set(tree, key, new TextNode(value));
      }
    });
  }

  private void applyCommandLine(ObjectNode tree, CommandLineOverrides cli) {
    if (cli.dataDir() != null) {
      set(tree, "dataDir", new TextNode(cli.dataDir()));
    }
    if (cli.port() != null) {
      set(tree, "http.port", new IntNode(cli.port()));
    }
    if (cli.healthPort() != null) {
      set(tree, "http.healthPort", new IntNode(cli.healthPort()));
    }
    if (cli.bind() != null) {
      set(tree, "http.bind", new TextNode(cli.bind()));
    }
    if (cli.demo()) {
      set(tree, "scraper.demo.enabled", com.fasterxml.jackson.databind.node.BooleanNode.TRUE);
    }
    if (cli.clusterMembers() != null) {
      set(tree, "cluster.members", list(cli.clusterMembers()));
    }
  }

  private ArrayNode list(List<String> values) {
    ArrayNode array = mapper.createArrayNode();
    values.stream().map(String::trim).filter(v -> !v.isEmpty()).forEach(array::add);
    return array;
  }

  private static int parseInt(String value, String key) {
    try {
      return Integer.parseInt(value.trim());
    } catch (NumberFormatException e) {
      throw new InvalidConfigException(key, "\"" + value + "\" is not a whole number");
    }
  }

  private static void set(ObjectNode tree, String dottedKey, JsonNode value) {
    String[] parts = dottedKey.split("\\.");
    ObjectNode node = tree;
    for (int i = 0; i < parts.length - 1; i++) {
      node = node.with(parts[i]);
    }
    node.set(parts[parts.length - 1], value);
  }

  /** Binds a complete tree to the records; package-private for tests of the binding itself. */
  MangaCircusConfig bind(ObjectNode tree) {
    try {
      return mapper.treeToValue(tree, MangaCircusConfig.class);
    } catch (UnrecognizedPropertyException e) {
      throw new InvalidConfigException(path(e), "is not a known key (known here: "
          + e.getKnownPropertyIds().stream().map(Object::toString).sorted().collect(Collectors.joining(", ")) + ")");
    } catch (MismatchedInputException e) {
      Matcher missing = MISSING_PROPERTY.matcher(e.getOriginalMessage());
      if (missing.find()) {
        // A record's path already ends at the missing key; a hand-written creator's ends at its section.
        String at = path(e);
        String name = missing.group(1);
        String key = at.equals(name) || at.endsWith("." + name) ? at : ("(config)".equals(at) ? "" : at + ".") + name;
        throw new InvalidConfigException(key, "is required but missing");
      }
      throw new InvalidConfigException(path(e), "has the wrong type: expected "
          + describe(e.getTargetType()));
    } catch (JsonMappingException e) {
      throw new InvalidConfigException(path(e), e.getOriginalMessage());
    } catch (JsonProcessingException e) {
      throw new InvalidConfigException("(config)", e.getOriginalMessage());
    }
  }

  private static String describe(Class<?> type) {
    if (type == null) {
      return "another type";
    }
    if (type == int.class || type == long.class || type == Integer.class || type == Long.class) {
      return "a whole number";
    }
    if (type == double.class || type == Double.class) {
      return "a number";
    }
    if (type == String.class) {
      return "a string";
    }
    if (java.util.List.class.isAssignableFrom(type)) {
      return "a list";
    }
    return "an object";
  }

  private static String path(JsonMappingException e) {
    String path = e.getPath().stream()
        .map(ref -> ref.getFieldName() != null ? ref.getFieldName() : "[" + ref.getIndex() + "]")
        .collect(Collectors.joining(".")).replace(".[", "[");
    return path.isEmpty() ? "(config)" : path;
  }
}
