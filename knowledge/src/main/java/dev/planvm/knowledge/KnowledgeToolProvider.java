package dev.planvm.knowledge;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.knowledge.spi.KnowledgeException;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolProvider;
import dev.planvm.tools.ToolSetup;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Offers {@code vector_search} and {@code retrieve_knowledge_graph} over the knowledge base named by the
 * {@code knowledge} section of the tools configuration ({@code "knowledge": {"kb": "docs"}}; see
 * {@link KnowledgeConfig} for every key). Without that section it offers nothing. The knowledge base is
 * opened when the tools are set up (a missing or damaged one is a configuration problem at
 * {@code /knowledge/kb}) and closed with the setup. Registered in
 * {@code META-INF/services/dev.planvm.tools.ToolProvider}.
 */
public final class KnowledgeToolProvider implements ToolProvider {

    /** Why the tools are missing when no knowledge base is configured. */
    public static final String NOT_CONFIGURED = "no knowledge base is configured: build one with "
            + "`planvm kb index PATH... --kb NAME`, then add \"knowledge\": {\"kb\": \"NAME\"} to the tools configuration "
            + "(planvm.json) or pass --kb NAME";

    @Override
    public Map<String, JsonNode> configSections() {
        return Map.of(KnowledgeConfig.SECTION, KnowledgeConfig.schema());
    }

    @Override
    public List<Tool> tools(ToolSetup setup) {
        Optional<JsonNode> section = setup.section(KnowledgeConfig.SECTION);
        if (section.isEmpty()) {
            return List.of();
        }
        Optional<KnowledgeConfig> config = KnowledgeConfig.read(section.get(), setup);
        if (config.isEmpty()) {
            return List.of();
        }
        KnowledgeConfig knowledge = config.get();
        try {
            KnowledgeBase kb = KnowledgeBases.at(knowledge.root())
                    .open(knowledge.kb(), knowledge.endpoint(), knowledge.settings());
            setup.closeWith(kb);
            return KnowledgeTools.of(kb);
        } catch (KnowledgeException e) {
            setup.problem("/" + KnowledgeConfig.SECTION + "/kb", e.getMessage());
            return List.of();
        }
    }

    @Override
    public Map<String, String> unavailable(Map<String, String> environment) {
        return Map.of(VectorSearchTool.NAME, NOT_CONFIGURED, KnowledgeGraphTool.NAME, NOT_CONFIGURED);
    }
}
