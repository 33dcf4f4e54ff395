package dev.planvm.cli;

import java.io.IOException;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code planvm approve RUN [--deny --reason TEXT]}: decides the call a waiting run waits for, and continues the run. */
@Command(
        name = "approve",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "Approve (or deny) the tool call a waiting run waits for, and continue the run.",
            "Approved, the call is made; denied, the step fails with 'denied by a reviewer: REASON', which a re-plan can see."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:the run succeeded",
            "1:the run failed (a denial fails it)",
            "2:no such run, it does not wait, or bad usage",
            "3:the run waits for approval again (of another call)"
        })
final class ApproveCommand implements Callable<Integer> {

    @CommandLine.Parameters(index = "0", paramLabel = "RUN", description = "The run id (or an unambiguous prefix).")
    private String runId;

    @CommandLine.Option(names = "--deny", description = "Deny the call instead of approving it.")
    private boolean deny;

    @CommandLine.Option(
            names = "--reason",
            paramLabel = "TEXT",
            description = "Why (recorded; a denial's reason is in the run's error).")
    private String reason = "";

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
        return StoredRunContinuation.run(
                "approve",
                runId,
                outputs,
                store,
                vmOptions,
                verbosity,
                parent.environment(),
                spec.commandLine(),
                (durable, session, secrets) -> durable.approve(runId, !deny, reason, session, secrets));
    }
}
