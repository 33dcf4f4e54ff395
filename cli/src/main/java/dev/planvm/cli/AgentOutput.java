package dev.planvm.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.agent.PlanRound;
import dev.planvm.json.AtomicFiles;
import dev.planvm.llm.LlmConfig;
import dev.planvm.llm.PlannerTool;
import dev.planvm.tools.Redactor;
import dev.planvm.tools.TokenCount;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;

/** What {@code plan} and {@code ask} print and write besides their result: the summary, the trace, the cassette. */
final class AgentOutput {

    private final String label;
    private final PrintWriter err;
    private final Redactor redactor;

    AgentOutput(String label, PrintWriter err, Redactor redactor) {
        this.label = label;
        this.err = err;
        this.redactor = redactor;
    }

    /** The sentence for a VM that cannot plan: no LLM and no cassette; null when it can. */
    static String cannotPlan(PlanVm vm, RunMode mode) {
        if (mode instanceof RunMode.Replay || vm.tools().find(PlannerTool.NAME).isPresent()) {
            return null;
        }
        return "planning needs an LLM: " + LlmConfig.NOT_CONFIGURED + " (or --replay a recorded cassette)";
    }

    /** {@code plan: a valid plan after 2 answers (1 repair), 3,120 tokens (prompt 2,900, completion 220)}. */
    void rounds(List<PlanRound> rounds) {
        if (rounds.isEmpty()) {
            return;
        }
        long repairs = rounds.stream().filter(r -> r.purpose().equals("repair")).count();
        long replans = rounds.stream().filter(r -> r.purpose().equals("replan")).count();
        long uses = rounds.stream().filter(r -> r.purpose().equals("use")).count();
        TokenCount tokens = rounds.stream().map(PlanRound::tokens).reduce(TokenCount.ZERO, TokenCount::plus);
        boolean valid = rounds.get(rounds.size() - 1).valid();
        List<String> kinds = new java.util.ArrayList<>();
        if (repairs > 0) {
            kinds.add(repairs + (repairs == 1 ? " repair" : " repairs"));
        }
        if (replans > 0) {
            kinds.add(replans + (replans == 1 ? " re-plan" : " re-plans"));
        }
        if (uses > 0) {
            kinds.add(uses + (uses == 1 ? " round after use" : " rounds after use"));
        }
        err.println(label + ": " + (valid ? "a valid plan" : "no valid plan") + " after " + rounds.size()
                + (rounds.size() == 1 ? " answer" : " answers")
                + (kinds.isEmpty() ? "" : " (" + String.join(", ", kinds) + ")")
                + ", " + rounds.get(rounds.size() - 1).format().label() + " format, planner tokens: "
                + tokens.describe());
    }

    /** Writes the trace and the recorded cassette (also after a failure); false when one could not be written. */
    boolean write(Path trace, JsonNode document, Path record, RunMode mode) {
        boolean written = true;
        if (trace != null && document != null) {
            written = write(
                    () -> AtomicFiles.write(trace, redactor.redact(document).toPrettyString() + "\n"));
        }
        if (record != null && mode instanceof RunMode.Record recording) {
            written &= write(() -> recording.recording().cassette().write(record));
        }
        return written;
    }

    private interface Output {
        void write() throws IOException;
    }

    private boolean write(Output output) {
        try {
            output.write();
            return true;
        } catch (IOException | RuntimeException e) {
            err.println(label + ": "
                    + redactor.redact(e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
            return false;
        }
    }
}
