package dev.planvm.knowledge;

import dev.planvm.tools.Tool;
import java.util.List;

/** The tools over an open knowledge base, for embedding code that registers tools itself. */
public final class KnowledgeTools {

    /** The tool names, as StackVM plans call them. */
    public static final List<String> NAMES = List.of(VectorSearchTool.NAME, KnowledgeGraphTool.NAME);

    private KnowledgeTools() {}

    /**
     * {@code vector_search} and {@code retrieve_knowledge_graph} over {@code kb} (the second fails each call
     * with a sentence when the knowledge base has no graph). The caller keeps {@code kb} open while the
     * tools are in use and closes it after.
     */
    public static List<Tool> of(KnowledgeBase kb) {
        return List.of(new VectorSearchTool(kb), new KnowledgeGraphTool(kb));
    }
}
