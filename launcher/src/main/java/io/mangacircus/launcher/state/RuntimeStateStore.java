package io.mangacircus.launcher.state;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mangacircus.contracts.AtomicFiles;
import io.mangacircus.contracts.CorruptStateFileException;
import io.mangacircus.contracts.InvalidMessageException;
import io.mangacircus.contracts.ServiceStatus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads and atomically writes a launcher runtime file ({@code data/runtime-reader.json},
 * {@code data/scraper/runtime.json}). A file that fails to parse is reported, never overwritten.
 */
public final class RuntimeStateStore {

  /** The schema this version writes and reads. */
  public static final int SCHEMA = 1;

  private final ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  /** The file's content; empty when it does not exist yet. */
  public Optional<RuntimeFile> load(Path file) {
    String text;
    try {
      text = Files.readString(file);
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw new CorruptStateFileException(file, "cannot be read: " + e.getMessage());
    }
    try {
      JsonNode root = mapper.readTree(text);
      if (root == null || !root.isObject()) {
        throw new CorruptStateFileException(file, "does not hold a JSON object");
      }
      int schema = root.path("schema").asInt(-1);
      if (schema != SCHEMA) {
        throw new CorruptStateFileException(file, "has schema " + root.path("schema")
            + "; this version reads schema " + SCHEMA);
      }
      return Optional.of(new RuntimeFile(services(file, root.path("services")), process(root.path("process"))));
    } catch (JsonProcessingException e) {
      throw new CorruptStateFileException(file, "is not valid JSON (line " + e.getLocation().getLineNr() + "): "
          + e.getOriginalMessage());
    }
  }

  /** Writes the whole file atomically (temp file, fsync, rename, fsync folder). */
  public void save(Path file, RuntimeFile content) throws IOException {
    ObjectNode root = mapper.createObjectNode();
    root.put("schema", SCHEMA);
    ObjectNode services = root.putObject("services");
    content.services().forEach((name, runtime) -> {
      ObjectNode node = services.putObject(name);
      node.put("status", runtime.status().wire());
      ArrayNode failures = node.putArray("failures");
      runtime.failures().forEach(t -> failures.add(t.toString()));
      node.put("parkedAt", runtime.parkedAt() == null ? null : runtime.parkedAt().toString());
      node.put("restarts", runtime.restarts());
      node.put("reason", runtime.reason());
    });
    if (content.process() != null) {
      ProcessInfo p = content.process();
      root.putObject("process").put("pid", p.pid()).put("mode", p.mode()).put("healthUrl", p.healthUrl())
          .put("startedAt", p.startedAt().toString());
    }
    AtomicFiles.write(file, mapper.writeValueAsBytes(root));
  }

  private static Map<String, ServiceRuntime> services(Path file, JsonNode node) {
    if (!node.isObject()) {
      throw new CorruptStateFileException(file, "field 'services' must be an object");
    }
    Map<String, ServiceRuntime> services = new LinkedHashMap<>();
    Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
    while (fields.hasNext()) {
      Map.Entry<String, JsonNode> entry = fields.next();
      services.put(entry.getKey(), service(file, entry.getKey(), entry.getValue()));
    }
    return services;
  }

  private static ServiceRuntime service(Path file, String name, JsonNode node) {
    String where = "services." + name;
    try {
      JsonNode failuresNode = node.path("failures");
      if (!failuresNode.isArray()) {
        throw new CorruptStateFileException(file, where + ".failures must be an array of instants");
      }
      List<Instant> failures = new ArrayList<>();
      for (JsonNode failure : failuresNode) {
        failures.add(Instant.parse(failure.asText()));
      }
      JsonNode restarts = node.path("restarts");
      if (!restarts.canConvertToLong() || restarts.asLong() < 0) {
        throw new CorruptStateFileException(file, where + ".restarts must be a non-negative number");
      }
      JsonNode parkedAt = node.path("parkedAt");
      return new ServiceRuntime(ServiceStatus.ofWire(node.path("status").asText()), failures,
          parkedAt.isTextual() ? Instant.parse(parkedAt.asText()) : null, restarts.asLong(),
          node.path("reason").isTextual() ? node.path("reason").asText() : null);
    } catch (DateTimeParseException e) {
      throw new CorruptStateFileException(file, where + " holds a timestamp that is not ISO-8601: " + e.getParsedString());
    } catch (InvalidMessageException e) {
      throw new CorruptStateFileException(file, where + ".status: " + e.getMessage());
    }
  }

  private static ProcessInfo process(JsonNode node) {
    if (!node.isObject()) {
      return null;
    }
    try {
      return new ProcessInfo(node.path("pid").asLong(), node.path("mode").asText(), node.path("healthUrl").asText(),
          Instant.parse(node.path("startedAt").asText()));
    } catch (DateTimeParseException e) {
      // The process block is informational only: a bad one loses no supervision state.
      return null;
    }
  }

  /** The whole runtime file. */
  public record RuntimeFile(Map<String, ServiceRuntime> services, ProcessInfo process) {
    public RuntimeFile {
      services = Map.copyOf(services);
    }
  }
}
