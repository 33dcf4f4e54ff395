package dev.planvm.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.anthropic.AnthropicChatModel;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.googleai.GoogleAiGeminiChatModel;
import dev.langchain4j.model.mistralai.MistralAiChatModel;
import dev.langchain4j.model.ollama.OllamaChatModel;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.planvm.tools.CallEvents;
import dev.planvm.tools.ToolException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The provider × feature table of docs/guides/llms.md is written from the code: the module and its version
 * from the class path, JSON mode and the temperature range from what {@link LlmClient} does, the schema form from
 * what {@link SchemaForms} does to a sample schema; the wire's facts (paths, headers, streams, counts, hints)
 * are those the fakes of {@code dev.planvm.llm.testing} check. The committed table must be what this says now;
 * {@code -Dplanvm.docs.write=true} writes it.
 */
class ProviderTableTest {

    private static final Path PAGE = Path.of("../docs/guides/llms.md");
    static final String START = "<!-- provider table: written by ProviderTableTest (llm module) from the code;"
            + " -Dplanvm.docs.write=true rewrites it -->";
    static final String END = "<!-- end of provider table -->";
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Test
    void the_table_in_the_llms_guide_is_what_the_code_does() throws Exception {
        String page = Files.readString(PAGE, StandardCharsets.UTF_8);
        int start = page.indexOf(START);
        int end = page.indexOf(END);
        assertThat(start).as("the table's start marker in " + PAGE).isGreaterThanOrEqualTo(0);
        assertThat(end).as("the table's end marker").isGreaterThan(start);
        String generated = START + "\n\n" + table() + "\n" + END;
        String committed = page.substring(start, end + END.length());
        if (Boolean.getBoolean("planvm.docs.write")) {
            Files.writeString(PAGE, page.replace(committed, generated), StandardCharsets.UTF_8);
        } else if (!committed.equals(generated)) {
            fail("the provider table of docs/guides/llms.md is stale; regenerate it with\n  mvn -B -o -pl llm -am test"
                    + " -Dtest=ProviderTableTest -Dsurefire.failIfNoSpecifiedTests=false -Dplanvm.docs.write=true\n"
                    + "generated:\n" + generated);
        }
    }

    static String table() throws Exception {
        Map<String, Function<LlmProvider, String>> rows = new LinkedHashMap<>();
        rows.put("langchain4j module", ProviderTableTest::module);
        rows.put("request", p -> switch (p) {
            case OPENAI -> "`POST /v1/chat/completions`";
            case ANTHROPIC -> "`POST /v1/messages`";
            case GEMINI -> "`POST /v1beta/models/MODEL:generateContent`";
            case OLLAMA -> "`POST /api/chat`";
            case AZURE_OPENAI -> "`POST /openai/v1/chat/completions` (the v1 API)";
            case MISTRAL -> "`POST /v1/chat/completions`";
        });
        rows.put("key sent as", p -> switch (p) {
            case OPENAI, MISTRAL -> "`Authorization: Bearer`";
            case ANTHROPIC -> "`x-api-key` (+ `anthropic-version`)";
            case GEMINI -> "`x-goog-api-key`";
            case OLLAMA -> "none; `Authorization: Bearer` with `OLLAMA_API_KEY`";
            case AZURE_OPENAI -> "`api-key`";
        });
        rows.put("`system`", p -> switch (p) {
            case ANTHROPIC -> "top-level `system`";
            case GEMINI -> "`systemInstruction`";
            default -> "a `system` message";
        });
        rows.put("`temperature`", ProviderTableTest::temperature);
        rows.put("`max_tokens`", p -> switch (p) {
            case ANTHROPIC ->
                "`max_tokens` (required by the API: " + ProviderModels.ANTHROPIC_MAX_TOKENS + " unless set)";
            case GEMINI -> "`maxOutputTokens`";
            case OLLAMA -> "`options.num_predict`";
            default -> "`max_tokens`";
        });
        rows.put("`response_format: \"json\"`", ProviderTableTest::json);
        rows.put("`response_format`: a JSON Schema", ProviderTableTest::schema);
        rows.put("streaming (`plan`/`ask --stream`)", p -> switch (p) {
            case ANTHROPIC -> "yes: named server-sent events";
            case GEMINI -> "yes: `:streamGenerateContent?alt=sse`";
            case OLLAMA -> "yes: lines of JSON (`application/x-ndjson`)";
            default -> "yes: server-sent events";
        });
        rows.put("token usage (budgets, trace)", p -> switch (p) {
            case ANTHROPIC -> "`usage.input_tokens`, `output_tokens`";
            case GEMINI -> "`usageMetadata`";
            case OLLAMA -> "`prompt_eval_count`, `eval_count`";
            default -> "`usage.prompt_tokens`, `completion_tokens`";
        });
        rows.put("wait asked by a 429", p -> switch (p) {
            case OPENAI -> "`retry-after(-ms)`, else `x-ratelimit-reset-*` of the spent limit";
            case ANTHROPIC -> "`retry-after`, else `anthropic-ratelimit-*-reset` of the spent limit";
            case GEMINI -> "`retry-after`, else the error's `RetryInfo.retryDelay`";
            case OLLAMA -> "`retry-after` (a busy server answers 503: backoff)";
            case AZURE_OPENAI -> "`retry-after-ms`, `retry-after`";
            case MISTRAL -> "`retry-after` (none documented: backoff)";
        });
        StringBuilder table = new StringBuilder("| feature |");
        StringBuilder rule = new StringBuilder("|---|");
        for (LlmProvider provider : LlmProvider.values()) {
            table.append(" `").append(provider.id()).append("` |");
            rule.append("---|");
        }
        table.append('\n').append(rule).append('\n');
        for (Map.Entry<String, Function<LlmProvider, String>> row : rows.entrySet()) {
            table.append("| ").append(row.getKey()).append(" |");
            for (LlmProvider provider : LlmProvider.values()) {
                table.append(' ').append(row.getValue().apply(provider)).append(" |");
            }
            table.append('\n');
        }
        return table.toString();
    }

