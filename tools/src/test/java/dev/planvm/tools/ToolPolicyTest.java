package dev.planvm.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.tools.call.Call;
import dev.planvm.tools.call.CallInterceptor;
import dev.planvm.tools.call.RetryPolicy;
import dev.planvm.tools.call.RetrySettings;
import dev.planvm.tools.chain.CallChain;
import dev.planvm.tools.chain.CallChains;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** {@link ToolPolicy} globs and rules, and the {@link PermissionLink} that enforces them at call time. */
class ToolPolicyTest {

    private static ToolPolicy policy(List<String> allow, List<String> deny) {
        return ToolPolicy.of(allow, deny);
    }

    @Test
    void no_rules_allow_every_tool() {
        assertThat(ToolPolicy.ALLOW_ALL.allows("anything:at_all")).isTrue();
        assertThat(policy(List.of(), List.of()).allowsEverything()).isTrue();
    }

    @Test
    void a_star_matches_any_run_of_characters_and_the_whole_name_must_match() {
        ToolPolicy denyWeb = policy(List.of(), List.of("web_*"));
        assertThat(denyWeb.allows("web_search")).isFalse();
        assertThat(denyWeb.allows("web_")).isFalse();
        assertThat(denyWeb.allows("my_web_search")).isTrue();
        assertThat(denyWeb.allows("web")).isTrue();
    }

    @Test
    void a_question_mark_matches_exactly_one_character() {
        ToolPolicy deny = policy(List.of(), List.of("tool?"));
        assertThat(deny.allows("tool1")).isFalse();
        assertThat(deny.allows("tool")).isTrue();
        assertThat(deny.allows("tool12")).isTrue();
    }

    @Test
    void globs_match_module_function_names_across_the_colon() {
        ToolPolicy deny = policy(List.of(), List.of("kb:*", "*:delete"));
        assertThat(deny.allows("kb:search")).isFalse();
        assertThat(deny.allows("files:delete")).isFalse();
        assertThat(deny.allows("files:read")).isTrue();
        assertThat(policy(List.of(), List.of("*search")).allows("kb:search")).isFalse();
    }

    @Test
    void stars_backtrack_over_repeated_characters() {
        ToolPolicy deny = policy(List.of(), List.of("a*b*c"));
        assertThat(deny.allows("aXbYbZc")).isFalse();
        assertThat(deny.allows("abbbc")).isFalse();
        assertThat(deny.allows("abcb")).isTrue();
        assertThat(policy(List.of(), List.of("**")).allows("")).isFalse();
    }

    @Test
    void an_allow_list_allows_only_what_it_matches_and_names_its_rules_when_it_refuses() {
        ToolPolicy allowW = policy(List.of("w*", "now"), List.of());
        assertThat(allowW.allows("weather")).isTrue();
        assertThat(allowW.allows("now")).isTrue();
        assertThat(allowW.refusal("search"))
                .contains("tool 'search' is denied by the tool policy (no allow rule matches it; allowed: w*, now)");
    }

    @Test
    void a_bang_in_the_allow_list_denies_and_deny_wins() {
        ToolPolicy seed = policy(List.of("w*", "!web_search"), List.of());
        assertThat(seed.allows("wiki")).isTrue();
        assertThat(seed.refusal("web_search"))
                .contains("tool 'web_search' is denied by the tool policy (deny rule '!web_search')");
        ToolPolicy both = policy(List.of("web_*"), List.of("web_search"));
        assertThat(both.refusal("web_search"))
                .contains("tool 'web_search' is denied by the tool policy (deny rule 'web_search')");
        assertThat(both.allows("web_fetch")).isTrue();
    }

    @Test
    void an_allow_list_of_only_denials_allows_everything_else() {
        ToolPolicy onlyBang = policy(List.of("!web_*"), List.of());
        assertThat(onlyBang.allows("vector_search")).isTrue();
        assertThat(onlyBang.allows("web_search")).isFalse();
    }

    @Test
    void blank_rules_and_a_bang_in_the_deny_list_are_refused() {
        assertThatThrownBy(() -> policy(List.of(" "), List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must not be blank");
        assertThatThrownBy(() -> policy(List.of("!"), List.of())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> policy(List.of(), List.of("!web")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("deny rule '!web' starts with '!'");
    }

    @Test
    void the_permission_link_fails_a_denied_call_at_once_without_reaching_the_tool() {
        AtomicInteger calls = new AtomicInteger();
        Tool search = Tool.of("web_search", "", (p, c) -> {
            calls.incrementAndGet();
            return TextNode.valueOf("results");
        });
        CallChain chain = chain(search, policy(List.of(), List.of("web_*")), null);
        assertThatThrownBy(() -> chain.execute(call("web_search")))
                .isInstanceOfSatisfying(
                        ToolException.class, e -> assertThat(e.retriable()).isFalse())
                .hasMessage("tool 'web_search' is denied by the tool policy (deny rule 'web_*')");
        assertThat(calls).hasValue(0);
    }

    @Test
    void a_denied_tool_is_denied_in_a_dry_run_too_and_conditions_pass() {
        CallChain dry = chain(
                Tool.of("web_search", "", (p, c) -> p), policy(List.of("!web_*"), List.of()), CallChains.dryRun(true));
        assertThatThrownBy(() -> dry.execute(call("web_search"))).hasMessageContaining("denied by the tool policy");
        assertThat(dry.execute(new Call.ConditionCall("ok?", NullNode.getInstance(), CallContext.of(1)))
                        .get("result")
                        .asBoolean())
                .isTrue();
    }

    @Test
    void an_allowed_tool_passes_the_permission_link() {
        CallChain chain =
                chain(Tool.of("wiki", "", (p, c) -> TextNode.valueOf("page")), policy(List.of("w*"), List.of()), null);
        assertThat(chain.execute(call("wiki")).asText()).isEqualTo("page");
    }

    private static Call.ToolCall call(String tool) {
        return new Call.ToolCall(tool, JsonNodeFactory.instance.objectNode(), CallContext.of(3));
    }

    private static CallChain chain(Tool tool, ToolPolicy policy, CallInterceptor mode) {
        return CallChains.standard(
                CallChains.parts(ToolRegistry.of(List.of(tool)))
                        .conditions((prompt, context, c) -> new ConditionResult(false, "no"))
                        .policy(policy)
                        .retries(RetrySettings.of(RetryPolicy.NONE))
                        .build(),
                mode);
    }

    @Test
    void rules_with_spaces_around_them_are_refused_and_a_policy_says_its_rules() {
        assertThatThrownBy(() -> ToolPolicy.of(List.of(" read_*"), List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("tool allow rule ' read_*' has spaces around it");
        assertThatThrownBy(() -> ToolPolicy.of(List.of(), List.of("write ")))
                .hasMessage("tool deny rule 'write ' has spaces around it");
        assertThatThrownBy(() -> ToolPolicy.of(List.of("! write"), List.of()))
                .hasMessage("tool allow rule ' write' has spaces around it");
        ToolPolicy policy = ToolPolicy.of(List.of("read_*", "!read_secret"), List.of("rm"));
        assertThat(policy).hasToString("ToolPolicy[allow=[read_*], deny=[!read_secret, rm]]");
        assertThat(policy.allows("read_file", ToolNames.AS_WRITTEN)).isTrue();
        assertThat(policy.allows("read_secret", ToolNames.AS_WRITTEN)).isFalse();
        assertThat(policy.allowsEverything()).isFalse();
    }
}
