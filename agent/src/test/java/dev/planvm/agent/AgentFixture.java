package dev.planvm.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.llm.LlmConfig;
import dev.planvm.llm.LlmGenerateTool;
import dev.planvm.llm.PlannerTool;
import dev.planvm.llm.testing.FakeOpenAiServer;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolException;
import dev.planvm.tools.call.RetryPolicy;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.PlanVmBuilder;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** A loopback LLM server, retrieval and side-effect tools that count their calls, and a VM over them. */
final class AgentFixture implements AutoCloseable {

    static final ObjectMapper MAPPER = new ObjectMapper();

    final FakeOpenAiServer server = FakeOpenAiServer.start();
    final LlmConfig llm = LlmConfig.fromEnvironment(
                    Map.of("OPENAI_BASE_URL", server.baseUrl(), "PLANVM_LLM_TIMEOUT_SECONDS", "10"))
            .orElseThrow();
    final Map<String, AtomicInteger> invoked = new ConcurrentHashMap<>();
    final Map<String, List<Long>> startedAt = new ConcurrentHashMap<>();

    /** A read-only search that takes {@code millis} and answers "docs about QUERY". */
    Tool search(String name, long millis) {
        return tool(
                name,
                false,
                millis,
                params -> TextNode.valueOf("docs about " + params.path("query").asText()));
    }

    /** A tool with side effects (it "sends" its text). */
    Tool send() {
        return tool(
                "send",
                true,
                0,
                params -> TextNode.valueOf("sent " + params.path("text").asText()));
    }

    /** A tool that always fails (not retriable). */
    Tool broken(String name) {
        return tool(name, false, 0, params -> {
            throw ToolException.permanent(name + " is down");
        });
    }

    Tool tool(String name, boolean sideEffects, long millis, java.util.function.Function<JsonNode, JsonNode> answer) {
        JsonNode schema = json("{\"type\": \"object\", \"properties\": {\"query\": {\"type\": \"string\"}, "
                + "\"text\": {\"type\": \"string\"}}}");
        return new Tool() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public String description() {
                return "Test tool " + name + ".";
            }

            @Override
            public JsonNode paramsSchema() {
                return schema;
            }

            @Override
            public boolean hasSideEffects() {
                return sideEffects;
            }

            @Override
            public JsonNode invoke(JsonNode params, CallContext context) {
                invoked.computeIfAbsent(name, n -> new AtomicInteger()).incrementAndGet();
                startedAt
                        .computeIfAbsent(name, n -> new java.util.concurrent.CopyOnWriteArrayList<>())
                        .add(System.nanoTime());
                if (millis > 0) {
                    try {
                        Thread.sleep(millis);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw ToolException.permanent("interrupted");
                    }
                }
                return answer.apply(params);
            }
        };
    }

    /** A VM with the planner, llm_generate and these tools; no retry waits. */
    PlanVmBuilder vm(Tool... tools) {
        PlanVmBuilder builder = PlanVm.builder()
                .tool(new PlannerTool(llm))
                .tool(new LlmGenerateTool(llm))
                .retryPolicy(new RetryPolicy(2, Duration.ofMillis(1), Duration.ofMillis(2)));
        for (Tool tool : tools) {
            builder.tool(tool);
        }
        return builder;
    }

    int invocations(String tool) {
        AtomicInteger count = invoked.get(tool);
        return count == null ? 0 : count.get();
    }

    /** The content of the last user message of request {@code n}. */
    String lastUserMessage(int n) {
        JsonNode messages = server.requests().get(n).path("messages");
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i).path("role").asText().equals("user")) {
                return messages.get(i).path("content").asText();
            }
        }
        return "";
    }

    static JsonNode json(String text) {
        try {
            return MAPPER.readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    @Override
    public void close() {
        server.close();
    }
}
