package dev.planvm.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.agent.Agent;
import dev.planvm.agent.AgentResult;
import dev.planvm.json.JsonLimits;
import dev.planvm.json.JsonMappers;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.durable.RunStore;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code planvm ask "GOAL"}: plans the goal, runs the plan durably, re-plans failed steps, and prints the answer. */
@Command(
        name = "ask",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "Ask the configured LLM for a plan that reaches GOAL, run it (durably, in the run store) and print its "
                    + "final_answer on stdout.",
            "With --stream the plan is read while the LLM writes it and calls start as soon as their inputs are known; "
                    + "with --replan N a step that fails is planned again from there, up to N times, each time in a child "
                    + "run of the failed one; a plan that ends in use hands its value back, and is planned again with it"
                    + " (--use-rounds). --record / --replay cover the whole of it (planner answers included)."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:the answer was printed",
            "1:no valid plan, the run failed (after its re-plans), or the plans still hand a value back (use) after"
                    + " --use-rounds rounds",
            "2:no LLM is configured, or bad usage"
        })
final class AskCommand implements Callable<Integer> {

    @CommandLine.Parameters(index = "0", paramLabel = "GOAL", description = "What to find out or do.")
    private String goal;

    @CommandLine.Option(
            names = "--replan",
            paramLabel = "N",
            defaultValue = "0",
            description =
                    "When a step fails, ask for new instructions from it on and continue in a child run, up to N times "
                            + "(default: ${DEFAULT-VALUE}).")
    private int replans;

    @CommandLine.Option(
            names = "--use-rounds",
            paramLabel = "N",
            defaultValue = "" + Agent.DEFAULT_USE_ROUNDS,
            description =
                    "When a plan ends in use (it hands its final_answer back instead of answering), plan again with"
                            + " that value, up to N times (default: ${DEFAULT-VALUE}).")
    private int useRounds;

    @CommandLine.Option(
            names = "--trace",
            paramLabel = "OUT",
            description =
                    "Write the agent trace (JSON: the planner's answers, when each streamed instruction arrived and its call "
                            + "started, every run's trace, tokens) to OUT, also when it fails.")
    private Path trace;

    @CommandLine.Mixin
    private AgentOptions agent;

    @CommandLine.Mixin
    private DurableStoreOptions store;

    @CommandLine.Option(names = "--no-store", description = "Do not keep the runs in the run store.")
    private boolean noStore;

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
        if (replans < 0) {
            throw new CommandLine.ParameterException(commandLine, "--replan must not be negative");
        }
        if (useRounds < 0) {
            throw new CommandLine.ParameterException(commandLine, "--use-rounds must not be negative");
        }
        Map<String, String> secrets = vmOptions.secrets(parent.environment(), commandLine);
        Map<String, JsonNode> inputs = RunSettings.withSecrets(vmOptions.inputs(commandLine), secrets);
        RunMode mode = agent.mode(commandLine);
        PlanVm vm = vmOptions.build(parent.environment(), secrets, commandLine);
        PrintWriter err = commandLine.getErr();
        String cannot = AgentOutput.cannotPlan(vm, mode);
        if (cannot != null) {
            err.println("ask: " + cannot);
            return ExitCodes.INVALID;
        }
        Agent.Builder builder =
                Agent.builder(vm).repairRounds(agent.repairRounds).format(agent.answerFormat(commandLine)).stream(
                                agent.stream)
                        .replans(replans)
                        .useRounds(useRounds);
        AgentResult result;
        if (noStore) {
            result = builder.build().ask(goal, inputs, mode);
        } else {
            try (RunStore runs = store.open(parent.environment(), vm.redactor())) {
                result = builder.store(runs).build().ask(goal, inputs, mode);
            }
        }
        return report(result, vm, mode, commandLine);
    }

    private int report(AgentResult result, PlanVm vm, RunMode mode, CommandLine commandLine) throws IOException {
        PrintWriter err = commandLine.getErr();
        AgentOutput out = new AgentOutput("ask", err, vm.redactor());
        out.rounds(result.rounds());
        for (AgentResult.Run run : result.runs()) {
            if (run.fromSeq() != null) {
                err.println("ask: re-planned from seq_no " + run.fromSeq()
                        + (run.id() == null ? "" : ": run " + run.id() + " continues run " + run.parent()));
            }
            if (run.result().handsBack()) {
                err.println("ask: " + (run.id() == null ? "the plan" : "the plan of run " + run.id())
                        + " ended in use: its value went back to the planner");
            }
        }
        err.println("ask: " + result.tokens().describe() + " spent");
        boolean written = out.write(trace, result.trace(), agent.recordTo(), mode);
        if (!result.succeeded()) {
            err.println("ask: " + vm.redactor().redact(result.error()));
            AgentResult.Run last = result.runs().isEmpty()
                    ? null
                    : result.runs().get(result.runs().size() - 1);
            if (last != null && last.id() != null) {
                err.println("run " + last.id() + " is stored: planvm show " + last.id() + " shows it");
            }
            return ExitCodes.RUNTIME_FAILURE;
        }
        JsonNode answer =
                vmOptions.revealSecrets() ? result.finalAnswer() : vm.redactor().redact(result.finalAnswer());
        if (!answer.equals(result.finalAnswer())) {
            err.println("ask: the answer holds secret values, printed as «secret:NAME» (--reveal-secrets prints them)");
        }
        commandLine
                .getOut()
                .println(
                        answer.isTextual()
                                ? answer.asText()
                                : JsonMappers.mapper(JsonLimits.STORE).writeValueAsString(answer));
        return written ? ExitCodes.OK : ExitCodes.RUNTIME_FAILURE;
    }
}
