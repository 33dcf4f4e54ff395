package dev.planvm.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.planvm.json.JsonLimits;
import dev.planvm.json.JsonMappers;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;

/**
 * What an earlier run of a batch already wrote ({@code --resume-from OUT}): the plans that have a
 * line there, and their statuses. A last line without its newline (the earlier run was killed while
 * writing it) is cut off the file, so new lines append cleanly; any other line that is not a batch
 * line is an error with its line number.
 */
record BatchResume(Map<String, String> statusByFile) {

    private static final ObjectMapper JSON = JsonMappers.mapper(JsonLimits.STORE);

    /** No earlier output: nothing is skipped. */
    static BatchResume none() {
        return new BatchResume(Map.of());
    }

    /** Reads {@code out} (a missing file: nothing done yet) line by line, and cuts off an unfinished last line. */
    static BatchResume read(Path out) throws IOException {
        if (!Files.exists(out)) {
            return none();
        }
        cutUnfinishedLine(out);
        Map<String, String> done = new HashMap<>();
        try (BufferedReader reader = Files.newBufferedReader(out, StandardCharsets.UTF_8)) {
            int number = 0;
            for (String text = reader.readLine(); text != null; text = reader.readLine()) {
                number++;
                if (text.isBlank()) {
                    continue;
                }
                JsonNode line;
                try {
                    line = JSON.readTree(text);
                } catch (IOException e) {
                    throw new IOException(out + ": line " + number + " is not JSON, so this is not a batch's output");
                }
                if (!line.path("file").isTextual() || !line.path("status").isTextual()) {
                    throw new IOException(out + ": line " + number
                            + " has no \"file\" and \"status\", so this is not a batch's output");
                }
                // a plan that succeeded past failed steps (--keep-going) counts as not clean, as in the batch that
                // wrote it
                done.put(
                        line.path("file").asText(),
                        line.path("failed_steps").isEmpty()
                                ? line.path("status").asText()
                                : "succeeded_past_failed_steps");
            }
        }
        return new BatchResume(Map.copyOf(done));
    }

    /** Truncates {@code out} after its last newline (what follows was cut off mid-write). */
    private static void cutUnfinishedLine(Path out) throws IOException {
        try (FileChannel channel = FileChannel.open(out, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            long end = channel.size();
            ByteBuffer one = ByteBuffer.allocate(1);
            while (end > 0) {
                one.clear();
                channel.read(one, end - 1);
                if (one.get(0) == '\n') {
                    break;
                }
                end--;
            }
            if (end < channel.size()) {
                channel.truncate(end);
            }
        }
    }

    boolean done(String file) {
        return statusByFile.containsKey(file);
    }

    /** How many plans the earlier output holds that did not succeed (or succeeded past failed steps). */
    long notSucceeded() {
        return statusByFile.values().stream()
                .filter(status -> !status.equals("succeeded"))
                .count();
    }
}
