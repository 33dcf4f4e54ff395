package dev.planvm.junit.failing;

import dev.planvm.junit.PlanTests;

/** Plans that need a configuration's plan tool and two variables, as planvm test --config --var gives them. */
@PlanTests(
        value = "src/test/plans/configured",
        config = "src/test/plans/configured-setup/planvm.json",
        vars = {"topic=plans in junit", "round=2"})
public class ConfiguredPlans {}
