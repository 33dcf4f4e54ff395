package dev.planvm.vm.internal.handlers;

import dev.planvm.vm.run.InstructionHandler;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** The handlers of the four built-in instruction types, installed in one place. */
public final class BuiltinHandlers {

    public static final Set<String> TYPES = Set.of("assign", "jmp", "calling", "reasoning");

    private BuiltinHandlers() {}

    /** Instruction type to handler. */
    public static Map<String, InstructionHandler<?>> all() {
        Map<String, InstructionHandler<?>> handlers = new LinkedHashMap<>();
        handlers.put("assign", new AssignHandler());
        handlers.put("jmp", new JmpHandler());
        handlers.put("calling", new CallingHandler());
        handlers.put("reasoning", new ReasoningHandler());
        return handlers;
    }
}
