package dev.planvm.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.CoreConstants;
import ch.qos.logback.core.pattern.DynamicConverter;
import ch.qos.logback.core.spi.ContextAwareBase;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;
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
        Map<String, Supplier<DynamicConverter<?>>> rules = new HashMap<>();
        rules.put("rmsg", RedactingLogs.Message::new);
        rules.put("rex", RedactingLogs.Exception::new);
        context.putObject(CoreConstants.PATTERN_RULE_REGISTRY_FOR_SUPPLIERS, rules);

        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern(PATTERN);
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
}
