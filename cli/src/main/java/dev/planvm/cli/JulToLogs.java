package dev.planvm.cli;

import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.SimpleFormatter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends what a library logs through {@code java.util.logging} (the OpenTelemetry SDK: a collector that
 * cannot be reached) to planvm's logs, so it is one redacted line on stderr, its stack trace only with
 * {@code --verbose} ({@link LogSetup}), rather than the JDK console handler's two lines and a stack trace.
 */
final class JulToLogs extends Handler {

    /** The JDK keeps loggers weakly: the configured one stays configured while this holds it. */
    private static java.util.logging.Logger routed;

    private final SimpleFormatter formatter = new SimpleFormatter();

    /** Routes the {@code java.util.logging} logger {@code name} (and its children) to planvm's logs. */
    static synchronized void route(String name) {
        if (routed != null) {
            return;
        }
        java.util.logging.Logger logger = java.util.logging.Logger.getLogger(name);
        logger.setUseParentHandlers(false);
        logger.addHandler(new JulToLogs());
        routed = logger;
    }

    @Override
    public void publish(LogRecord record) {
        if (record == null) {
            return;
        }
        Logger log = LoggerFactory.getLogger(record.getLoggerName() == null ? "jul" : record.getLoggerName());
        String message = formatter.formatMessage(record);
        int level = record.getLevel().intValue();
        if (level >= Level.WARNING.intValue()) {
            log.warn(message, record.getThrown());
        } else if (level >= Level.INFO.intValue()) {
            log.info(message, record.getThrown());
        } else {
            log.debug(message, record.getThrown());
        }
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
}
