package dev.planvm.cli;

import picocli.CommandLine;

/**
 * Whether this process can talk to Temporal. The Temporal module is not in {@code planvm.jar} (it
 * is 43 MB of SDK); the {@code ./planvm} launcher puts {@code temporal/target/planvm-temporal.jar}
 * on the class path for {@code worker} and {@code --temporal}. No class of this one refers to
 * Temporal, so every other command starts without it.
 */
final class TemporalSupport {

    private TemporalSupport() {}

    /** Whether the Temporal module and SDK are on the class path. */
    static boolean available() {
        try {
            ClassLoader loader = TemporalSupport.class.getClassLoader();
            Class.forName("dev.planvm.temporal.TemporalPlans", false, loader);
            Class.forName("io.temporal.client.WorkflowClient", false, loader);
            return true;
        } catch (ClassNotFoundException | LinkageError missing) {
            return false;
        }
    }

    /** A usage error (exit 2) unless Temporal is on the class path. */
    static void require(String what, CommandLine commandLine) {
        if (!available()) {
            throw new CommandLine.ParameterException(
                    commandLine,
                    what + " needs the Temporal module, which is not on the"
                            + " class path: run it through ./planvm (which adds temporal/target/planvm-temporal.jar) or put that jar"
                            + " beside planvm.jar with java -cp");
        }
    }
}
