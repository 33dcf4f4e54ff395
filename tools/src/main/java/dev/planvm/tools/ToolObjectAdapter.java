package dev.planvm.tools;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * Turns an object whose methods are tools by another library's convention (langchain4j's
 * {@code @Tool} methods) into planvm tools, so that {@code PlanVm.builder().toolsFrom(object)} works
 * without the VM depending on that library. Found by {@link ServiceLoader}: list the implementation in
 * {@code META-INF/services/dev.planvm.tools.ToolObjectAdapter} (planvm-llm lists its langchain4j one).
 */
public interface ToolObjectAdapter {

    /** The tools of {@code toolObject}, or empty when this adapter does not know its kind of object. */
    Optional<List<Tool>> toolsOf(Object toolObject);

    /**
     * The tools of {@code toolObject}, by the first adapter on the class path that knows it.
     *
     * @throws IllegalArgumentException when no adapter knows it (no {@code @Tool} method, or
     *     planvm-llm missing from the class path)
     */
    static List<Tool> toolsFrom(Object toolObject) {
        Objects.requireNonNull(toolObject, "toolObject");
        for (ToolObjectAdapter adapter :
                ServiceLoader.load(ToolObjectAdapter.class, ToolObjectAdapter.class.getClassLoader())) {
            Optional<List<Tool>> tools = adapter.toolsOf(toolObject);
            if (tools.isPresent()) {
                return List.copyOf(tools.get());
            }
        }
        throw new IllegalArgumentException(
                "no tools in " + toolObject.getClass().getName()
                        + ": planvm takes the langchain4j @Tool methods of an object, with planvm-llm on the class path");
    }
}
