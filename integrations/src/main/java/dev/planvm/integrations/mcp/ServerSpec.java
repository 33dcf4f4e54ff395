package dev.planvm.integrations.mcp;

import dev.planvm.integrations.internal.Template;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One entry of {@code mcpServers}, parsed.
 *
 * @param timeout      the longest one call may take, or null when the run decides
 * @param retries      retries after the first attempt, or null when the run decides
 * @param startTimeout the longest start-up and {@code initialize} may take
 */
record ServerSpec(String name, Transport transport, Duration timeout, Integer retries, Duration startTimeout) {

    ServerSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(transport, "transport");
    }

    /** How planvm reaches the server. */
    sealed interface Transport permits Stdio, Http {}

    /** A child process: {@code command} with {@code args}, extra {@code env}, run in {@code directory}. */
    record Stdio(String command, List<String> args, Map<String, Template> env, Path directory) implements Transport {
        Stdio {
            args = List.copyOf(args);
            env = Map.copyOf(env);
        }
    }

    /** Streamable HTTP at {@code url}, with {@code headers} on every request. */
    record Http(String url, Map<String, Template> headers) implements Transport {
        Http {
            headers = Map.copyOf(headers);
        }
    }
}
