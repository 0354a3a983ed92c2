package io.mangacircus.scraper.state;

import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.deser.std.FromStringDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
import io.mangacircus.contracts.IsoInstant;
import java.time.Instant;

/** The one Jackson setup for the scraper's state files: instants as ISO-8601 strings. */
public final class StateJson {

  private StateJson() {
  }

  /** A fresh mapper that reads and writes {@link Instant} as ISO-8601 text. */
  public static ObjectMapper mapper() {
    SimpleModule instants = new SimpleModule("instants");
    instants.addSerializer(Instant.class, ToStringSerializer.instance);
    instants.addDeserializer(Instant.class, new FromStringDeserializer<>(Instant.class) {
      @Override
      protected Instant _deserialize(String value, DeserializationContext context) {
        return IsoInstant.parse(value);   // Instant.parse's answers, faster for the usual shape
      }
    });
    return new ObjectMapper().registerModule(instants);
  }
}
