package dev.planvm.junit;

import java.nio.file.Path;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.AbstractTestDescriptor;
import org.junit.platform.engine.support.descriptor.FileSource;
import org.junit.platform.engine.support.hierarchical.Node;

/** One plan of a {@link PlanTests} directory: a test named after its file, run by {@link PlanCheck}. */
final class PlanFileDescriptor extends AbstractTestDescriptor implements Node<PlanTestEngine.Context> {

    private final Path plan;

    PlanFileDescriptor(UniqueId uniqueId, Path plan) {
        super(uniqueId, plan.getFileName().toString(), FileSource.from(plan.toFile()));
        this.plan = plan;
    }

    @Override
    public Type getType() {
        return Type.TEST;
    }

    @Override
    public PlanTestEngine.Context execute(PlanTestEngine.Context context, DynamicTestExecutor dynamicTestExecutor) {
        context.check().check(plan);
        return context;
    }
}
