package dev.planvm.server.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.server.ContinueRequest;
import dev.planvm.server.PlanService;
import dev.planvm.server.RunRequest;
import dev.planvm.server.ServiceException;
import dev.planvm.server.internal.UiAssets;
import dev.planvm.server.report.HtmlReport;
import dev.planvm.server.report.Reports;
import dev.planvm.vm.durable.ElementRows;
import dev.planvm.vm.durable.StoredRun;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The routes of the HTTP API, versioned under {@code /v1} (described by {@code GET /openapi.json}): each
 * reads its request, calls the {@link PlanService}, and answers JSON. One entry method: {@link #handle}.
 */
final class Api {

    private static final Pattern RUN = Pattern.compile(
            "/v1/runs/([A-Za-z0-9]{1,64})(?:/(events|resume|rerun|cancel|approve|input|trace|cassette|report))?");
    private static final Pattern REPORT = Pattern.compile("/runs/([A-Za-z0-9]{1,64})");
    private static final Pattern ASSET = Pattern.compile("/ui/([a-z][a-z0-9-]{0,40}\\.(?:js|css|svg))");
    /** The run browser's pages: their own scripts and styles only, data only from this server's API. */
    private static final String BROWSER_CSP = "default-src 'none'; script-src 'self'; style-src 'self'; "
            + "connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final PlanService service;
    private final ServerSettings settings;
    private final BooleanSupplier stopping;
    private final String openApi;

    Api(PlanService service, ServerSettings settings, BooleanSupplier stopping) {
        this.service = service;
        this.settings = settings;
        this.stopping = stopping;
        this.openApi = resource("openapi.json");
    }

    /** Whether {@code path} is an event stream (long-lived; limited separately). */
    static boolean isEventStream(String path) {
        Matcher run = RUN.matcher(path);
        return run.matches() && "events".equals(run.group(2));
    }

    Response handle(Request request) throws IOException {
        String path = request.path();
        switch (path) {
            case "/":
                return browser(request, "index.html");
            case "/healthz":
                only(request, "GET");
                return new Response.Json(200, JSON.objectNode().put("status", "ok"));
            case "/metrics":
                only(request, "GET");
                return new Response.Text(200, "text/plain; version=0.0.4; charset=utf-8", service.metricsText());
            case "/openapi.json":
                only(request, "GET");
                return new Response.Text(200, "application/json", openApi);
            case "/v1/validate":
                only(request, "POST");
                return new Response.Json(200, service.validate(request.json(false)));
            case "/v1/runs":
                if (request.method().equals("GET")) {
                    return new Response.Json(
                            200,
                            service.list(
                                    request.query("state"),
                                    request.query("q"),
                                    request.number("limit", 50, 1, 500),
                                    request.number("offset", 0, 0, Integer.MAX_VALUE)));
                }
                only(request, "GET, POST");
                return started(request, service.start(RunRequest.fromJson(request.json(false))));
            case "/v1/tools":
                only(request, "GET");
                return new Response.Json(200, service.tools());
            case "/v1/schema":
                only(request, "GET");
                return new Response.Json(200, service.schema());
            default:
                return byId(request, path);
        }
    }

    /** Whether {@code path} is a file of the run browser (no data: served without the token). */
    static boolean isBrowserFile(String path) {
        return path.equals("/") || ASSET.matcher(path).matches();
    }

    /** A file of the run browser ({@code GET /}, {@code GET /ui/NAME}) from the jar, with its CSP. */
    private static Response browser(Request request, String name) {
        only(request, "GET");
        String text = UiAssets.find(name)
                .orElseThrow(() -> new ServiceException(ServiceException.Kind.NOT_FOUND, "no such file: /ui/" + name));
        return new Response.Text(
                200,
                UiAssets.contentType(name),
                text,
                Map.of(
                        "Content-Security-Policy", BROWSER_CSP,
                        "X-Frame-Options", "DENY",
                        "Referrer-Policy", "no-referrer",
                        "Cache-Control", "no-cache"));
    }

    /** What the run browser reads of a run: its report model, its trace, a cassette of its calls. */
    private Response view(Request request, String id, String action) {
        only(request, "GET");
        return switch (action) {
            case "report" -> new Response.Json(200, service.report(id));
            case "trace" -> download(service.trace(id), "planvm-trace-" + id + ".json");
            default -> download(service.cassette(id), "planvm-cassette-" + id + ".json");
        };
    }

    private static Response download(JsonNode document, String file) {
        return new Response.Json(200, document, Map.of("Content-Disposition", "attachment; filename=\"" + file + "\""));
    }

    private Response byId(Request request, String path) throws IOException {
        Matcher asset = ASSET.matcher(path);
        if (asset.matches()) {
            return browser(request, asset.group(1));
        }
        Matcher report = REPORT.matcher(path);
        if (report.matches()) {
            only(request, "GET");
            StoredRun run = service.storedRun(report.group(1));
            return new Response.Text(
                    200,
                    "text/html; charset=utf-8",
                    HtmlReport.render(Reports.of(run, service.lineage(run)), service.childReports(run)));
        }
        Matcher run = RUN.matcher(path);
        if (!run.matches()) {
            throw new ServiceException(
                    ServiceException.Kind.NOT_FOUND,
                    "no such path: " + request.method() + " " + path + " (GET /openapi.json describes the API)");
        }
        String id = run.group(1);
        String action = run.group(2);
        if (action == null) {
            only(request, "GET");
            return new Response.Json(
                    200,
                    service.run(
                            id,
                            request.number("max_elements", ElementRows.DEFAULT_MAX, 0, PlanService.MAX_ELEMENT_ROWS)));
        }
        if (action.equals("events")) {
            only(request, "GET");
            return EventStream.serve(request, service.events(id), after(request), stopping);
        }
        if (action.equals("report") || action.equals("trace") || action.equals("cassette")) {
            return view(request, id, action);
        }
        only(request, "POST");
        JsonNode body = request.json(true);
        return switch (action) {
            case "resume" -> started(request, service.resume(id, ContinueRequest.fromJson(body)));
            case "approve" -> started(request, service.approve(id, ContinueRequest.fromJson(body)));
            case "input" -> started(request, service.answer(id, body));
            case "rerun" -> started(request, service.rerun(id, ContinueRequest.fromJson(body)));
            default ->
                new Response.Json(
                        202, service.cancel(id, ContinueRequest.fromJson(body).reason()));
        };
    }

    /** 200 with the outcome when the run ended within {@code ?wait=true&timeout=S}, else 202 and where to look. */
    private Response started(Request request, PlanService.Submitted submitted) {
        Map<String, String> location = Map.of("Location", "/v1/runs/" + submitted.id());
        if (!request.flag("wait")) {
            return new Response.Json(202, service.accepted(submitted), location);
        }
        int longest = (int) Math.max(1, settings.maxWait().toSeconds());
        int timeout = request.number("timeout", Math.min(60, longest), 1, longest);
        ObjectNode answer = service.await(submitted, Duration.ofSeconds(timeout), request.flag("trace"));
        return new Response.Json(submitted.done().isDone() ? 200 : 202, answer, location);
    }

    /** Where an event stream resumes: {@code Last-Event-ID}, else {@code ?after=N}, else the start. */
    private static long after(Request request) {
        String last = request.header("Last-Event-ID");
        String value = last != null && !last.isBlank() ? last.strip() : request.query("after");
        if (value == null || value.isEmpty()) {
            return -1;
        }
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new ServiceException(
                    ServiceException.Kind.BAD_REQUEST,
                    "Last-Event-ID must be an event id (a number), not '" + value + "'");
        }
    }

    private static void only(Request request, String allowed) {
        for (String method : allowed.split(", ")) {
            if (method.equals(request.method())) {
                return;
            }
        }
        throw new ServiceException(
                ServiceException.Kind.METHOD_NOT_ALLOWED,
                request.method() + " is not allowed on " + request.path() + "; use " + allowed,
                JSON.objectNode().put("allow", allowed));
    }

    private static String resource(String name) {
        try (InputStream in = Api.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read resource " + name, e);
        }
    }
}
