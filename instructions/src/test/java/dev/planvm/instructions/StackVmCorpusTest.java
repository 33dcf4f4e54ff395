package dev.planvm.instructions;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every plan of the public StackVM corpus ({@code plans/compat/stackvm}, see its INDEX.md)
 * goes through the loader. The clean current-dialect plans must validate with no error; the plans
 * that are clean but for tool calls written with the tool's name as their type (and the calling
 * parameters) must validate with a warning per such call; the other legacy-dialect and defective
 * ones must be refused with located errors, never an exception. The classes are decided here from
 * the plan's JSON, independently of the loader.
 */
class StackVmCorpusTest {

    static final int CLEAN_PLANS = 903;
    static final int LEGACY_CALL_PLANS = 16;
    static final int REFUSED_PLANS = 35;

    private static final Set<String> TYPES = Set.of("assign", "calling", "jmp", "reasoning");
    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final Pattern LEGACY_REFERENCE = Pattern.compile("\\{\\{\\s*\\w+\\s*}}");
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private static List<Path> corpus;

    @BeforeAll
    static void findCorpus() throws IOException {
        Path dir = Corpus.directory();
        try (Stream<Path> files = Files.list(dir)) {
            corpus = files.filter(p -> p.getFileName().toString().matches("plan-\\d+\\.json"))
                    .sorted()
                    .toList();
        }
        assertThat(corpus).as("plans in " + dir).hasSize(CLEAN_PLANS + LEGACY_CALL_PLANS + REFUSED_PLANS);
    }

    @Test
    void
            clean_plans_validate_tool_typed_legacy_calls_validate_with_warnings_and_the_others_are_refused_with_located_errors()
                    throws IOException {
        PlanLoader loader = new PlanLoader();
        List<String> clean = new ArrayList<>();
        List<String> legacyCalls = new ArrayList<>();
        List<String> refused = new ArrayList<>();
        for (Path file : corpus) {
            String name = file.getFileName().toString();
            LoadResult result = loader.load(file);
            JsonNode json = MAPPER.readTree(file.toFile());
            if (isClean(json, false)) {
                assertThat(result.errors()).as(name + " is clean").isEmpty();
                assertThat(result.plan()).as(name).isNotNull();
                clean.add(name);
            } else if (isClean(json, true)) {
                assertThat(result.errors())
                        .as(name + " is clean but for legacy tool-typed calls")
                        .isEmpty();
                assertThat(result.warnings())
                        .as(name)
                        .filteredOn(w -> w.message().contains("the legacy form of a tool call"))
                        .hasSize(legacyCallCount(json));
                assertThat(result.plan().instructions())
                        .as(name)
                        .filteredOn(i -> !TYPES.contains(
                                json.get(Integer.parseInt(i.header().pointer().substring(1)))
                                        .path("type")
                                        .asText()))
                        .allSatisfy(i -> assertThat(i).isInstanceOf(Calling.class));
                legacyCalls.add(name);
            } else {
                assertThat(result.valid()).as(name + " is legacy or defective").isFalse();
                assertThat(result.errors()).as(name).allSatisfy(error -> {
                    assertThat(error.pointer())
                            .as("pointer of " + error.message())
                            .startsWith("/");
                    assertThat(error.message()).isNotBlank();
                });
                refused.add(name);
            }
        }
        assertThat(clean).hasSize(CLEAN_PLANS);
        assertThat(legacyCalls).hasSize(LEGACY_CALL_PLANS);
        assertThat(refused).hasSize(REFUSED_PLANS);
    }

    @Test
    void legacy_dialect_errors_say_what_to_write_instead() {
        PlanLoader loader = new PlanLoader();
        LoadResult legacy = loader.load(Corpus.directory().resolve("plan-013.json"));
        assertThat(legacy.errors())
                .extracting(Diagnostic::message)
                .anyMatch(m -> m.contains("'jmp_if'") && m.contains("use 'jmp'"))
                .anyMatch(m -> m.contains("'output_var' is the legacy spelling"))
                .anyMatch(m -> m.contains("is the legacy reference syntax: write ${latest_tidb_version}"))
                .anyMatch(m -> m.contains("\"type\": \"calling\""));
        LoadResult pastTheEnd = loader.load(Corpus.directory().resolve("plan-929.json"));
        assertThat(pastTheEnd.errors()).singleElement().satisfies(error -> {
            assertThat(error.seqNo()).isEqualTo(6);
            assertThat(error.pointer()).isEqualTo("/6/parameters/target_seq");
            assertThat(error.message()).contains("jump target 7 is not a seq_no");
        });
    }

    /** The corpus INDEX's definition of a clean current-dialect plan, read off the JSON. */
    static boolean isClean(JsonNode plan) {
        return isClean(plan, false);
    }

    /**
     * Whether the plan is clean; with {@code legacyCalls}, an instruction whose type is the tool its
     * {@code tool_name} (or {@code tool}) names counts as a {@code calling}.
     */
    static boolean isClean(JsonNode plan, boolean legacyCalls) {
        Set<Integer> seqNos = new HashSet<>();
        plan.forEach(i -> seqNos.add(i.path("seq_no").asInt()));
        for (JsonNode instruction : plan) {
            String type = legacyCalls && isLegacyCall(instruction)
                    ? "calling"
                    : instruction.path("type").asText();
            JsonNode parameters = instruction.path("parameters");
            if (!TYPES.contains(type)
                    || !instruction.findValues("output_var").isEmpty()
                    || !parameters.findValues("true_branch").isEmpty()
                    || !parameters.findValues("false_branch").isEmpty()) {
                return false;
            }
            if (!type.equals("reasoning") && containsLegacyReference(parameters)) {
                return false;
            }
            List<String> names = new ArrayList<>();
            if (type.equals("assign")) {
                parameters.fieldNames().forEachRemaining(names::add);
            }
            JsonNode outputVars = parameters.path("output_vars");
            if (type.equals("calling") && outputVars.isTextual()) {
                names.add(outputVars.asText());
            }
            if (type.equals("calling") && outputVars.isArray()) {
                outputVars.forEach(n -> names.add(n.asText()));
            }
            if (!names.stream().allMatch(n -> IDENTIFIER.matcher(n).matches())) {
                return false;
            }
            for (String key : List.of("target_seq", "jump_if_true", "jump_if_false")) {
                if (type.equals("jmp")
                        && parameters.has(key)
                        && !seqNos.contains(parameters.get(key).asInt())) {
                    return false;
                }
            }
        }
        return true;
    }

    private static boolean isLegacyCall(JsonNode instruction) {
        String type = instruction.path("type").asText();
        JsonNode parameters = instruction.path("parameters");
        String tool = parameters.has("tool_name")
                ? parameters.path("tool_name").asText()
                : parameters.path("tool").asText(null);
        return !TYPES.contains(type) && type.equals(tool);
    }

    private static int legacyCallCount(JsonNode plan) {
        int count = 0;
        for (JsonNode instruction : plan) {
            count += isLegacyCall(instruction) ? 1 : 0;
        }
        return count;
    }

    private static boolean containsLegacyReference(JsonNode node) {
        if (node.isTextual()) {
            return LEGACY_REFERENCE.matcher(node.asText()).find();
        }
        for (JsonNode child : node) {
            if (containsLegacyReference(child)) {
                return true;
            }
        }
        return false;
    }
}
