package dev.planvm.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.pattern.ClassicConverter;
import ch.qos.logback.classic.pattern.ThrowableProxyConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.CoreConstants;
import dev.planvm.tools.Redactor;
import org.slf4j.LoggerFactory;

/**
 * Keeps secrets out of log lines: the logging setup ({@link LogSetup}) prints messages with {@link Message} and
 * exceptions with {@link Exception}, both of which pass their text through the redactor that the
 * running command registered in the logging context ({@link #use}).
 */
final class RedactingLogs {

    private static final String KEY = "planvm.redactor";

    private RedactingLogs() {}

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

    /**
     * {@code %rex}: the exception, redacted: its stack trace with {@code --verbose} (the root logger at
     * DEBUG), else one line naming it and its root cause.
     */
    public static final class Exception extends ThrowableProxyConverter {
        @Override
        public String convert(ILoggingEvent event) {
            IThrowableProxy thrown = event.getThrowableProxy();
            if (thrown == null) {
                return "";
            }
            if (verbose(getContext())) {
                return redact(event, super.convert(event), getContext());
            }
            IThrowableProxy root = thrown;
            for (int depth = 0; root.getCause() != null && depth < 20; depth++) {
                root = root.getCause();
            }
            String line = "  (" + describe(thrown) + (root == thrown ? "" : "; caused by " + describe(root))
                    + "; --verbose shows the stack trace)";
            return redact(event, line, getContext()) + CoreConstants.LINE_SEPARATOR;
        }

        private static String describe(IThrowableProxy thrown) {
            String name = thrown.getClassName().substring(thrown.getClassName().lastIndexOf('.') + 1);
            return thrown.getMessage() == null
                    ? name
                    : name + ": " + thrown.getMessage().lines().findFirst().orElse("");
        }

        private static boolean verbose(Object contextHolder) {
            return contextHolder instanceof LoggerContext context
                    && context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)
                                    .getLevel()
                                    .toInt()
                            <= Level.DEBUG.toInt();
        }
    }
}
