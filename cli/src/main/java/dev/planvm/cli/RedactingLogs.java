package dev.planvm.cli;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.pattern.ClassicConverter;
import ch.qos.logback.classic.pattern.ThrowableProxyConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import dev.planvm.tools.Redactor;
import org.slf4j.LoggerFactory;

/**
 * Keeps secrets out of log lines: {@code logback.xml} prints messages with {@link Message} and
 * exceptions with {@link Exception}, both of which pass their text through the redactor that the
 * running command registered in the logging context ({@link #use}).
 */
final class RedactingLogs {

    private static final String KEY = "planvm.redactor";

    private RedactingLogs() {
    }

    /** From now on, log lines of this process are redacted with {@code redactor}. */
    static void use(Redactor redactor) {
        if (LoggerFactory.getILoggerFactory() instanceof LoggerContext context) {
            context.putObject(KEY, redactor);
        }
    }

    private static String redact(ILoggingEvent event, String text, Object contextHolder) {
        Object redactor = contextHolder instanceof LoggerContext context ? context.getObject(KEY) : null;
        return redactor instanceof Redactor r ? r.redact(text) : text;
    }

    /** {@code %rmsg}: the formatted message, redacted. */
    public static final class Message extends ClassicConverter {
        @Override
        public String convert(ILoggingEvent event) {
            return redact(event, event.getFormattedMessage(), getContext());
        }
    }

    /** {@code %rex}: the exception, redacted. */
    public static final class Exception extends ThrowableProxyConverter {
        @Override
        public String convert(ILoggingEvent event) {
            return redact(event, super.convert(event), getContext());
        }
    }
}
