package dev.planvm.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.pattern.TargetLengthBasedClassNameAbbreviator;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.CoreConstants;
import ch.qos.logback.core.LayoutBase;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;
import ch.qos.logback.core.spi.ContextAwareBase;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import org.slf4j.Logger;

/**
 * The logging setup of the {@code planvm} command, in code (found by logback through
 * {@code META-INF/services}), so that a start reads and parses no XML: logs go to stderr (stdout carries
 * results only) at WARN ({@code --verbose}: DEBUG), each message and exception through the run's secret
 * redactor ({@link RedactingLogs}), an exception as one line unless {@code --verbose}. Libraries that report
 * what planvm reports itself log only errors: langchain4j (its own retries, with stack traces), DJL (no GPU)
 * and the MCP SDK (a server that cannot start). {@code -Dlogback.configurationFile=FILE} replaces all of this.
 */
public final class LogSetup extends ContextAwareBase implements Configurator {

    static final String PATTERN = "%d{HH:mm:ss.SSS} %-5level %logger{20} - %rmsg%n%rex";

    @Override
    public ExecutionStatus configure(LoggerContext context) {
        if (System.getProperty("logback.configurationFile") != null) {
            return ExecutionStatus.INVOKE_NEXT_IF_ANY;
        }
        LayoutWrappingEncoder<ILoggingEvent> encoder = new LayoutWrappingEncoder<>();
        encoder.setContext(context);
        encoder.setLayout(new Layout(context));
        encoder.start();
        ConsoleAppender<ILoggingEvent> stderr = new ConsoleAppender<>();
        stderr.setContext(context);
        stderr.setName("STDERR");
        stderr.setTarget("System.err");
        stderr.setEncoder(encoder);
        stderr.start();

        context.getLogger("dev.langchain4j").setLevel(Level.ERROR);
        context.getLogger("ai.djl").setLevel(Level.ERROR);
        context.getLogger("io.modelcontextprotocol").setLevel(Level.ERROR);
        ch.qos.logback.classic.Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.WARN);
        root.addAppender(stderr);
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }

    /**
     * {@link #PATTERN}, written out: logback's {@code PatternLayout} registers its fifty converters and parses the
     * pattern on every start of the command line (a few milliseconds before a run's first step), though most
     * runs log nothing. The date formatter is made at the first line.
     */
    static final class Layout extends LayoutBase<ILoggingEvent> {

        private final TargetLengthBasedClassNameAbbreviator loggerName = new TargetLengthBasedClassNameAbbreviator(20);
        private final RedactingLogs.Message message = new RedactingLogs.Message();
        private final RedactingLogs.Exception exception = new RedactingLogs.Exception();
        private DateTimeFormatter time;

        Layout(LoggerContext context) {
            setContext(context);
            message.setContext(context);
            exception.setContext(context);
            message.start();
            exception.start();
            start();
        }

        @Override
        public synchronized String doLayout(ILoggingEvent event) {
            if (time == null) {
                time = DateTimeFormatter.ofPattern("HH:mm:ss.SSS").withZone(ZoneId.systemDefault());
            }
            String level = event.getLevel().toString();
            return time.format(Instant.ofEpochMilli(event.getTimeStamp()))
                    + " " + level + " ".repeat(Math.max(0, 5 - level.length()))
                    + " " + loggerName.abbreviate(event.getLoggerName())
                    + " - " + message.convert(event) + CoreConstants.LINE_SEPARATOR
                    + exception.convert(event);
        }
    }
}
