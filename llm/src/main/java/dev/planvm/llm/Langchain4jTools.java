package dev.planvm.llm;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolMemoryId;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.agent.tool.ToolSpecifications;
import dev.langchain4j.exception.ToolArgumentsException;
import dev.langchain4j.exception.ToolExecutionException;
import dev.langchain4j.internal.JsonSchemaElementUtils;
import dev.langchain4j.invocation.InvocationContext;
import dev.langchain4j.invocation.InvocationParameters;
import dev.langchain4j.service.tool.DefaultToolExecutor;
import dev.langchain4j.service.tool.ToolExecutionResult;
import dev.planvm.json.JsonLimits;
import dev.planvm.json.JsonMappers;
import dev.planvm.json.JsonValues;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The langchain4j {@code @Tool} methods of an object as planvm tools ({@code
 * PlanVm.builder().toolsFrom(object)} uses this). Each method is one tool:
 *
 * <ul>
 *   <li>name, description and params schema are langchain4j's own ({@link ToolSpecifications}): the
 *       name is {@code @Tool(name = ..)} or the method's name, the schema the one an LLM would see;
 *   <li>the params are converted to the method's argument types by langchain4j's {@link
 *       DefaultToolExecutor} (numbers, enums, lists, records and POJOs);
 *   <li>the output is the return value as JSON: a record, POJO, list or number as langchain4j
 *       serializes it; a {@code String} that holds a JSON object or array as that JSON, any other
 *       {@code String} as text; {@code void} and {@code null} as JSON {@code null};
 *   <li>an exception thrown by the method fails the call with its message; an {@link IOException}
 *       (or {@link UncheckedIOException}) may be retried, anything else is not.
 * </ul>
 *
 * <p>One object serves every run, and calls of independent steps may overlap: its methods must be
 * thread-safe.
 */
public final class Langchain4jTools {
    private static final ObjectMapper JSON = JsonMappers.mapper(JsonLimits.STORE);

    private Langchain4jTools() {}

    /**
     * The {@code @Tool} methods of {@code toolObject} (declared by its class), one tool each.
     *
     * @throws IllegalArgumentException when it has none, one has no argument names (compiled without {@code
     *     -parameters} and no {@code @P(name = ...)}), or langchain4j refuses them (two with one name)
     */
    public static List<Tool> from(Object toolObject) {
        Objects.requireNonNull(toolObject, "toolObject");
        List<Tool> tools = new ArrayList<>();
        List<ToolSpecification> specifications = new ArrayList<>();
        for (Method method : toolObject.getClass().getDeclaredMethods()) {
            if (method.isAnnotationPresent(dev.langchain4j.agent.tool.Tool.class)) {
                requireParameterNames(method);
                ToolSpecification specification = ToolSpecifications.toolSpecificationFrom(method);
                specifications.add(specification);
                tools.add(new MethodTool(toolObject, method, specification));
            }
        }
        if (tools.isEmpty()) {
            throw new IllegalArgumentException(
                    "no @Tool methods in " + toolObject.getClass().getName());
        }
        ToolSpecifications.validateSpecifications(specifications);
        return List.copyOf(tools);
    }

    /**
     * Refuses a method whose arguments would reach the plan as {@code arg0}, {@code arg1}: its class was compiled
     * without {@code -parameters} and an argument has no {@code @P(name = ...)}. Found when the object is
     * registered, not when a plan's call fails with {@code required property 'arg0' not found}.
     */
    private static void requireParameterNames(Method method) {
        for (Parameter parameter : method.getParameters()) {
            P described = parameter.getAnnotation(P.class);
            boolean named = parameter.isNamePresent()
                    || (described != null && !described.name().isEmpty());
            if (!named && !passedByLangchain4j(parameter)) {
                throw new IllegalArgumentException("@Tool method "
                        + method.getDeclaringClass().getSimpleName() + "."
                        + method.getName() + " has no argument names in its class file (a plan would have to call"
                        + " them " + parameter.getName() + ", ...): compile it with -parameters (Maven:"
                        + " <maven.compiler.parameters>true</maven.compiler.parameters>; Gradle:"
                        + " options.compilerArgs << '-parameters') or name each argument with @P(name = \"...\")");
            }
        }
    }

