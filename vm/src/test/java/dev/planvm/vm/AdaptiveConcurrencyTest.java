package dev.planvm.vm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.instructions.Plan;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolException;
import dev.planvm.vm.run.RunResult;
import dev.planvm.vm.run.ToolLimit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Each tool's concurrency limit adapts to how its calls go (issue 40): a map starts at full width, a service
 * that refuses beyond what it serves (429 with Retry-After) makes the limit settle there with no element
 * failing, two tools each reach their own, an explicit cap stays a hard ceiling, the LLM has its own limiter,
 * and the slots of a tool go fairly to the runs that wait for them. The trace and the step record the limit
 * over time and the waits.
 */
class AdaptiveConcurrencyTest {

    /** A service that serves {@code capacity} calls at once, each in {@code millis}, and refuses the others (429). */
    static final class Service {
        final String name;
        final int capacity;
        final long millis;
        final AtomicInteger serving = new AtomicInteger();
        final AtomicInteger mostAtOnce = new AtomicInteger();
        final AtomicInteger refused = new AtomicInteger();
        final Map<String, AtomicInteger> refusalsByElement = new ConcurrentHashMap<>();

        Service(String name, int capacity, long millis) {
            this.name = name;
            this.capacity = capacity;
            this.millis = millis;
        }

        Tool tool() {
            return Tool.of(name, "serves " + capacity + " at once", (params, call) -> {
                if (serving.incrementAndGet() > capacity) {
                    serving.decrementAndGet();
                    refused.incrementAndGet();
                    refusalsByElement
                            .computeIfAbsent(params.toString(), k -> new AtomicInteger())
                            .incrementAndGet();
                    throw ToolException.overloaded(name + " answered HTTP 429", Duration.ofMillis(50));
                }
                mostAtOnce.accumulateAndGet(serving.get(), Math::max);
                try {
                    Thread.sleep(millis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    serving.decrementAndGet();
                }
                return params.path("i");
            });
        }
    }

    private static ArrayNode list(int n) {
        ArrayNode list = JsonNodeFactory.instance.arrayNode();
        for (int i = 0; i < n; i++) {
            list.add(i);
        }
        return list;
    }

    private static Plan map(PlanVm vm, String tool) {
        return vm.loader().load("""
                        [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "%s", "for_each": "${xs}",
                           "tool_params": {"i": "${item}"}, "output_vars": "final_answer"}}]""".formatted(tool), "map.json").planOrThrow();
    }

    /** The limit events of {@code tool} in a trace. */
    private static List<JsonNode> limitEvents(RunResult result, String tool) {
        List<JsonNode> events = new ArrayList<>();
        result.trace().path("limits").forEach(e -> {
            if (e.path("tool").asText().equals(tool)) {
                events.add(e);
            }
        });
        return events;
    }

    @Test
    void a_map_over_a_service_that_serves_ten_settles_there_and_no_element_fails() {
        Service service = new Service("svc", 10, 100);
        try (PlanVm vm =
                PlanVm.builder().tool(service.tool()).maxInFlightPerRun(64).build()) {
            RunResult result = vm.run(map(vm, "svc"), Map.of("xs", list(60)));

            assertThat(result.succeeded()).as(String.valueOf(result.error())).isTrue();
            assertThat(result.finalAnswer()).isEqualTo(list(60));
            assertThat(service.refused.get())
                    .as("the first contact: a map at full width")
                    .isPositive();
            assertThat(service.refused.get())
                    .as("refusals: the first contact's, and few after it")
                    .isLessThan(60 + 10);
            ToolLimit limit = vm.toolLimits().get("svc");
            assertThat(limit.limit())
                    .as("settled on what was in flight at the refusals: the 10 served, and calls on their way")
                    .isBetween(1, 15);
            assertThat(limit.overloaded()).isEqualTo(service.refused.get());

            List<JsonNode> events = limitEvents(result, "svc");
            assertThat(events.get(0).path("cause").asText()).isEqualTo("start");
            assertThat(events.get(0).path("limit").asInt()).isEqualTo(256);
            assertThat(events.get(events.size() - 1).path("limit").asInt())
                    .as("the last change told (changes made at once on several threads are told in any order)")
                    .isBetween(1, 15);
            assertThat(events)
                    .anySatisfy(e -> assertThat(e.path("cause").asText()).isEqualTo("overloaded"));
            JsonNode step = result.trace().path("steps").get(0).path("inputs");
            assertThat(step.path("limits").get(0).path("tool").asText()).isEqualTo("svc");
            assertThat(step.path("slot_wait_ms").asDouble())
                    .as("elements waited for a slot")
                    .isPositive();
            assertThat(result.trace().path("calls").findValues("waited_ms")).isNotEmpty();
        }
    }

    @Test
    void two_tools_each_reach_their_own_limit() {
        Service narrow = new Service("narrow", 10, 60);
        Service wide = new Service("wide", 30, 60);
        try (PlanVm vm = PlanVm.builder()
                .tool(narrow.tool())
                .tool(wide.tool())
                .maxInFlightPerRun(128)
                .build()) {
            Plan both = vm.loader().load("""
                            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "narrow", "for_each": "${xs}",
                               "tool_params": {"i": "${item}"}, "output_vars": "a"}},
                             {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "wide", "for_each": "${xs}",
                               "tool_params": {"i": "${item}"}, "output_vars": "b"}},
                             {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "${len(a) + len(b)}"}}]""", "both.json").planOrThrow();
            RunResult result = vm.run(both, Map.of("xs", list(80)));
            assertThat(result.finalAnswer().asInt())
                    .as(String.valueOf(result.error()))
                    .isEqualTo(160);
            int narrowLimit = vm.toolLimits().get("narrow").limit();
            int wideLimit = vm.toolLimits().get("wide").limit();
            assertThat(narrowLimit).isBetween(1, 10);
            assertThat(wideLimit).isBetween(11, 30);
            assertThat(narrow.mostAtOnce.get()).isLessThanOrEqualTo(10);
            assertThat(wide.mostAtOnce.get()).isGreaterThan(10);
        }
    }

