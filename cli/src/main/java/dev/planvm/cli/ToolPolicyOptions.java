package dev.planvm.cli;

import dev.planvm.tools.ToolPolicy;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;

/** {@code --allow-tools} and {@code --deny-tools}: which tools plans may call (seed 004's rules). */
final class ToolPolicyOptions {

    @CommandLine.Option(
            names = "--allow-tools",
            paramLabel = "GLOBS",
            split = ",",
            description = "Only tools matching one of these globs may be called (* any characters, ? one); "
                    + "a glob starting with ! denies (quote it: 'w*,!web_search'). Comma-separated, repeatable.")
    private List<String> allowTools = List.of();

    @CommandLine.Option(
            names = "--deny-tools",
            paramLabel = "GLOBS",
            split = ",",
            description = "Tools matching one of these globs may not be called; deny wins over allow. "
                    + "A plan calling a denied tool is refused before it runs. Comma-separated, repeatable.")
    private List<String> denyTools = List.of();

    /** The policy the options describe; a malformed rule is a usage error. */
    ToolPolicy policy(CommandLine commandLine) {
        try {
            return ToolPolicy.of(rules(allowTools), rules(denyTools));
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(commandLine, e.getMessage());
        }
    }

    /** The {@code --allow-tools} globs, blanks around them and empty ones dropped. */
    List<String> allowTools() {
        return rules(allowTools);
    }

    /** The {@code --deny-tools} globs, blanks around them and empty ones dropped. */
    List<String> denyTools() {
        return rules(denyTools);
    }

    private static List<String> rules(List<String> values) {
        List<String> rules = new ArrayList<>();
        for (String value : values) {
            String rule = value.strip();
            if (!rule.isEmpty()) {
                rules.add(rule);
            }
        }
        return rules;
    }
}
