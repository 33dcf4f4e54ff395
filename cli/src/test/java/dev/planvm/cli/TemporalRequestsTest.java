package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.planvm.temporal.contract.RunSettings;
import dev.planvm.tools.call.RetryPolicy;
import dev.planvm.tools.call.RetrySettings;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code --temporal} sends the typed values of the command's options, as a local run applies them to its VM. */
class TemporalRequestsTest {

    @CommandLine.Command(name = "run")
    static final class Options {
        @CommandLine.Mixin
        VmOptions vm;
    }

    private static RunSettings settings(String... args) {
        Options options = new Options();
        CommandLine commandLine = new CommandLine(options);
        commandLine.parseArgs(args);
        TemporalRequests.check(options.vm, commandLine);
        return TemporalRequests.settings(options.vm, commandLine);
    }

    @Test
    void every_run_option_reaches_the_workflow_typed() {
        RetryPolicy retry = RetryPolicy.DEFAULT.withMaxAttempts(5).withInitialBackoff(Duration.ofMillis(200));
        assertThat(settings(
                        "--max-steps",
                        "50",
                        "--strict",
                        "--sequential",
                        "--max-in-flight",
                        "3",
                        "--retries",
                        "5",
                        "--retry-backoff",
                        "200",
                        "--tool-retries",
                        "web=2",
                        "--call-timeout",
                        "1.5",
                        "--tool-timeout",
                        "slow=0",
                        "--allow-tools",
                        " a*, b*",
                        "--deny-tools",
                        "shell*"))
                .isEqualTo(RunSettings.builder()
                        .maxSteps(50)
                        .strict(true)
                        .concurrency(true, 3)
                        .retries(retry, Map.of("web", retry.withMaxAttempts(2)), RetrySettings.DEFAULT_MAX_RETRY_AFTER)
                        .timeouts(Duration.ofMillis(1500), Map.of("slow", Duration.ZERO))
                        .toolPolicy(List.of("a*", "b*"), List.of("shell*"))
                        .build());
    }

    @Test
    void no_option_sends_the_settings_of_a_default_local_run() {
        assertThat(settings())
                .isEqualTo(RunSettings.builder()
                        .retries(RetryPolicy.DEFAULT, Map.of(), RetrySettings.DEFAULT_MAX_RETRY_AFTER)
                        .timeouts(null, Map.of())
                        .toolPolicy(List.of(), List.of())
                        .build());
    }

    @Test
    void secret_names_come_from_the_typed_option() {
        Options options = new Options();
        CommandLine commandLine = new CommandLine(options);
        commandLine.parseArgs("--secret", "API_KEY", "--secret", "OTHER");
        assertThat(TemporalRequests.secretNames(options.vm, commandLine)).containsExactly("API_KEY", "OTHER");
    }
}
