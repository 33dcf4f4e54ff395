package dev.planvm.server.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.server.PlanService;
import dev.planvm.server.ServiceSettings;
import dev.planvm.server.http.PlanServer;
import dev.planvm.server.http.ServerSettings;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolException;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.PlanVmBuilder;
import dev.planvm.vm.durable.RunStore;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real planvm server on 127.0.0.1 (an ephemeral port) over a real run store, with in-process tools, and
 * a real JDK HTTP client. Tools: {@code echo} (answers its params), {@code slow} (waits params.ms),
 * {@code gate} (waits until {@link #open()}), {@code flaky} (fails retriably params.failures times, then
 * answers), {@code send_mail} (side effects; counts its calls).
 */
public final class ServerFixture implements AutoCloseable {

    public static final ObjectMapper JSON = new ObjectMapper();

    public final Path store;
    public final RunStore runStore;
    public final PlanVm vm;
    public final PlanService service;
    public final PlanServer server;
    public final HttpClient client =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    public final AtomicInteger mails = new AtomicInteger();
    public final AtomicInteger echoes = new AtomicInteger();
    private static final Map<String, AtomicInteger> FLAKY = new ConcurrentHashMap<>();
    private volatile CountDownLatch gate = new CountDownLatch(1);
    public final CountDownLatch gateReached = new CountDownLatch(1);
    private final String token;

    public ServerFixture(Path store, ServiceSettings service, ServerSettings server) throws IOException {
        this(store, service, server, builder -> builder);
    }

    public ServerFixture(
            Path store,
            ServiceSettings serviceSettings,
            ServerSettings serverSettings,
            java.util.function.UnaryOperator<PlanVmBuilder> configure)
            throws IOException {
        this.store = store;
        this.vm = configure
                .apply(tools(PlanVm.builder()
                        .retryPolicy(
                                dev.planvm.tools.call.RetryPolicy.DEFAULT.withInitialBackoff(Duration.ofMillis(5)))))
                .build();
        this.runStore = RunStore.open(
                store, vm.redactor(), RunStore.Settings.DEFAULT.withDurability(RunStore.Durability.PROCESS));
        this.service = new PlanService(vm, runStore, serviceSettings);
        this.server =
                PlanServer.start(service, serverSettings.toBuilder().port(0).build());
        this.token = serverSettings.token();
    }

    public static ServerFixture start(Path dir) throws IOException {
        return new ServerFixture(dir.resolve("runs.db"), ServiceSettings.DEFAULT, ServerSettings.DEFAULT);
    }

    private PlanVmBuilder tools(PlanVmBuilder builder) {
        return builder.tool(Tool.of("echo", "Answers its params.", (p, c) -> {
                    echoes.incrementAndGet();
                    return p;
                }))
                .tool(Tool.of("slow", "Waits params.ms, then answers params.value.", (p, c) -> {
                    sleep(p.path("ms").asLong(10));
                    return p.path("value");
                }))
                .tool(Tool.of("gate", "Waits until the test opens the gate.", (p, c) -> {
                    gateReached.countDown();
                    try {
                        if (!gate.await(20, TimeUnit.SECONDS)) {
                            throw ToolException.permanent("the gate never opened");
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw ToolException.permanent("interrupted at the gate");
                    }
                    return TextNode.valueOf("through");
                }))
                .tool(Tool.of("flaky", "Fails params.failures times (retriable), then answers.", (p, c) -> {
                    AtomicInteger seen = FLAKY.computeIfAbsent(p.path("key").asText(), k -> new AtomicInteger());
                    if (seen.incrementAndGet() <= p.path("failures").asInt()) {
                        throw ToolException.transientFailure("flaky failure " + seen.get(), null);
                    }
                    return TextNode.valueOf("ok after " + (seen.get() - 1) + " failures");
                }))
                .tool(new Tool() {
                    @Override
                    public String name() {
                        return "send_mail";
                    }

                    @Override
                    public JsonNode invoke(JsonNode params, dev.planvm.tools.CallContext context) {
                        mails.incrementAndGet();
                        return TextNode.valueOf("sent to " + params.path("to").asText());
                    }

                    @Override
                    public boolean hasSideEffects() {
                        return true;
                    }
                });
    }

    /** Lets every call waiting at the gate through. */
    public void open() {
        gate.countDown();
    }

    public String url(String path) {
        return server.url() + path;
    }

    /** An answer: status, headers and the body parsed as JSON when it is JSON. */
    public record Answer(int status, HttpResponse<String> response, JsonNode json) {
        public String header(String name) {
            return response.headers().firstValue(name).orElse(null);
        }
    }

    public Answer get(String path) throws IOException, InterruptedException {
        return send(request(path).GET().build());
    }

    public Answer post(String path, String body) throws IOException, InterruptedException {
        return send(request(path)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build());
    }

    public HttpRequest.Builder request(String path) {
        HttpRequest.Builder builder =
                HttpRequest.newBuilder(URI.create(url(path))).timeout(Duration.ofSeconds(30));
        return token == null ? builder : builder.header("Authorization", "Bearer " + token);
    }

    public Answer send(HttpRequest request) throws IOException, InterruptedException {
        HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
        JsonNode json = null;
        if (response.headers().firstValue("Content-Type").orElse("").startsWith("application/json")) {
            json = JSON.readTree(response.body());
        }
        return new Answer(response.statusCode(), response, json);
    }

    /** The JSON of a run request for {@code plan} (a JSON array text) with extra fields ({@code "k": v, ...}). */
    public static String runBody(String plan, String extra) {
        return "{\"plan\": " + plan + (extra.isEmpty() ? "" : ", " + extra) + "}";
    }

    public static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        open();
        server.stop(Duration.ofSeconds(5));
        runStore.close();
    }
}
