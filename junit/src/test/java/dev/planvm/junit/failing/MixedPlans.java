package dev.planvm.junit.failing;

import dev.planvm.junit.PlanTests;

/** A plan that meets its expectation, one that does not, one without an expectation. */
@PlanTests("src/test/plans/mixed")
public class MixedPlans {}
