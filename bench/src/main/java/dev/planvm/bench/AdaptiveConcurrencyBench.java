package dev.planvm.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.planvm.instructions.Plan;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolRegistry;
import dev.planvm.tools.call.Call;
import dev.planvm.tools.chain.CallChain;
import dev.planvm.tools.chain.CallChains;
import dev.planvm.tools.config.LoadedTools;
import dev.planvm.tools.config.ToolsConfig;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.run.RunResult;
import dev.planvm.vm.run.ToolLimit;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * Adaptive concurrency per tool (issue 40), side by side with LangGraph.js's {@code Send} fan-out, against the same
 * loopback services in one run, interleaved round by round:
 *
 * <ol>
 *   <li>{@code open}: 200 elements, each a GET of a service with no limit that answers in {@code --latency-ms}
 *       (200): wall time against the critical path (one call), planvm at its defaults and as before issue 40 (8 in
 *       flight, fixed), LangGraph.js as it comes;</li>
 *   <li>{@code ten}: 100 elements on a service that serves 10 at once and answers 429 with {@code Retry-After: 1}
 *       beyond: failed elements and wall time against the ideal 10-wide schedule (10 rounds of one call), planvm on
 *       a fresh VM (its limiter meets the service for the first time) and on a warm one, LangGraph.js with no
 *       retry (its default) and with its retry policy (3 attempts, as planvm's default);</li>
 *   <li>two tools of one plan on services that serve 10 and 50 at once: the limit each reaches and the most calls
 *       each service saw at once;</li>
 *   <li>the limiter's cost per call: a map of 1,000 elements and a chain of 1,000 calls of an instant in-process
 *       tool, adaptive limits on and off, interleaved.</li>
 * </ol>
 *
 * <p>{@code bench/run --main dev.planvm.bench.AdaptiveConcurrencyBench [--rounds R] [--latency-ms MS]
 * [--langgraph DIR] [--skip-langgraph] [--parts 1,2,3,4]}. The LangGraph.js side is {@code bench/langgraph/map.mjs}; install it
 * once with {@code npm ci --prefix bench/langgraph}.
 */
public final class AdaptiveConcurrencyBench {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** A loopback service: answers in {@code latency} ms, at most {@code capacity} at once (429 beyond). */
    static final class Service {
        final String name;
        final int capacity;
        final long latency;
        final AtomicInteger serving = new AtomicInteger();
        final AtomicInteger most = new AtomicInteger();
        final AtomicInteger refused = new AtomicInteger();

        Service(String name, int capacity, long latency) {
            this.name = name;
            this.capacity = capacity;
            this.latency = latency;
        }

        void handle(HttpExchange exchange) throws IOException {
            try (exchange) {
                if (serving.incrementAndGet() > capacity) {
                    serving.decrementAndGet();
                    refused.incrementAndGet();
                    exchange.getResponseHeaders().set("Retry-After", "1");
                    send(exchange, 429, "{\"error\": \"too many requests\"}");
                    return;
                }
                most.accumulateAndGet(serving.get(), Math::max);
                try {
                    Thread.sleep(latency);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    serving.decrementAndGet();
                }
                String query = exchange.getRequestURI().getQuery();
                send(exchange, 200, "{\"ok\": \"" + (query == null ? "" : query) + "\"}");
            }
        }

        void reset() {
            most.set(0);
            refused.set(0);
        }

        private static void send(HttpExchange exchange, int status, String body) throws IOException {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    /** What one run of a map gave. */
    record Outcome(double wallMs, int answered, boolean failed, String error) {}

    public static void main(String[] args) throws Exception {
        int rounds = option(args, "--rounds", 5);
        long latency = option(args, "--latency-ms", 200);
        boolean langgraph = !flag(args, "--skip-langgraph");
        Path scripts = Path.of(value(args, "--langgraph", "bench/langgraph"));
        if (langgraph && !Files.isDirectory(scripts.resolve("node_modules"))) {
            throw new IllegalStateException(
                    "LangGraph.js is not installed: npm ci --prefix " + scripts + " (or --skip-langgraph)");
        }
        Service open = new Service("open", Integer.MAX_VALUE, latency);
        Service ten = new Service("ten", 10, latency);
        Service fifty = new Service("fifty", 50, latency);
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 1024);
        ExecutorService handlers = Executors.newCachedThreadPool();
        server.setExecutor(handlers);
        for (Service s : List.of(open, ten, fifty)) {
            server.createContext("/" + s.name, s::handle);
        }
        server.start();
        String base = "http://127.0.0.1:" + server.getAddress().getPort() + "/";
        Path config = Files.createTempDirectory("planvm-adaptive-bench").resolve("planvm.json");
        Files.writeString(config, JSON.writeValueAsString(config(base)));
        System.out.printf(
                Locale.ROOT,
                "adaptive concurrency: JDK %s, %d cores, %d rounds, calls of %d ms, services on loopback%n",
                Runtime.version(),
                Runtime.getRuntime().availableProcessors(),
                rounds,
                latency);
        try (LoadedTools loaded =
                ToolsConfig.load(config, System.getenv(), Map.of(), ToolsConfig.classPathProviders())) {
            List<Tool> tools = loaded.tools();
            String parts = value(args, "--parts", "1,2,3,4");
            if (parts.contains("1")) {
                openService(tools, open, rounds, latency, langgraph ? scripts : null, base);
            }
            if (parts.contains("2")) {
                tenService(tools, ten, rounds, latency, langgraph ? scripts : null, base);
            }
            if (parts.contains("3")) {
                twoTools(tools, ten, fifty, latency);
            }
            if (parts.contains("4")) {
                overhead(rounds);
            }
        } finally {
            server.stop(0);
            handlers.shutdownNow();
        }
    }

    private static ObjectNode config(String base) {
        ObjectNode config = JSON.createObjectNode();
        ArrayNode http = config.putArray("httpTools");
        for (String name : List.of("open", "ten", "fifty")) {
            ObjectNode tool = http.addObject()
                    .put("name", name)
                    .put("description", "GET " + name)
                    .put("method", "GET")
                    .put("url", base + name + "?i=${i}")
                    .put("side_effects", false);
            tool.putObject("params")
                    .put("type", "object")
                    .putObject("properties")
                    .putObject("i")
                    .put("type", "integer");
        }
        return config;
    }

    private static void openService(
            List<Tool> tools, Service open, int rounds, long latency, Path scripts, String base) {
        int n = 200;
        List<Double> adaptive = new ArrayList<>();
        List<Double> before = new ArrayList<>();
        List<Double> graph = new ArrayList<>();
        List<Double> plain = new ArrayList<>();
        List<Double> inProcess = new ArrayList<>();
        Tool sleeper = Tool.of("sleeper", "answers in the service's time, in this process", (params, call) -> {
            try {
                Thread.sleep(latency);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return params.path("i");
        });
        try (PlanVm vm = PlanVm.builder().tools(tools).build();
                PlanVm local = PlanVm.builder().tool(sleeper).build();
                PlanVm old = PlanVm.builder()
                        .tools(tools)
                        .maxInFlightPerRun(8)
                        .adaptiveConcurrency(false)
                        .build()) {
            for (int r = 0; r <= rounds; r++) {
                Outcome a = map(vm, "open", n);
                Outcome b = map(old, "open", n);
                Outcome g = scripts == null ? null : langgraph(scripts, base + "open", n, 1);
                double p = plainThreads(base + "open?i=", n);
                Outcome l = map(local, "sleeper", n);
                check(a, n, "planvm open");
                check(b, n, "planvm open, before");
                check(l, n, "planvm in-process");
                if (r > 0) { // the first round warms up
                    adaptive.add(a.wallMs());
                    before.add(b.wallMs());
                    plain.add(p);
                    inProcess.add(l.wallMs());
                    if (g != null) {
                        graph.add(g.wallMs());
                    }
                }
            }
            System.out.printf(
                    Locale.ROOT,
                    "%n1. %d x %d ms, a service with no limit (critical path %d ms); median wall, x critical path%n",
                    n,
                    latency,
                    latency);
            row("planvm, defaults", adaptive, latency);
            row("planvm, before issue 40 (8 in flight, fixed)", before, latency);
            if (!graph.isEmpty()) {
                row("LangGraph.js Send", graph, latency);
            }
            row("no engine: 200 Java threads, the same GETs", plain, latency);
            row("planvm, defaults, an in-process tool of the time", inProcess, latency);
            System.out.printf(
                    Locale.ROOT,
                    "   planvm's limit of open after: %s%n",
                    vm.toolLimits().get("open"));
        }
    }

    private static void tenService(List<Tool> tools, Service ten, int rounds, long latency, Path scripts, String base) {
        int n = 100;
        double ideal = n / 10.0 * latency;
        List<Double> cold = new ArrayList<>();
        List<Double> warm = new ArrayList<>();
        List<Double> graph = new ArrayList<>();
        List<Double> graphRetry = new ArrayList<>();
        int coldFailed = 0;
        int warmFailed = 0;
        int graphFailed = 0;
        int graphRetryFailed = 0;
        int coldRefused = 0;
        int warmRefused = 0;
        String graphError = null;
        try (PlanVm warmVm = PlanVm.builder().tools(tools).build()) {
            map(warmVm, "ten", n); // it meets the service once before the rounds
            for (int r = 0; r < rounds; r++) {
                ten.reset();
                Outcome c;
                try (PlanVm fresh = PlanVm.builder().tools(tools).build()) {
                    c = map(fresh, "ten", n);
                }
                coldRefused += ten.refused.get();
                coldFailed += c.failed() ? 1 : 0;
                cold.add(c.wallMs());
                pause();
                ten.reset();
                Outcome w = map(warmVm, "ten", n);
                warmRefused += ten.refused.get();
                warmFailed += w.failed() ? 1 : 0;
                warm.add(w.wallMs());
                if (scripts != null) {
                    pause();
                    Outcome g = langgraph(scripts, base + "ten", n, 1);
                    graphFailed += g.failed() ? 1 : 0;
                    graphError = g.failed() ? g.error() : graphError;
                    graph.add(g.wallMs());
                    pause();
                    Outcome gr = langgraph(scripts, base + "ten", n, 3);
                    graphRetryFailed += gr.failed() ? 1 : 0;
                    graphRetry.add(gr.wallMs());
                }
                pause();
            }
            System.out.printf(
                    Locale.ROOT,
                    "%n2. %d x %d ms, a service that serves 10 at once (429 + Retry-After: 1 beyond); ideal 10-wide"
                            + " schedule %.0f ms; median wall, x ideal, runs failed%n",
                    n,
                    latency,
                    ideal);
            row("planvm, fresh VM (first contact)", cold, ideal, coldFailed, coldRefused / (double) rounds);
            row("planvm, warm VM (limit learnt)", warm, ideal, warmFailed, warmRefused / (double) rounds);
            if (scripts != null) {
                row("LangGraph.js Send, no retry (default)", graph, ideal, graphFailed, -1);
                row("LangGraph.js Send, retryPolicy 3 attempts", graphRetry, ideal, graphRetryFailed, -1);
                if (graphError != null) {
                    System.out.printf(Locale.ROOT, "   LangGraph.js failed with: %s%n", graphError);
                }
            }
            System.out.printf(
                    Locale.ROOT,
                    "   planvm's limit of ten after: %s%n",
                    warmVm.toolLimits().get("ten"));
        }
    }

    private static void twoTools(List<Tool> tools, Service ten, Service fifty, long latency) {
        ten.reset();
        fifty.reset();
        try (PlanVm vm = PlanVm.builder().tools(tools).build()) {
            Plan both = vm.loader().load("""
                            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "ten", "for_each": "${xs}",
                               "tool_params": {"i": "${item}"}, "output_vars": "a"}},
                             {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "fifty", "for_each": "${ys}",
                               "tool_params": {"i": "${item}"}, "output_vars": "b"}},
                             {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "${len(a) + len(b)}"}}]""", "two-tools.json").planOrThrow();
            long start = System.nanoTime();
            RunResult result = vm.run(both, Map.of("xs", list(100), "ys", list(250)));
            double wall = (System.nanoTime() - start) / 1e6;
            ToolLimit a = vm.toolLimits().get("ten");
            ToolLimit b = vm.toolLimits().get("fifty");
            System.out.printf(
                    Locale.ROOT,
                    "%n3. two tools in one plan: 100 x %d ms on a service of 10, then 250 on one of 50 (%s, %.0f ms;"
                            + " ideal %d ms)%n",
                    latency,
                    result.succeeded()
                            ? "succeeded"
                            : "failed: " + result.error().message(),
                    wall,
                    10 * latency + 5 * latency);
            System.out.printf(
                    Locale.ROOT,
                    "   ten:   limit %d, most at once at the service %d, refused %d%n",
                    a.limit(),
                    ten.most.get(),
                    ten.refused.get());
            System.out.printf(
                    Locale.ROOT,
                    "   fifty: limit %d, most at once at the service %d, refused %d%n",
                    b.limit(),
                    fifty.most.get(),
                    fifty.refused.get());
            JsonNode trace = result.trace();
            List<String> events = new ArrayList<>();
            trace.path("limits")
                    .forEach(e -> events.add(
                            e.path("tool").asText() + "→" + e.path("limit").asInt()));
            System.out.printf(
                    Locale.ROOT,
                    "   the trace's limit events: %d (first %s, last %s)%n",
                    events.size(),
                    events.isEmpty() ? "-" : events.get(0),
                    events.isEmpty() ? "-" : events.get(events.size() - 1));
        }
    }

    private static void overhead(int rounds) {
        Tool instant = Tool.of("instant", "answers at once", (params, context) -> params.path("i"));
        Function<Boolean, PlanVm> vms = adaptive -> PlanVm.builder()
                .tool(instant)
                .adaptiveConcurrency(adaptive)
                .tracing(false)
                .maxSteps(5_000)
                .build();
        int n = 1_000;
        List<Double> mapOn = new ArrayList<>();
        List<Double> mapOff = new ArrayList<>();
        List<Double> chainOn = new ArrayList<>();
        List<Double> chainOff = new ArrayList<>();
        try (PlanVm on = vms.apply(true);
                PlanVm off = vms.apply(false)) {
            Plan chain = chain(on, n);
            for (int r = 0; r < rounds * 4 + 3; r++) { // which goes first alternates round by round
                boolean onFirst = r % 2 == 0;
                double b = onFirst ? 0 : map(off, "instant", n).wallMs();
                double a = map(on, "instant", n).wallMs();
                b = onFirst ? map(off, "instant", n).wallMs() : b;
                double d = onFirst ? 0 : timed(off, chain);
                double c = timed(on, chain);
                d = onFirst ? timed(off, chain) : d;
                if (r >= 3) {
                    mapOn.add(a);
                    mapOff.add(b);
                    chainOn.add(c);
                    chainOff.add(d);
                }
            }
        }
        System.out.printf(
                Locale.ROOT,
                "%n4. the limiter's cost, an instant in-process tool, medians of %d interleaved rounds%n",
                mapOn.size());
        chainOnly(instant, rounds);
        System.out.printf(
                Locale.ROOT,
                "   map of %d:    adaptive %.1f ms, fixed (no limiter) %.1f ms: %.1f µs per call%n",
                n,
                median(mapOn),
                median(mapOff),
                (median(mapOn) - median(mapOff)) * 1000 / n);
        System.out.printf(
                Locale.ROOT,
                "   chain of %d:  adaptive %.1f ms, fixed (no limiter) %.1f ms: %.1f µs per call%n",
                n,
                median(chainOn),
                median(chainOff),
                (median(chainOn) - median(chainOff)) * 1000 / n);
    }

    /** One thread sending calls through a call chain with the adaptive limit link and without it: ns per call. */
    private static void chainOnly(Tool instant, int rounds) {
        ToolRegistry registry = ToolRegistry.of(List.of(instant));
        CallChain adaptive = CallChains.standard(CallChains.parts(registry).build(), null);
        CallChain fixed =
                CallChains.standard(CallChains.parts(registry).fixedLimits().build(), null);
        Call.ToolCall call = new Call.ToolCall(
                "instant", JsonNodeFactory.instance.objectNode().put("i", 1), CallContext.of(0));
        int n = 200_000;
        List<Double> on = new ArrayList<>();
        List<Double> off = new ArrayList<>();
        for (int r = 0; r < rounds * 2 + 2; r++) {
            boolean onFirst = r % 2 == 0;
            double b = onFirst ? 0 : perCall(fixed, call, n);
            double a = perCall(adaptive, call, n);
            b = onFirst ? perCall(fixed, call, n) : b;
            if (r >= 2) {
                on.add(a);
                off.add(b);
            }
        }
        System.out.printf(
                Locale.ROOT,
                "   one thread through the call chain (%,d calls, %d rounds): with the limit link %.2f µs, without"
                        + " %.2f µs: %.2f µs per call%n",
                n,
                on.size(),
                median(on),
                median(off),
                median(on) - median(off));
    }

    private static double perCall(CallChain chain, Call call, int n) {
        long start = System.nanoTime();
        for (int i = 0; i < n; i++) {
            chain.execute(call);
        }
        return (System.nanoTime() - start) / 1e3 / n;
    }

    private static Plan chain(PlanVm vm, int n) {
        ArrayNode plan = JsonNodeFactory.instance.arrayNode();
        for (int i = 0; i < n; i++) {
            ObjectNode parameters = plan.addObject()
                    .put("seq_no", i)
                    .put("type", "calling")
                    .putObject("parameters")
                    .put("tool_name", "instant")
                    .put("output_vars", i == n - 1 ? "final_answer" : "v" + (i % 2));
            parameters.putObject("tool_params").put("i", i == 0 ? "0" : "${v" + ((i - 1) % 2) + "}");
        }
        return vm.loader().load(plan.toString(), "chain.json").planOrThrow();
    }

    private static double timed(PlanVm vm, Plan plan) {
        long start = System.nanoTime();
        RunResult result = vm.run(plan, Map.of());
        if (!result.succeeded()) {
            throw new IllegalStateException(
                    "the chain failed: " + result.error().describe());
        }
        return (System.nanoTime() - start) / 1e6;
    }

    private static Outcome map(PlanVm vm, String tool, int n) {
        Plan plan = vm.loader().load("""
                        [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "%s", "for_each": "${xs}",
                           "tool_params": {"i": "${item}"}, "output_vars": "final_answer"}}]""".formatted(tool), "map.json").planOrThrow();
        long start = System.nanoTime();
        RunResult result = vm.run(plan, Map.of("xs", list(n)));
        double wall = (System.nanoTime() - start) / 1e6;
        return new Outcome(
                wall,
                result.succeeded() ? result.finalAnswer().size() : 0,
                !result.succeeded(),
                result.succeeded() ? null : result.error().message());
    }

    /**
     * The floor this machine and these services set: {@code n} threads each sending the GET with the JDK's HTTP
     * client (as planvm's HTTP tools do), no engine at all; wall-clock ms until the last answer.
     */
    private static double plainThreads(String url, int n) {
        java.net.http.HttpClient client = java.net.http.HttpClient.newBuilder()
                .version(java.net.http.HttpClient.Version.HTTP_1_1)
                .build();
        ExecutorService threads = Executors.newCachedThreadPool();
        try {
            long start = System.nanoTime();
            List<java.util.concurrent.Future<String>> answers = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                java.net.URI uri = java.net.URI.create(url + i);
                answers.add(threads.submit(() -> client.send(
                                java.net.http.HttpRequest.newBuilder(uri).build(),
                                java.net.http.HttpResponse.BodyHandlers.ofString())
                        .body()));
            }
            for (java.util.concurrent.Future<String> answer : answers) {
                answer.get();
            }
            return (System.nanoTime() - start) / 1e6;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException("a plain GET failed: " + e.getCause(), e);
        } finally {
            threads.shutdownNow();
        }
    }

    private static Outcome langgraph(Path scripts, String url, int n, int attempts) {
        try {
            Process node = new ProcessBuilder(
                            "node",
                            scripts.resolve("map.mjs").toString(),
                            url,
                            String.valueOf(n),
                            String.valueOf(attempts))
                    .redirectErrorStream(true)
                    .start();
            String out = new String(node.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!node.waitFor(300, TimeUnit.SECONDS)) {
                node.destroyForcibly();
                throw new IllegalStateException("LangGraph.js did not end in 300 s");
            }
            String last = out.strip().lines().reduce((a, b) -> b).orElse("");
            JsonNode json = JSON.readTree(last);
            return new Outcome(
                    json.path("wall_ms").asDouble(),
                    json.path("answered").asInt(),
                    json.path("failed").asBoolean(),
                    json.path("error").isNull() ? null : json.path("error").asText());
        } catch (IOException e) {
            throw new IllegalStateException("LangGraph.js could not run: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static void check(Outcome outcome, int n, String what) {
        if (outcome.failed() || outcome.answered() != n) {
            throw new IllegalStateException(what + " failed: " + outcome.error());
        }
    }

    /** A second between runs against the 429 service, so that one run's refused calls cannot meet the next. */
    private static void pause() {
        try {
            Thread.sleep(1_100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void row(String what, List<Double> walls, double reference) {
        System.out.printf(Locale.ROOT, "   %-48s %8.0f ms  %6.2fx%n", what, median(walls), median(walls) / reference);
    }

    private static void row(String what, List<Double> walls, double reference, int failed, double refusedPerRun) {
        System.out.printf(
                Locale.ROOT,
                "   %-48s %8.0f ms  %6.2fx  failed %d of %d%s%n",
                what,
                median(walls),
                median(walls) / reference,
                failed,
                walls.size(),
                refusedPerRun < 0 ? "" : String.format(Locale.ROOT, ", %.0f refusals per run", refusedPerRun));
    }

    private static ArrayNode list(int n) {
        ArrayNode list = JsonNodeFactory.instance.arrayNode();
        for (int i = 0; i < n; i++) {
            list.add(i);
        }
        return list;
    }

    private static double median(List<Double> values) {
        double[] sorted =
                values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return sorted.length == 0 ? 0 : sorted[sorted.length / 2];
    }

    private static int option(String[] args, String name, int fallback) {
        String value = value(args, name, null);
        return value == null ? fallback : Integer.parseInt(value);
    }

    private static String value(String[] args, String name, String fallback) {
        for (int i = 0; i < args.length - 1; i++) {
            if (args[i].equals(name)) {
                return args[i + 1];
            }
        }
        return fallback;
    }

    private static boolean flag(String[] args, String name) {
        for (String arg : args) {
            if (arg.equals(name)) {
                return true;
            }
        }
        return false;
    }

    private AdaptiveConcurrencyBench() {}
}
