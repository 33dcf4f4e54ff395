package dev.planvm.instructions.reach;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.planvm.instructions.LoadResult;
import dev.planvm.instructions.Plan;
import dev.planvm.instructions.PlanLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The tools of a golden case, as its {@code NAME.facts.json} describes them:
 *
 * <pre>{@code
 * {"tools": {"mail:send_mail": {"effect": "destructive", "approval": false, "hosts": [...]},
 *            "send_mail": {"alias": "mail:send_mail"}},
 *  "plan_tools": {"notify": { a plan tool document }},
 *  "secrets": ["API_KEY"], "policy": { a policy section }}
 * }</pre>
 *
 * A tool the file does not name is unknown; {@code llm_generate} is known as having no effect unless named.
 */
final class GoldenFacts implements ToolFacts {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final Map<String, Fact> facts = new HashMap<>();
    private final Map<String, String> aliases = new HashMap<>();
    final Set<String> secrets = new LinkedHashSet<>();
    final ReachPolicy policy;

    private GoldenFacts(JsonNode root) {
        facts.put("llm_generate", new Fact("llm_generate", Effect.NONE, List.of(), false, null));
        root.path("tools").properties().forEach(entry -> {
            JsonNode tool = entry.getValue();
            if (tool.has("alias")) {
                aliases.put(entry.getKey(), tool.get("alias").asText());
                return;
            }
            List<String> hosts = new java.util.ArrayList<>();
            tool.path("hosts").forEach(h -> hosts.add(h.asText()));
            facts.put(
                    entry.getKey(),
                    new Fact(
                            entry.getKey(),
                            Effect.valueOf(tool.path("effect").asText("none").toUpperCase(java.util.Locale.ROOT)),
                            hosts,
                            tool.path("approval").asBoolean(false),
                            null));
        });
        root.path("plan_tools").properties().forEach(entry -> {
            LoadResult loaded = new PlanLoader().load(entry.getValue(), "plan tool " + entry.getKey());
            if (!loaded.valid()) {
                throw new IllegalArgumentException(entry.getKey() + ": " + loaded.errors());
            }
            Plan plan = loaded.plan();
            boolean approval = root.path("approve").has(entry.getKey());
            facts.put(entry.getKey(), new Fact(entry.getKey(), Effect.UNKNOWN, List.of(), approval, plan));
        });
        root.path("secrets").forEach(s -> secrets.add(s.asText()));
        List<String> problems = new java.util.ArrayList<>();
        policy = root.has("policy")
                ? ReachPolicy.read(root.get("policy"), "/policy", (at, why) -> problems.add(at + ": " + why))
                : ReachPolicy.NONE;
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", problems));
        }
    }

    static GoldenFacts read(Path file) throws IOException {
        return new GoldenFacts(Files.exists(file) ? MAPPER.readTree(file.toFile()) : MAPPER.createObjectNode());
    }

    @Override
    public Fact fact(String name) {
        String canonical = aliases.getOrDefault(name, name);
        Fact fact = facts.get(canonical);
        return fact != null ? fact : Fact.unknown(canonical);
    }
}
