package dev.planvm.junit.failing;

import dev.planvm.junit.PlanTests;

/** A plan that sleeps 30 days with no cassette, and one that ends at once; each has 1 s. */
@PlanTests(value = "src/test/plans/sleeping", planTimeoutSeconds = 1)
public class SleepingPlans {}
