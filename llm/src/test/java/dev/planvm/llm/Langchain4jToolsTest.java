package dev.planvm.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.langchain4j.agent.tool.P;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolException;
import dev.planvm.tools.ToolObjectAdapter;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class Langchain4jToolsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    record Item(String sku, int quantity) {}

    record Order(String customer, Item item) {}

    /** A langchain4j tool class as its users write them. */
    static class Shop {
        @dev.langchain4j.agent.tool.Tool("Price of an order in cents: unit price times quantity")
        public long price(
                @P(name = "order", value = "the order") Order order,
                @P(name = "unitCents", value = "unit price in cents") int unitCents) {
            if (order.item().quantity() < 0) {
                throw new IllegalArgumentException("quantity must not be negative");
            }
            return (long) order.item().quantity() * unitCents;
        }

        @dev.langchain4j.agent.tool.Tool(name = "stock_of", value = "Units in stock of a SKU")
        public String stock(@P(name = "sku", value = "the SKU") String sku) {
            if (sku.equals("gone")) {
                throw new UncheckedIOException(new java.io.IOException("warehouse unreachable"));
            }
            if (sku.equals("deep")) {
                return "[".repeat(1_001) + "]".repeat(1_001);
            }
            if (sku.equals("trailing")) {
                return "{\"sku\": \"trailing\"} and 2 more";
            }
            return sku.equals("json") ? "{\"sku\": \"json\", \"units\": 3}" : "12 units of " + sku;
        }

        @dev.langchain4j.agent.tool.Tool("Forgets everything")
        public void reset() {}

        public String notATool() {
            return "";
        }
    }

    /** A tool class as javac compiles it without -parameters (as this module's tests are), with no @P names. */
    static class Unnamed {
        @dev.langchain4j.agent.tool.Tool("Greets someone")
        public String greet(String who) {
            return "hello " + who;
        }
    }

    private static Map<String, Tool> tools(Object object) {
        return Langchain4jTools.from(object).stream().collect(Collectors.toMap(Tool::name, Function.identity()));
    }

    private static JsonNode call(Tool tool, String params) throws Exception {
        return tool.invoke(JSON.readTree(params), CallContext.of(3));
    }

    @Test
    void each_tool_method_is_a_tool_named_and_described_by_langchain4j() {
        Map<String, Tool> tools = tools(new Shop());

        assertThat(tools).containsOnlyKeys("price", "stock_of", "reset");
        assertThat(tools.get("price").description()).isEqualTo("Price of an order in cents: unit price times quantity");
        assertThat(tools.get("stock_of").description()).isEqualTo("Units in stock of a SKU");
    }

    @Test
    void the_params_schema_is_the_json_schema_of_the_method_arguments() throws Exception {
        JsonNode schema = tools(new Shop()).get("price").paramsSchema();

        assertThat(schema.path("type").asText()).isEqualTo("object");
        assertThat(schema.path("required"))
                .containsExactlyInAnyOrder(JSON.readTree("\"order\""), JSON.readTree("\"unitCents\""));
        assertThat(schema.at("/properties/unitCents/type").asText()).isEqualTo("integer");
        assertThat(schema.at("/properties/order/type").asText()).isEqualTo("object");
        assertThat(schema.at("/properties/order/properties/item/properties/quantity/type")
                        .asText())
                .isEqualTo("integer");
        assertThat(tools(new Shop()).get("reset").paramsSchema()).isEqualTo(Tool.anyObjectSchema());
    }

    @Test
    void json_params_are_converted_to_ints_and_nested_records() throws Exception {
        JsonNode output = call(
                tools(new Shop()).get("price"),
                "{\"order\": {\"customer\": \"Ann\", \"item\": {\"sku\": \"A1\", \"quantity\": 3}}, \"unitCents\": 250}");

        assertThat(output.isIntegralNumber()).isTrue();
        assertThat(output.asLong()).isEqualTo(750);
    }

    @Test
    void a_string_result_is_text_unless_it_holds_a_json_object_or_array() throws Exception {
        Tool stock = tools(new Shop()).get("stock_of");

        assertThat(call(stock, "{\"sku\": \"A1\"}").asText()).isEqualTo("12 units of A1");
        assertThat(call(stock, "{\"sku\": \"json\"}")).isEqualTo(JSON.readTree("{\"sku\": \"json\", \"units\": 3}"));
    }

    @Test
    void a_string_result_with_text_after_its_json_is_text() throws Exception {
        Tool stock = tools(new Shop()).get("stock_of");

        assertThat(call(stock, "{\"sku\": \"trailing\"}"))
                .isEqualTo(TextNode.valueOf("{\"sku\": \"trailing\"} and 2 more"));
    }

    @Test
    void a_string_result_nested_past_the_llm_answer_bound_is_text_not_parsed() throws Exception {
        Tool stock = tools(new Shop()).get("stock_of");

        assertThat(call(stock, "{\"sku\": \"deep\"}"))
                .isEqualTo(TextNode.valueOf("[".repeat(1_001) + "]".repeat(1_001)));
    }

    @Test
    void a_void_method_outputs_null() throws Exception {
        assertThat(call(tools(new Shop()).get("reset"), "{}").isNull()).isTrue();
    }

    @Test
    void an_exception_of_the_method_is_a_permanent_failure_with_its_message() {
        Tool price = tools(new Shop()).get("price");

        assertThatThrownBy(
                        () -> call(
                                price,
                                "{\"order\": {\"customer\": \"Ann\", \"item\": {\"sku\": \"A1\", \"quantity\": -1}}, \"unitCents\": 1}"))
                .isInstanceOfSatisfying(
                        ToolException.class, e -> assertThat(e.retriable()).isFalse())
                .hasMessage("IllegalArgumentException: quantity must not be negative");
    }

    @Test
    void an_io_failure_of_the_method_may_be_retried() {
        assertThatThrownBy(() -> call(tools(new Shop()).get("stock_of"), "{\"sku\": \"gone\"}"))
                .isInstanceOfSatisfying(
                        ToolException.class, e -> assertThat(e.retriable()).isTrue())
                .hasMessageContaining("warehouse unreachable");
    }

    @Test
    void a_class_compiled_without_argument_names_is_refused_when_registered_saying_how_to_fix_it() {
        assertThatThrownBy(() -> Langchain4jTools.from(new Unnamed()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("@Tool method Unnamed.greet has no argument names in its class file (a plan"
                        + " would have to call them arg0, ...): compile it with -parameters")
                .hasMessageEndingWith("or name each argument with @P(name = \"...\")");
    }

    @Test
    void an_object_without_tool_methods_is_refused_by_name() {
        assertThatThrownBy(() -> Langchain4jTools.from("text"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("no @Tool methods in java.lang.String");
        assertThatThrownBy(() -> ToolObjectAdapter.toolsFrom("text"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no tools in java.lang.String");
    }

    @Test
    void the_service_loaded_adapter_finds_the_same_tools() {
        List<Tool> tools = ToolObjectAdapter.toolsFrom(new Shop());

        assertThat(tools).extracting(Tool::name).containsExactlyInAnyOrder("price", "stock_of", "reset");
    }
}
