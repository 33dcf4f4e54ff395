package dev.planvm.tools.approval;

import dev.planvm.tools.call.Call;
import java.util.Optional;

/**
 * Who decides whether a tool call that needs a reviewer's approval may proceed ({@link ApprovalRules}
 * say which calls need one). Asked once per such call, just before it would be made, on the run's
 * thread. Implementations: the run store's recorded decisions (durable runs), a prompt on a terminal,
 * a test's fixed answer.
 */
@FunctionalInterface
public interface Approvals {

    /** Nobody has decided anything: every call that needs approval waits. */
    Approvals NONE = call -> Optional.empty();

    /**
     * The decision about {@code call} (its params interpolated), or empty when there is none yet: the
     * run then stops, waiting, before the call is made.
     */
    Optional<Decision> decide(Call.ToolCall call);

    /**
     * A reviewer's decision about one call.
     *
     * @param approved whether the call may proceed
     * @param reason   why (shown to the plan when denied); may be empty
     */
    record Decision(boolean approved, String reason) {
        public Decision {
            reason = reason == null ? "" : reason;
        }

        public static Decision approve() {
            return new Decision(true, "");
        }

        public static Decision deny(String reason) {
            return new Decision(false, reason);
        }
    }
}
