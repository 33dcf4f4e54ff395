package dev.planvm.vm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.instructions.LoadResult;
import dev.planvm.instructions.Plan;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.ConditionResult;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolException;
import dev.planvm.vm.run.RunError;
import dev.planvm.vm.run.RunResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * Property: running a plan with calls started ahead of their turn gives exactly what a sequential
 * run gives — the same status, final variables, trace (steps in order, with what they wrote and
 * where they jumped) and error. Random plans mix assigns, calls with random dependencies on
 * random latencies, a failing tool, a side-effecting tool, and unconditional, local and LLM jumps
 * (loops included; the step limit ends runaway ones identically). Calls may have an {@code on_error}
 * (a value, fitting their output_vars or not, or a jump), expressions may read {@code last_error},
 * and every third plan runs keeping going past failed steps. Some calls are plan-tool calls (issue 23): each is a
 * child run whose own calls may fail or have side effects, so a plan tool starts early exactly when its child's
 * tools would let it. Every other plan runs against services that refuse calls beyond what they serve at once
 * (one service behind {@code echo}, {@code pair} and {@code flaky}, serving one call at once: HTTP 429 with a
 * Retry-After), on a fresh VM whose adaptive limits start
 * wide (issue 40): a concurrent run meets a storm of refusals, its limits shrink, its calls are retried, and it
 * still ends exactly as the sequential run, which is never refused.
 */
class ConcurrencyEquivalenceTest {

    /** Random plans per run: 300 by default, 3,000 with {@code mvn -Pslow} (the property holds at any size). */
    private static final int CASES = Integer.getInteger("planvm.equivalence.cases", 300);

    private static final List<String> VARIABLES = List.of("a", "b", "c", "d", "e");
    private static final ObjectMapper MAPPER = new ObjectMapper();

    /**
     * Plan tools: {@code wrap} echoes its input and passes it through the failing tool (so a child fails a
     * quarter of the time); {@code wrap_effect}'s child calls the side-effecting tool, which makes it one too.
     */
    private static final List<Plan> PLAN_TOOLS = List.of(planTool("""
                    {"name": "wrap", "inputs": {"type": "object", "properties": {"x": {}, "n": {}}}, "plan": [
                      {"seq_no": 0, "type": "calling", "parameters": {"tool_name": "echo",
                        "tool_params": {"x": "${x}", "n": "${n}"}, "output_vars": ["r"]}},
                      {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "flaky",
                        "tool_params": {"x": "${r}"}, "output_vars": ["f"]}},
                      {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "wrapped ${r} ${f}"}}]}"""), planTool("""
                    {"name": "wrap_effect", "inputs": {"type": "object", "properties": {"x": {}, "n": {}}}, "plan": [
                      {"seq_no": 0, "type": "calling", "parameters": {"tool_name": "effect",
                        "tool_params": {"x": "${x}"}, "output_vars": ["e"]}},
                      {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "effect ${e}"}}]}"""));

    private static Plan planTool(String json) {
        LoadResult loaded = new dev.planvm.instructions.PlanLoader().load(json, "plan tool");
        assertThat(loaded.errors()).as(json).isEmpty();
        return loaded.plan();
    }

    private final AtomicInteger running = new AtomicInteger();
    private final AtomicInteger maxRunning = new AtomicInteger();
    /** Calls the services refused for load (429), in all runs. */
    private final AtomicInteger refused = new AtomicInteger();
    /** Calls the services serve now, by tool, in the run that runs now. */
    private final Map<String, AtomicInteger> serving = new java.util.concurrent.ConcurrentHashMap<>();

