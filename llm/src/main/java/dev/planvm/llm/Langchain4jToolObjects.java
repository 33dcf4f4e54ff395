package dev.planvm.llm;

import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolObjectAdapter;
import java.util.List;
import java.util.Optional;

/** {@code PlanVm.builder().toolsFrom(object)} for objects with langchain4j {@code @Tool} methods. */
public final class Langchain4jToolObjects implements ToolObjectAdapter {

    @Override
    public Optional<List<Tool>> toolsOf(Object toolObject) {
        return Langchain4jTools.hasToolMethods(toolObject)
                ? Optional.of(Langchain4jTools.from(toolObject))
                : Optional.empty();
    }
}
