package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.spi.LoggingEvent;
import dev.planvm.tools.Redactor;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** Log lines written with the project's logback pattern carry no secret. */
class RedactingLogsTest {

    @AfterEach
    void forget() {
        RedactingLogs.use(Redactor.none());
    }

    private static String layout(Level rootLevel) {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        Level before = root.getLevel();
        root.setLevel(rootLevel);
        try {
            PatternLayout layout = new PatternLayout();
            layout.setContext(context);
            layout.getInstanceConverterMap().put("rmsg", RedactingLogs.Message::new);
            layout.getInstanceConverterMap().put("rex", RedactingLogs.Exception::new);
            layout.setPattern("%level %rmsg%n%rex");
            layout.start();
            Logger logger = context.getLogger("test");
            LoggingEvent event = new LoggingEvent(
                    Logger.class.getName(),
                    logger,
                    Level.WARN,
                    "call failed with {}",
                    new IllegalStateException(
                            "wrapped", new java.io.IOException("server echoed tok-1234-secret\nsecond line")),
                    new Object[] {"Bearer tok-1234-secret"});
            return layout.doLayout(event);
        } finally {
            root.setLevel(before);
        }
    }

    @Test
    void messages_and_exceptions_are_redacted_in_log_lines() {
        RedactingLogs.use(Redactor.of(Map.of("token", "tok-1234-secret")));
        for (Level level : new Level[] {Level.WARN, Level.DEBUG}) {
            assertThat(layout(level))
                    .as(level.toString())
                    .contains("call failed with Bearer «secret:token»")
                    .contains("server echoed «secret:token»")
                    .doesNotContain("tok-1234-secret");
        }
    }

    @Test
    void an_exception_is_one_line_without_verbose_and_its_stack_trace_with_it() {
        String quiet = layout(Level.WARN);
        assertThat(quiet.lines()).hasSize(2);
        assertThat(quiet)
                .endsWith("  (IllegalStateException: wrapped; caused by IOException: server echoed tok-1234-secret;"
                        + " --verbose shows the stack trace)" + System.lineSeparator())
                .doesNotContain("\tat ");
        assertThat(layout(Level.DEBUG))
                .contains("\tat dev.planvm.cli.RedactingLogsTest")
                .contains("Caused by: java.io.IOException");
    }
}