    @Test
    void concurrent_runs_equal_sequential_runs_on_thousands_of_random_plans() {
        int ran = 0;
        int failed = 0;
        int startedEarly = 0;
        int used = 0;
        int handled = 0;
        int maps = 0;
        int planToolPlans = 0;
        for (int seed = 0; seed < CASES; seed++) {
            Random random = new Random(seed);
            String json = randomPlan(random).toString();
            boolean keepGoing = seed % 3 == 0;
            RunResult sequential = run(json, true, seed, keepGoing);
            RunResult concurrent = run(json, false, seed, keepGoing);
            String where = "seed " + seed + ", plan " + json;
            assertThat(concurrent.status()).as(where).isEqualTo(sequential.status());
            assertThat(concurrent.variables()).as(where).isEqualTo(sequential.variables());
            assertThat(concurrent.finalAnswer()).as(where).isEqualTo(sequential.finalAnswer());
            assertThat(describe(concurrent.error())).as(where).isEqualTo(describe(sequential.error()));
            assertThat(steps(concurrent.trace())).as(where).isEqualTo(steps(sequential.trace()));
            assertThat(concurrent.failedSteps()).as(where).isEqualTo(sequential.failedSteps());
            handled += sequential.trace().findValues("handled").size();
            maps += json.contains("for_each") ? 1 : 0;
            planToolPlans += json.contains("\"wrap") ? 1 : 0;
            JsonNode early = concurrent.trace().path("early_calls");
            assertThat(early.path("mismatched").asInt())
                    .as("early calls that differed from their turn's call, " + where)
                    .isZero();
            assertThat(sequential.trace().has("early_calls")).isFalse();
            startedEarly += early.path("started").asInt();
            used += early.path("used").asInt();
            ran++;
            failed += sequential.succeeded() ? 0 : 1;
        }
        assertThat(ran).isEqualTo(CASES);
        assertThat(failed)
                .as("some random plans fail, so error equivalence is exercised")
                .isBetween(CASES / 20, CASES * 19 / 20);
        assertThat(maxRunning.get()).as("calls overlapped in concurrent runs").isGreaterThan(1);
        assertThat(handled).as("failed steps handled by on_error or keep-going").isGreaterThan(CASES / 10);
        assertThat(maps).as("plans with a for_each step").isGreaterThan(CASES / 10);
        assertThat(planToolPlans).as("plans calling plan tools").isGreaterThan(CASES / 10);
        assertThat(used).as("early answers used").isGreaterThan(CASES / 10).isLessThanOrEqualTo(startedEarly);
        // how many calls the services refuse here depends on how the calls overlap, which the machine's load
        // decides: the storms are made certain by a_storm_of_refusals_over_wide_maps_ends_as_the_sequential_run
    }

    @Test
    void a_storm_of_refusals_over_wide_maps_ends_as_the_sequential_run() {
        int before = refused.get();
        for (int seed = 1; seed < 40; seed += 2) { // odd seeds: the services serve one call at once
            String json = """
                    [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "echo", "for_each": "${xs}",
                       "tool_params": {"x": "${item}", "n": "${index}"}, "output_vars": "c"}},
                     {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "flaky", "for_each": "${c}",
                       "tool_params": {"x": "${item}", "n": 1}, "output_vars": "d", "on_error": {"value": "fallback"}}},
                     {"seq_no": 2, "type": "calling", "parameters": {"tool_name": "wrap", "for_each": "${xs}",
                       "tool_params": {"x": "${item}", "n": 2}, "output_vars": "e", "on_error": {"value": "no"}}},
                     {"seq_no": 3, "type": "assign", "parameters": {"final_answer": "${d} ${e}"}}]""";
            ArrayNode xs = JsonNodeFactory.instance.arrayNode();
            for (int i = 0; i < 10 + seed; i++) {
                xs.add("x" + seed + "-" + i);
            }
            RunResult sequential = run(json, true, seed, false, Map.of("xs", xs));
            RunResult concurrent = run(json, false, seed, false, Map.of("xs", xs));
            String where = "seed " + seed;
            assertThat(concurrent.status()).as(where).isEqualTo(sequential.status());
            assertThat(concurrent.variables()).as(where).isEqualTo(sequential.variables());
            assertThat(describe(concurrent.error())).as(where).isEqualTo(describe(sequential.error()));
            assertThat(steps(concurrent.trace())).as(where).isEqualTo(steps(sequential.trace()));
        }
        assertThat(refused.get() - before)
                .as("refusals for load in the concurrent runs")
                .isGreaterThan(40);
    }

    private RunResult run(String json, boolean sequential, int seed, boolean keepGoing) {
        return run(json, sequential, seed, keepGoing, Map.of());
    }

    private RunResult run(String json, boolean sequential, int seed, boolean keepGoing, Map<String, JsonNode> more) {
        AtomicInteger effects = new AtomicInteger();
        serving.clear();
        PlanVm vm = PlanVm.builder()
                .tools(tools(effects, seed % 2 == 1))
                .retryPolicy(new dev.planvm.tools.call.RetryPolicy(
                        30, java.time.Duration.ofMillis(1), java.time.Duration.ofMillis(4)))
                .planTools(PLAN_TOOLS)
                .conditionEvaluator((prompt, context, call) -> {
                    pause(Math.abs((prompt + context).hashCode()) % 3);
                    return new ConditionResult((prompt + context).hashCode() % 2 == 0, "hash parity");
                })
                .sequential(sequential)
                .maxSteps(60)
                .build();
        LoadResult loaded = vm.loader().load(json, "seed-" + seed);
        assertThat(loaded.errors()).as(json).isEmpty();
        Plan plan = loaded.plan();
        Map<String, JsonNode> inputs = new java.util.LinkedHashMap<>();
        inputs.put("a", TextNode.valueOf("start"));
        inputs.put("b", IntNode.valueOf(seed % 7));
        inputs.putAll(more);
        return vm.run(RunRequest.builder(plan)
                .inputs(inputs)
                .options(dev.planvm.vm.run.RunOptions.DEFAULT.withKeepGoing(keepGoing))
                .build());
    }

