package dev.planvm.tools;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.tools.config.ToolAlias;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** One canonical name per tool, and rules read through it. */
class ToolNamesTest {

    private final Tool send = Tool.of("mail:send_mail", "sends", (params, context) -> params);
    private final ToolAlias bare = new ToolAlias() {
        @Override
        public String aliasOf() {
            return "mail:send_mail";
        }

        @Override
        public String name() {
            return "send_mail";
        }

        @Override
        public JsonNode invoke(JsonNode params, CallContext context) {
            return send.invoke(params, context);
        }
    };

    /** A resolver that sets up its tools on first need and says which names it was asked for. */
    private final List<String> asked = new ArrayList<>();

    private final ToolResolver lazy = new ToolResolver() {
        @Override
        public Optional<Tool> resolve(String name) {
            asked.add(name);
            return name.equals("send_mail")
                    ? Optional.of(bare)
                    : name.equals("mail:send_mail") ? Optional.of(send) : Optional.empty();
        }

        @Override
        public List<Tool> all() {
            return List.of(send, bare);
        }
    };

    @Test
    void a_bare_alias_and_the_full_name_have_one_canonical_name() {
        ToolRegistry tools = ToolRegistry.of(List.of(), lazy);
        assertThat(tools.canonicalName("send_mail")).isEqualTo("mail:send_mail");
        assertThat(tools.canonicalName("mail:send_mail")).isEqualTo("mail:send_mail");
        assertThat(tools.canonicalName("other")).isEqualTo("other");
    }

    @Test
    void a_full_name_is_canonical_as_written_and_sets_nothing_up() {
        ToolRegistry tools = ToolRegistry.of(List.of(), lazy);
        assertThat(tools.canonicalName("mail:send_mail")).isEqualTo("mail:send_mail");
        assertThat(asked).isEmpty();
    }

    @Test
    void a_replay_learns_no_name_it_would_have_to_set_a_tool_up_for() {
        ToolRegistry tools = ToolRegistry.of(List.of(), lazy);
        assertThat(tools.knownCanonicalName("send_mail")).isEqualTo("send_mail");
        assertThat(asked).isEmpty();
        tools.find("send_mail");
        assertThat(tools.knownCanonicalName("send_mail")).isEqualTo("mail:send_mail");
    }

    @Test
    void globs_and_full_names_match_the_canonical_name() {
        ToolNames names = ToolRegistry.of(List.of(), lazy).canonicalNames();
        assertThat(names.matches("mail:*", "mail:send_mail")).isTrue();
        assertThat(names.matches("mail:send_mail", "mail:send_mail")).isTrue();
        assertThat(names.matches("send_*", "mail:send_mail"))
                .as("a glob is not a bare name")
                .isFalse();
    }

    @Test
    void a_bare_name_in_a_rule_stands_for_the_tool_it_names() {
        ToolNames names = ToolRegistry.of(List.of(), lazy).canonicalNames();
        assertThat(names.matches("send_mail", "mail:send_mail")).isTrue();
        assertThat(names.lookup(Map.of("send_mail", 5), "mail:send_mail")).isEqualTo(5);
        assertThat(names.lookup(Map.of("send_mail", 5, "mail:send_mail", 7), "mail:send_mail"))
                .as("the full name wins")
                .isEqualTo(7);
    }

    @Test
    void an_unrelated_bare_rule_sets_nothing_up() {
        ToolNames names = ToolRegistry.of(List.of(), lazy).canonicalNames();
        assertThat(names.matches("read_file", "mail:send_mail")).isFalse();
        assertThat(asked).isEmpty();
    }

    @Test
    void the_policy_and_approval_rules_decide_on_the_canonical_name() {
        ToolNames names = ToolRegistry.of(List.of(), lazy).canonicalNames();
        ToolPolicy deny = ToolPolicy.of(List.of(), List.of("send_mail"));
        assertThat(deny.refusal("mail:send_mail", names))
                .contains("tool 'mail:send_mail' is denied by the tool policy (deny rule 'send_mail')");
        assertThat(ToolPolicy.of(List.of("mail:*"), List.of()).allows("mail:send_mail", names))
                .isTrue();
        assertThat(dev.planvm.tools.approval.ApprovalRules.of(List.of("mail:*")).matches("mail:send_mail", names))
                .isTrue();
    }
}
