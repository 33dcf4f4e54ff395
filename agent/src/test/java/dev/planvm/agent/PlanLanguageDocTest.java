package dev.planvm.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.planvm.agent.internal.Prompts;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Test;

/**
 * The documentation site says what the planner is told: every rule P1–P12 of the plan language resource is on
 * docs/reference/plan-language.md, and every expression function with its description on
 * docs/reference/expressions.md. A rule or function changed in one place and not the other fails here.
 */
class PlanLanguageDocTest {

    private static final Path DOCS = Path.of("../docs/reference");

    @Test
    void the_plan_language_page_states_every_rule_the_planner_is_told() throws IOException {
        String page = plain(Files.readString(DOCS.resolve("plan-language.md")));
        List<String> rules =
                resource().lines().filter(line -> line.matches("P\\d+ .*")).toList();

        assertThat(rules).hasSizeGreaterThanOrEqualTo(12);
        assertThat(rules)
                .allSatisfy(rule -> assertThat(page)
                        .as(
                                "docs/reference/plan-language.md should state rule %s as the planner is told it",
                                rule.split(" ")[0])
                        .contains(rule));
    }

    @Test
    void the_expressions_page_lists_every_function_with_its_description() throws IOException {
        String page = Files.readString(DOCS.resolve("expressions.md"));

        assertThat(Prompts.functionDescriptions()).isNotEmpty().allSatisfy((name, line) -> {
            String signature = line.substring(0, line.indexOf("): ") + 1);
            String description = line.substring(line.indexOf("): ") + 3);
            assertThat(page)
                    .as("docs/reference/expressions.md should list %s", name)
                    .contains("| `" + signature + "` | " + description + " |");
        });
    }

    /** The page's text with the bold markers of the rule names taken out. */
    private static String plain(String markdown) {
        return markdown.replace("**", "");
    }

    private static String resource() throws IOException {
        try (InputStream in = Objects.requireNonNull(
                Prompts.class.getResourceAsStream("/dev/planvm/agent/plan-language.md"),
                "the plan language resource")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
