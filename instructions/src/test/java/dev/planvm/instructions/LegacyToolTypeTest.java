package dev.planvm.instructions;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Legacy StackVM plans sometimes give a tool call the tool's name as its {@code type} while
 * carrying the {@code calling} parameters ({@code tool_name}/{@code tool_params}); StackVM runs
 * them as calls, so planvm does too, with a warning that shows the canonical form. Other legacy
 * shapes stay refused.
 */
class LegacyToolTypeTest {

    private final PlanLoader loader = new PlanLoader();

    private static String plan(String instruction) {
        return "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"q\": \"tidb\"}},\n " + instruction
                + ",\n {\"seq_no\": 2, \"type\": \"assign\", \"parameters\": {\"final_answer\": \"${answer}\"}}]";
    }

    @Test
    void a_tool_name_used_as_type_with_calling_parameters_loads_as_that_call_with_a_warning() {
        LoadResult loaded = loader.load(plan("""
                {"seq_no": 1, "type": "llm_generate", "parameters": {"tool_name": "llm_generate",
                  "tool_params": {"prompt": "About ${q}"}, "output_vars": ["answer"]}}"""), "legacy.json");

        assertThat(loaded.errors()).isEmpty();
        Calling calling = (Calling) loaded.planOrThrow().instruction(1);
        assertThat(calling.tool()).isEqualTo("llm_generate");
        assertThat(calling.type()).isEqualTo("calling");
        assertThat(calling.reads()).containsExactly("q");
        assertThat(calling.writes()).containsExactly("answer");
        assertThat(loaded.warnings()).singleElement().satisfies(warning -> {
            assertThat(warning.seqNo()).isEqualTo(1);
            assertThat(warning.pointer()).isEqualTo("/1/type");
            assertThat(warning.message())
                    .isEqualTo("type 'llm_generate' with tool_name is the legacy form of a tool call; "
                            + "it runs as {\"type\": \"calling\", \"parameters\": {\"tool_name\": \"llm_generate\", "
                            + "\"tool_params\": {...}, \"output_vars\": [\"answer\"]}}");
        });
    }

    @Test
    void any_tool_name_and_the_tool_and_params_spelling_are_accepted_the_same_way() {
        LoadResult loaded = loader.load(plan("""
                {"seq_no": 1, "type": "web_search", "parameters": {"tool": "web_search", "params": {"q": "${q}"},
                  "output_vars": "answer"}}"""), "legacy.json");

        assertThat(loaded.errors()).isEmpty();
        Calling calling = (Calling) loaded.planOrThrow().instruction(1);
        assertThat(calling.tool()).isEqualTo("web_search");
        assertThat(calling.writes()).containsExactly("answer");
        assertThat(loaded.warnings())
                .singleElement()
                .extracting(Diagnostic::message)
                .asString()
                .contains(
                        "it runs as {\"type\": \"calling\", \"parameters\": {\"tool\": \"web_search\", \"params\": {...}, "
                                + "\"output_vars\": \"answer\"}}");
    }

    @Test
    void the_calling_parameters_of_the_legacy_shape_are_checked_like_any_calling() {
        LoadResult badVariable = loader.load(plan("""
                {"seq_no": 1, "type": "llm_generate", "parameters": {"tool_name": "llm_generate",
                  "tool_params": {"prompt": "x"}, "output_vars": ["2answer"]}}"""), "legacy.json");
        assertThat(badVariable.errors()).extracting(Diagnostic::pointer).contains("/1/parameters/output_vars/0");

        LoadResult badReference = loader.load(plan("""
                {"seq_no": 1, "type": "llm_generate", "parameters": {"tool_name": "llm_generate",
                  "tool_params": {"prompt": "${q +}"}, "output_vars": ["answer"]}}"""), "legacy.json");
        assertThat(badReference.errors())
                .singleElement()
                .extracting(Diagnostic::pointer)
                .isEqualTo("/1/parameters/tool_params/prompt");
    }

    @Test
    void a_type_that_names_another_tool_than_tool_name_stays_refused() {
        LoadResult loaded = loader.load(plan("""
                {"seq_no": 1, "type": "llm_generate", "parameters": {"tool_name": "vector_search",
                  "tool_params": {"query": "x"}, "output_vars": ["answer"]}}"""), "legacy.json");
        assertThat(loaded.valid()).isFalse();
        assertThat(loaded.errors()).singleElement().satisfies(error -> {
            assertThat(error.pointer()).isEqualTo("/1/type");
            assertThat(error.message()).startsWith("unknown instruction type 'llm_generate': a tool is called with");
        });
    }

    @Test
    void other_legacy_shapes_stay_refused_with_their_located_errors() {
        LoadResult outputVar = loader.load(plan("""
                {"seq_no": 1, "type": "vector_search", "parameters": {"query": "x", "output_var": "answer"}}"""), "legacy.json");
        assertThat(outputVar.valid()).isFalse();
        assertThat(outputVar.errors()).extracting(Diagnostic::pointer).contains("/1/type", "/1/parameters/output_var");

        LoadResult jmpIf = loader.load(plan("""
                {"seq_no": 1, "type": "jmp_if", "parameters": {"condition_prompt": "x", "jump_if_true": 2}}"""), "legacy.json");
        assertThat(jmpIf.errors())
                .singleElement()
                .extracting(Diagnostic::message)
                .asString()
                .contains("use 'jmp'");
    }

    @Test
    void a_custom_type_of_the_same_name_keeps_its_handler() {
        PlanLoader custom = new PlanLoader(Set.of(), Set.of("llm_generate"));
        LoadResult loaded = custom.load(plan("""
                {"seq_no": 1, "type": "llm_generate", "parameters": {"tool_name": "llm_generate",
                  "tool_params": {"prompt": "x"}, "output_vars": ["answer"]}}"""), "legacy.json");
        assertThat(loaded.planOrThrow().instruction(1)).isInstanceOf(Custom.class);
    }
}
