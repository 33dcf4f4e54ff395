package dev.planvm.cli;

import dev.planvm.json.TerminalText;
import dev.planvm.vm.durable.RunStore;
import dev.planvm.vm.durable.RunSummary;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code planvm runs}: the stored runs, newest first. */
@Command(name = "runs", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = "List stored runs, newest first: id, status, steps, started, plan.")
final class RunsCommand implements Callable<Integer> {

    @CommandLine.Mixin
    private StoreOptions store;

    @CommandLine.Option(names = "--limit", paramLabel = "N", defaultValue = "50", description = "At most N runs (default: ${DEFAULT-VALUE}).")
    private int limit;

    @CommandLine.Mixin
    private Verbosity verbosity;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @CommandLine.ParentCommand
    private PlanvmCommand parent;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        try (RunStore runs = store.open(parent.environment())) {
            List<RunSummary> summaries = runs.list(Math.max(1, limit));
            if (summaries.isEmpty()) {
                out.println("no runs in " + store.path(parent.environment()));
            } else {
                out.printf("%-12s  %-9s  %5s  %-24s  %s%n", "RUN", "STATUS", "STEPS", "STARTED", "PLAN");
            }
            for (RunSummary run : summaries) {
                out.printf("%-12s  %-9s  %5d  %-24s  %s%s%n", run.id(), run.status().label(), run.steps(), run.startedAt(),
                        TerminalText.safe(run.planSource()), run.parentRun() == null ? "" : " (rerun of " + run.parentRun() + ")");
            }
        }
        return ExitCodes.OK;
    }
}
