package dev.planvm.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.instructions.Plan;
import dev.planvm.json.JsonLimits;
import dev.planvm.json.JsonMappers;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.Tool;
import dev.planvm.tools.config.LoadedTools;
import dev.planvm.tools.config.ToolsConfig;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.run.RunResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * MCP tools, measured: (1) start + initialise + tools/list of a stdio server (a JVM running the
 * SDK-written {@link McpBenchServer}), as {@code ToolsConfig.load} does it; (2) the cost of a call
 * through the whole chain for an MCP tool on stdio against the same plan with an in-process tool,
 * sequential runs of a chain of dependent calls (the MCP tool's own work is an echo, microseconds);
 * (3) whether independent read-only MCP calls overlap: wall time of N calls of {@code work} (each
 * sleeping on the server) against their sum.
 *
 * <p>{@code bench/run --main dev.planvm.bench.McpBench [--calls N] [--starts N]}
 */
public final class McpBench {

    private static final ObjectMapper JSON = JsonMappers.mapper(JsonLimits.STORE);

    public static void main(String[] args) throws Exception {
        int calls = option(args, "--calls", 500);
        int starts = option(args, "--starts", 5);
        Path dir = Files.createTempDirectory("planvm-mcp-bench");
        Path config = dir.resolve("planvm.json");
        Files.writeString(config, JSON.writeValueAsString(config()));
        System.out.printf(
                "MCP over stdio, SDK-written server in a JVM (JDK %s), %d cores%n",
                Runtime.version(), Runtime.getRuntime().availableProcessors());
        startUp(config, starts);
        try (LoadedTools loaded =
                ToolsConfig.load(config, System.getenv(), Map.of(), ToolsConfig.classPathProviders())) {
            perCall(loaded, calls);
            overlap(loaded, 4, 300);
        }
    }

    private static ObjectNode config() {
        ObjectNode config = JSON.createObjectNode();
        ObjectNode server = config.putObject("mcpServers").putObject("bench");
        server.put(
                "command",
                Path.of(System.getProperty("java.home"), "bin", "java").toString());
        ArrayNode args = server.putArray("args");
        List<String> classPath = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            classPath.add(Path.of(entry).toAbsolutePath().toString());
        }
        args.add("-cp").add(String.join(java.io.File.pathSeparator, classPath)).add(McpBenchServer.class.getName());
        return config;
    }

    private static void startUp(Path config, int starts) {
        List<Double> load = new ArrayList<>();
        List<Double> close = new ArrayList<>();
        for (int i = 0; i < starts; i++) {
            long t0 = System.nanoTime();
            LoadedTools loaded = ToolsConfig.load(config, System.getenv(), Map.of(), ToolsConfig.classPathProviders());
            long t1 = System.nanoTime();
            if (!loaded.unavailable().keySet().stream()
                    .filter(k -> k.startsWith("bench:"))
                    .toList()
                    .isEmpty()) {
                throw new IllegalStateException("the bench server did not start: " + loaded.unavailable());
            }
            loaded.close();
            long t2 = System.nanoTime();
            load.add((t1 - t0) / 1e6);
            close.add((t2 - t1) / 1e6);
        }
        Collections.sort(load);
        Collections.sort(close);
        System.out.printf(
                "start + initialize + tools/list (ToolsConfig.load): median %.0f ms, min %.0f ms, max %.0f ms (%d starts)%n",
                load.get(load.size() / 2), load.get(0), load.get(load.size() - 1), starts);
        System.out.printf("shutdown (LoadedTools.close): median %.0f ms%n", close.get(close.size() / 2));
    }

    private static void perCall(LoadedTools loaded, int calls) {
        // Both JVMs (this one and the server's) are warmed up first: the first thousands of calls are
        // several times slower while the JIT compiles the JSON-RPC paths on each side.
        Tool warm = loaded.tools().stream()
                .filter(t -> t.name().equals("bench:echo"))
                .findFirst()
                .orElseThrow();
        for (int i = 0; i < 5000; i++) {
            warm.invoke(JSON.createObjectNode().put("text", "w"), CallContext.of(0));
        }
        PlanVm mcpVm = PlanVm.builder()
                .tools(loaded.tools())
                .sequential(true)
                .maxSteps(100_000)
                .build();
        PlanVm localVm = PlanVm.builder()
                .tool(Tool.of(
                        "echo", "", (p, c) -> TextNode.valueOf(p.path("text").asText())))
                .sequential(true)
                .maxSteps(100_000)
                .build();
        String chain = PlanShapes.callingChain(calls);
        Plan mcpPlan = mcpVm.loader().load(chain, "chain").planOrThrow();
        Plan localPlan = localVm.loader().load(chain, "chain").planOrThrow();
        for (int i = 0; i < 3; i++) {
            time(mcpVm, mcpPlan);
            time(localVm, localPlan);
        }
        long mcp = 0;
        long local = 0;
        int rounds = 5;
        for (int i = 0; i < rounds; i++) {
            mcp += time(mcpVm, mcpPlan);
            local += time(localVm, localPlan);
        }
        double mcpUs = mcp / 1e3 / rounds / calls;
        double localUs = local / 1e3 / rounds / calls;
        System.out.printf(
                "through the VM chain, %d dependent calls, sequential: in-process tool %.0f µs/call, MCP stdio tool %.0f µs/call:"
                        + " %.2f ms added per call%n",
                calls, localUs, mcpUs, (mcpUs - localUs) / 1000);
        Tool mcpEcho = loaded.tools().stream()
                .filter(t -> t.name().equals("bench:echo"))
                .findFirst()
                .orElseThrow();
        JsonNode params = JSON.createObjectNode().put("text", "x");
        for (int i = 0; i < 200; i++) {
            mcpEcho.invoke(params, CallContext.of(0));
        }
        long t0 = System.nanoTime();
        for (int i = 0; i < calls; i++) {
            mcpEcho.invoke(params, CallContext.of(0));
        }
        double direct = (System.nanoTime() - t0) / 1e3 / calls;
        System.out.printf("MCP tools/call round trip on stdio (Tool.invoke, no VM): %.0f µs per call%n", direct);
    }

    private static void overlap(LoadedTools loaded, int n, int ms) {
        StringBuilder plan = new StringBuilder("[");
        for (int i = 0; i < n; i++) {
            plan.append("{\"seq_no\": ")
                    .append(i)
                    .append(", \"type\": \"calling\", \"parameters\": {\"tool\": \"bench:work\","
                            + " \"params\": {\"ms\": ")
                    .append(ms)
                    .append("}, \"output_vars\": \"r")
                    .append(i)
                    .append("\"}},");
        }
        plan.append("{\"seq_no\": ")
                .append(n)
                .append(", \"type\": \"assign\", \"parameters\": {\"final_answer\": \"${r0}\"}}]");
        PlanVm vm = PlanVm.builder().tools(loaded.tools()).build();
        Plan parsed = vm.loader().load(plan.toString(), "overlap").planOrThrow();
        time(vm, parsed);
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            best = Math.min(best, time(vm, parsed));
        }
        System.out.printf(
                "%d independent read-only MCP calls of %d ms each: wall %.0f ms (sum %d ms, longest %d ms)%n",
                n, ms, best / 1e6, n * ms, ms);
    }

    private static long time(PlanVm vm, Plan plan) {
        long start = System.nanoTime();
        RunResult result = vm.run(plan, Map.of("start", TextNode.valueOf("s")));
        long elapsed = System.nanoTime() - start;
        if (!result.succeeded()) {
            throw new IllegalStateException("bench run failed: " + result.error());
        }
        return elapsed;
    }

    private static int option(String[] args, String name, int fallback) {
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals(name)) {
                return Integer.parseInt(args[i + 1]);
            }
        }
        return fallback;
    }
}
