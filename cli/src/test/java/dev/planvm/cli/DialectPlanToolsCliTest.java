package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * YAML and JavaScript plans as plan tools (issue 23): their plan-tool header (a header document in
 * YAML, a JSDoc {@code @tool} comment in JS) makes them tools of {@code --plan-tools DIR} that a JSON
 * parent calls, {@code tools} lists and {@code validate} checks.
 */
class DialectPlanToolsCliTest {

    @TempDir
    Path dir;

    private static final String GREET_YAML = """
            name: greet
            description: Greets someone
            inputs:
              type: object
              properties:
                who: {type: string}
              required: [who]
            ---
            result: Hello, ${who}
            """;

    private static final String SHOUT_JS = """
            /**
             * Shouts a text.
             * @tool shout
             * @param {string} text - what to shout
             * @param {string} [mark="!"] - what ends it
             */
            return `${upper(text)}${mark}`;
            """;

    private static final String PARENT = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "greet", "tool_params": {"who": "Ann"}, "output_vars": ["g"]}},
             {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "shout", "tool_params": {"text": "${g}"}, "output_vars": ["s"]}},
             {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "${s}"}}]""";

    private Path write(String name, String text) throws Exception {
        Path file = dir.resolve(name);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
        return file;
    }

    @Test
    void a_json_parent_calls_a_yaml_and_a_js_plan_tool_which_tools_lists_and_validate_accepts() throws Exception {
        write("tools/greet.yaml", GREET_YAML);
        write("tools/shout.js", SHOUT_JS);
        Path parent = write("parent.json", PARENT);
        String tools = dir.resolve("tools").toString();

        CliRun run = CliRun.of("run", parent.toString(), "--plan-tools", tools);
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).isEqualTo("HELLO, ANN!\n");

        CliRun listed = CliRun.of("tools", "--plan-tools", tools, "--format", "json");
        assertThat(listed.exitCode()).as(listed.err()).isZero();
        assertThat(listed.out())
                .contains("\"name\" : \"greet\"", "Greets someone", "\"name\" : \"shout\"", "Shouts a text.")
                .contains("what to shout");

        CliRun validated = CliRun.of("validate", parent.toString(), tools, "--plan-tools", tools);
        assertThat(validated.exitCode()).as(validated.out() + validated.err()).isZero();
    }

    @Test
    void a_malformed_header_in_a_plan_tool_directory_is_refused_at_its_file_and_line() throws Exception {
        write("tools/greet.yaml", GREET_YAML.replace("name: greet", "name: greet me"));
        write("tools/shout.js", SHOUT_JS.replace("{string} text", "{date} text"));
        Path parent = write("parent.json", PARENT);
        String tools = dir.resolve("tools").toString();

        CliRun run = CliRun.of("run", parent.toString(), "--plan-tools", tools);

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err())
                .contains(dir.resolve("tools/greet.yaml") + ": line 1, column 7: the plan tool's name must be")
                .contains(dir.resolve("tools/shout.js") + ": line 4, column 4: the type {date} is not one")
                .doesNotContain("\tat ");
    }
}
