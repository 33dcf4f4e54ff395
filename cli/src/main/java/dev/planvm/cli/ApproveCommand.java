package dev.planvm.cli;

import dev.planvm.json.TerminalText;
import dev.planvm.vm.durable.DurableRuns;
import dev.planvm.vm.durable.WaitingCall;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code planvm approve RUN [--call-id ID... | --all] [--deny --reason TEXT]}: decides the call a waiting run waits for,
 * and continues the run. The elements of a {@code for_each} that need approval are calls of their own: without {@code
 * --call-id} or {@code --all} the first is decided (the one the run's message and {@code planvm show} name), and the
 * run waits again for the next; {@code --all} decides every call the run waits for and prints each (stderr).
 */
@Command(
        name = "approve",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "Approve (or deny) the tool call a waiting run waits for, and continue the run.",
            "Approved, the call is made; denied, the step fails with 'denied by a reviewer: REASON', which a re-plan can see.",
            "Each element of a for_each that needs approval is a call of its own: this decides the first (the one the"
                    + " run's message and planvm show name) and the run waits again for the next; --call-id decides"
                    + " the calls it names, --all every call the run waits for, printing each."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:the run succeeded",
            "1:the run failed (a denial fails it)",
            "2:no such run, it does not wait, or bad usage",
            "3:the run waits for approval again (of another call, e.g. the next element of a for_each)"
        })
final class ApproveCommand implements Callable<Integer> {

    @CommandLine.Mixin
    private RunIdParameter target;

    @CommandLine.Option(names = "--deny", description = "Deny the call instead of approving it.")
    private boolean deny;

    @CommandLine.Option(
            names = "--reason",
            paramLabel = "TEXT",
            description = "Why (recorded; a denial's reason is in the run's error).")
    private String reason = "";

    @CommandLine.Option(
            names = "--call-id",
            paramLabel = "ID",
            description = "Decide the call with this id (as planvm show lists it under pending_calls), not the first;"
                    + " repeat it to decide several alike.")
    private List<String> callIds = new ArrayList<>();

    @CommandLine.Option(
            names = "--all",
            description = "Decide every call the run waits for (each element of a for_each that needs approval),"
                    + " printing each on stderr first.")
    private boolean all;

    @CommandLine.Mixin
    private ContinuationOptions outputs;

    @CommandLine.Mixin
    private DurableStoreOptions store;

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
        if (all && !callIds.isEmpty()) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "--all decides every waiting call: drop --call-id");
        }
        return StoredRunContinuation.run(
                "approve",
                target.runId(),
                outputs,
                store,
                vmOptions,
                verbosity,
                parent.environment(),
                spec.commandLine(),
                (durable, session, secrets) ->
                        durable.approve(target.runId(), named(durable), !deny, reason, session, secrets));
    }

    /** The calls {@code --call-id} or {@code --all} name, each printed as it will be decided; none: the first. */
    private List<String> named(DurableRuns durable) {
        CommandLine commandLine = spec.commandLine();
        if (!all && callIds.isEmpty()) {
            return List.of();
        }
        List<WaitingCall> waiting = durable.waiting(target.runId()).stream()
                .filter(call -> call.kind() == WaitingCall.Kind.APPROVAL)
                .filter(call -> all || callIds.contains(call.callId()))
                .toList();
        List<String> ids = all ? waiting.stream().map(WaitingCall::callId).toList() : callIds;
        for (WaitingCall call : waiting) {
            commandLine
                    .getErr()
                    .println(TerminalText.safe(
                            (deny ? "denying" : "approving") + " call " + call.callId() + ": " + call.describe()));
        }
        return ids;
    }
}
