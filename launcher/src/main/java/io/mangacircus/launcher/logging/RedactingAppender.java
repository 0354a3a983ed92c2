package io.mangacircus.launcher.logging;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.UnsynchronizedAppenderBase;
import ch.qos.logback.core.spi.AppenderAttachable;
import ch.qos.logback.core.spi.AppenderAttachableImpl;
import java.util.Iterator;

/**
 * The only appender on the root logger: it redacts every event ({@link SecretRedactor}), escapes its control
 * characters ({@link LineEscaper}: one event, one line) and then hands the
 * redacted copy to the real appenders nested inside it, so no secret reaches a console or file.
 */
public final class RedactingAppender extends UnsynchronizedAppenderBase<ILoggingEvent>
    implements AppenderAttachable<ILoggingEvent> {

  private final AppenderAttachableImpl<ILoggingEvent> appenders = new AppenderAttachableImpl<>();

  @Override
  protected void append(ILoggingEvent event) {
    appenders.appendLoopOnAppenders(new RedactedEvent(event));
  }

  @Override
  public void stop() {
    super.stop();
    appenders.detachAndStopAllAppenders();
  }

  @Override
  public void addAppender(Appender<ILoggingEvent> appender) {
    appenders.addAppender(appender);
  }

  @Override
  public Iterator<Appender<ILoggingEvent>> iteratorForAppenders() {
    return appenders.iteratorForAppenders();
  }

  @Override
  public Appender<ILoggingEvent> getAppender(String name) {
    return appenders.getAppender(name);
  }

  @Override
  public boolean isAttached(Appender<ILoggingEvent> appender) {
    return appenders.isAttached(appender);
  }

  @Override
  public void detachAndStopAllAppenders() {
    appenders.detachAndStopAllAppenders();
  }

  @Override
  public boolean detachAppender(Appender<ILoggingEvent> appender) {
    return appenders.detachAppender(appender);
  }

  @Override
  public boolean detachAppender(String name) {
    return appenders.detachAppender(name);
  }
}
