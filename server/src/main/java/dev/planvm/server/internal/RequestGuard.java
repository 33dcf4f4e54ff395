package dev.planvm.server.internal;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.HttpURI;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * What both servers ({@code planvm serve} and {@code planvm mcp} on HTTP) check before anything else, so a
 * web page in a browser on this machine cannot use them (loopback is no boundary against a browser):
 * <ol>
 *   <li>the request names this server: its {@code Host} is one of {@link AllowedHosts} (a DNS-rebound name
 *       is not) — else 403;</li>
 *   <li>a request that carries an {@code Origin} (a browser's fetch, form or event stream from a page) comes
 *       from this server's own origin (a page it served: the run browser) or an allowed origin (none unless
 *       configured) — else 403; an allowed origin gets CORS answers (its preflight too), nothing else ever does;</li>
 *   <li>a {@code POST} carries JSON ({@code Content-Type: application/json}, UTF-8) — else 415, so a
 *       "simple" request (a form, {@code text/plain}, a beacon) never starts anything.</li>
 * </ol>
 * A refusal is a JSON error {@code {"error", "message", "details"}}.
 */
public final class RequestGuard extends Handler.Wrapper {

    private static final Pattern ORIGIN = Pattern.compile("https?://[a-z0-9.\\-\\[\\]:]+");
    private static final int SHOWN = 120;

    private final AllowedHosts hosts;
    private final Set<String> origins;
    private final String methods;
    private final String headers;
    private final String exposed;

    /**
     * @param origins the allowed origins ({@code scheme://host[:port]}), see {@link #origins}
     * @param methods what an allowed origin's preflight is told it may use ({@code GET, POST})
     * @param headers the request headers it may send
     * @param exposed the answer headers it may read
     */
    public RequestGuard(
            AllowedHosts hosts, Set<String> origins, String methods, String headers, String exposed, Handler handler) {
        super(handler);
        this.hosts = hosts;
        this.origins = Set.copyOf(origins);
        this.methods = methods;
        this.headers = headers;
        this.exposed = exposed;
    }

    /**
     * The allowed origins, normalized ({@code --allow-origin} values).
     *
     * @throws IllegalArgumentException for a value that is not {@code http(s)://host[:port]}
     */
    public static Set<String> origins(List<String> values) {
        Set<String> origins = new LinkedHashSet<>();
        for (String value : values) {
            String origin = value.strip().toLowerCase(Locale.ROOT);
            if (origin.endsWith("/")) {
                origin = origin.substring(0, origin.length() - 1);
            }
            if (!ORIGIN.matcher(origin).matches()) {
                throw new IllegalArgumentException("--allow-origin " + value
                        + ": give a web origin, scheme://host[:port] (e.g. http://localhost:3000), without a path");
            }
            origins.add(origin);
        }
        return origins;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        HttpURI uri = request.getHttpURI();
        int port = Request.getLocalPort(request);
        if (!hosts.allows(uri.getHost(), uri.getPort(), port)) {
            String named = uri.getHost() == null ? "nothing" : "'" + shown(uri.getAuthority()) + "'";
            return refuse(
                    response,
                    callback,
                    403,
                    "forbidden",
                    "the request's Host names " + named + ", not this server (" + hosts.describe(port)
                            + "); a request through another name is refused (DNS rebinding): allow a name with --allow-host");
        }
        String origin = request.getHeaders().get(HttpHeader.ORIGIN);
        if (origin != null && sameOrigin(origin, uri.getAuthority())) {
            origin = null; // a page this server served (the run browser): no CORS answers needed
        }
        if (origin != null) {
            if (!origins.contains(origin.strip().toLowerCase(Locale.ROOT))) {
                return refuse(
                        response,
                        callback,
                        403,
                        "forbidden",
                        "requests from web pages are refused, and this one comes from '" + shown(origin)
                                + "': allow an origin with --allow-origin");
            }
            response.getHeaders().put(HttpHeader.ACCESS_CONTROL_ALLOW_ORIGIN, origin.strip());
            response.getHeaders().add(HttpHeader.VARY, "Origin");
            if (request.getMethod().equals(HttpMethod.OPTIONS.asString())
                    && request.getHeaders().get(HttpHeader.ACCESS_CONTROL_REQUEST_METHOD) != null) {
                response.getHeaders().put(HttpHeader.ACCESS_CONTROL_ALLOW_METHODS, methods);
                response.getHeaders().put(HttpHeader.ACCESS_CONTROL_ALLOW_HEADERS, headers);
                response.getHeaders().put(HttpHeader.ACCESS_CONTROL_MAX_AGE, "600");
                response.setStatus(204);
                callback.succeeded();
                return true;
            }
            response.getHeaders().put(HttpHeader.ACCESS_CONTROL_EXPOSE_HEADERS, exposed);
        }
        if (request.getMethod().equals(HttpMethod.POST.asString())) {
            String type = request.getHeaders().get(HttpHeader.CONTENT_TYPE);
            if (!isJson(type)) {
                return refuse(
                        response,
                        callback,
                        415,
                        "unsupported_media_type",
                        "a POST carries JSON: send Content-Type: application/json"
                                + (type == null ? " (this one has no Content-Type)" : ", not '" + shown(type) + "'"));
            }
        }
        return super.handle(request, response, callback);
    }

    /**
     * Whether {@code origin} is this server's own: {@code http(s)://} and exactly the authority the request's
     * {@code Host} names (already checked to name this server, so a DNS-rebound name never gets here). A browser
     * sends {@code Origin} on a same-origin POST; the run browser's pages use the API that way.
     */
    static boolean sameOrigin(String origin, String authority) {
        if (authority == null || authority.isEmpty()) {
            return false;
        }
        String value = origin.strip().toLowerCase(Locale.ROOT);
        String own = authority.toLowerCase(Locale.ROOT);
        return value.equals("http://" + own) || value.equals("https://" + own);
    }

    /** {@code application/json}, with no parameter but a UTF-8 charset. */
    static boolean isJson(String contentType) {
        if (contentType == null) {
            return false;
        }
        String[] parts = contentType.split(";");
        if (!parts[0].strip().equalsIgnoreCase("application/json")) {
            return false;
        }
        for (int i = 1; i < parts.length; i++) {
            String parameter = parts[i].strip().toLowerCase(Locale.ROOT).replace("\"", "");
            if (!parameter.isEmpty() && !parameter.equals("charset=utf-8")) {
                return false;
            }
        }
        return true;
    }

    private static boolean refuse(Response response, Callback callback, int status, String code, String message) {
        ObjectNode body =
                JsonNodeFactory.instance.objectNode().put("error", code).put("message", message);
        body.putObject("details");
        response.setStatus(status);
        response.getHeaders().remove(HttpHeader.ACCESS_CONTROL_ALLOW_ORIGIN);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
        response.getHeaders().put("X-Content-Type-Options", "nosniff");
        Content.Sink.write(response, true, Json.write(body) + "\n", callback);
        return true;
    }

    private static String shown(String text) {
        String value = text == null ? "" : text;
        return value.length() <= SHOWN ? value : value.substring(0, SHOWN) + "...";
    }
}
