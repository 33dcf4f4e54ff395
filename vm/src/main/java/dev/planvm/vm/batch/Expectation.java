package dev.planvm.vm.batch;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.json.AtomicFiles;
import dev.planvm.json.JsonDiff;
import dev.planvm.json.JsonErrors;
import dev.planvm.json.JsonLimits;
import dev.planvm.json.JsonMappers;
import dev.planvm.json.Spelling;
import dev.planvm.vm.run.RunStatus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * What a plan file {@code X.json} must do, as its {@code X.expected.json} beside it says:
 *
 * <pre>{@code
 * {
 *   "final_answer": <any JSON>,             required
 *   "status": "succeeded",                  optional: succeeded (default), failed, invalid or rejected
 *   "error": "text the error must contain"  optional, only with a status other than succeeded
 * }
 * }</pre>
 *
 * Any other key is refused, so that a misspelt key cannot be silently ignored. {@link #compare}
 * checks the status, the {@code final_answer} (JSON equality, numbers by value: {@code 5 == 5.0})
 * and, when given, that the outcome's error message contains {@code error}. Paths to the plan
 * and its cassette in error messages are reduced to their file names first, so an expectation
 * holds wherever the plans are run from.
 *
 * @param finalAnswer the expected {@code final_answer} (JSON null when never set)
 * @param status      the expected status
 * @param error       text the error message must contain, or {@code null} for no check
 */
public record Expectation(JsonNode finalAnswer, RunStatus status, String error) {

    /** The keys an expectation may have. */
    public static final List<String> KEYS = List.of("final_answer", "status", "error");

    private static final ObjectMapper MAPPER = JsonMappers.mapper(JsonLimits.PLAN_FILE);
    private static final int ERROR_CHARS = 500;

    public Expectation {
        finalAnswer = finalAnswer == null ? NullNode.getInstance() : finalAnswer;
        Objects.requireNonNull(status, "status");
        if (error != null && status == RunStatus.SUCCEEDED) {
            throw new IllegalArgumentException("'error' is checked only with a status other than \"succeeded\"");
        }
    }

    /**
     * Reads an expectation file.
     *
     * @throws ExpectationException when it cannot be read, is not JSON, has an unknown key or a wrong value
     */
    public static Expectation read(Path file) {
        JsonNode document;
        try {
            document = MAPPER.readTree(Files.readString(file));
        } catch (NoSuchFileException e) {
            throw new ExpectationException(file + ": file not found", e);
        } catch (JsonProcessingException e) {
            throw new ExpectationException(file + ": " + JsonErrors.malformed(e), e);
        } catch (IOException e) {
            throw new ExpectationException(file + ": cannot read: " + e.getMessage(), e);
        }
        try {
            return fromJson(document);
        } catch (ExpectationException e) {
            throw new ExpectationException(file + ": " + e.getMessage(), e);
        }
    }

    /** An expectation from its JSON document; see the class comment for the format. */
    public static Expectation fromJson(JsonNode document) {
        if (document == null || document.isMissingNode()) {
            throw new ExpectationException(
                    "the file is empty; an expectation is {\"final_answer\": ..., \"status\": \"succeeded\"}");
        }
        if (!document.isObject()) {
            throw new ExpectationException(
                    "an expectation is a JSON object {\"final_answer\": ..., \"status\": ...}, not "
                            + JsonDiff.brief(document));
        }
        for (Map.Entry<String, JsonNode> field : document.properties()) {
            if (!KEYS.contains(field.getKey())) {
                throw new ExpectationException("unknown key '" + field.getKey() + "'" + suggestion(field.getKey())
                        + " (an expectation has " + String.join(", ", KEYS) + ")");
            }
        }
        if (!document.has("final_answer")) {
            throw new ExpectationException("missing key 'final_answer' (use null for a plan that never sets it)");
        }
        JsonNode error = document.path("error");
        if (document.has("error") && !error.isTextual()) {
            throw new ExpectationException("'error' must be text, got " + JsonDiff.brief(error));
        }
        RunStatus status = status(document.get("status"));
        if (error.isTextual() && status == RunStatus.SUCCEEDED) {
            throw new ExpectationException("'error' is checked only with a status other than \"succeeded\"");
        }
        return new Expectation(document.get("final_answer"), status, error.isTextual() ? error.textValue() : null);
    }

    /** The expectation that {@code outcome} meets exactly: its answer, status and whole error message. */
    public static Expectation snapshot(PlanOutcome outcome) {
        return new Expectation(outcome.finalAnswer(), outcome.status(), outcome.succeeded() ? null : errorOf(outcome));
    }

    /** {@code {"final_answer": ..., "status": ...}} plus {@code "error"} when set. */
    public ObjectNode toJson() {
        ObjectNode json = MAPPER.createObjectNode();
        json.set("final_answer", finalAnswer);
        json.put("status", status.label());
        if (error != null) {
            json.put("error", error);
        }
        return json;
    }

    /** Writes {@link #toJson()} pretty-printed to {@code file}, atomically. */
    public void write(Path file) throws IOException {
        AtomicFiles.write(file, toJson().toPrettyString() + "\n");
    }

    /**
     * How {@code outcome} differs from this expectation, one readable line (or block of lines)
     * per difference: {@code status: expected "succeeded", got "failed" (seq_no 3 (calling): ...)},
     * {@code /final_answer/items/0: expected 1, got 2}, a line diff of two long texts, or
     * {@code error: expected a message containing "...", got "..."}. Empty when it matches.
     */
    public List<String> compare(PlanOutcome outcome) {
        List<String> differences = new ArrayList<>();
        String actualError = errorOf(outcome);
        if (outcome.status() != status) {
            differences.add("status: expected \"" + status.label() + "\", got \""
                    + outcome.status().label() + "\"" + (actualError == null ? "" : " (" + cut(actualError) + ")"));
        }
        differences.addAll(JsonDiff.diff("/final_answer", finalAnswer, outcome.finalAnswer()));
        if (error != null && (actualError == null || !actualError.contains(error))) {
            differences.add("error: expected a message containing " + quote(error) + ", got "
                    + (actualError == null ? "none" : quote(cut(actualError))));
        }
        return differences;
    }

    /** Whether {@code outcome} meets this expectation. */
    public boolean matches(PlanOutcome outcome) {
        return compare(outcome).isEmpty();
    }

    /** The outcome's error with the paths of the plan and its cassette reduced to file names. */
    static String errorOf(PlanOutcome outcome) {
        if (outcome.error() == null) {
            return null;
        }
        Path plan = outcome.file();
        Path cassette = RegressionRun.cassetteBeside(plan);
        return outcome.error()
                .replace(cassette.toString(), cassette.getFileName().toString())
                .replace(plan.toString(), plan.getFileName().toString());
    }

    private static RunStatus status(JsonNode value) {
        if (value == null) {
            return RunStatus.SUCCEEDED;
        }
        for (RunStatus status : PlanOutcome.STATUSES) {
            if (value.isTextual() && value.textValue().equals(status.label())) {
                return status;
            }
        }
        throw new ExpectationException("'status' must be one of "
                + PlanOutcome.STATUSES.stream()
                        .map(s -> "\"" + s.label() + "\"")
                        .collect(Collectors.joining(", ")) + ", not " + JsonDiff.brief(value));
    }

    private static String suggestion(String key) {
        return Spelling.closest(key, KEYS)
                .map(known -> ": did you mean '" + known + "'?")
                .orElse("");
    }

    private static String quote(String text) {
        return TextNode.valueOf(text).toString();
    }

    private static String cut(String text) {
        return text.length() > ERROR_CHARS ? text.substring(0, ERROR_CHARS) + "…" : text;
    }
}
