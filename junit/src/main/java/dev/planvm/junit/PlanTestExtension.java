package dev.planvm.junit;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.batch.PlanFileRunner;
import dev.planvm.vm.batch.PlanOutcome;
import dev.planvm.vm.batch.RegressionRun;
import dev.planvm.vm.run.RunListener;
import dev.planvm.vm.run.RunResult;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;
import org.junit.platform.commons.support.AnnotationSupport;
import org.opentest4j.AssertionFailedError;

/**
 * Runs the plan of a {@link PlanTest} method once, hands the run to the method's
 * {@link RunResult} / {@link PlanOutcome} parameter, and compares it with its expectation before the
 * method's own checks.
 */
final class PlanTestExtension implements ParameterResolver, InvocationInterceptor {

    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(PlanTestExtension.class);

    /** A plan's run: the outcome {@code planvm test} compares, and the VM's result when the plan ran. */
    record Ran(PlanOutcome outcome, RunResult result) {}

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return takesTheRun(parameter.getParameter().getType());
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        Ran ran = ran(context);
        if (parameter.getParameter().getType() == PlanOutcome.class) {
            return ran.outcome();
        }
        if (ran.result() == null) {
            throw new ParameterResolutionException(ran.outcome().file() + " did not run: it is "
                    + ran.outcome().status().label() + ": " + ran.outcome().error());
        }
        return ran.result();
    }

    @Override
    public void interceptTestMethod(
            Invocation<Void> invocation, ReflectiveInvocationContext<Method> call, ExtensionContext context)
            throws Throwable {
        PlanTest spec = spec(context);
        Path plan = Path.of(spec.plan());
        Path expectation = spec.expected().isEmpty() ? PlanFileRunner.expectationFor(plan) : Path.of(spec.expected());
        boolean checksTheRun =
                Arrays.stream(call.getExecutable().getParameterTypes()).anyMatch(PlanTestExtension::takesTheRun);
        AssertionFailedError failure = null;
        if (Files.exists(expectation)) {
            PlanOutcome outcome = ran(context).outcome();
            List<String> differences = PlanCheck.compare(expectation, outcome);
            if (!differences.isEmpty()) {
                failure = PlanCheck.failure(plan, expectation, differences, outcome);
            }
        } else if (!spec.expected().isEmpty()) {
            failure = new AssertionFailedError("@PlanTest(expected = \"" + spec.expected() + "\"): no such file");
        } else if (!checksTheRun) {
            failure = new AssertionFailedError(
                    "@PlanTest(plan = \"" + spec.plan() + "\") checks nothing: there is no " + expectation
                            + " (write it with planvm test --update), and the method takes no RunResult to check");
        }
        if (failure != null) {
            invocation.skip();
            throw failure;
        }
        invocation.proceed();
    }

    private static boolean takesTheRun(Class<?> type) {
        return type == RunResult.class || type == PlanOutcome.class;
    }

    private static PlanTest spec(ExtensionContext context) {
        return AnnotationSupport.findAnnotation(context.getRequiredTestMethod(), PlanTest.class)
                .orElseThrow(() -> new IllegalStateException(
                        context.getRequiredTestMethod() + " is not annotated with @PlanTest"));
    }

    /** The plan's run, once per test. */
    private static Ran ran(ExtensionContext context) {
        return context.getStore(NAMESPACE).computeIfAbsent(context.getUniqueId(), key -> run(spec(context)), Ran.class);
    }

    private static Ran run(PlanTest spec) {
        Path plan = Path.of(spec.plan());
        PlanVmSetup setup = PlanVmSetup.of(spec);
        Map<String, JsonNode> inputs = setup.inputs();
        AtomicReference<RunResult> result = new AtomicReference<>();
        try (PlanVm vm = setup.configure(PlanVm.builder())
                .listener(new RunListener() {
                    @Override
                    public void runFinished(RunResult finished) {
                        result.set(finished);
                    }
                })
                .build()) {
            RegressionRun regression =
                    new RegressionRun(PlanCheck.runner(vm), inputs).withTimeLimit(setup.planTimeout());
            PlanOutcome outcome = spec.cassette().isEmpty()
                    ? regression.run(plan)
                    : regression.replay(plan, Path.of(spec.cassette()));
            return new Ran(outcome, result.get());
        } catch (RegressionRun.TimedOut late) {
            throw new AssertionFailedError("FAIL " + plan + "\n  " + late.getMessage());
        }
    }
}
