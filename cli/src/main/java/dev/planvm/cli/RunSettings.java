package dev.planvm.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.json.VariableAssignment;
import dev.planvm.tools.Redactor;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.PlanVmBuilder;
import dev.planvm.vm.run.RunLimits;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;

/**
 * The options every command that runs plans has: {@code --var}, {@code --max-steps}, {@code --max-tokens},
 * {@code --strict}, {@code --now} and {@code --tz} ({@link ClockOptions}).
 */
final class RunSettings {

    @CommandLine.Option(
            names = "--var",
            paramLabel = "NAME=VALUE",
            description =
                    "Set a variable before the first instruction (of every plan); VALUE is parsed as JSON when it parses, else taken as text. Repeatable.")
    private List<String> vars = List.of();

    @CommandLine.Option(
            names = "--max-steps",
            paramLabel = "N",
            defaultValue = "" + PlanVm.DEFAULT_MAX_STEPS,
            description =
                    "Fail a run that executes more than N instructions, counting those of the child runs of its plan tools (default: ${DEFAULT-VALUE}).")
    private int maxSteps;

    @CommandLine.Option(
            names = "--strict",
            description = "Fail a run that never sets final_answer (instead of a warning and a null result).")
    private boolean strict;

    @CommandLine.Option(
            names = "--max-run-memory",
            paramLabel = "SIZE",
            converter = MemorySize.class,
            defaultValue = "64MiB",
            description =
                    "Fail a run (each plan's) whose live variables plus what its trace keeps pass SIZE, counted as"
                            + " characters of text and keys plus one per other value: a number with KiB, MiB or GiB, or plain"
                            + " (default: ${DEFAULT-VALUE}).")
    private long maxRunMemory;

    @CommandLine.Option(
            names = "--max-tokens",
            paramLabel = "N",
            description =
                    "Fail a run once its LLM calls spent more than N tokens (prompt and completion, as the server counts "
                            + "them): the call that passes the budget fails its step, and no call starts once it is spent. Default: no limit.")
    private Long maxTokens;

    @CommandLine.Mixin
    private ClockOptions clock;

    @CommandLine.Option(
            names = "--secret",
            paramLabel = "NAME[=VALUE]",
            description = "Set a secret variable: its value never reaches traces, cassettes, the run store or logs. "
                    + "Without =VALUE the value is read from the environment variable NAME. Repeatable.")
    private List<String> secrets = List.of();

    /** The {@code --var} inputs; a malformed one, or a bad {@code --max-steps}, is a usage error. */
    Map<String, JsonNode> inputs(CommandLine commandLine) {
        if (maxSteps < 1) {
            throw new CommandLine.ParameterException(commandLine, "--max-steps must be at least 1");
        }
        if (maxTokens != null && maxTokens < 1) {
            throw new CommandLine.ParameterException(commandLine, "--max-tokens must be at least 1");
        }
        Map<String, JsonNode> inputs = new LinkedHashMap<>();
        for (String var : vars) {
            try {
                VariableAssignment assignment = VariableAssignment.parse(var);
                inputs.put(assignment.name(), assignment.value());
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(commandLine, "--var " + e.getMessage());
            }
        }
        return inputs;
    }

    /**
     * The {@code --secret} variables, name to value; a missing environment variable or a value too
     * short to redact reliably is a usage error.
     */
    Map<String, String> secrets(Map<String, String> environment, CommandLine commandLine) {
        Map<String, String> values = new LinkedHashMap<>();
        for (String secret : secrets) {
            int eq = secret.indexOf('=');
            String name = eq < 0 ? secret : secret.substring(0, eq);
            if (!name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
                throw new CommandLine.ParameterException(commandLine, "--secret " + name + ": not a variable name");
            }
            String value = eq < 0 ? environment.get(name) : secret.substring(eq + 1);
            if (value == null) {
                throw new CommandLine.ParameterException(
                        commandLine, "--secret " + name + ": no value given and no environment variable " + name);
            }
            if (value.length() < Redactor.MIN_LENGTH) {
                throw new CommandLine.ParameterException(
                        commandLine,
                        "--secret " + name + ": a secret needs at least " + Redactor.MIN_LENGTH
                                + " characters to be kept out of traces and logs reliably");
            }
            values.put(name, value);
        }
        return values;
    }

    /** The inputs with the secrets added as text variables. */
    static Map<String, JsonNode> withSecrets(Map<String, JsonNode> inputs, Map<String, String> secrets) {
        Map<String, JsonNode> all = new LinkedHashMap<>(inputs);
        secrets.forEach((name, value) -> all.put(name, TextNode.valueOf(value)));
        return all;
    }

    /** The {@code --max-steps} limit. */
    int maxSteps() {
        return maxSteps;
    }

    /** Whether {@code --strict} was given. */
    boolean strict() {
        return strict;
    }

    /** The {@code --secret} arguments as given ({@code NAME} or {@code NAME=VALUE}). */
    List<String> secretArguments() {
        return secrets;
    }

    /** The {@code --now} and {@code --tz} options. */
    ClockOptions clock() {
        return clock;
    }

    /** Sets the step limit, strictness, the run's memory budget and the token budget on a VM builder. */
    PlanVmBuilder applyTo(PlanVmBuilder builder) {
        if (maxTokens != null && maxTokens >= 1) {
            builder.maxTokens(maxTokens);
        }
        return builder.maxSteps(Math.max(1, maxSteps))
                .strict(strict)
                .runLimits(RunLimits.DEFAULT.withMaxRunSize(Math.max(1, maxRunMemory)));
    }
}
