package dev.planvm.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.json.TerminalText;
import dev.planvm.json.VariableAssignment;
import dev.planvm.tools.approval.Approvals;
import dev.planvm.tools.approval.InputRequest;
import dev.planvm.tools.call.Call;
import java.io.Console;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code planvm run} on a terminal: asks whether each call that needs approval may proceed
 * ({@code seq_no 3 calls send_mail with {...}: approve? [y/N]}; each element of a {@code for_each} on its own:
 * {@code seq_no 3 (for_each element 1) calls ...}); anything but {@code y} or {@code yes} denies it. The decision is recorded with the run. It also answers {@code human_input} calls: it shows
 * the prompt (and the choices or schema) and reads an answer (JSON, else the line as a string) until a
 * right one, or the end of input.
 */
final class TerminalApprovals implements Approvals {

    private static final int MAX_PARAMS_SHOWN = 2000;

    private final Console console;

    private TerminalApprovals(Console console) {
        this.console = console;
    }

    /** A prompt when stdin is a console and stderr a terminal, else {@code null} (runs then wait). */
    static Approvals ifInteractive() {
        Console console = System.console();
        return console != null && BatchProgress.stderrIsTerminal() ? new TerminalApprovals(console) : null;
    }

    @Override
    public Optional<Decision> decide(Call.ToolCall call) {
        String params = call.params().toString();
        if (params.length() > MAX_PARAMS_SHOWN) {
            params = params.substring(0, MAX_PARAMS_SHOWN) + "… (" + params.length() + " characters)";
        }
        String answer = console.readLine(
                "%s calls %s with %s: approve? [y/N] ", where(call), call.tool(), TerminalText.safe(params));
        if (answer == null) {
            return Optional.empty(); // end of input: leave the run waiting
        }
        String word = answer.strip().toLowerCase(Locale.ROOT);
        return Optional.of(
                word.equals("y") || word.equals("yes") ? Decision.approve() : Decision.deny("denied at the terminal"));
    }

    @Override
    public Optional<JsonNode> answer(Call.ToolCall call) {
        InputRequest request = InputRequest.of(call.params());
        while (true) {
            String line = console.readLine("%s asks: %s ", where(call), TerminalText.safe(question(call.params())));
            if (line == null) {
                return Optional.empty(); // end of input: a durable run waits, another fails the step
            }
            JsonNode value = VariableAssignment.value(line.strip());
            Optional<String> refusal = request.refusal(value);
            if (refusal.isEmpty()) {
                return Optional.of(value);
            }
            console.printf("%s%n", TerminalText.safe(refusal.get()));
        }
    }

    /** {@code seq_no 3}, or {@code seq_no 3 (for_each element 1)}: each element of a map is asked on its own. */
    private static String where(Call.ToolCall call) {
        return "seq_no " + call.context().seqNo()
                + (call.context().isElement()
                        ? " (for_each element " + call.context().element() + ")"
                        : "");
    }

    /** The prompt of a {@code human_input} call, with what a right answer is: {@code Ship it? [yes/no]}. */
    static String question(JsonNode params) {
        String prompt = params.path("prompt").asText();
        if (params.path("choices").isArray()) {
            List<String> choices = new ArrayList<>();
            params.path("choices").forEach(choice -> choices.add(choice.asText()));
            return prompt + " [" + String.join("/", choices) + "]";
        }
        String schema = params.has("schema") ? params.get("schema").toString() : "";
        if (schema.length() > MAX_PARAMS_SHOWN) {
            schema = schema.substring(0, MAX_PARAMS_SHOWN) + "…";
        }
        return schema.isEmpty() ? prompt : prompt + " (JSON fitting " + schema + ")";
    }
}
