package dev.planvm.integrations.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.instructions.Plan;
import dev.planvm.integrations.testing.Configs;
import dev.planvm.tools.ToolPolicy;
import dev.planvm.tools.call.RetryPolicy;
import dev.planvm.tools.config.LoadedTools;
import dev.planvm.tools.config.ToolsConfig;
import dev.planvm.vm.EarlyStarts;
import dev.planvm.vm.PlanRejectedException;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.PlanVmBuilder;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.RunRequest;
import dev.planvm.vm.RunSession;
import dev.planvm.vm.run.RunOptions;
import dev.planvm.vm.run.RunResult;
import dev.planvm.vm.run.RunStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every rule that matches a tool matches its one canonical name ({@code svc:lookup}), whatever spelling
 * the plan used: the full name or the bare alias {@code lookup} of a real MCP server's tool. One case per
 * rule kind and spelling; rules are written with the full name or a glob over it, and (last cases) with
 * the bare name.
 */
class RulesMatchCanonicalNamesTest {

    static final long LOOKUP_MS = 400;

    @TempDir
    static Path dir;

    static LoadedTools shared;
    static Path log;

    @BeforeAll
    static void startServer() throws Exception {
        log = dir.resolve("calls.log");
        shared = load("shared", "--lookup-delay-ms", String.valueOf(LOOKUP_MS), "--log", log.toString());
    }

    @AfterAll
    static void stopServer() {
        if (shared != null) {
            shared.close();
        }
    }

    private static LoadedTools load(String name, String... options) throws Exception {
        ObjectNode config = Configs.JSON.createObjectNode();
        config.putObject("mcpServers").set("svc", Configs.stdioServer(options));
        Path home = Files.createDirectories(dir.resolve(name));
        return ToolsConfig.load(Configs.write(home, config), Map.of(), Map.of(), Configs.providers());
    }

    /** How the plan names the tool {@code svc:NAME}. */
    enum Spelling {
        FULL {
            @Override
            String of(String tool) {
                return "svc:" + tool;
            }
        },
        BARE {
            @Override
            String of(String tool) {
                return tool;
            }
        };

        abstract String of(String tool);
    }

    /** One kind of rule, written against the canonical name, and what it must do to a call of either spelling. */
    enum RuleKind {
        /** {@code --approve-tools 'svc:*'}: the run waits before the call reaches the server. */
        APPROVAL_OF_THE_VM,
        /** A run's own {@code approve_tools} (the server's per-run option). */
        APPROVAL_OF_THE_RUN,
        /** {@code --deny-tools svc:lookup}: the plan is refused. */
        DENY_OF_THE_VM,
        /** A run's own {@code deny_tools}: the plan is refused. */
        DENY_OF_THE_RUN,
        /** {@code --allow-tools 'svc:*'}: the call is allowed. */
        ALLOW_OF_THE_VM,
        /** A run's own {@code allow_tools}: the call is allowed. */
        ALLOW_OF_THE_RUN,
        /** {@code toolConcurrency svc:lookup=1}: two independent lookups never run at once. */
        CONCURRENCY_LIMIT,
        /** {@code --tool-retries svc:crash_once=1}: a call that crashes its server is not retried. */
        RETRIES,
        /** {@code --tool-timeout svc:lookup=0.1}: a 400 ms lookup times out. */
        TIMEOUT,
        /** An approval rule keeps a read-only call from starting early in a complete plan: it never reaches the server. */
        EARLY_START_OF_A_PLAN,
        /** An approval rule keeps a call from starting early while the plan still streams in. */
        EARLY_START_WHILE_STREAMING,
        /** An allow rule lets a read-only call start early while the plan still streams in. */
        EARLY_START_ALLOWED_WHILE_STREAMING
    }

