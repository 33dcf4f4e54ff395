package dev.planvm.server.mcp;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import io.modelcontextprotocol.spec.McpError;
import java.io.IOException;

/**
 * How an exception is written as JSON by the MCP SDK's mapper. The SDK's Streamable HTTP transport answers a
 * refused request by serializing its {@link McpError} itself, which plain Jackson writes with its whole stack
 * trace; here any exception is written as the JSON-RPC error answer it stands for, {@code {"jsonrpc": "2.0",
 * "id": null, "error": {"code", "message"}}}: the SDK's sentence (its first line, without Jackson's type
 * names), never a stack trace.
 */
final class ErrorJson extends StdSerializer<Throwable> {
    private static final long serialVersionUID = 1L;

    private static final int INTERNAL_ERROR = -32603;

    private ErrorJson() {
        super(Throwable.class);
    }

    /** {@code mapper}, writing exceptions this way. */
    static ObjectMapper install(ObjectMapper mapper) {
        return mapper.registerModule(new SimpleModule("planvm-mcp-errors").addSerializer(new ErrorJson()));
    }

    @Override
    public void serialize(Throwable error, JsonGenerator json, SerializerProvider provider) throws IOException {
        int code = INTERNAL_ERROR;
        String message = "Internal error";
        if (error instanceof McpError mcp && mcp.getJsonRpcError() != null) {
            code = mcp.getJsonRpcError().code() == null
                    ? INTERNAL_ERROR
                    : mcp.getJsonRpcError().code();
            message = sentence(mcp.getJsonRpcError().message());
        }
        json.writeStartObject();
        json.writeStringField("jsonrpc", "2.0");
        json.writeNullField("id");
        json.writeObjectFieldStart("error");
        json.writeNumberField("code", code);
        json.writeStringField("message", message);
        json.writeEndObject();
        json.writeEndObject();
    }

    /** The first line of {@code message}, cut before Jackson's account of Java types ({@code Cannot construct ...}). */
    static String sentence(String message) {
        if (message == null || message.isBlank()) {
            return "Error";
        }
        String line = message.lines().findFirst().orElse("").strip();
        int java = line.indexOf('`');
        int colon = line.lastIndexOf(':', java < 0 ? 0 : java);
        if (java >= 0) {
            line = colon > 0 ? line.substring(0, colon) : "Invalid message format";
        }
        return line.length() > 200 ? line.substring(0, 200) + "..." : line;
    }
}