    @Test
    void an_explicit_cap_is_a_hard_ceiling_for_the_adaptive_limit() {
        Service open = new Service("open", 1000, 20);
        try (PlanVm vm = PlanVm.builder()
                .tool(open.tool())
                .toolConcurrency("open", 3)
                .maxInFlightPerRun(64)
                .build()) {
            RunResult result = vm.run(map(vm, "open"), Map.of("xs", list(40)));
            assertThat(result.succeeded()).isTrue();
            assertThat(open.mostAtOnce.get()).isLessThanOrEqualTo(3);
            assertThat(vm.toolLimits().get("open").limit()).isBetween(1, 3);
            assertThat(limitEvents(result, "open").get(0).path("limit").asInt()).isEqualTo(3);
        }
    }

    @Test
    void the_llm_has_a_limiter_of_its_own_with_a_narrower_start() {
        AtomicInteger atOnce = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        Tool llm = Tool.of(PlanVm.LLM_TOOL, "answers", (params, call) -> {
            most.accumulateAndGet(atOnce.incrementAndGet(), Math::max);
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                atOnce.decrementAndGet();
            }
            return TextNode.valueOf("ok");
        });
        try (PlanVm vm = PlanVm.builder().tool(llm).maxInFlightPerRun(64).build()) {
            RunResult result = vm.run(map(vm, PlanVm.LLM_TOOL), Map.of("xs", list(48)));
            assertThat(result.succeeded()).isTrue();
            assertThat(limitEvents(result, PlanVm.LLM_TOOL).get(0).path("limit").asInt())
                    .isEqualTo(16);
            assertThat(most.get()).as("16 at first, growing by one per answer").isGreaterThan(1);
            assertThat(vm.toolLimits()).containsOnlyKeys(PlanVm.LLM_TOOL);
        }
    }

    @Test
    void without_adaptive_limits_a_tool_is_unbounded_but_for_its_cap() {
        Service open = new Service("open", 1000, 30);
        try (PlanVm vm = PlanVm.builder()
                .tool(open.tool())
                .adaptiveConcurrency(false)
                .maxInFlightPerRun(64)
                .build()) {
            RunResult result = vm.run(map(vm, "open"), Map.of("xs", list(40)));
            assertThat(result.succeeded()).isTrue();
            assertThat(vm.toolLimits()).isEmpty();
            assertThat(result.trace().has("limits")).isFalse();
        }
    }

    @Test
    void a_free_slot_of_a_tool_goes_to_a_run_holding_none_before_a_wide_map_of_another_run() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger wideDone = new AtomicInteger();
        AtomicInteger wideDoneWhenSingleEntered = new AtomicInteger(-1);
        Tool slow = Tool.of("slow", "holds until released", (params, call) -> {
            boolean single = params.path("who").asText().equals("single");
            if (single) {
                wideDoneWhenSingleEntered.set(wideDone.get());
            }
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (!single) {
                wideDone.incrementAndGet();
            }
            return params;
        });
        ExecutorService runs = Executors.newFixedThreadPool(2);
        try (PlanVm vm = PlanVm.builder()
                .tool(slow)
                .toolConcurrency("slow", 2)
                .maxInFlightPerRun(64)
                .build()) {
            Plan wideMap = vm.loader().load("""
                            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "slow", "for_each": "${xs}",
                               "tool_params": {"who": "wide"}, "output_vars": "final_answer"}}]""", "wide.json").planOrThrow();
            Plan single = vm.loader().load("""
                            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "slow",
                               "tool_params": {"who": "single"}, "output_vars": "final_answer"}}]""", "single.json").planOrThrow();
            Future<RunResult> wide = runs.submit(() -> vm.run(wideMap, Map.of("xs", list(40))));
            awaitWaiting(vm, 40 - 2);
            Future<RunResult> one = runs.submit(() -> vm.run(single, Map.of()));
            awaitWaiting(vm, 40 - 2 + 1);
            release.countDown();
            assertThat(one.get(60, TimeUnit.SECONDS).succeeded()).isTrue();
            assertThat(wide.get(60, TimeUnit.SECONDS).succeeded()).isTrue();
        } finally {
            runs.shutdownNow();
        }
        assertThat(wideDoneWhenSingleEntered.get())
                .as("wide calls done when the single one got in: it came after 38 queued calls of the wide map and got"
                        + " the first free slot (the other slot went on serving the wide map while its thread woke up)")
                .isBetween(1, 20);
    }

    private static void awaitWaiting(PlanVm vm, int waiting) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (vm.toolLimits().get("slow") == null
                || vm.toolLimits().get("slow").waiting() < waiting) {
            assertThat(System.nanoTime()).as("not hung").isLessThan(deadline);
            Thread.sleep(5);
        }
    }
}