    /** Arguments langchain4j fills itself, which are no params of the tool. */
    private static boolean passedByLangchain4j(Parameter parameter) {
        return parameter.isAnnotationPresent(ToolMemoryId.class)
                || InvocationParameters.class.isAssignableFrom(parameter.getType())
                || InvocationContext.class.isAssignableFrom(parameter.getType());
    }

    /** Whether {@code toolObject}'s class declares a langchain4j {@code @Tool} method. */
    static boolean hasToolMethods(Object toolObject) {
        for (Method method : toolObject.getClass().getDeclaredMethods()) {
            if (method.isAnnotationPresent(dev.langchain4j.agent.tool.Tool.class)) {
                return true;
            }
        }
        return false;
    }

    /** The JSON Schema of a langchain4j tool's params: {@code {"type": "object"}} when it takes none. */
    static JsonNode paramsSchema(ToolSpecification specification) {
        if (specification.parameters() == null) {
            return Tool.anyObjectSchema();
        }
        return JSON.valueToTree(JsonSchemaElementUtils.toMap(specification.parameters()));
    }

    /** One {@code @Tool} method. */
    private static final class MethodTool implements Tool {
        private final String name;
        private final String description;
        private final JsonNode paramsSchema;
        private final Method method;
        private final DefaultToolExecutor executor;

        MethodTool(Object object, Method method, ToolSpecification specification) {
            this.name = specification.name();
            this.description = specification.description() == null ? "" : specification.description();
            this.paramsSchema = Langchain4jTools.paramsSchema(specification);
            this.method = method;
            this.executor = DefaultToolExecutor.builder()
                    .object(object)
                    .originalMethod(method)
                    .methodToInvoke(method)
                    .wrapToolArgumentsExceptions(true)
                    .propagateToolExecutionExceptions(true)
                    .build();
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public String description() {
            return description;
        }

        @Override
        public JsonNode paramsSchema() {
            return paramsSchema.deepCopy();
        }

        @Override
        public JsonNode invoke(JsonNode params, CallContext context) {
            ToolExecutionRequest request = ToolExecutionRequest.builder()
                    .id("seq_no " + context.seqNo())
                    .name(name)
                    .arguments(params.toString())
                    .build();
            ToolExecutionResult result;
            try {
                result = executor.executeWithContext(
                        request, InvocationContext.builder().timestampNow().build());
            } catch (ToolArgumentsException e) {
                throw ToolException.permanent("params do not fit " + method.getName() + "(..): " + e.getMessage());
            } catch (ToolExecutionException e) {
                throw failure(e.getCause() != null ? e.getCause() : e);
            } catch (RuntimeException e) {
                throw failure(e);
            }
            if (result.isError()) {
                throw ToolException.permanent(result.resultText());
            }
            return output(result);
        }

        private ToolException failure(Throwable thrown) {
            String message =
                    thrown.getClass().getSimpleName() + (thrown.getMessage() == null ? "" : ": " + thrown.getMessage());
            boolean io = thrown instanceof IOException || thrown instanceof UncheckedIOException;
            return new ToolException(message, io, thrown);
        }

        private JsonNode output(ToolExecutionResult result) {
            Class<?> type = method.getReturnType();
            if (type == void.class || type == Void.class || result.result() == null) {
                return NullNode.getInstance();
            }
            if (result.result() instanceof String text) {
                String trimmed = text.strip();
                if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
                    JsonNode parsed = parse(trimmed);
                    if (parsed != null && parsed.isContainerNode()) {
                        return parsed;
                    }
                }
                return TextNode.valueOf(text);
            }
            JsonNode parsed = parse(result.resultText());
            return parsed != null ? parsed : TextNode.valueOf(result.resultText());
        }

        private static JsonNode parse(String text) {
            try {
                return JsonValues.READER.readTree(text); // JSON only when the whole text is one value
            } catch (JsonProcessingException e) {
                return null;
            }
        }

        @Override
        public String toString() {
            return "Tool[" + name + " = " + method.getDeclaringClass().getSimpleName() + "." + method.getName() + "]";
        }
    }
}
