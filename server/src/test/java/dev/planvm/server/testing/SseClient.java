package dev.planvm.server.testing;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** A server-sent events client on the JDK's HTTP client: reads events until told to stop, then disconnects. */
public final class SseClient {

    /** One event as received. */
    public record Event(long id, String type, JsonNode data) {}

    private SseClient() {}

    /**
     * Reads the stream of {@code request} until it ends or {@code max} events arrived, then closes the
     * connection. {@code lastEventId} (may be null) is sent as {@code Last-Event-ID}.
     */
    public static List<Event> read(HttpClient client, HttpRequest.Builder request, String lastEventId, int max)
            throws IOException, InterruptedException {
        if (lastEventId != null) {
            request.header("Last-Event-ID", lastEventId);
        }
        HttpResponse<InputStream> response = client.send(
                request.header("Accept", "text/event-stream").GET().build(), HttpResponse.BodyHandlers.ofInputStream());
        List<Event> events = new ArrayList<>();
        if (response.statusCode() != 200) {
            throw new IOException("the event stream answered " + response.statusCode() + ": "
                    + new String(response.body().readAllBytes(), StandardCharsets.UTF_8));
        }
        try (InputStream body = response.body();
                BufferedReader lines = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8))) {
            Long id = null;
            String type = null;
            StringBuilder data = new StringBuilder();
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                if (line.isEmpty()) {
                    if (id != null) {
                        events.add(new Event(id, type, ServerFixture.JSON.readTree(data.toString())));
                        if (events.size() >= max) {
                            return events; // closing the stream disconnects
                        }
                    }
                    id = null;
                    type = null;
                    data.setLength(0);
                } else if (line.startsWith("id: ")) {
                    id = Long.parseLong(line.substring(4));
                } else if (line.startsWith("event: ")) {
                    type = line.substring(7);
                } else if (line.startsWith("data: ")) {
                    data.append(line.substring(6));
                }
            }
        }
        return events;
    }
}