    /**
     * @param storms whether {@code echo}, {@code pair} and {@code flaky} are one service that serves one call at
     *               once and refuses the others (429)
     */
    private List<Tool> tools(AtomicInteger effects, boolean storms) {
        Tool echo = Tool.of(
                "echo",
                "",
                (params, context) -> service(
                        "echo",
                        storms ? 2 : Integer.MAX_VALUE,
                        () -> observed(() -> {
                            pause(Math.abs(params.hashCode()) % 4);
                            return TextNode.valueOf("echo(" + params + ")");
                        })));
        Tool pair = Tool.of(
                "pair",
                "",
                (params, context) -> service(
                        "pair",
                        storms ? 1 : Integer.MAX_VALUE,
                        () -> observed(() -> {
                            pause(Math.abs(params.hashCode()) % 3);
                            ObjectNode out = JsonNodeFactory.instance.objectNode();
                            for (String key : context.expectedKeys()) {
                                out.put(key, key + ":" + params.path("x").asText());
                            }
                            return out;
                        })));
        Tool flaky = Tool.of(
                "flaky",
                "",
                (params, context) -> service(
                        "svc",
                        storms ? 1 : Integer.MAX_VALUE,
                        () -> observed(() -> {
                            pause(storms ? 4 : 1);
                            if (Math.abs(params.toString().hashCode()) % 4 == 0) {
                                throw ToolException.permanent("flaky refused " + params);
                            }
                            return TextNode.valueOf("flaky ok");
                        })));
        Tool effect = new Tool() {
            @Override
            public String name() {
                return "effect";
            }

            @Override
            public boolean hasSideEffects() {
                return true;
            }

            @Override
            public JsonNode invoke(JsonNode params, CallContext context) {
                return observed(() -> IntNode.valueOf(effects.incrementAndGet()));
            }
        };
        return List.of(echo, pair, flaky, effect);
    }

    /** A service that serves {@code capacity} calls of {@code tool} at once and refuses the others (429). */
    private JsonNode service(String tool, int capacity, java.util.function.Supplier<JsonNode> call) {
        AtomicInteger now = serving.computeIfAbsent(tool, t -> new AtomicInteger());
        try {
            if (now.incrementAndGet() > capacity) {
                refused.incrementAndGet();
                throw ToolException.overloaded(tool + " answered HTTP 429", java.time.Duration.ofMillis(1));
            }
            return call.get();
        } finally {
            now.decrementAndGet();
        }
    }

    private JsonNode observed(java.util.function.Supplier<JsonNode> call) {
        int now = running.incrementAndGet();
        maxRunning.accumulateAndGet(now, Math::max);
        try {
            return call.get();
        } finally {
            running.decrementAndGet();
        }
    }

    /** 0: no wait, 1: ~50 µs, 2: ~200 µs, 3: ~1 ms, 4: ~3 ms. */
    private static void pause(int level) {
        long nanos = switch (level) {
            case 1 -> 50_000;
            case 2 -> 200_000;
            case 3 -> 1_000_000;
            case 4 -> 3_000_000;
            default -> 0;
        };
        if (nanos > 0) {
            LockSupport.parkNanos(nanos);
        }
    }

    private static ArrayNode randomPlan(Random random) {
        int size = 3 + random.nextInt(12);
        ArrayNode plan = MAPPER.createArrayNode();
        for (int seq = 0; seq < size; seq++) {
            ObjectNode instruction = plan.addObject().put("seq_no", seq);
            ObjectNode parameters = JsonNodeFactory.instance.objectNode();
            int kind = random.nextInt(100);
            if (kind < 30) {
                instruction.put("type", "assign");
                int keys = 1 + random.nextInt(2);
                for (int k = 0; k < keys; k++) {
                    parameters.put(variable(random), expression(random));
                }
            } else if (kind < 70) {
                instruction.put("type", "calling");
                String tool = List.of("echo", "echo", "pair", "flaky", "effect").get(random.nextInt(5));
                parameters.put("tool_name", tool);
                parameters
                        .putObject("tool_params")
                        .put("x", "${" + variable(random) + "}")
                        .put("n", random.nextInt(3));
                if (tool.equals("pair")) {
                    String first = variable(random);
                    String second =
                            VARIABLES.get((VARIABLES.indexOf(first) + 1 + random.nextInt(4)) % VARIABLES.size());
                    parameters.putArray("output_vars").add(first).add(second);
                } else if (random.nextInt(5) > 0) {
                    parameters.putArray("output_vars").add(variable(random));
                }
                tool = planToolInstead(parameters, tool);
                forEach(parameters, tool);
                if (random.nextInt(3) == 0) {
                    onError(random, parameters, seq, size);
                }
            } else if (kind < 77) {
                instruction.put("type", "jmp");
                parameters.put("target_seq", random.nextInt(size + 1));
            } else if (kind < 87) {
                instruction.put("type", "jmp");
                parameters.put("condition", "${len(str(" + variable(random) + ")) % 2 == 0}");
                parameters.put("jump_if_true", random.nextInt(size + 1));
                if (random.nextBoolean()) {
                    parameters.put("jump_if_false", random.nextInt(size + 1));
                }
            } else if (kind < 95) {
                instruction.put("type", "jmp");
                parameters.put("condition_prompt", "Decide on ${" + variable(random) + "}");
                parameters.put("context", "${" + variable(random) + "}");
                parameters.put("jump_if_true", random.nextInt(size + 1));
            } else {
                instruction.put("type", "reasoning");
                parameters.put("chain_of_thoughts", "thinking");
            }
            instruction.set("parameters", parameters);
        }
        plan.addObject()
                .put("seq_no", size)
                .put("type", "assign")
                .putObject("parameters")
                .put("final_answer", "${a} / ${b}");
        return plan;
    }

