package dev.planvm.vm.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.Tool;

/** Tools that answer their own name, for tests of which calls may start early. */
final class StandInTools {

    private StandInTools() {}

    /** A tool named {@code name} that answers its name and has side effects or not. */
    static Tool tool(String name, boolean sideEffects) {
        return new Tool() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public JsonNode invoke(JsonNode params, CallContext context) {
                return TextNode.valueOf(name);
            }

            @Override
            public boolean hasSideEffects() {
                return sideEffects;
            }
        };
    }
}
