package dev.planvm.server.http;

import dev.planvm.server.EventFeed;
import dev.planvm.server.RunEvent;
import dev.planvm.server.internal.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * Server-sent events by hand ({@code text/event-stream}): each event as {@code id}, {@code event} and one
 * {@code data} line of compact JSON; a comment every 15 s while nothing happens, so a dead client is
 * noticed; the stream ends when the run can produce no more events (or the server stops).
 */
final class EventStream {

    static final long KEEP_ALIVE_MILLIS = 15_000;

    private EventStream() {}

    /** Streams the events after {@code after} until the run ends; a client that goes away just ends it. */
    static Response serve(Request request, EventFeed feed, long after, BooleanSupplier stopping) {
        OutputStream out = request.stream(
                200,
                Map.of(
                        "Content-Type", "text/event-stream; charset=utf-8",
                        "Cache-Control", "no-cache",
                        "X-Accel-Buffering", "no",
                        "X-Content-Type-Options", "nosniff"));
        long last = after;
        try {
            write(out, "retry: 2000\n\n");
            while (!stopping.getAsBoolean()) {
                List<RunEvent> events = feed.next(last, KEEP_ALIVE_MILLIS);
                for (RunEvent event : events) {
                    write(
                            out,
                            "id: " + event.id() + "\nevent: " + event.type() + "\ndata: " + Json.write(event.data())
                                    + "\n\n");
                    last = event.id();
                }
                if (events.isEmpty()) {
                    if (feed.finished(last)) {
                        break;
                    }
                    write(out, ": keep-alive\n\n");
                } else if (feed.finished(last)) {
                    break;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException clientGone) {
            // the client disconnected; it resumes with Last-Event-ID
        }
        try {
            out.close();
        } catch (IOException ignored) {
            // already gone
        }
        return new Response.Streamed(200);
    }

    private static void write(OutputStream out, String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }
}