    /** The module's artifact and version, read from the jar its chat model is loaded from. */
    private static String module(LlmProvider provider) {
        Class<?> model = switch (provider) {
            case OPENAI, AZURE_OPENAI -> OpenAiChatModel.class;
            case ANTHROPIC -> AnthropicChatModel.class;
            case GEMINI -> GoogleAiGeminiChatModel.class;
            case OLLAMA -> OllamaChatModel.class;
            case MISTRAL -> MistralAiChatModel.class;
        };
        String jar = Path.of(model.getProtectionDomain()
                        .getCodeSource()
                        .getLocation()
                        .getPath())
                .getFileName()
                .toString();
        String artifact = jar.replaceAll("-\\d.*$", "");
        String version = jar.substring(artifact.length() + 1).replace(".jar", "");
        return "`" + artifact + "` " + version + (provider == LlmProvider.AZURE_OPENAI ? " (OpenAI-compatible)" : "");
    }

    /** A chat model that answers "{}" and keeps the request. */
    private static final class Recording implements ChatModel {
        final List<ChatRequest> requests = new ArrayList<>();

        @Override
        public ChatResponse doChat(ChatRequest request) {
            requests.add(request);
            return ChatResponse.builder().aiMessage(AiMessage.from("{}")).build();
        }
    }

    private static String temperature(LlmProvider provider) {
        LlmClient client = new LlmClient(new Recording(), LlmFailures.unknownServer(), provider);
        GenerateRequest hot = new GenerateRequest(
                "p", null, null, GenerateRequest.Format.TEXT, null, 1.5, null, null, List.of(), List.of());
        try {
            client.ask(List.of(UserMessage.from("p")), client.prepare(AnswerShape.TEXT), hot, CallEvents.NONE);
            return "0 to 2";
        } catch (ToolException refused) {
            return "0 to 1 (more is refused, naming the provider)";
        }
    }

    private static String json(LlmProvider provider) {
        LlmClient.Prepared prepared =
                new LlmClient(new Recording(), LlmFailures.unknownServer(), provider).prepare(AnswerShape.JSON);
        if (prepared.format() == null) {
            return "asked in words (the API has no JSON mode without a schema)";
        }
        return switch (provider) {
            case GEMINI -> "`responseMimeType: application/json`";
            case OLLAMA -> "`format: \"json\"`";
            default -> "`response_format: json_object`";
        };
    }

    /** What {@link SchemaForms} makes of a sample: closed objects, optional properties, bounds. */
    private static String schema(LlmProvider provider) {
        ObjectNode sample;
        try {
            sample = (ObjectNode)
                    MAPPER.readTree(
                            "{\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"integer\","
                                    + " \"minimum\": 0}, \"b\": {\"type\": \"string\", \"minLength\": 1}}, \"required\": [\"a\"]}");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        ObjectNode form = SchemaForms.form(provider, sample);
        List<String> rules = new ArrayList<>();
        if (form.path("additionalProperties").isBoolean()
                && !form.path("additionalProperties").asBoolean()) {
            rules.add("every object closed");
        }
        if (form.path("required").size() == 2) {
            rules.add("every property required, optional ones nullable");
        }
        boolean numeric = form.at("/properties/a/minimum").isMissingNode();
        boolean length = form.at("/properties/b/minLength").isMissingNode();
        if (numeric || length) {
            rules.add((numeric && length ? "bounds" : length ? "length bounds" : "numeric bounds")
                    + " moved to the description");
        }
        String where = switch (provider) {
            case OPENAI, AZURE_OPENAI -> "`json_schema`, `strict: true`";
            case ANTHROPIC -> "`output_config.format`";
            case GEMINI -> "`responseJsonSchema`";
            case OLLAMA -> "`format`: the schema";
            case MISTRAL -> "`json_schema`, `strict: true`";
        };
        return where
                + (rules.isEmpty() ? "" : "; " + String.join("; ", rules))
                + (provider == LlmProvider.ANTHROPIC ? "; a recursive schema is refused" : "");
    }
}
