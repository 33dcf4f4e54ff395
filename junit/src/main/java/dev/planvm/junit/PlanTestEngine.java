package dev.planvm.junit;

import dev.planvm.vm.PlanVm;
import java.util.Optional;
import org.junit.platform.engine.EngineDiscoveryRequest;
import org.junit.platform.engine.ExecutionRequest;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.EngineDescriptor;
import org.junit.platform.engine.support.discovery.EngineDiscoveryRequestResolver;
import org.junit.platform.engine.support.hierarchical.EngineExecutionContext;
import org.junit.platform.engine.support.hierarchical.HierarchicalTestEngine;

/**
 * The JUnit Platform engine {@code planvm-plans}: finds the test classes annotated {@link PlanTests}
 * and runs one test per plan of their directory ({@link PlanCheck}). Surefire, Gradle and IDEs find it
 * on the test class path (a {@code ServiceLoader} entry) and run it beside Jupiter; a plan's test
 * points at its file, a class's container at its class.
 */
public final class PlanTestEngine extends HierarchicalTestEngine<PlanTestEngine.Context> {

    /** The engine's id, the first segment of every unique id it gives. */
    public static final String ID = "planvm-plans";

    @Override
    public String getId() {
        return ID;
    }

    @Override
    public Optional<String> getGroupId() {
        return Optional.of("dev.planvm");
    }

    @Override
    public Optional<String> getArtifactId() {
        return Optional.of("planvm-junit");
    }

    @Override
    public TestDescriptor discover(EngineDiscoveryRequest request, UniqueId uniqueId) {
        EngineDescriptor engine = new EngineDescriptor(uniqueId, "planvm plans");
        EngineDiscoveryRequestResolver.<EngineDescriptor>builder()
                .addClassContainerSelectorResolver(type -> type.isAnnotationPresent(PlanTests.class))
                .addSelectorResolver(new PlanSelectorResolver())
                .build()
                .resolve(request, engine);
        return engine;
    }

    @Override
    protected Context createExecutionContext(ExecutionRequest request) {
        return new Context(null, null);
    }

    /**
     * What the tests of one {@link PlanTests} class share: the VM their plans run on and the check.
     *
     * @param vm    the class's VM, or {@code null} outside a class
     * @param check runs and compares one plan, or {@code null} outside a class
     */
    record Context(PlanVm vm, PlanCheck check) implements EngineExecutionContext {}
}