    /**
     * Every rule against a call spelled by its bare name (what a full-name rule could miss); against the full
     * spelling too with {@code mvn -Pslow} ({@code planvm.tests.full}).
     */
    static Stream<Arguments> cases() {
        List<Arguments> all = new ArrayList<>();
        for (RuleKind kind : RuleKind.values()) {
            for (Spelling spelling : Spelling.values()) {
                if (spelling == Spelling.BARE || Boolean.getBoolean("planvm.tests.full")) {
                    all.add(Arguments.of(kind, spelling));
                }
            }
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{0} matches a call spelled {1}")
    @MethodSource("cases")
    void a_rule_written_with_the_full_name_matches_the_call_whatever_its_spelling(RuleKind kind, Spelling spelling)
            throws Exception {
        String key = kind + "-" + spelling;
        String lookup = call(0, spelling.of("lookup"), key, "r");
        String answer = """
                {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${r.value}"}}""";
        switch (kind) {
            case APPROVAL_OF_THE_VM -> {
                RunResult result = run(b -> b.approveTools(List.of("svc:*")), RunOptions.DEFAULT, plan(lookup, answer));
                assertWaitsWithoutCalling(result, key);
            }
            case APPROVAL_OF_THE_RUN -> {
                RunResult result =
                        run(b -> b, options(List.of(), List.of(), List.of("svc:lookup")), plan(lookup, answer));
                assertWaitsWithoutCalling(result, key);
            }
            case DENY_OF_THE_VM ->
                assertRefusedWithoutCalling(
                        ToolPolicy.of(List.of(), List.of("svc:lookup")), RunOptions.DEFAULT, plan(lookup, answer), key);
            case DENY_OF_THE_RUN ->
                assertRefusedWithoutCalling(
                        ToolPolicy.ALLOW_ALL,
                        options(List.of(), List.of("svc:*"), List.of()),
                        plan(lookup, answer),
                        key);
            case ALLOW_OF_THE_VM -> {
                ToolPolicy allow = ToolPolicy.of(List.of("svc:*"), List.of());
                RunResult result = run(allow, b -> b, RunOptions.DEFAULT, plan(lookup, answer));
                assertSucceeded(result, "v-" + key);
            }
            case ALLOW_OF_THE_RUN -> {
                RunResult result =
                        run(b -> b, options(List.of("svc:lookup"), List.of(), List.of()), plan(lookup, answer));
                assertSucceeded(result, "v-" + key);
            }
            case CONCURRENCY_LIMIT -> {
                try (LoadedTools own =
                                load(key, "--lookup-delay-ms", String.valueOf(LOOKUP_MS), "--report-peak", "true");
                        PlanVm vm = PlanVm.builder()
                                .tools(own, ToolPolicy.ALLOW_ALL)
                                .toolConcurrency("svc:lookup", 1)
                                .build()) {
                    RunResult result = vm.run(
                            plan(
                                    call(0, spelling.of("lookup"), "a", "a"),
                                    call(1, spelling.of("lookup"), "b", "b"),
                                    call(2, spelling.of("lookup"), "c", "c"),
                                    """
                                    {"seq_no": 3, "type": "assign", "parameters": {"final_answer": "${c.peak}"}}"""),
                            Map.of());
                    assertSucceeded(result, "1");
                }
            }
            case RETRIES -> {
                try (LoadedTools own = load(
                                key, "--marker", dir.resolve(key + ".marker").toString());
                        PlanVm vm = PlanVm.builder()
                                .tools(own, ToolPolicy.ALLOW_ALL)
                                .retryPolicy("svc:crash_once", RetryPolicy.DEFAULT.withMaxAttempts(1))
                                .retrySleeper(wait -> {})
                                .build()) {
                    RunResult result = vm.run(plan(call(0, spelling.of("crash_once"), key, "final_answer")), Map.of());
                    assertThat(result.status())
                            .as("one attempt, not retried: %s", result.error())
                            .isEqualTo(RunStatus.FAILED);
                    assertThat(result.error().message())
                            .contains("stopped during the call")
                            .doesNotContain("attempts");
                }
            }
            case TIMEOUT -> {
                RunResult result = run(
                        b -> b.callTimeout("svc:lookup", Duration.ofMillis(100))
                                .retryPolicy(RetryPolicy.DEFAULT.withMaxAttempts(1)),
                        RunOptions.DEFAULT,
                        plan(lookup, answer));
                assertThat(result.status()).isEqualTo(RunStatus.FAILED);
                assertThat(result.error().message()).containsAnyOf("timed out after 0.1 s", "within 0.1 s");
            }
            case EARLY_START_OF_A_PLAN -> {
                String slow = call(0, "svc:lookup", key + "-first", "first");
                String gated = call(1, spelling.of("fail"), key, "final_answer");
                RunResult control = run(b -> b, RunOptions.DEFAULT, plan(slow, gated));
                assertThat(control.earlyCalls().started())
                        .as("without the rule, the read-only call starts early")
                        .isEqualTo(1);
                RunResult result = run(b -> b.approveTools(List.of("svc:fail")), RunOptions.DEFAULT, plan(slow, gated));
                assertThat(result.status()).as(String.valueOf(result.error())).isEqualTo(RunStatus.WAITING);
                assertThat(result.pending().seqNo()).isEqualTo(1);
                assertThat(result.earlyCalls().started())
                        .as("calls started early")
                        .isZero();
                assertThat(calls().stream().filter(line -> line.equals("fail " + key)))
                        .as("the gated call reached the server only in the control run")
                        .hasSize(1);
            }
            case EARLY_START_WHILE_STREAMING -> {
                List<EarlyStarts.EarlyCall> started =
                        startedWhileStreaming(ToolPolicy.ALLOW_ALL, b -> b.approveTools(List.of("svc:*")), lookup);
                assertThat(started).as("calls started early").isEmpty();
            }
            case EARLY_START_ALLOWED_WHILE_STREAMING -> {
                ToolPolicy allow = ToolPolicy.of(List.of("svc:*"), List.of());
                List<EarlyStarts.EarlyCall> started = startedWhileStreaming(allow, b -> b, lookup);
                assertThat(started).extracting(EarlyStarts.EarlyCall::seqNo).containsExactly(0);
            }
            default -> throw new AssertionError(kind);
        }
    }

    static Stream<Arguments> bareRules() {
        List<Arguments> all = new ArrayList<>();
        for (String rule : List.of("approve", "deny")) {
            for (Spelling spelling : Spelling.values()) {
                all.add(Arguments.of(rule, spelling));
            }
        }
        return all.stream();
    }

    @ParameterizedTest(name = "a {0} rule naming the bare name matches a call spelled {1}")
    @MethodSource("bareRules")
    void a_rule_written_with_the_bare_name_stands_for_the_full_name(String rule, Spelling spelling) throws Exception {
        String key = "bare-" + rule + "-" + spelling;
        Plan plan = plan(call(0, spelling.of("lookup"), key, "r"));
        if (rule.equals("approve")) {
            assertWaitsWithoutCalling(run(b -> b.approveTools(List.of("lookup")), RunOptions.DEFAULT, plan), key);
        } else {
            assertRefusedWithoutCalling(
                    ToolPolicy.ALLOW_ALL, options(List.of(), List.of("lookup"), List.of()), plan, key);
        }
    }

    /** The calls started early while the plan {@code call} streams in (the VM is not closed: it shares the server). */
    private static List<EarlyStarts.EarlyCall> startedWhileStreaming(
            ToolPolicy policy, UnaryOperator<PlanVmBuilder> rules, String call) {
        PlanVm vm = rules.apply(PlanVm.builder().tools(shared, policy).toolPolicy(policy))
                .build();
        RunSession session = vm.session(RunMode.live());
        EarlyStarts early = session.startEarly(Map.of());
        early.arrived(plan(call).instructions().get(0));
        early.finish();
        List<EarlyStarts.EarlyCall> started = early.calls();
        session.discardEarly();
        return started;
    }

    private static RunResult run(UnaryOperator<PlanVmBuilder> rules, RunOptions options, Plan plan) {
        return run(ToolPolicy.ALLOW_ALL, rules, options, plan);
    }

    /** A run on a VM over the shared server (not closed: closing it would stop the server). */
    private static RunResult run(ToolPolicy policy, UnaryOperator<PlanVmBuilder> rules, RunOptions options, Plan plan) {
        PlanVm vm = rules.apply(PlanVm.builder().tools(shared, policy).toolPolicy(policy))
                .build();
        return vm.run(RunRequest.builder(plan).options(options).build());
    }

    private static void assertRefusedWithoutCalling(ToolPolicy policy, RunOptions options, Plan plan, String key) {
        Throwable refused = catchThrowable(() -> {
            RunResult result = run(policy, b -> b, options, plan);
            throw new AssertionError("the run was not refused: " + result.status() + " " + result.error());
        });
        assertThat(refused).isInstanceOf(PlanRejectedException.class);
        assertThat(calls()).doesNotContain("lookup " + key);
    }

    private static void assertWaitsWithoutCalling(RunResult result, String key) {
        assertThat(result.status()).as(String.valueOf(result.error())).isEqualTo(RunStatus.WAITING);
        assertThat(calls()).doesNotContain("lookup " + key);
    }

    private static void assertSucceeded(RunResult result, String answer) {
        assertThat(result.status()).as(String.valueOf(result.error())).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.finalAnswer().asText()).isEqualTo(answer);
    }

    private static RunOptions options(List<String> allow, List<String> deny, List<String> approve) {
        return new RunOptions(allow, deny, approve, null, null);
    }

    private static List<String> calls() {
        try {
            return Files.exists(log) ? Files.readAllLines(log) : List.of();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static String call(int seqNo, String tool, String key, String output) {
        return """
                {"seq_no": %d, "type": "calling", "parameters": {"tool": "%s", "params": {"key": "%s"},
                 "output_vars": "%s"}}""".formatted(seqNo, tool, key, output);
    }

    private static Plan plan(String... instructions) {
        try (PlanVm vm = PlanVm.builder().build()) {
            return vm.loader()
                    .load("[" + String.join(",", instructions) + "]", "plan")
                    .planOrThrow();
        }
    }
}
