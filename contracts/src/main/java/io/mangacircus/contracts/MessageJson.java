package io.mangacircus.contracts;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.type.LogicalType;
import com.fasterxml.jackson.databind.util.TokenBuffer;
import io.mangacircus.contracts.library.ChapterManifest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Collection;
import java.util.Map;
import java.util.function.Function;

/**
 * Reads and writes the message records as JSON with one Jackson mapper: a record's components are its fields, the
 * {@code v} field is written first and checked here for every message, fields this receiver does not know are ignored
 * (a newer sender may add some), and types are strict (no string for a number, no number for a string). A body that
 * does not fit fails with an {@link InvalidMessageException} naming the record type and the field: a version this
 * receiver does not speak is {@code UNSUPPORTED_VERSION}, anything else {@code MALFORMED_MESSAGE}. Required fields and
 * limits are the records' own compact constructors' business ({@link MessageFields}). Instants are ISO-8601 text
 * ({@link Instant#toString()}, read with {@link IsoInstant}).
 */
public final class MessageJson {

  private static final ObjectMapper MAPPER = JsonMapper.builder()
      .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
      .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
      .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
      .withCoercionConfig(LogicalType.Textual, c -> c.setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
          .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
          .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail))
      .withCoercionConfig(LogicalType.Integer, c -> c.setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
          .setCoercion(CoercionInputShape.String, CoercionAction.Fail))
      .withCoercionConfig(LogicalType.Boolean, c -> c.setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
          .setCoercion(CoercionInputShape.String, CoercionAction.Fail))
      .addModule(new SimpleModule("mangacircus-messages")
          .addSerializer(JsonObject.class, new WrittenAs<>(JsonObject::getMap))
          .addSerializer(JsonArray.class, new WrittenAs<>(JsonArray::getList))
          .addSerializer(Instant.class, new WrittenAs<>(Instant::toString))
          .addSerializer(ChapterManifest.class, new WrittenAs<>(ChapterManifest::toMap))
          .addDeserializer(Instant.class, new JsonDeserializer<>() {
            @Override
            public Instant deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
              if (p.currentToken() != JsonToken.VALUE_STRING) {
                return (Instant) ctxt.handleUnexpectedToken(Instant.class, p);
              }
              String text = p.getText();
              try {
                return IsoInstant.parse(text);
              } catch (DateTimeParseException e) {
                throw InvalidFormatException.from(p, "not an ISO-8601 instant", text, Instant.class);
              }
            }
          })
          .addDeserializer(ChapterManifest.class, new JsonDeserializer<>() {
            @Override
            public ChapterManifest deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
              try {
                return ChapterManifest.fromJson(ctxt.readTree(p));
              } catch (ChapterManifest.InvalidException e) {
                throw new Refused(": " + e.getMessage());
              }
            }
          }))
      .build();

  private MessageJson() {
  }

  /** Writes a value as the plain JSON value {@code as} gives for it (a map, a list, a string). */
  private static final class WrittenAs<T> extends JsonSerializer<T> {

    private final Function<T, Object> as;

    WrittenAs(Function<T, Object> as) {
      this.as = as;
    }

    @Override
    public void serialize(T value, JsonGenerator gen, SerializerProvider provider) throws IOException {
      gen.writeObject(as.apply(value));
    }
  }

  /** A field's value that a deserializer refused, with the words that follow the field's name in the message. */
  private static final class Refused extends RuntimeException {

    Refused(String problem) {
      super(problem, null, false, false);
    }
  }

  /** The record's fields as a JSON object, without {@code v} (an entry of a list, or a part of a message). */
  public static JsonObject write(Record record) {
    @SuppressWarnings("unchecked")
    Map<String, Object> fields = MAPPER.convertValue(record, Map.class);
    return new JsonObject(fields);
  }

  private static final ClassValue<Integer> VERSIONS = new ClassValue<>() {
    @Override
    protected Integer computeValue(Class<?> type) {
      try {
        return type.getField("VERSION").getInt(null);
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException(type.getName() + " is a Message but has no public static int VERSION", e);
      }
    }
  };

  /** The version a {@link Message} type speaks: its {@code public static final int VERSION}. */
  public static int version(Class<?> type) {
    return VERSIONS.get(type);
  }

  /** The message: {@code v} first, then the record's fields. */
  public static JsonObject write(Record record, int version) {
    JsonObject json = new JsonObject().put("v", version);
    json.getMap().putAll(write(record).getMap());
    return json;
  }

  /** Reads a message: checks it is a JSON object of {@code version}, then binds its fields to {@code type}. */
  public static <T extends Record> T read(Object body, Class<T> type, int version) {
    return bind(checkVersion(body, name(type), version), type);
  }

  /** Reads a part of a message that carries no {@code v} of its own (a list entry, a nested object). */
  public static <T extends Record> T read(Object body, Class<T> type) {
    return bind(object(body, name(type)), type);
  }

  /**
   * The body as a JSON object whose {@code v} is {@code version}; else MALFORMED_MESSAGE (not an object, no number
   * {@code v}) or UNSUPPORTED_VERSION, naming {@code type}.
   */
  public static JsonObject checkVersion(Object body, String type, int version) {
    JsonObject json = object(body, type);
    Object v = json.getValue("v");
    if (!(v instanceof Number number)) {
      throw new InvalidMessageException(ErrorCode.MALFORMED_MESSAGE, type + ": field 'v' (number) is required");
    }
    if (number.intValue() != version) {
      throw new InvalidMessageException(ErrorCode.UNSUPPORTED_VERSION,
          type + ": version " + number + " is not supported (this receiver speaks v" + version + ")");
    }
    return json;
  }

  private static JsonObject object(Object body, String type) {
    if (body instanceof JsonObject json) {
      return json;
    }
    throw new InvalidMessageException(ErrorCode.MALFORMED_MESSAGE,
        type + ": body must be a JSON object, got " + (body == null ? "nothing" : body.getClass().getSimpleName()));
  }

  private static <T> T bind(JsonObject json, Class<T> type) {
    try {
      TokenBuffer tokens = new TokenBuffer(MAPPER, false);
      MAPPER.writeValue(tokens, json.getMap());
      try (JsonParser parser = tokens.asParser()) {
        return MAPPER.readValue(parser, type);
      }
    } catch (JsonMappingException e) {
      throw refusal(e, type);
    } catch (IOException e) {
      throw new InvalidMessageException(ErrorCode.MALFORMED_MESSAGE, name(type) + ": " + e.getMessage());
    }
  }

  /** A record's name as its messages give it: {@code JobView}, or {@code JobView.Progress} for a nested one. */
  static String name(Class<?> type) {
    String name = type.getName();
    return name.substring(name.lastIndexOf('.') + 1).replace('$', '.');
  }

  /** The binding failure as the receiver answers it: a record's own refusal as it is, else type and field named. */
  private static InvalidMessageException refusal(JsonMappingException e, Class<?> top) {
    for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
      if (cause instanceof InvalidMessageException own) {
        return own;
      }
    }
    String type = name(top);
    String field = null;
    boolean entry = false;
    for (JsonMappingException.Reference reference : e.getPath()) {
      if (reference.getFieldName() != null) {
        Object from = reference.getFrom();
        type = from instanceof Class<?> owner ? name(owner) : from != null ? name(from.getClass()) : type;
        field = reference.getFieldName();
        entry = false;
      } else if (reference.getIndex() >= 0) {
        entry = true;
      }
    }
    String problem;
    if (e.getCause() instanceof Refused refused) {
      problem = refused.getMessage();
    } else if (e instanceof MismatchedInputException mismatch && mismatch.getTargetType() != null) {
      Class<?> target = mismatch.getTargetType();
      String kind = entry ? "an array of " + plural(target) : kind(target);
      problem = target.isPrimitive() && !entry ? " (" + kind.substring(kind.indexOf(' ') + 1) + ") is required"
          : " must be " + kind + (e instanceof InvalidFormatException format && target == Instant.class
              ? ", got '" + format.getValue() + "'" : "");
    } else {
      problem = " has a value out of range";
    }
    return new InvalidMessageException(ErrorCode.MALFORMED_MESSAGE,
        field == null ? type + ": " + e.getOriginalMessage() : type + ": field '" + field + "'" + problem);
  }

  private static String kind(Class<?> target) {
    if (target == String.class) {
      return "a string";
    }
    if (target == Instant.class) {
      return "an ISO-8601 instant";
    }
    if (target == boolean.class || target == Boolean.class) {
      return "a boolean";
    }
    if (target == double.class || target == Double.class || target == float.class || target == Float.class) {
      return "a number";
    }
    if (target.isPrimitive() || Number.class.isAssignableFrom(target)) {
      return "a whole number";
    }
    if (Collection.class.isAssignableFrom(target) || target.isArray()) {
      return "an array";
    }
    return "an object";
  }

  private static String plural(Class<?> target) {
    String kind = kind(target);
    return kind.substring(kind.indexOf(' ') + 1) + "s";
  }
}
