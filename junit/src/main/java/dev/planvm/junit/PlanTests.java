package dev.planvm.junit;

import dev.planvm.vm.batch.RegressionRun;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Makes a test class stand for a directory of plans: each plan {@code X.json} ({@code X.yaml},
 * {@code X.js}) of the directory is one test, replayed with its {@code X.cassette.json} when there is
 * one and compared with its {@code X.expected.json} — exactly what {@code planvm test DIR} does, by the
 * same code. A plan without an expectation is skipped (aborted); a failing plan's message is
 * {@code planvm test}'s, with the differences as JSON pointers, and the expected and actual
 * expectations are attached so that an IDE shows them side by side.
 *
 * <pre>{@code
 * @PlanTests("src/test/plans")
 * class PlansTest {}
 * }</pre>
 *
 * <p>The class needs no method: the JUnit Platform engine {@code planvm-plans} of this artifact
 * discovers it (Surefire and IDEs run every engine on the test class path). The directory is relative
 * to the working directory (a Maven module's directory under Surefire). It fails as a whole when it
 * does not exist, holds no plan, or none of its plans has an expectation. The plans run on a
 * {@code PlanVm} with the tools of {@link #config()} (as {@code planvm test} has), with the variables of
 * {@link #vars()}: a call no cassette answers goes to those tools. For a VM built your own way, use
 * {@link PlanTesting#dynamicTests(dev.planvm.vm.PlanVm, java.nio.file.Path)} from a {@code @TestFactory}.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface PlanTests {

    /** The directory of plans, relative to the working directory (e.g. {@code "src/test/plans"}). */
    String value();

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
     * Each plan's time limit in seconds, as {@code planvm test --plan-timeout}: a plan still running then fails
     * its test (saying where it was) and its run is stopped, so a sleeping or hung plan cannot hang the build.
     */
    long planTimeoutSeconds() default RegressionRun.DEFAULT_TIME_LIMIT_SECONDS;
}
