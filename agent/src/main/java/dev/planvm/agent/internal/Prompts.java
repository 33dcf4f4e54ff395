package dev.planvm.agent.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.agent.format.AnswerFormat;
import dev.planvm.instructions.Diagnostic;
import dev.planvm.instructions.PlanSchemas;
import dev.planvm.instructions.expr.Builtins;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The planner's messages, built from planvm's own sources of truth so that what the LLM is told and
 * what the loader checks cannot drift: the plan language in short (P1-P12, the resource
 * {@code plan-language.md}), the expression functions of the {@link Builtins} registry (with their
 * arities; the resource describes each), every tool of the {@link Catalog} with its params schema,
 * and the plan JSON Schema resource itself.
 */
public final class Prompts {

    private static final String RESOURCE = "/dev/planvm/agent/plan-language.md";
    private static final String FUNCTIONS_HEADING = "# Expression functions";
    /** The longest value of a committed step quoted in a re-plan request. */
    private static final int MAX_QUOTED_VALUE = 400;
    /** The longest rendering of a value handed back ({@code use}) quoted in a request. */
    private static final int MAX_HANDED_BACK = 20_000;
    /** The longest list of committed steps in a re-plan request. */
    private static final int MAX_STEPS_TEXT = 20_000;

    private Prompts() {}

    /** The system message: what a plan is, what it may call, and how to answer. */
    public static String system(Catalog catalog, AnswerFormat format) {
        String language = language();
        StringBuilder text = new StringBuilder();
        text.append("You are the planner of planvm. Write a plan (a program of instructions that planvm runs) ")
                .append("that reaches the user's goal, calling only the tools listed below.\n\n");
        text.append(language, 0, language.indexOf(FUNCTIONS_HEADING))
                .append(FUNCTIONS_HEADING)
                .append('\n');
        Map<String, String> described = functionDescriptions();
        Builtins.FUNCTIONS.forEach((name, arity) -> text.append("- ")
                .append(described.getOrDefault(name, name + "(...)"))
                .append(" [")
                .append(arity.describe())
                .append("]\n"));
        String after = afterFunctions(language);
        if (!after.isEmpty()) {
            text.append('\n').append(after).append('\n'); // the date/time helpers and methods
        }
        text.append("\n# Tools\n").append(catalog.describe());
        text.append("\n# The plan JSON Schema\n")
                .append(PlanSchemas.planSchema().toString())
                .append('\n');
        text.append("\n# Your answer\n").append(answerRule(format));
        return text.toString();
    }

    /** The first user message: the goal, and the variables the run starts with. */
    public static String goal(String goal, Set<String> inputs) {
        String text = "Goal: " + goal.strip();
        if (!inputs.isEmpty()) {
            text += "\nThese variables are set before the first instruction: " + String.join(", ", inputs) + ".";
        }
        return text;
    }

    /** Asks for a corrected plan, listing every problem of the last one. */
    public static String repair(List<Diagnostic> problems, String source) {
        StringBuilder text = new StringBuilder("Your plan does not validate. Its problems:\n");
        for (Diagnostic problem : problems) {
            text.append("- ").append(problem.format(source)).append('\n');
        }
        text.append("Write the whole plan again with every problem corrected, in the same answer format.");
        return text.toString();
    }

    /**
     * Asks for the instructions from {@code failedSeqNo} on, after a run of {@code plan} failed there.
     *
     * @param steps the trace entries of the steps the run committed
     */
    public static String replan(String goal, JsonNode plan, JsonNode steps, int failedSeqNo, String failure) {
        StringBuilder text = new StringBuilder();
        text.append("Goal: ")
                .append(goal.strip())
                .append("\n\nThis plan was run:\n")
                .append(plan.toString())
                .append('\n');
        text.append("\nThe steps it completed (seq_no, type, the variables each set):\n");
        StringBuilder done = new StringBuilder();
        for (JsonNode step : steps) {
            done.append("- seq_no ")
                    .append(step.path("seq_no").asInt())
                    .append(" (")
                    .append(step.path("type").asText())
                    .append(")");
            JsonNode writes = step.path("writes");
            if (writes.isObject() && !writes.isEmpty()) {
                writes.properties()
                        .forEach(write -> done.append(' ')
                                .append(write.getKey())
                                .append(" = ")
                                .append(cut(
                                        write.getValue().isTextual()
                                                ? write.getValue().asText()
                                                : write.getValue().toString())));
            }
            done.append('\n');
        }
        text.append(
                done.length() > MAX_STEPS_TEXT
                        ? done.substring(0, MAX_STEPS_TEXT) + "… (more steps left out)\n"
                        : done);
        text.append("\nThen seq_no ")
                .append(failedSeqNo)
                .append(" failed: ")
                .append(failure)
                .append('\n');
        text.append("\nWrite new instructions for seq_no ")
                .append(failedSeqNo)
                .append(" and after, in the same answer ")
                .append("format: a plan whose seq_nos start at ")
                .append(failedSeqNo)
                .append(". The instructions before ")
                .append(failedSeqNo)
                .append(" stay as they are and the variables they set keep the values above; ")
                .append("change the approach so the failure does not happen again, and set final_answer.");
        return text.toString();
    }

