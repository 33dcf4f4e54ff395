package dev.planvm.temporal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.temporal.client.WorkflowClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/** A workflow's history as text, with every payload decoded, so a test can search all it holds. */
final class Histories {

    private Histories() {}

    static String json(WorkflowClient client, String workflowId) {
        return client.fetchHistory(workflowId).toJson(true);
    }

    /** The history's JSON followed by the decoded data of every payload in it. */
    static String everything(WorkflowClient client, String workflowId) {
        String json = json(client, workflowId);
        StringBuilder all = new StringBuilder(json);
        try {
            for (JsonNode data : new ObjectMapper().readTree(json).findValues("data")) {
                if (data.isTextual()) {
                    all.append('\n')
                            .append(new String(Base64.getDecoder().decode(data.asText()), StandardCharsets.UTF_8));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return all.toString();
    }
}
