package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.spi.LoggingEvent;
import dev.planvm.tools.Redactor;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The logging setup in code ({@link LogSetup}, found by logback through {@code META-INF/services}): in a fresh
 * JVM, a warning goes to stderr with the project's pattern, redacted; the libraries planvm speaks for log only
 * errors; stdout stays empty.
 */
class LogSetupTest {

    /** Logs as a command would, in the child JVM. */
    public static void main(String[] args) {
        RedactingLogs.use(Redactor.of(Map.of("token", "tok-1234-secret")));
        LoggerFactory.getLogger("dev.planvm.vm.Something").warn("called with Bearer {}", "tok-1234-secret");
        LoggerFactory.getLogger("ai.djl.Engine").warn("no GPU found");
        LoggerFactory.getLogger("dev.planvm.vm.Something").debug("debug is off without --verbose");
    }

    @Test
    void a_fresh_jvm_logs_redacted_warnings_to_stderr_with_the_pattern_and_quiets_the_libraries()
            throws IOException, InterruptedException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process child = new ProcessBuilder(List.of(
                        java.toString(), "-cp", System.getProperty("java.class.path"), LogSetupTest.class.getName()))
                .start();
        String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(child.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();

        assertThat(out).isEmpty();
        assertThat(err.lines().toList())
                .singleElement()
                .asString()
                .matches(
                        "\\d\\d:\\d\\d:\\d\\d\\.\\d{3} WARN  d\\.p\\.vm\\.Something - called with Bearer «secret:token»");
    }

    @AfterEach
    void forget() {
        RedactingLogs.use(Redactor.none());
    }

    @Test
    void the_written_out_layout_prints_what_the_pattern_prints() {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        PatternLayout pattern = new PatternLayout();
        pattern.setContext(context);
        pattern.getInstanceConverterMap().put("rmsg", RedactingLogs.Message::new);
        pattern.getInstanceConverterMap().put("rex", RedactingLogs.Exception::new);
        pattern.setPattern(LogSetup.PATTERN);
        pattern.start();
        LogSetup.Layout layout = new LogSetup.Layout(context);
        RedactingLogs.use(Redactor.of(Map.of("token", "tok-1234-secret")));
        Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        Level before = root.getLevel();
        try {
            for (Level rootLevel : new Level[] {Level.WARN, Level.DEBUG}) {
                root.setLevel(rootLevel);
                for (Level level : new Level[] {Level.ERROR, Level.WARN, Level.INFO, Level.DEBUG}) {
                    for (String name : new String[] {"x", "dev.planvm.vm.internal.Interpreter", "io.a.b.c.d.e.F"}) {
                        for (Throwable thrown : new Throwable[] {
                            null, new IllegalStateException("failed", new java.io.IOException("tok-1234-secret"))
                        }) {
                            LoggingEvent event = new LoggingEvent(
                                    Logger.class.getName(),
                                    context.getLogger(name),
                                    level,
                                    "called with {}",
                                    thrown,
                                    new Object[] {"Bearer tok-1234-secret"});
                            assertThat(layout.doLayout(event))
                                    .as(rootLevel + " " + level + " " + name + " " + thrown)
                                    .isEqualTo(pattern.doLayout(event));
                        }
                    }
                }
            }
        } finally {
            root.setLevel(before);
        }
    }
}
