package dev.planvm.junit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.planvm.json.JsonDiff;
import dev.planvm.json.JsonEquality;
import dev.planvm.json.JsonErrors;
import dev.planvm.json.JsonLimits;
import dev.planvm.json.JsonMappers;
import dev.planvm.json.Spelling;
import dev.planvm.vm.run.RunResult;
import dev.planvm.vm.run.RunStatus;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;
import org.opentest4j.AssertionFailedError;

/**
 * Fluent assertions about one {@link RunResult} ({@link PlanAssertions#assertThat}); each returns this
 * object, so they chain. JSON values are compared as planvm compares them (numbers by value:
 * {@code 5 == 5.0}), and a mismatch lists the differences by JSON pointer and carries the expected and
 * actual values, pretty-printed, for an IDE's side-by-side view.
 */
public final class RunAssert {

    private static final ObjectMapper MAPPER = JsonMappers.mapper(JsonLimits.PLAN_FILE);

    private final RunResult run;

    RunAssert(RunResult run) {
        this.run = Objects.requireNonNull(run, "run");
    }

    /** The run succeeded. */
    public RunAssert succeeded() {
        if (!run.succeeded()) {
            throw new AssertionFailedError("expected the run to succeed, but it " + did(), "succeeded", did());
        }
        return this;
    }

    /** The run failed at the instruction {@code seqNo}. */
    public RunAssert failedAt(int seqNo) {
        Integer at = run.error() == null ? null : run.error().seqNo();
        if (run.status() != RunStatus.FAILED || at == null || at != seqNo) {
            throw new AssertionFailedError(
                    "expected the run to fail at seq_no " + seqNo + ", but it " + did(),
                    "failed at seq_no " + seqNo,
                    did());
        }
        return this;
    }

    /** The run ended with the variable {@code name} equal to {@code json} (JSON text, e.g. {@code "[1, 2]"}). */
    public RunAssert wrote(String name, String json) {
        return wrote(name, parse(json));
    }

    /** The run ended with the variable {@code name} equal to {@code expected}. */
    public RunAssert wrote(String name, JsonNode expected) {
        JsonNode actual = run.variables().get(name);
        if (actual == null) {
            String known = String.join(", ", new TreeSet<>(run.variables().keySet()));
            throw new AssertionFailedError("expected the run to write '" + name + "', but it has no variable '"
                    + name + "'"
                    + Spelling.closest(name, run.variables().keySet())
                            .map(close -> " (did you mean '" + close + "'?)")
                            .orElse("")
                    + "; its variables: " + (known.isEmpty() ? "none" : known));
        }
        return same("variable '" + name + "'", "/" + name, expected, actual);
    }

    /** The run's {@code final_answer} equals {@code json} (JSON text; {@code "null"} when never set). */
    public RunAssert finalAnswer(String json) {
        return finalAnswer(parse(json));
    }

    /** The run's {@code final_answer} equals {@code expected}. */
    public RunAssert finalAnswer(JsonNode expected) {
        return same("final_answer", "/final_answer", expected, run.finalAnswer());
    }

    private RunAssert same(String what, String pointer, JsonNode expected, JsonNode actual) {
        Objects.requireNonNull(expected, "expected");
        if (!JsonEquality.equal(expected, actual)) {
            List<String> differences = JsonDiff.diff(pointer, expected, actual);
            throw new AssertionFailedError(
                    what + " is not as expected:\n  " + String.join("\n  ", differences),
                    expected.toPrettyString(),
                    actual.toPrettyString());
        }
        return this;
    }

    /** What the run did, for a message: {@code succeeded}, {@code failed: seq_no 3 (calling): ...}. */
    private String did() {
        if (run.succeeded()) {
            return "succeeded (final_answer " + JsonDiff.brief(run.finalAnswer()) + ")";
        }
        if (run.error() == null) { // completed_with_failures: its failed steps say why
            return run.status().label() + ": " + run.failedSteps().size() + " failed step(s), the first at seq_no "
                    + run.failedSteps().get(0).seqNo() + ": "
                    + run.failedSteps().get(0).message();
        }
        return run.status().label() + ": " + run.error().describe();
    }

    private static JsonNode parse(String json) {
        try {
            return MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("the expected value is not JSON: " + JsonErrors.malformed(e), e);
        }
    }
}
