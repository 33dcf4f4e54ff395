package dev.planvm.tools.chain;

import dev.planvm.tools.ConditionEvaluator;
import dev.planvm.tools.ParamsCheck;
import dev.planvm.tools.ToolRegistry;
import dev.planvm.tools.cassette.CassettePlayer;
import dev.planvm.tools.cassette.CassetteRecorder;
import java.util.ArrayList;
import java.util.List;

/** Assembles the standard call chain: the one place its order is written down. */
public final class CallChains {

    private CallChains() {
    }

    /**
     * permission → (dry run | replay | record) → retry/timeout → the tool or condition evaluator.
     * Dry run and replay answer every call themselves, so nothing after them runs.
     *
     * @param player   replays a cassette, or {@code null}
     * @param recorder records into a cassette, or {@code null}
     * @param dryRun   answers placeholders, or {@code null}
     */
    public static CallChain standard(ToolRegistry tools, ConditionEvaluator conditions, ParamsCheck paramsCheck,
                                     RetryLink retry, DryRunLink dryRun, CassettePlayer player, CassetteRecorder recorder,
                                     List<CallListener> listeners) {
        List<CallInterceptor> links = new ArrayList<>();
        links.add(new PermissionLink());
        if (dryRun != null) {
            links.add(dryRun);
        } else if (player != null) {
            links.add(player);
        } else if (recorder != null) {
            links.add(recorder);
        }
        links.add(retry);
        links.add(new TerminalLink(tools, conditions, paramsCheck));
        return new CallChain(links, listeners);
    }
}
