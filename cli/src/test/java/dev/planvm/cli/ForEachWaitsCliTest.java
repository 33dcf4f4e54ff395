package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code for_each} whose elements wait, on the command line: the run's message and {@code planvm show} name the
 * same element (call id, index, params); {@code planvm approve RUN} approves that one element and the run waits again
 * (exit 3) naming the next; {@code --all} approves every waiting call, printing each; {@code planvm answer} answers
 * one question at a time. The mail tool is a real HTTP tool against a loopback server.
 */
class ForEachWaitsCliTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern DECIDES = Pattern.compile("decides element (\\d+) \\(call (\\w+)\\)");

    @TempDir
    Path dir;

    private MailService mail;
    private List<String> sent;
    private Path config;

    @BeforeEach
    void start() throws Exception {
        mail = new MailService();
        sent = mail.sent();
        config = Files.writeString(dir.resolve("planvm.json"), """
                {"httpTools": [{"name": "send_mail", "method": "POST", "url": "http://127.0.0.1:%d/send",
                                "body": {"to": "${to}"}, "output": "/status", "side_effects": true,
                                "params": {"type": "object", "properties": {"to": {"type": "string"}}, "required": ["to"]}}]}
                """.formatted(mail.port()));
    }

    @AfterEach
    void stop() {
        mail.close();
    }

    private CliRun planvm(String... args) {
        return CliRun.withEnvironment(
                Map.of("PLANVM_STORE", dir.resolve("runs.db").toString(), "PLANVM_CONFIG", config.toString()), args);
    }

    @Test
    void each_element_is_approved_on_its_own_and_every_view_names_the_same_one() throws Exception {
        Path plan = Files.writeString(dir.resolve("mail.json"), """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "send_mail", "for_each": ["alice@x", "bob@x", "mallory@x"], "as": "who", "tool_params": {"to": "${who}"}, "output_vars": "final_answer"}}]""");
        CliRun waiting = planvm("run", plan.toString(), "--approve-tools", "send_*");
        assertThat(waiting.exitCode()).as(waiting.err()).isEqualTo(3);
        assertThat(waiting.err())
                .contains(plan + ": seq_no 0 (calling): for_each element 0: waiting for approval to call tool"
                        + " 'send_mail' with {\"to\":\"alice@x\"}");
        String id = waiting.err()
                .replaceAll("(?s).*run (\\w+) waits for approval.*", "$1")
                .trim();
        assertThat(waiting.err()).contains("waiting for 3 calls of for_each elements, each decided on its own");
        Matcher named = DECIDES.matcher(waiting.err());
        assertThat(named.find()).as(waiting.err()).isTrue();
        assertThat(named.group(1)).isEqualTo("0");

        JsonNode shown = JSON.readTree(planvm("show", id).out());
        assertThat(shown.at("/pending/call_id").asText())
                .as("show names the call the message named")
                .isEqualTo(named.group(2));
        assertThat(shown.at("/pending/element").asInt()).isZero();
        assertThat(shown.at("/pending/params/to").asText()).isEqualTo("alice@x");
        assertThat(shown.path("pending_calls").findValuesAsText("to")).containsExactly("alice@x", "bob@x", "mallory@x");
        assertThat(sent).isEmpty();

        CliRun first = planvm("approve", id);
        assertThat(first.exitCode())
                .as("the run waits again, for the next element: " + first.err())
                .isEqualTo(3);
        assertThat(sent).as("one approval, one mail").containsExactly("{\"to\":\"alice@x\"}");
        assertThat(first.err())
                .contains("for_each element 1: waiting for approval to call tool 'send_mail' with"
                        + " {\"to\":\"bob@x\"}");
        Matcher next = DECIDES.matcher(first.err());
        assertThat(next.find()).as(first.err()).isTrue();
        assertThat(next.group(1)).isEqualTo("1");
        JsonNode again = JSON.readTree(planvm("show", id).out());
        assertThat(again.at("/pending/call_id").asText()).isEqualTo(next.group(2));
        assertThat(again.at("/pending/params/to").asText()).isEqualTo("bob@x");

        CliRun all = planvm("approve", id, "--all", "--reason", "both checked");
        assertThat(all.exitCode()).as(all.err()).isZero();
        assertThat(all.err())
                .as("--all prints each call it approves")
                .contains("approving call " + next.group(2)
                        + ": seq_no 0 (for_each element 1) calls send_mail with {\"to\":\"bob@x\"}")
                .contains(": seq_no 0 (for_each element 2) calls send_mail with {\"to\":\"mallory@x\"}");
        assertThat(all.out()).isEqualTo("[\"sent\",\"sent\",\"sent\"]\n");
        assertThat(sent).hasSize(3);
        assertThat(JSON.readTree(planvm("show", id).out()).path("approvals").findValuesAsText("decision"))
                .containsExactly("approved", "approved", "approved");
    }

    @Test
    void a_call_id_approves_that_element_and_all_goes_not_with_call_id() throws Exception {
        Path plan = Files.writeString(dir.resolve("mail.json"), """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "send_mail", "for_each": ["alice@x", "bob@x"], "as": "who", "tool_params": {"to": "${who}"}, "output_vars": "final_answer"}}]""");
        CliRun waiting = planvm("run", plan.toString(), "--approve-tools", "send_*");
        String id = waiting.err()
                .replaceAll("(?s).*run (\\w+) waits for approval.*", "$1")
                .trim();
        String bob = JSON.readTree(planvm("show", id).out())
                .at("/pending_calls/1/call_id")
                .asText();
        CliRun both = planvm("approve", id, "--all", "--call-id", bob);
        assertThat(both.exitCode()).isEqualTo(2);
        assertThat(both.err()).contains("--all decides every waiting call: drop --call-id");
        CliRun unknown = planvm("approve", id, "--call-id", "0123456789abcdef");
        assertThat(unknown.exitCode()).isEqualTo(2);
        assertThat(unknown.err()).contains("does not wait for the approval of call '0123456789abcdef'");
        CliRun denied = planvm("approve", id, "--call-id", bob, "--deny", "--reason", "not bob");
        assertThat(denied.err()).contains("denying call " + bob + ": seq_no 0 (for_each element 1) calls send_mail");
        assertThat(denied.exitCode())
                .as("a denial fails the step at once: " + denied.err())
                .isEqualTo(1);
        assertThat(denied.err())
                .contains("for_each element 1 (of 2): tool 'send_mail' failed: denied by a reviewer: not bob");
        assertThat(sent).isEmpty();
    }

    @Test
    void each_question_of_a_human_input_map_is_answered_on_its_own() throws Exception {
        Path plan = Files.writeString(dir.resolve("ask.json"), """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "human_input", "for_each": ["a", "b", "c"], "as": "item", "tool_params": {"prompt": "Delete customer ${item}?", "choices": ["yes", "no"]}, "output_vars": "final_answer"}}]""");
        CliRun waiting = planvm("run", plan.toString());
        assertThat(waiting.exitCode()).as(waiting.err()).isEqualTo(3);
        assertThat(waiting.err()).contains("for_each element 0: waiting for input: Delete customer a?");
        String id = waiting.err()
                .replaceAll("(?s).*run (\\w+) waits for input.*", "$1")
                .trim();
        assertThat(waiting.err())
                .contains("waiting for 3 answers of for_each elements, each asked on its own; planvm answer " + id
                        + " answers element 0 (call step-1-element-0), --call-id ID another");
        CliRun first = planvm("answer", id, "--text", "yes");
        assertThat(first.exitCode()).as(first.err()).isEqualTo(3);
        assertThat(first.err()).contains("for_each element 1: waiting for input: Delete customer b?");
        CliRun third = planvm("answer", id, "--call-id", "step-1-element-2", "--text", "no");
        assertThat(third.exitCode()).isEqualTo(3);
        assertThat(JSON.readTree(planvm("show", id).out()).path("pending_calls").findValuesAsText("call_id"))
                .containsExactly("step-1-element-1");
        CliRun done = planvm("answer", id, "--text", "yes");
        assertThat(done.exitCode()).as(done.err()).isZero();
        assertThat(done.out()).isEqualTo("[\"yes\",\"yes\",\"no\"]\n");
    }
}
