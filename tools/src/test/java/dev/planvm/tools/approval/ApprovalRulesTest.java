package dev.planvm.tools.approval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which tools need a reviewer's approval: globs over whole names, checked when they are given. */
class ApprovalRulesTest {

    @Test
    void globs_match_whole_names() {
        ApprovalRules rules = ApprovalRules.of(List.of("send_*", "mail:*", "wipe?"));
        assertThat(rules.matches("send_mail")).isTrue();
        assertThat(rules.matches("mail:anything")).isTrue();
        assertThat(rules.matches("wipe1")).isTrue();
        assertThat(rules.matches("wipe12")).isFalse();
        assertThat(rules.matches("resend_mail")).isFalse();
        assertThat(rules.matches("read_file")).isFalse();
        assertThat(ApprovalRules.NONE.matches("send_mail")).isFalse();
    }

    @Test
    void bad_globs_are_refused_with_a_sentence() {
        assertThatThrownBy(() -> ApprovalRules.of(List.of(" ")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("an approve-tools glob must not be blank");
        assertThatThrownBy(() -> ApprovalRules.of(Arrays.asList((String) null)))
                .hasMessage("an approve-tools glob must not be blank");
        assertThatThrownBy(() -> ApprovalRules.of(List.of("send_* ")))
                .hasMessage("approve-tools glob 'send_* ' has spaces around it");
        assertThatThrownBy(() -> ApprovalRules.of(List.of("!read_*")))
                .hasMessage("approve-tools glob '!read_*' starts with '!': list the tools that need approval");
    }

    @Test
    void no_globs_are_none_and_duplicates_go() {
        assertThat(ApprovalRules.of(List.of())).isSameAs(ApprovalRules.NONE);
        assertThat(ApprovalRules.NONE.isEmpty()).isTrue();
        ApprovalRules rules = ApprovalRules.of(List.of("a*", "b*", "a*"));
        assertThat(rules.globs()).containsExactly("a*", "b*");
        assertThat(rules.isEmpty()).isFalse();
        assertThat(rules).hasToString("ApprovalRules[a*, b*]");
    }

    @Test
    void rules_combine_and_none_adds_nothing() {
        ApprovalRules send = ApprovalRules.of(List.of("send_*"));
        assertThat(send.and(ApprovalRules.NONE)).isSameAs(send);
        ApprovalRules both = send.and(ApprovalRules.of(List.of("wipe", "send_*")));
        assertThat(both.globs()).containsExactly("send_*", "wipe");
        assertThat(both.matches("wipe")).isTrue();
        assertThat(ApprovalRules.NONE.and(send).matches("send_x")).isTrue();
    }
}
