package io.mangacircus.launcher.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.LoggerContextVO;
import ch.qos.logback.classic.spi.StackTraceElementProxy;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Marker;
import org.slf4j.event.KeyValuePair;

/**
 * A logging event whose message, arguments, MDC, key-value pairs and exception messages have been redacted
 * ({@link SecretRedactor}) and then had their control characters escaped ({@link LineEscaper}), so the message is one
 * line. Stack frames are kept as they are (a plain-text event with an exception spans its frames' lines).
 */
final class RedactedEvent implements ILoggingEvent {

  private final ILoggingEvent event;
  private final String message;
  private final String threadName;
  private final Map<String, String> mdc;
  private final List<KeyValuePair> keyValuePairs;
  private final IThrowableProxy throwable;

  RedactedEvent(ILoggingEvent event) {
    this.event = event;
    this.message = clean(event.getFormattedMessage());
    this.threadName = LineEscaper.escape(event.getThreadName());
    Map<String, String> redactedMdc = new LinkedHashMap<>();
    event.getMDCPropertyMap().forEach((k, v) -> redactedMdc.put(LineEscaper.escape(k),
        LineEscaper.escape(SecretRedactor.redact(k + "=" + v).substring(k.length() + 1))));
    this.mdc = redactedMdc;
    this.keyValuePairs = event.getKeyValuePairs() == null ? null : event.getKeyValuePairs().stream()
        .map(kv -> new KeyValuePair(LineEscaper.escape(kv.key),
            LineEscaper.escape(SecretRedactor.redact(kv.key + "=" + kv.value).substring(kv.key.length() + 1))))
        .toList();
    this.throwable = event.getThrowableProxy() == null ? null : new RedactedThrowable(event.getThrowableProxy());
  }

  /** Secrets masked, then control characters escaped. */
  static String clean(String text) {
    return LineEscaper.escape(SecretRedactor.redact(text));
  }

  @Override
  public String getThreadName() {
    return threadName;
  }

  @Override
  public Level getLevel() {
    return event.getLevel();
  }

  @Override
  public String getMessage() {
    return message;
  }

  @Override
  public Object[] getArgumentArray() {
    return null;
  }

  @Override
  public String getFormattedMessage() {
    return message;
  }

  @Override
  public String getLoggerName() {
    return event.getLoggerName();
  }

  @Override
  public LoggerContextVO getLoggerContextVO() {
    return event.getLoggerContextVO();
  }

  @Override
  public IThrowableProxy getThrowableProxy() {
    return throwable;
  }

  @Override
  public StackTraceElement[] getCallerData() {
    return event.getCallerData();
  }

  @Override
  public boolean hasCallerData() {
    return event.hasCallerData();
  }

  @Override
  public List<Marker> getMarkerList() {
    return event.getMarkerList();
  }

  @Override
  public Map<String, String> getMDCPropertyMap() {
    return mdc;
  }

  @Override
  @SuppressWarnings("deprecation")
  public Map<String, String> getMdc() {
    return mdc;
  }

  @Override
  public long getTimeStamp() {
    return event.getTimeStamp();
  }

  @Override
  public int getNanoseconds() {
    return event.getNanoseconds();
  }

  @Override
  public long getSequenceNumber() {
    return event.getSequenceNumber();
  }

  @Override
  public List<KeyValuePair> getKeyValuePairs() {
    return keyValuePairs;
  }

  @Override
  public void prepareForDeferredProcessing() {
    event.prepareForDeferredProcessing();
  }

  /** An exception (and its causes) with redacted messages; stack frames are kept as they are. */
  private static final class RedactedThrowable implements IThrowableProxy {
    private final IThrowableProxy proxy;
    private final IThrowableProxy cause;
    private final IThrowableProxy[] suppressed;

    RedactedThrowable(IThrowableProxy proxy) {
      this.proxy = proxy;
      this.cause = proxy.getCause() == null || proxy.isCyclic() ? proxy.getCause() : new RedactedThrowable(proxy.getCause());
      IThrowableProxy[] original = proxy.getSuppressed();
      this.suppressed = original == null ? null : java.util.Arrays.stream(original)
          .map(RedactedThrowable::new).toArray(IThrowableProxy[]::new);
    }

    @Override
    public String getMessage() {
      return clean(proxy.getMessage());
    }

    @Override
    public String getOverridingMessage() {
      return clean(proxy.getOverridingMessage());
    }

    @Override
    public String getClassName() {
      return proxy.getClassName();
    }

    @Override
    public StackTraceElementProxy[] getStackTraceElementProxyArray() {
      return proxy.getStackTraceElementProxyArray();
    }

    @Override
    public int getCommonFrames() {
      return proxy.getCommonFrames();
    }

    @Override
    public IThrowableProxy getCause() {
      return cause;
    }

    @Override
    public IThrowableProxy[] getSuppressed() {
      return suppressed;
    }

    @Override
    public boolean isCyclic() {
      return proxy.isCyclic();
    }
  }
}
