package dev.planvm.temporal.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.json.JsonLimits;
import dev.planvm.json.JsonMappers;
import dev.planvm.temporal.contract.PlanResponse;
import dev.planvm.temporal.contract.StepFailure;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.TemporalFailure;
import java.util.ArrayList;
import java.util.List;

/** Keeps a workflow's result within what one Temporal payload may hold. */
final class Responses {

    private static final ObjectMapper JSON = JsonMappers.mapper(JsonLimits.STORE);

    private Responses() {}

    /**
     * {@code response} as it is when it fits in {@code maxBytes}; else without its trace, then
     * without its recorded cassette, then with fewer failed steps (a run that kept going), then without
     * its answer, each replaced by a marker and a warning that says what was left out.
     */
    static PlanResponse bounded(PlanResponse response, long maxBytes) {
        PlanResponse bounded = response;
        long size = size(bounded);
        if (size <= maxBytes) {
            return bounded;
        }
        List<String> warnings = new ArrayList<>(bounded.warnings());
        if (bounded.trace() != null) {
            warnings.add(leftOut("trace", size(bounded.trace()), maxBytes));
            bounded = new PlanResponse(
                    bounded.status(),
                    bounded.finalAnswer(),
                    bounded.error(),
                    bounded.steps(),
                    warnings,
                    bounded.problems(),
                    marker("trace", size(bounded.trace())),
                    bounded.cassette(),
                    bounded.failedSteps(),
                    bounded.use());
        }
        if (size(bounded) > maxBytes && bounded.cassette() != null) {
            warnings.add(leftOut("recorded cassette", size(bounded.cassette()), maxBytes));
            bounded = new PlanResponse(
                    bounded.status(),
                    bounded.finalAnswer(),
                    bounded.error(),
                    bounded.steps(),
                    warnings,
                    bounded.problems(),
                    bounded.trace(),
                    marker("cassette", size(bounded.cassette())),
                    bounded.failedSteps(),
                    bounded.use());
        }
        if (size(bounded) > maxBytes) {
            bounded = withFewerFailedSteps(bounded, warnings, maxBytes);
            warnings = new ArrayList<>(bounded.warnings());
        }
        if (size(bounded) > maxBytes) {
            warnings.add(leftOut("final_answer", size(bounded.finalAnswer()), maxBytes));
            bounded = new PlanResponse(
                    bounded.status(),
                    marker("final_answer", size(bounded.finalAnswer())),
                    bounded.error(),
                    bounded.steps(),
                    warnings,
                    bounded.problems(),
                    bounded.trace(),
                    bounded.cassette(),
                    bounded.failedSteps(),
                    bounded.use());
        }
        return bounded;
    }

    /** The most characters of a failed step's message kept when the failed steps would not fit otherwise. */
    static final int SHORT_MESSAGE = 200;

    /**
     * {@code response} (of a run that kept going) with its failed steps' messages cut to {@link #SHORT_MESSAGE}
     * characters, then with only the first failed steps that fit, each step saying so in a warning.
     */
    private static PlanResponse withFewerFailedSteps(PlanResponse response, List<String> warnings, long maxBytes) {
        List<StepFailure> all = response.failedSteps();
        if (all.isEmpty()) {
            return response;
        }
        List<StepFailure> shortened = all.stream()
                .map(step -> step.message().length() <= SHORT_MESSAGE
                        ? step
                        : new StepFailure(
                                step.seqNo(),
                                step.type(),
                                step.tool(),
                                step.kind(),
                                step.message().substring(0, SHORT_MESSAGE) + "…"))
                .toList();
        if (!shortened.equals(all)) {
            warnings.add("the messages of the failed steps were cut to " + SHORT_MESSAGE
                    + " characters to fit the workflow's result (--max-payload-bytes)");
        }
        PlanResponse bounded = withFailedSteps(response, warnings, shortened);
        int kept = shortened.size();
        while (size(bounded) > maxBytes && kept > 1) {
            kept = kept / 2;
            List<String> more = new ArrayList<>(warnings);
            more.add((all.size() - kept) + " of the " + all.size()
                    + " failed steps were left out of the workflow's result (--max-payload-bytes)");
            bounded = withFailedSteps(response, more, shortened.subList(0, kept));
        }
        return bounded;
    }

    private static PlanResponse withFailedSteps(PlanResponse r, List<String> warnings, List<StepFailure> failed) {
        return new PlanResponse(
                r.status(),
                r.finalAnswer(),
                r.error(),
                r.steps(),
                warnings,
                r.problems(),
                r.trace(),
                r.cassette(),
                failed,
                r.use());
    }

    private static String leftOut(String what, long size, long max) {
        return "the " + what + " (" + CallAttempts.count(size)
                + " bytes as JSON) was left out of the workflow's result," + " which may hold at most "
                + CallAttempts.count(max) + " bytes (--max-payload-bytes)";
    }

    private static ObjectNode marker(String what, long size) {
        ObjectNode marker = JsonNodeFactory.instance.objectNode();
        marker.put("truncated", what + " of " + CallAttempts.count(size) + " bytes as JSON");
        marker.put("size", size);
        return marker;
    }

    static long size(Object value) {
        try {
            return JSON.writeValueAsBytes(value).length;
        } catch (JsonProcessingException e) {
            return Long.MAX_VALUE;
        }
    }

    /** Why an activity failed, in a sentence. */
    static String reason(ActivityFailure failure) {
        Throwable cause = failure.getCause();
        if (cause instanceof TemporalFailure temporal) {
            return temporal.getOriginalMessage();
        }
        return cause == null ? failure.getOriginalMessage() : String.valueOf(cause.getMessage());
    }
}
