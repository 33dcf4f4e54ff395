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

    @Test
    void messages_and_exceptions_are_redacted_in_log_lines() {
        RedactingLogs.use(Redactor.of(Map.of("token", "tok-1234-secret")));
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        PatternLayout layout = new PatternLayout();
        layout.setContext(context);
        layout.getInstanceConverterMap().put("rmsg", RedactingLogs.Message::new);
        layout.getInstanceConverterMap().put("rex", RedactingLogs.Exception::new);
        layout.setPattern("%level %rmsg%n%rex");
        layout.start();
        Logger logger = context.getLogger("test");
        LoggingEvent event = new LoggingEvent(Logger.class.getName(), logger, Level.WARN,
                "call failed with {}", new IllegalStateException("server echoed tok-1234-secret"),
                new Object[] {"Bearer tok-1234-secret"});
        String line = layout.doLayout(event);
        assertThat(line).contains("call failed with Bearer «secret:token»").contains("server echoed «secret:token»")
                .doesNotContain("tok-1234-secret");
    }
}
