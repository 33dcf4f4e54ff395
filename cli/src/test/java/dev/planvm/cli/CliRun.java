package dev.planvm.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** One in-process run of the planvm command line, with what it printed. */
record CliRun(int exitCode, String out, String err) {

    /** Runs with an empty environment: no LLM configured, whatever the machine has. */
    static CliRun of(String... args) {
        return withEnvironment(Map.of(), args);
    }

    /** One run store per test JVM, outside the repository, unless a test names its own. */
    private static final String STORE = System.getProperty("java.io.tmpdir") + "/planvm-test-"
            + ProcessHandle.current().pid() + "/runs.db";

    static CliRun withEnvironment(Map<String, String> environment, String... args) {
        if (!environment.containsKey("PLANVM_STORE")) {
            Map<String, String> withStore = new java.util.HashMap<>(environment);
            withStore.put("PLANVM_STORE", STORE);
            environment = withStore;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Main.run(
                args,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                environment);
        return new CliRun(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
