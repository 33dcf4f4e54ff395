package dev.planvm.junit;

import static org.junit.platform.engine.support.discovery.SelectorResolver.Resolution.unresolved;

import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.platform.commons.support.ReflectionSupport;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.discovery.ClassSelector;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.engine.discovery.UniqueIdSelector;
import org.junit.platform.engine.support.discovery.SelectorResolver;

/**
 * Resolves a {@link PlanTests} class to its container and one test per plan, and a unique id (an IDE
 * re-running one plan) to that plan's test alone. Unique ids: {@code [engine:planvm-plans]/[class:NAME]}
 * and {@code .../[plan:FILE NAME]}.
 */
final class PlanSelectorResolver implements SelectorResolver {

    static final String CLASS = "class";
    static final String PLAN = "plan";

    @Override
    public Resolution resolve(ClassSelector selector, Context context) {
        Class<?> type = selector.getJavaClass();
        PlanTests annotation = type.getAnnotation(PlanTests.class);
        if (annotation == null) {
            return unresolved();
        }
        return context.addToParent(parent -> Optional.of(new PlanClassDescriptor(
                        parent.getUniqueId().append(CLASS, type.getName()),
                        type,
                        Path.of(annotation.value()),
                        PlanVmSetup.of(annotation))))
                .map(container -> Resolution.match(Match.exact(container, () -> planSelectors(container))))
                .orElse(unresolved());
    }

    @Override
    public Resolution resolve(UniqueIdSelector selector, Context context) {
        List<UniqueId.Segment> segments = selector.getUniqueId().getSegments();
        if (segments.size() < 2
                || !segments.get(0).getValue().equals(PlanTestEngine.ID)
                || !segments.get(1).getType().equals(CLASS)) {
            return unresolved();
        }
        Optional<Class<?>> type =
                ReflectionSupport.tryToLoadClass(segments.get(1).getValue()).toOptional();
        if (type.isEmpty() || !type.get().isAnnotationPresent(PlanTests.class)) {
            return unresolved();
        }
        if (segments.size() == 2) {
            return Resolution.selectors(Set.of(DiscoverySelectors.selectClass(type.get())));
        }
        if (segments.size() != 3 || !segments.get(2).getType().equals(PLAN)) {
            return unresolved();
        }
        String fileName = segments.get(2).getValue();
        return context.<PlanFileDescriptor>addToParent(
                        () -> DiscoverySelectors.selectClass(type.get()),
                        parent -> parent instanceof PlanClassDescriptor container
                                ? container
                                        .plan(fileName)
                                        .map(plan -> new PlanFileDescriptor(selector.getUniqueId(), plan))
                                : Optional.empty())
                .map(plan -> Resolution.match(Match.exact(plan)))
                .orElse(unresolved());
    }

    /** A unique-id selector for each plan of the class's directory (none when it has a problem). */
    private static Set<DiscoverySelector> planSelectors(PlanClassDescriptor container) {
        Set<DiscoverySelector> selectors = new LinkedHashSet<>();
        for (Path plan : container.plans()) {
            selectors.add(DiscoverySelectors.selectUniqueId(
                    container.getUniqueId().append(PLAN, plan.getFileName().toString())));
        }
        return selectors;
    }
}
