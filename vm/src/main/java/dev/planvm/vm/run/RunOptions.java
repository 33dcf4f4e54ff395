package dev.planvm.vm.run;

import dev.planvm.instructions.expr.RunClock;
import dev.planvm.tools.ToolPolicy;
import dev.planvm.tools.approval.ApprovalRules;
import java.util.List;
import java.util.Objects;

/**
 * What one run may do beyond the VM's own settings, chosen per run (e.g. per server request) and kept
 * with a durable run so that a resume applies them again. They only narrow the VM's settings: a tool
 * the VM denies stays denied, tools the VM's {@code approveTools} name still need approval, and the
 * step limit is the lower of the two.
 *
 * @param allowTools   allow globs of this run's tool policy ({@link ToolPolicy#of}); empty: no allow rule
 * @param denyTools    deny globs of this run's tool policy
 * @param approveTools globs of tools whose calls need approval in this run, besides the VM's
 * @param maxSteps     this run's step limit, or {@code null} for the VM's
 * @param origin       who started the run (e.g. {@code serve}), or {@code null}; a server resumes on start
 *                     only the interrupted runs it started
 * @param clock        the run's clock, which the date/time helpers read ({@code today}, {@code next(...)}), or
 *                     {@code null}: a replay takes its cassette's, else the VM takes one from its clock source
 *                     when the run starts ({@code PlanVm#clockFor}); a durable run stores the one it got, so a
 *                     resume and a rerun compute the same dates
 * @param keepGoing    whether a failed step lets the run go on with the next step (its error is recorded, and
 *                     {@link RunResult#failedSteps()} lists it) instead of failing the run; a limit that protects the
 *                     machine still stops it
 */
public record RunOptions(
        List<String> allowTools,
        List<String> denyTools,
        List<String> approveTools,
        Integer maxSteps,
        String origin,
        RunClock clock,
        boolean keepGoing) {

    /** Nothing beyond the VM's settings. */
    public static final RunOptions DEFAULT = new RunOptions(List.of(), List.of(), List.of(), null, null, null, false);

    /** Options that stop at the first failed step. */
    public RunOptions(
            List<String> allowTools,
            List<String> denyTools,
            List<String> approveTools,
            Integer maxSteps,
            String origin,
            RunClock clock) {
        this(allowTools, denyTools, approveTools, maxSteps, origin, clock, false);
    }

    /** Options with no clock of their own. */
    public RunOptions(
            List<String> allowTools,
            List<String> denyTools,
            List<String> approveTools,
            Integer maxSteps,
            String origin) {
        this(allowTools, denyTools, approveTools, maxSteps, origin, null);
    }

    /**
     * @throws IllegalArgumentException for a malformed glob or a step limit below 1
     */
    public RunOptions {
        allowTools = List.copyOf(allowTools);
        denyTools = List.copyOf(denyTools);
        approveTools = List.copyOf(approveTools);
        ToolPolicy.of(allowTools, denyTools);
        ApprovalRules.of(approveTools);
        if (maxSteps != null && maxSteps < 1) {
            throw new IllegalArgumentException("max_steps must be at least 1, not " + maxSteps);
        }
    }

    /** This run's own tool policy (the VM's applies too). */
    public ToolPolicy policy() {
        return ToolPolicy.of(allowTools, denyTools);
    }

    /** This run's own approval rules (the VM's apply too). */
    public ApprovalRules approvalRules() {
        return ApprovalRules.of(approveTools);
    }

    public RunOptions withOrigin(String value) {
        return new RunOptions(allowTools, denyTools, approveTools, maxSteps, value, clock, keepGoing);
    }

    /** These options with the run's clock ({@code null}: none of their own). */
    public RunOptions withClock(RunClock value) {
        return new RunOptions(allowTools, denyTools, approveTools, maxSteps, origin, value, keepGoing);
    }

    /** These options with this run's own tool policy ({@code --allow-tools}, {@code --deny-tools} globs) instead. */
    public RunOptions withToolPolicy(List<String> allow, List<String> deny) {
        return new RunOptions(allow, deny, approveTools, maxSteps, origin, clock, keepGoing);
    }

    /** These options with these approval globs (in this order, each once) instead of their own. */
    public RunOptions withApproveTools(List<String> globs) {
        return new RunOptions(allowTools, denyTools, globs, maxSteps, origin, clock, keepGoing);
    }

    /** These options, keeping going past failed steps or not. */
    public RunOptions withKeepGoing(boolean value) {
        return new RunOptions(allowTools, denyTools, approveTools, maxSteps, origin, clock, value);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof RunOptions o
                && allowTools.equals(o.allowTools)
                && denyTools.equals(o.denyTools)
                && approveTools.equals(o.approveTools)
                && Objects.equals(maxSteps, o.maxSteps)
                && Objects.equals(origin, o.origin)
                && Objects.equals(clock, o.clock)
                && keepGoing == o.keepGoing;
    }

    @Override
    public int hashCode() {
        return Objects.hash(allowTools, denyTools, approveTools, maxSteps, origin, clock, keepGoing);
    }
}
