package dev.planvm.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.agent.AgentTraces;
import dev.planvm.agent.Planned;
import dev.planvm.agent.Planner;
import dev.planvm.agent.PlanningException;
import dev.planvm.json.AtomicFiles;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.RunSession;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code planvm plan "GOAL"}: asks the configured LLM for a plan, repairs it until it validates, and prints it. */
@Command(
        name = "plan",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "Ask the configured LLM for a plan that reaches GOAL with the tools available here, and print it.",
            "The prompt is built from planvm's plan schema, its semantics, the expression functions and every tool's "
                    + "description and params schema. An invalid answer's problems are sent back for a corrected "
                    + "plan (--repair-rounds). Stderr says how many answers it took."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:a valid plan was printed",
            "1:no valid plan within the repair rounds, or the LLM failed",
            "2:no LLM is configured, or bad usage"
        })
final class PlanCommand implements Callable<Integer> {

    @CommandLine.Parameters(index = "0", paramLabel = "GOAL", description = "What the plan should achieve.")
    private String goal;

    @CommandLine.Option(
            names = {"-o", "--output"},
            paramLabel = "FILE",
            description = "Write the plan to FILE (atomically) instead of stdout.")
    private Path output;

    @CommandLine.Option(
            names = "--trace",
            paramLabel = "OUT",
            description = "Write the planning trace (JSON: every answer, its problems and tokens) to OUT.")
    private Path trace;

    @CommandLine.Mixin
    private AgentOptions agent;

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
        Map<String, String> secrets = vmOptions.secrets(parent.environment(), commandLine);
        Map<String, JsonNode> inputs = RunSettings.withSecrets(vmOptions.inputs(commandLine), secrets);
        RunMode mode = agent.mode(commandLine);
        PlanVm vm = vmOptions.build(parent.environment(), secrets, commandLine);
        AgentOutput out = new AgentOutput("plan", commandLine.getErr(), vm.redactor());
        String cannot = AgentOutput.cannotPlan(vm, mode);
        if (cannot != null) {
            commandLine.getErr().println("plan: " + cannot);
            return ExitCodes.INVALID;
        }
        RunSession session = vm.session(mode);
        String started = java.time.Instant.now().toString();
        Planner planner = new Planner(vm, agent.repairRounds, agent.answerFormat(commandLine), agent.stream);
        try {
            Planned planned = planner.plan(goal, inputs.keySet(), session, new Planner.Listener() {});
            out.rounds(planned.rounds());
            boolean written = out.write(
                    trace,
                    AgentTraces.planning(goal, mode, started, planned.rounds(), null, session.tokensSpent()),
                    agent.recordTo(),
                    mode);
            String text = planned.plan().document().toPrettyString() + "\n";
            if (output != null) {
                AtomicFiles.write(output, text);
            } else {
                commandLine.getOut().print(text);
                commandLine.getOut().flush();
            }
            return written ? ExitCodes.OK : ExitCodes.RUNTIME_FAILURE;
        } catch (PlanningException e) {
            out.rounds(e.rounds());
            out.write(
                    trace,
                    AgentTraces.planning(goal, mode, started, e.rounds(), e.getMessage(), session.tokensSpent()),
                    agent.recordTo(),
                    mode);
            commandLine.getErr().println("plan: " + vm.redactor().redact(e.getMessage()));
            return ExitCodes.RUNTIME_FAILURE;
        }
    }
}
