package dev.planvm.junit.failing;

import dev.planvm.junit.PlanTests;

@PlanTests("src/test/plans/missing")
public class MissingDirectory {}
