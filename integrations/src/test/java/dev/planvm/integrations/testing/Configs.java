package dev.planvm.integrations.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.integrations.http.HttpToolProvider;
import dev.planvm.integrations.mcp.McpToolProvider;
import dev.planvm.integrations.openapi.OpenApiToolProvider;
import dev.planvm.tools.ToolProvider;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Builds tools configurations for the tests. */
public final class Configs {

    public static final ObjectMapper JSON = new ObjectMapper();

    private Configs() {}

    /** The providers of this module. */
    public static List<ToolProvider> providers() {
        return List.of(new McpToolProvider(), new HttpToolProvider(), new OpenApiToolProvider());
    }

    /** A stdio server entry that runs {@link TestMcpServer} in a new JVM with these options. */
    public static ObjectNode stdioServer(String... options) {
        ObjectNode server = JSON.createObjectNode();
        server.put(
                "command",
                Path.of(System.getProperty("java.home"), "bin", "java").toString());
        ArrayNode args = server.putArray("args");
        args.add("-Xshare:auto")
                .add("-XX:TieredStopAtLevel=1")
                .add("-cp")
                .add(System.getProperty("java.class.path"))
                .add(TestMcpServer.class.getName());
        for (String option : options) {
            args.add(option);
        }
        return server;
    }

    /** Writes {@code config} as planvm.json in {@code dir}. */
    public static Path write(Path dir, ObjectNode config) throws IOException {
        Path file = dir.resolve("planvm.json");
        Files.writeString(file, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(config));
        return file;
    }
}
