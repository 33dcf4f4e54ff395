package dev.planvm.junit;

/**
 * The project's stored examples ({@code plans/}, every dialect) as JUnit tests: each replays its cassette
 * and meets its expectation, as {@code planvm test plans/} checks in CI.
 */
@PlanTests("../plans")
class ExamplePlansTest {}
