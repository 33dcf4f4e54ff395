package dev.planvm.junit.failing;

import dev.planvm.junit.PlanTests;

/** Unusable setups: each fails its container with the reason. */
public final class BadSetups {

    private BadSetups() {}

    /** A configuration with a misspelled key. */
    @PlanTests(value = "src/test/plans/configured", config = "src/test/plans/bad-config/planvm.json")
    public static class MisspelledConfig {}

    /** A variable that is not NAME=VALUE. */
    @PlanTests(value = "src/test/plans/configured", vars = "2fast=yes")
    public static class MalformedVariable {}
}