    /**
     * Asks for the next plan after a run of {@code plan} ended in {@code use}, showing the value it handed back
     * (cut to {@link #MAX_HANDED_BACK} characters: it may be a tool's output, untrusted and large).
     *
     * @param left   how many more times a plan may hand a value back
     * @param inputs the variables the next run starts with ({@code handed_back} among them)
     */
    public static String handBack(String goal, JsonNode plan, JsonNode value, int left, Set<String> inputs) {
        String shown = value.isTextual() ? value.asText() : value.toString();
        if (shown.length() > MAX_HANDED_BACK) {
            shown = shown.substring(0, MAX_HANDED_BACK) + "… (cut: the variable holds all of it)";
        }
        return "Goal: " + goal.strip() + "\n\nThis plan was run:\n" + plan + "\n\nIt ended in use, so its final_answer"
                + " comes back to you instead of answering the goal:\n" + shown + "\n\nWrite the next plan, in the same"
                + " answer format. Its run starts with these variables set: " + String.join(", ", inputs)
                + " (handed_back holds the value above). Set final_answer to answer the goal"
                + (left > 0
                        ? ", or hand another value back with use (" + left + " more time" + (left == 1 ? "" : "s")
                                + " at most)."
                        : "; no more values may be handed back.");
    }

    private static String answerRule(AnswerFormat format) {
        return switch (format) {
            case STRICT ->
                "Answer with the plan in the form the response's JSON Schema requires: {\"plan\": [...]}. "
                        + "In that form an object with free keys (assign parameters, tool_params, any object value) is "
                        + "written as its entries in order, {\"entries\": [{\"name\": \"query\", \"value\": \"TiDB\"}]}, "
                        + "and a property that does not apply is null.\n";
            case JSON -> "Answer with one JSON object, {\"plan\": [...]}, holding the plan's instructions.\n";
            case TEXT -> "Answer with only the plan as JSON, {\"plan\": [...]}: no prose, no code fence.\n";
        };
    }

    private static String cut(String value) {
        String oneLine = value.replaceAll("\\s+", " ");
        return oneLine.length() <= MAX_QUOTED_VALUE ? oneLine : oneLine.substring(0, MAX_QUOTED_VALUE) + "…";
    }

    /** The plan language resource. */
    static String language() {
        try (InputStream in = Prompts.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + RESOURCE);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Function name to its line in the resource ({@code len(x): the length ...}). */
    public static Map<String, String> functionDescriptions() {
        String language = language();
        Map<String, String> described = new LinkedHashMap<>();
        for (String line : language.substring(language.indexOf(FUNCTIONS_HEADING) + FUNCTIONS_HEADING.length())
                .split("\n")) {
            if (isFunctionLine(line)) {
                described.put(line.substring(0, line.indexOf('(')).strip(), line.strip());
            }
        }
        return described;
    }

    /** What the resource says after its heading of functions besides the function lines (the date/time helpers). */
    private static String afterFunctions(String language) {
        StringBuilder rest = new StringBuilder();
        for (String line : language.substring(language.indexOf(FUNCTIONS_HEADING) + FUNCTIONS_HEADING.length())
                .split("\n")) {
            if (!line.isBlank() && !isFunctionLine(line)) {
                rest.append(line.strip()).append('\n');
            }
        }
        return rest.toString().strip();
    }

    private static boolean isFunctionLine(String line) {
        int paren = line.indexOf('(');
        return paren > 0 && line.substring(0, paren).matches("[a-z_]+") && line.contains("):");
    }
}
