package dev.planvm.bench;

/** Generated plans of the shapes the interpreter benchmark runs. */
public final class PlanShapes {

    private PlanShapes() {}

    /** {@code n} assigns; each value references the previous variable; the last sets final_answer. */
    public static String assignChain(int n) {
        StringBuilder plan = new StringBuilder("[{\"seq_no\":0,\"type\":\"assign\",\"parameters\":{\"v0\":0}}");
        for (int i = 1; i < n - 1; i++) {
            plan.append(",{\"seq_no\":")
                    .append(i)
                    .append(",\"type\":\"assign\",\"parameters\":{\"v")
                    .append(i)
                    .append("\":\"${v")
                    .append(i - 1)
                    .append("}\"}}");
        }
        plan.append(",{\"seq_no\":")
                .append(n - 1)
                .append(",\"type\":\"assign\",\"parameters\":{\"final_answer\":\"${v")
                .append(n - 2)
                .append("}\"}}]");
        return plan.toString();
    }

    /** {@code n} calls of the {@code echo} tool, each passing on the previous output. */
    public static String callingChain(int n) {
        StringBuilder plan = new StringBuilder("[");
        for (int i = 0; i < n; i++) {
            String input = i == 0 ? "start" : "${out" + (i - 1) + "}";
            String output = i == n - 1 ? "final_answer" : "out" + i;
            plan.append(i == 0 ? "" : ",")
                    .append("{\"seq_no\":")
                    .append(i)
                    .append(",\"type\":\"calling\",\"parameters\":{\"tool_name\":\"echo\",\"tool_params\":{\"text\":\"")
                    .append(input)
                    .append("\"},\"output_vars\":[\"")
                    .append(output)
                    .append("\"]}}");
        }
        return plan.append("]").toString();
    }

    /** {@code n} instructions alternating an assign and an unconditional jmp to the next one. */
    public static String assignJmpAlternation(int n) {
        StringBuilder plan = new StringBuilder("[");
        for (int i = 0; i < n; i++) {
            plan.append(i == 0 ? "" : ",").append("{\"seq_no\":").append(i);
            if (i == n - 1) {
                int lastAssigned = (i - 1) % 2 == 0 ? i - 1 : i - 2;
                plan.append(",\"type\":\"assign\",\"parameters\":{\"final_answer\":\"${x")
                        .append(lastAssigned)
                        .append("}\"}}");
            } else if (i % 2 == 0) {
                plan.append(",\"type\":\"assign\",\"parameters\":{\"x")
                        .append(i)
                        .append("\":")
                        .append(i)
                        .append("}}");
            } else {
                plan.append(",\"type\":\"jmp\",\"parameters\":{\"target_seq\":")
                        .append(i + 1)
                        .append("}}");
            }
        }
        return plan.append("]").toString();
    }
}
