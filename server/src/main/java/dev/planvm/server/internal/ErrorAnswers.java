package dev.planvm.server.internal;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Locale;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * The answers Jetty itself makes (a request it cannot parse, a header too large, an error a handler threw
 * or a servlet sent), in the shape of every planvm error: {@code {"error", "message", "details"}}, the
 * status's own words only — never an exception's text, a stack trace or the server's version.
 */
public final class ErrorAnswers extends ErrorHandler {

    public ErrorAnswers() {
        setShowStacks(false);
        setShowCauses(false);
        setShowOrigin(false);
    }

    /** The body for {@code status}: {@code {"error": "bad_request", "message": "Bad Request", "details": {}}}. */
    public static String body(int status) {
        String reason = HttpStatus.getMessage(status);
        ObjectNode body = JsonNodeFactory.instance
                .objectNode()
                .put("error", reason.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "_"))
                .put("message", reason);
        body.putObject("details");
        return Json.write(body) + "\n";
    }

    @Override
    protected void generateResponse(
            Request request, Response response, int code, String message, Throwable cause, Callback callback) {
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
        response.getHeaders().put("X-Content-Type-Options", "nosniff");
        Content.Sink.write(response, true, body(code), callback);
    }
}
