package dev.planvm.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.json.JsonLimits;
import dev.planvm.json.JsonMappers;
import dev.planvm.json.TerminalText;
import dev.planvm.json.VariableAssignment;
import dev.planvm.vm.durable.DurableRuns;
import dev.planvm.vm.durable.WaitingCall;
import java.io.Console;
import java.io.IOException;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code planvm answer RUN --value JSON}: answers the {@code human_input} call a waiting run waits for, and
 * continues the run. A wrong answer is refused with the reason and the run keeps waiting.
 */
@Command(
        name = "answer",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "Answer the human_input call a waiting run waits for, and continue the run.",
            "The answer must fit the input's schema (or be one of its choices); a wrong one is refused and the run"
                    + " keeps waiting. With neither --value nor --text, on a terminal, the prompt is asked there.",
            "With --temporal, RUN is a workflow id: the answer goes to the waiting workflow, which goes on on its"
                    + " workers (planvm show RUN --temporal ... shows it)."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:the run succeeded",
            "1:the run failed",
            "2:no such run, it does not wait for input, a wrong answer, or bad usage",
            "3:the run waits again (for another input or an approval)"
        })
final class AnswerCommand implements Callable<Integer> {

    private static final ObjectMapper JSON = JsonMappers.mapper(JsonLimits.HTTP_BODY);

    @CommandLine.Mixin
    private RunIdParameter target;

    @CommandLine.ArgGroup(exclusive = true)
    private Answer answer;

    static final class Answer {
        @CommandLine.Option(
                names = "--value",
                paramLabel = "JSON",
                required = true,
                description = "The answer, as JSON (a string is quoted: '\"yes\"').")
        String value;

        @CommandLine.Option(
                names = "--text",
                paramLabel = "STRING",
                required = true,
                description = "The answer, a plain string.")
        String text;
    }

    @CommandLine.Option(
            names = "--call-id",
            paramLabel = "ID",
            description = "The id of the input to answer (step-N, or step-N-element-K for an element of a for_each,"
                    + " as planvm show lists them under pending_calls); default: the first one waiting.")
    private String callId;

    @CommandLine.Mixin
    private ContinuationOptions outputs;

    @CommandLine.Mixin
    private DurableStoreOptions store;

    @CommandLine.Mixin
    private TemporalOptions temporal;

    @CommandLine.Mixin
    private VmOptions vmOptions;

    @CommandLine.Mixin
    private Verbosity verbosity;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @CommandLine.ParentCommand
    private PlanvmCommand parent;

    @Override
    public Integer call() throws IOException {
        CommandLine commandLine = spec.commandLine();
        temporal.checkUsage(commandLine);
        if (temporal.enabled()) {
            TemporalSupport.require("answer --temporal", commandLine);
            if (outputs.record != null) {
                throw new CommandLine.ParameterException(commandLine, "--record does not go with --temporal");
            }
            TemporalRequests.check(vmOptions, commandLine);
            if (answer == null) {
                throw new CommandLine.ParameterException(
                        commandLine, "with --temporal, give the answer with --value JSON or --text STRING");
            }
            return TemporalRun.answer(
                    target.runId(), seqNo(commandLine), value(commandLine, null), temporal, commandLine);
        }
        return StoredRunContinuation.run(
                "answer",
                target.runId(),
                outputs,
                store,
                vmOptions,
                verbosity,
                parent.environment(),
                commandLine,
                (durable, session, secrets) ->
                        durable.answer(target.runId(), callId, value(commandLine, durable), session, secrets));
    }

    /** The seq_no {@code --call-id step-N} names, or {@code null} for the one waiting. */
    private Integer seqNo(CommandLine commandLine) {
        if (callId == null) {
            return null;
        }
        if (!callId.matches("step-\\d{1,9}")) {
            throw new CommandLine.ParameterException(
                    commandLine, "--call-id " + callId + ": expected step-N (N the seq_no of the human_input call)");
        }
        return Integer.valueOf(callId.substring("step-".length()));
    }

    /** The answer the options give, else one asked on the terminal. */
    private JsonNode value(CommandLine commandLine, DurableRuns durable) {
        if (answer != null && answer.text != null) {
            return TextNode.valueOf(answer.text);
        }
        if (answer != null && answer.value != null) {
            try {
                JsonNode parsed = JSON.readTree(answer.value);
                if (parsed == null || parsed.isMissingNode()) {
                    throw new CommandLine.ParameterException(commandLine, "--value is empty: give a JSON value");
                }
                return parsed;
            } catch (IOException e) {
                throw new CommandLine.ParameterException(
                        commandLine,
                        "--value is not JSON ("
                                + e.getMessage().lines().findFirst().orElse("")
                                + "): quote a string ('\"yes\"') or use --text");
            }
        }
        Console console = System.console();
        if (console == null || !BatchProgress.stderrIsTerminal()) {
            throw new CommandLine.ParameterException(
                    commandLine, "give the answer with --value JSON or --text STRING (no terminal to ask on)");
        }
        JsonNode asked = durable.waiting(target.runId()).stream() // the question --call-id names, else the first
                .filter(call -> call.kind() == WaitingCall.Kind.INPUT)
                .filter(call -> callId == null || call.callId().equals(callId))
                .findFirst()
                .map(WaitingCall::params)
                .orElseGet(() -> durable.pendingInput(target.runId()).params());
        String line = console.readLine("%s ", TerminalText.safe(TerminalApprovals.question(asked)));
        if (line == null) {
            throw new CommandLine.ParameterException(commandLine, "no answer was given");
        }
        return VariableAssignment.value(line.strip());
    }
}
