package dev.planvm.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The registry of a VM's tools (given, and set up on first use) and the setup providers are given. */
class ToolRegistryAndSetupTest {

    private static Tool tool(String name) {
        return Tool.of(name, "", (p, c) -> TextNode.valueOf(name));
    }

    /** Sets up "lazy:x" (alias "x") on first use, counting how often it is asked. */
    private static final class Lazy implements ToolResolver {
        final AtomicInteger asked = new AtomicInteger();
        final Tool full = tool("lazy:x");
        final Tool alias = new Tool() {
            @Override
            public String name() {
                return "x";
            }

            @Override
            public String canonicalName() {
                return "lazy:x";
            }

            @Override
            public JsonNode invoke(JsonNode params, CallContext context) {
                return TextNode.valueOf("x");
            }
        };

        @Override
        public Optional<Tool> resolve(String name) {
            asked.incrementAndGet();
            return name.equals("lazy:x") ? Optional.of(full) : name.equals("x") ? Optional.of(alias) : Optional.empty();
        }

        @Override
        public List<Tool> all() {
            return List.of(full, alias);
        }

        @Override
        public Map<String, String> unavailable() {
            return Map.of("broken:*", "the server did not start");
        }
    }

    @Test
    void two_tools_of_one_name_are_refused_and_the_same_tool_twice_is_one() {
        Tool a = tool("a");
        assertThatThrownBy(() -> ToolRegistry.of(List.of(a, tool("a"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("two tools are named 'a'");
        assertThat(ToolRegistry.of(List.of(a, a)).names()).containsExactly("a");
    }

    @Test
    void given_tools_are_listed_sorted_and_resolved_ones_only_when_offered() {
        Lazy lazy = new Lazy();
        ToolRegistry registry = ToolRegistry.of(List.of(tool("b"), tool("a")), lazy);
        assertThat(registry.names()).containsExactly("a", "b");
        assertThat(registry.all()).extracting(Tool::name).containsExactly("a", "b");
        assertThat(registry.offered()).extracting(Tool::name).containsExactly("a", "b", "lazy:x", "x");
        assertThat(registry.whyUnavailable("broken:*")).contains("the server did not start");
        assertThat(registry.whyUnavailable("a")).isEmpty();
    }

    @Test
    void a_resolved_tool_is_set_up_once_and_found_resolved_afterwards() {
        Lazy lazy = new Lazy();
        ToolRegistry registry = ToolRegistry.of(List.of(tool("a")), lazy);
        assertThat(registry.findResolved("x")).isEmpty();
        assertThat(registry.find("x")).isPresent();
        assertThat(registry.find("x")).isPresent();
        assertThat(lazy.asked).hasValue(1);
        assertThat(registry.findResolved("x")).containsSame(lazy.alias);
        assertThat(registry.findResolved("a")).isPresent();
        assertThat(registry.find("nothing")).isEmpty();
    }

    @Test
    void canonical_names_of_aliases_full_names_and_unknown_names() {
        Lazy lazy = new Lazy();
        ToolRegistry registry = ToolRegistry.of(List.of(tool("a")), lazy);
        assertThat(registry.knownCanonicalName("x"))
                .as("not set up yet, nothing set up")
                .isEqualTo("x");
        assertThat(lazy.asked).hasValue(0);
        assertThat(registry.canonicalName("other:y"))
                .as("a full name sets nothing up")
                .isEqualTo("other:y");
        assertThat(lazy.asked).hasValue(0);
        assertThat(registry.canonicalName("x")).isEqualTo("lazy:x");
        assertThat(registry.knownCanonicalName("x")).isEqualTo("lazy:x");
        assertThat(registry.canonicalName("a")).isEqualTo("a");
        assertThat(registry.canonicalName("missing")).isEqualTo("missing");
        assertThat(registry.canonicalNames().matches("x", "lazy:x")).isTrue();
        assertThat(registry.knownCanonicalNames().matches("x", "lazy:x")).isTrue();
    }

    @Test
    void a_setup_reads_secrets_from_its_own_then_the_environment_and_remembers_what_it_read() {
        ToolSetup setup = new ToolSetup(
                Map.of("TOKEN", "from-env-12345", "OTHER", "env-other-1234"),
                Map.of("http", TextNode.valueOf("section")),
                Path.of("/base"),
                Map.of("TOKEN", "given-12345678"));
        assertThat(setup.secret("TOKEN")).contains("given-12345678");
        assertThat(setup.secret("OTHER")).contains("env-other-1234");
        assertThat(setup.secret("NONE")).isEmpty();
        assertThat(setup.secretsUsed())
                .containsExactlyInAnyOrderEntriesOf(Map.of("TOKEN", "given-12345678", "OTHER", "env-other-1234"));
        assertThat(setup.environment()).containsKey("OTHER");
        assertThat(setup.section("http")).contains(TextNode.valueOf("section"));
        assertThat(setup.section("mcp")).isEmpty();
        assertThat(setup.resolve("tools.jar")).isEqualTo(Path.of("/base/tools.jar"));
        assertThat(ToolSetup.of(Map.of("A", "1")).baseDirectory()).isEqualTo(Path.of(""));
        assertThat(ToolSetup.of(Map.of("A", "1")).environment()).containsEntry("A", "1");
    }

    @Test
    void a_setup_keeps_problems_and_resolvers_and_closes_in_reverse_order_once_saying_the_first_failure() {
        ToolSetup setup = ToolSetup.of(Map.of());
        setup.problem("/http/0", "no url");
        assertThat(setup.problems()).containsExactly(new ToolSetup.Problem("/http/0", "no url"));
        setup.resolveWith(ToolResolver.NONE);
        assertThat(setup.resolvers()).containsExactly(ToolResolver.NONE);
        List<String> closed = new ArrayList<>();
        AutoCloseable first = () -> closed.add("first");
        assertThat(setup.closeWith(first)).isSameAs(first);
        setup.closeWith(() -> {
            closed.add("second");
            throw new IllegalStateException("stuck");
        });
        assertThatThrownBy(setup::close).hasMessageContaining("stuck");
        assertThat(closed).containsExactly("second", "first");
        setup.close();
        assertThat(closed).as("closed once").hasSize(2);
    }
}
