package dev.planvm.cli;

import java.util.List;
import picocli.CommandLine;

/**
 * The plan files or directories a command runs, its parameters: {@code batch} and {@code test} take them alike
 * ({@code validate}'s also reads standard input, so it has its own).
 */
final class PlanPaths {

    @CommandLine.Parameters(
            arity = "1..*",
            paramLabel = "PATH",
            description =
                    "Plan files (JSON, YAML, PPE or JavaScript), or directories of them (their *.json files but *.cassette.json and"
                            + " *.expected.json, and their *.yaml, *.yml, *.ai.yaml and *.js files).")
    private List<String> paths;

    /** The paths as given. */
    List<String> paths() {
        return paths;
    }
}
