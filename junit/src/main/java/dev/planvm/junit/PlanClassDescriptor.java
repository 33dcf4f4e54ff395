package dev.planvm.junit;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.vm.PlanVm;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.AbstractTestDescriptor;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.hierarchical.Node;
import org.opentest4j.AssertionFailedError;

/**
 * A {@link PlanTests} class: the container of its directory's plans. Its plans are listed once, at
 * discovery; a directory that cannot be tested (missing, no plan, no expectation) makes the container
 * fail when it runs, with the reason. Its plans share one VM (with the tools and variables of the
 * annotation's {@link PlanVmSetup}), closed after the last.
 */
final class PlanClassDescriptor extends AbstractTestDescriptor implements Node<PlanTestEngine.Context> {

    private final String className;
    private final List<Path> plans;
    private final AssertionFailedError problem;
    private final PlanVmSetup setup;

    PlanClassDescriptor(UniqueId uniqueId, Class<?> type, Path dir, PlanVmSetup setup) {
        super(uniqueId, type.getSimpleName(), ClassSource.from(type));
        this.className = type.getName();
        List<Path> found = List.of();
        AssertionFailedError unusable = null;
        try {
            found = PlanCheck.plans(dir);
        } catch (AssertionFailedError e) {
            unusable = new AssertionFailedError(
                    "@PlanTests(\"" + dir + "\") on " + type.getName() + ": " + e.getMessage());
        }
        this.plans = found;
        this.problem = unusable;
        this.setup = setup;
    }

    @Override
    public Type getType() {
        return Type.CONTAINER;
    }

    /** The class's full name, as Jupiter's classes are reported (Surefire's {@code classname}). */
    @Override
    public String getLegacyReportingName() {
        return className;
    }

    /** Kept (not pruned as an empty container) when it has a problem to report. */
    @Override
    public boolean mayRegisterTests() {
        return problem != null;
    }

    /** The plans of the directory, as {@code planvm test} lists them; empty when it has a problem. */
    List<Path> plans() {
        return plans;
    }

    /** The plan of that file name, when the directory has it. */
    Optional<Path> plan(String fileName) {
        return plans.stream()
                .filter(plan -> plan.getFileName().toString().equals(fileName))
                .findFirst();
    }

    @Override
    public PlanTestEngine.Context before(PlanTestEngine.Context context) {
        if (problem != null) {
            throw problem;
        }
        Map<String, JsonNode> inputs = setup.inputs();
        PlanVm vm = setup.configure(PlanVm.builder()).build();
        return new PlanTestEngine.Context(vm, new PlanCheck(vm, inputs, setup.planTimeout()));
    }

    @Override
    public void after(PlanTestEngine.Context context) {
        if (context.vm() != null) {
            context.vm().close();
        }
    }
}