    /**
     * Makes about one call in five a for_each (chosen from the call's own text, so the plans the seeds
     * made before for_each existed stay as they were): over a literal list with a variable in it, an
     * empty list, or a variable (rarely an array, so the step fails as the sequential run does). Not
     * over the side-effecting tool, whose outputs count calls: elements run concurrently by design.
     */
    private static void forEach(ObjectNode parameters, String tool) {
        int hash = Math.abs(parameters.toString().hashCode());
        if (tool.equals("pair") || tool.equals("effect") || tool.equals("wrap_effect") || hash % 5 != 0) {
            return;
        }
        String v = VARIABLES.get((hash / 5) % VARIABLES.size());
        switch ((hash / 25) % 4) {
            case 0, 1 ->
                parameters
                        .putArray("for_each")
                        .add("${" + v + "}")
                        .add(hash % 7)
                        .add("k");
            case 2 -> parameters.putArray("for_each");
            default -> parameters.put("for_each", "${" + v + "}");
        }
        ((ObjectNode) parameters.get("tool_params")).put("x", "${item}").put("n", "${index}");
    }

    /**
     * Makes about one echo call in four a call of plan tool {@code wrap} and one effect call in three a call of
     * {@code wrap_effect} (chosen from the call's own text: the random sequence and the other steps stay as the
     * seeds made them).
     */
    private static String planToolInstead(ObjectNode parameters, String tool) {
        int hash = Math.abs(parameters.toString().hashCode());
        String instead = tool.equals("echo") && hash % 4 == 1
                ? "wrap"
                : tool.equals("effect") && hash % 3 == 1 ? "wrap_effect" : tool;
        parameters.put("tool_name", instead);
        return instead;
    }

    /** An on_error: a jump (anywhere, or forward), a value that fits the output_vars, or a text (which two output_vars cannot take). */
    private static void onError(Random random, ObjectNode parameters, int seq, int size) {
        ObjectNode onError = parameters.putObject("on_error");
        switch (random.nextInt(4)) {
            case 0 -> onError.put("jump", random.nextInt(size + 1));
            case 3 -> onError.put("jump", seq + 1 + random.nextInt(size - seq)); // forward, past what follows
            case 1 -> {
                ObjectNode value = onError.putObject("value");
                parameters.path("output_vars").forEach(name -> value.put(name.asText(), "fallback"));
            }
            default -> onError.put("value", "fallback");
        }
    }

    private static String variable(Random random) {
        return VARIABLES.get(random.nextInt(VARIABLES.size()));
    }

    private static String expression(Random random) {
        String v = variable(random);
        return switch (random.nextInt(5)) {
            case 4 -> "${last_error.seq_no}";
            case 0 -> "${" + v + "}";
            case 1 -> "${" + v + "}-x";
            case 2 -> "${len(str(" + v + "))}";
            default -> "const";
        };
    }

    private static String describe(RunError error) {
        return error == null ? null : error.describe();
    }

    /** The trace without timings: per step its seq_no, type, writes, jump and error. */
    private static List<String> steps(JsonNode trace) {
        List<String> steps = new ArrayList<>();
        for (JsonNode step : trace.path("steps")) {
            steps.add(step.path("seq_no").asInt() + " " + step.path("type").asText() + " " + step.path("writes") + " "
                    + step.path("jump") + " " + step.path("error").asText("") + " "
                    + step.path("handled").asText(""));
        }
        return steps;
    }
}
