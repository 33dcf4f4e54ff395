package dev.planvm.junit.failing;

import dev.planvm.junit.PlanTests;

/** The same plans without the configuration: the plan tool is unknown. */
@PlanTests(
        value = "src/test/plans/configured",
        vars = {"topic=plans in junit", "round=2"})
public class UnconfiguredPlans {}
