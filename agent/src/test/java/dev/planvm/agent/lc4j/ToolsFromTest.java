package dev.planvm.agent.lc4j;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.IntNode;
import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.planvm.instructions.Plan;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.run.RunResult;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code PlanVm.builder().toolsFrom(object)}: langchain4j {@code @Tool} methods called by a plan. */
class ToolsFromTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    record Item(String sku, int quantity) {}

    record Order(String customer, Item item) {}

    static class Shop {
        @Tool("Price of an order in cents")
        public long price(
                @P(name = "order", value = "the order") Order order,
                @P(name = "unitCents", value = "unit price in cents") int unitCents) {
            if (order.item().quantity() > 100) {
                throw new IllegalStateException("at most 100 units per order");
            }
            return (long) order.item().quantity() * unitCents;
        }

        @Tool("The order, confirmed")
        public Order confirm(@P(name = "order", value = "the order") Order order) {
            return new Order(order.customer().toUpperCase(), order.item());
        }
    }

    private static final String PLAN = """
            [{"seq_no": 0, "type": "assign", "parameters": {
               "order": {"customer": "ann", "item": {"sku": "A1", "quantity": "${qty}"}}}},
             {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "price",
               "tool_params": {"order": "${order}", "unitCents": 250}, "output_vars": "cents"}},
             {"seq_no": 2, "type": "calling", "parameters": {"tool_name": "confirm",
               "tool_params": {"order": "${order}"}, "output_vars": "confirmed"}},
             {"seq_no": 3, "type": "assign", "parameters": {
               "final_answer": "${confirmed.customer + ' pays ' + cents}"}}]""";

    private static RunResult run(int quantity) {
        PlanVm vm = PlanVm.builder().toolsFrom(new Shop()).build();
        Plan plan = vm.loader().load(PLAN, "shop.json").planOrThrow();
        return vm.run(plan, Map.of("qty", IntNode.valueOf(quantity)));
    }

    @Test
    void a_plan_calls_tool_methods_with_ints_and_nested_records() throws Exception {
        RunResult result = run(3);

        assertThat(result.succeeded()).as("%s", result.error()).isTrue();
        assertThat(result.variables().get("cents")).isEqualTo(JSON.readTree("750"));
        assertThat(result.variables().get("confirmed"))
                .isEqualTo(JSON.readTree("{\"customer\": \"ANN\", \"item\": {\"sku\": \"A1\", \"quantity\": 3}}"));
        assertThat(result.finalAnswer().asText()).isEqualTo("ANN pays 750");
    }

    @Test
    void each_tool_method_is_a_tool_of_the_vm() {
        PlanVm vm = PlanVm.builder().toolsFrom(new Shop()).build();

        assertThat(vm.tools().names()).contains("price", "confirm");
        assertThat(vm.tools().find("price").orElseThrow().description()).isEqualTo("Price of an order in cents");
    }

    @Test
    void an_exception_of_a_tool_method_fails_the_step_naming_the_tool() {
        RunResult result = run(500);

        assertThat(result.succeeded()).isFalse();
        assertThat(result.error().seqNo()).isEqualTo(1);
        assertThat(result.error().describe())
                .contains("'price'")
                .contains("IllegalStateException: at most 100 units per order");
    }

    @Test
    void params_that_do_not_fit_the_method_schema_are_refused_before_the_call() {
        PlanVm vm = PlanVm.builder().toolsFrom(new Shop()).build();
        Plan plan = vm.loader()
                .load(
                        "[{\"seq_no\": 0, \"type\": \"calling\", \"parameters\": {\"tool_name\": \"price\","
                                + " \"tool_params\": {\"order\": {}, \"unitCents\": \"many\"}, \"output_vars\": \"x\"}}]",
                        "bad.json")
                .planOrThrow();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> vm.run(plan, Map.of()))
                .as("params written out are checked before the run starts, as validate checks them")
                .isInstanceOf(dev.planvm.vm.PlanRejectedException.class)
                .hasMessageContaining("seq_no 0 at /0/parameters: params do not fit the schema of tool 'price'")
                .hasMessageContaining("unitCents");
        Plan later = vm.loader()
                .load(
                        "[{\"seq_no\": 0, \"type\": \"calling\", \"parameters\": {\"tool_name\": \"price\","
                                + " \"tool_params\": {\"order\": \"${order}\", \"unitCents\": \"many\"}, \"output_vars\": \"x\"}}]",
                        "bad.json")
                .planOrThrow();
        RunResult result = vm.run(
                later, Map.of("order", com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode()));

        assertThat(result.succeeded()).isFalse();
        assertThat(result.error().describe()).contains("price").contains("unitCents");
    }
}
