package dev.planvm.cli;

import dev.planvm.json.TerminalText;
import dev.planvm.vm.durable.RunStore;
import dev.planvm.vm.durable.RunSummary;
import dev.planvm.vm.run.RunStatus;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code planvm runs}: the stored runs, newest first; {@code --prune} deletes old ones. */
@Command(
        name = "runs",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "List stored runs, newest first: id, state, steps, started, plan.",
            "A plan tool's child run says whose call started it: (child of RUN at seq_no N).",
            "A run's state is running (a live process works on it), interrupted (its process died: planvm resume "
                    + "continues it), waiting (for an approval or an answer), succeeded, completed_with_failures (it"
                    + " kept going past failed steps to its end: --keep-going) or failed.",
            "With --prune, delete runs older than --older-than and/or all but the --keep newest (never one a live "
                    + "process works on), and the stored values no remaining run uses."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:listed (or pruned)", "2:no run store there, or bad usage"})
final class RunsCommand implements Callable<Integer> {

    private static final Pattern AGE = Pattern.compile("(\\d+)([dhms])");

    @CommandLine.Mixin
    private StoreOptions store;

    @CommandLine.Option(
            names = "--limit",
            paramLabel = "N",
            defaultValue = "50",
            description = "At most N runs (default: ${DEFAULT-VALUE}).")
    private int limit;

    @CommandLine.Option(
            names = "--prune",
            description = "Delete old runs (see --older-than and --keep) instead of listing.")
    private boolean prune;

    @CommandLine.Option(
            names = "--older-than",
            paramLabel = "AGE",
            description = "With --prune: runs started more than AGE ago (30d, 12h, 90m).")
    private String olderThan;

    @CommandLine.Option(names = "--keep", paramLabel = "N", description = "With --prune: all but the N newest runs.")
    private Integer keep;

    @CommandLine.Option(
            names = "--state",
            paramLabel = "STATE",
            description = "Only runs in this state: running, interrupted, waiting, succeeded, completed_with_failures"
                    + " or failed.")
    private String state;

    /** The states a run can be in, as {@link RunSummary#state()} says them. */
    static final List<String> STATES =
            List.of("running", "interrupted", "waiting", "succeeded", "completed_with_failures", "failed");

    @CommandLine.Mixin
    private Verbosity verbosity;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @CommandLine.ParentCommand
    private PlanvmCommand parent;

    @Override
    public Integer call() {
        CommandLine commandLine = spec.commandLine();
        PrintWriter out = commandLine.getOut();
        if (state != null && (prune || !STATES.contains(state))) {
            throw new CommandLine.ParameterException(
                    commandLine,
                    prune
                            ? "--state goes with listing, not --prune"
                            : "--state must be one of " + String.join(", ", STATES) + ", not '"
                                    + TerminalText.safe(state) + "'");
        }
        if (prune != (olderThan != null || keep != null)) {
            throw new CommandLine.ParameterException(
                    commandLine,
                    prune
                            ? "--prune needs --older-than AGE and/or --keep N"
                            : "--older-than and --keep go with --prune");
        }
        try (RunStore runs = store.openExisting(parent.environment())) {
            if (prune) {
                int deleted = runs.prune(age(commandLine), keep == null ? null : Math.max(0, keep));
                out.println("pruned " + deleted + " run" + (deleted == 1 ? "" : "s") + " from " + runs.file());
                return ExitCodes.OK;
            }
            List<RunSummary> summaries = list(runs, Math.max(1, limit));
            int width = summaries.stream()
                    .mapToInt(run -> run.state().length())
                    .max()
                    .orElse(0);
            width = Math.max(11, width);
            if (summaries.isEmpty()) {
                out.println("no runs" + (state == null ? "" : " " + state) + " in " + runs.file());
            } else {
                out.printf("%-12s  %-" + width + "s  %5s  %-24s  %s%n", "RUN", "STATE", "STEPS", "STARTED", "PLAN");
            }
            for (RunSummary run : summaries) {
                out.printf(
                        "%-12s  %-" + width + "s  %5d  %-24s  %s%s%n",
                        run.id(),
                        run.state(),
                        run.steps(),
                        run.startedAt(),
                        TerminalText.safe(run.planSource()),
                        (run.parentRun() == null ? "" : " (rerun of " + run.parentRun() + ")")
                                + runs.caller(run.id())
                                        .map(c -> " (child of " + c.runId() + " at seq_no " + c.seqNo() + ")")
                                        .orElse(""));
            }
        }
        return ExitCodes.OK;
    }

    /**
     * The {@code limit} most recent runs, in {@link #state} when given: the store filters by stored status;
     * running and interrupted runs share one ({@code running}), told apart by whether their owner lives.
     */
    private List<RunSummary> list(RunStore runs, int limit) {
        if (state == null) {
            return runs.list(limit);
        }
        RunStatus status = state.equals("interrupted") ? RunStatus.RUNNING : RunStatus.ofLabel(state);
        List<RunSummary> found = new ArrayList<>();
        for (int offset = 0; found.size() < limit; offset += PAGE) {
            List<RunSummary> page = runs.list(PAGE, offset, status);
            page.stream()
                    .filter(run -> run.state().equals(state))
                    .limit(limit - found.size())
                    .forEach(found::add);
            if (page.size() < PAGE) {
                break;
            }
        }
        return found;
    }

    private static final int PAGE = 200;

    private Duration age(CommandLine commandLine) {
        if (olderThan == null) {
            return null;
        }
        Matcher m = AGE.matcher(olderThan);
        if (!m.matches()) {
            throw new CommandLine.ParameterException(
                    commandLine, "--older-than " + olderThan + ": expected a number and d, h, m or s (30d)");
        }
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "d" -> Duration.ofDays(n);
            case "h" -> Duration.ofHours(n);
            case "m" -> Duration.ofMinutes(n);
            default -> Duration.ofSeconds(n);
        };
    }
}
