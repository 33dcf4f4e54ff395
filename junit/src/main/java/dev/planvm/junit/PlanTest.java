package dev.planvm.junit;

import dev.planvm.vm.batch.RegressionRun;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A JUnit Jupiter test of one plan: the plan runs (replaying its cassette), is compared with its
 * expectation when it has one, and then the method runs; a method parameter of type
 * {@link dev.planvm.vm.run.RunResult} (or {@link dev.planvm.vm.batch.PlanOutcome}) receives the run, to
 * check with {@link PlanAssertions}.
 *
 * <pre>{@code
 * @PlanTest(plan = "plans/refine.json", cassette = "plans/refine.cassette.json")
 * void refines_until_complete(RunResult run) {
 *     assertThat(run).succeeded().wrote("round", "3");
 * }
 * }</pre>
 *
 * <p>Paths are relative to the working directory. With neither an expectation nor a parameter that
 * takes the run, the test fails: it would check nothing.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
@Test
@ExtendWith(PlanTestExtension.class)
public @interface PlanTest {

    /** The plan file ({@code .json}, {@code .yaml}, {@code .yml} or {@code .js}). */
    String plan();

    /**
     * The cassette to replay; empty (the default): {@code X.cassette.json} beside the plan when there is
     * one, else the plan runs live on a VM with no tool installed.
     */
    String cassette() default "";

    /**
     * The expectation to compare with; empty (the default): {@code X.expected.json} beside the plan when
     * there is one. A file named here must exist.
     */
    String expected() default "";

    /**
     * The tools configuration ({@code planvm.json}) whose tools the plans may call, relative to the working
     * directory; empty (the default): found as {@code planvm test} finds it — {@code PLANVM_CONFIG}, else
     * {@code planvm.json} in the working directory when it is there, else none.
     */
    String config() default "";

    /**
     * Variables set before each plan's first instruction, as {@code planvm test --var NAME=VALUE}: the
     * value is JSON when it parses as JSON, else text.
     */
    String[] vars() default {};

    /**
     * The plan's time limit in seconds, as {@code planvm test --plan-timeout}: a plan still running then fails
     * the test (saying where it was) and its run is stopped.
     */
    long planTimeoutSeconds() default RegressionRun.DEFAULT_TIME_LIMIT_SECONDS;
}
