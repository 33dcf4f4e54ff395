package dev.planvm.junit.failing;

import dev.planvm.junit.PlanTest;
import dev.planvm.vm.run.RunResult;
import java.util.ArrayList;
import java.util.List;

/** A @PlanTest of a plan that sleeps 30 days with no cassette, given 1 s; {@link #bodies} records whether its body ran. */
public class SleepingPlanMethod {

    public static final List<String> bodies = new ArrayList<>();

    @PlanTest(plan = "src/test/plans/sleeping/sleeps.json", planTimeoutSeconds = 1)
    void sleeps_for_days(RunResult run) {
        bodies.add("sleeps_for_days");
    }
}
