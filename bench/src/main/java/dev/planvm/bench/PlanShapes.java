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

    /**
     * {@code n} instructions (n a multiple of 10) of what reach analysis meets in real plans, in blocks of ten: a
     * retrieval, an LLM call on its output, an HTTP post of that (side effects), a for_each over the documents, assigns
     * that build a prompt from an input and a secret, an LLM-decided jmp forward, and a local-condition loop back to
     * the start of the block.
     */
    public static String reachMix(int n) {
        StringBuilder plan = new StringBuilder("[");
        for (int block = 0; block < n / 10; block++) {
            int b = block * 10;
            String[] steps = {
                "{\"seq_no\":%d,\"type\":\"assign\",\"parameters\":{\"q%d\":\"${question} (part %d)\",\"tries%d\":0}}",
                "{\"seq_no\":%d,\"type\":\"calling\",\"parameters\":{\"tool_name\":\"vector_search\",\"tool_params\":{\"query\":\"${q%d}\",\"top_k\":%d},\"output_vars\":\"docs%d\"}}",
                "{\"seq_no\":%d,\"type\":\"calling\",\"parameters\":{\"tool_name\":\"llm_generate\",\"tool_params\":{\"prompt\":\"Answer ${q%d}\",\"context\":\"${docs%d}\"},\"output_vars\":[\"answer%d\"]}}",
                "{\"seq_no\":%d,\"type\":\"calling\",\"parameters\":{\"tool_name\":\"summarize_each\",\"for_each\":\"${docs%d}\",\"as\":\"doc\",\"tool_params\":{\"text\":\"${doc} ${index}\"},\"output_vars\":\"sums%d\"}}",
                "{\"seq_no\":%d,\"type\":\"assign\",\"parameters\":{\"auth%d\":\"Bearer ${API_KEY}\",\"body%d\":\"${answer%d} / ${sums%d}\"}}",
                "{\"seq_no\":%d,\"type\":\"jmp\",\"parameters\":{\"condition_prompt\":\"Is ${answer%d} good enough?\",\"jump_if_true\":%d}}",
                "{\"seq_no\":%d,\"type\":\"assign\",\"parameters\":{\"tries%d\":\"${tries%d + 1}\"}}",
                "{\"seq_no\":%d,\"type\":\"jmp\",\"parameters\":{\"condition\":\"${tries%d < 3}\",\"jump_if_true\":%d}}",
                "{\"seq_no\":%d,\"type\":\"calling\",\"parameters\":{\"tool_name\":\"http:post_result\",\"tool_params\":{\"auth\":\"${auth%d}\",\"body\":\"${body%d}\"},\"output_vars\":\"posted%d\",\"on_error\":{\"jump\":%d}}}",
                "{\"seq_no\":%d,\"type\":\"assign\",\"parameters\":{\"final_answer\":\"${posted%d}\"}}"
            };
            Object[][] args = {
                {b, b, block, b},
                {b + 1, b, 3, b},
                {b + 2, b, b, b},
                {b + 3, b, b},
                {b + 4, b, b, b, b},
                {b + 5, b, b + 8},
                {b + 6, b, b},
                {b + 7, b, b + 1},
                {b + 8, b, b, b, b + 9},
                {b + 9, b}
            };
            for (int i = 0; i < 10; i++) {
                plan.append(plan.length() == 1 ? "" : ",").append(String.format(steps[i], args[i]));
            }
        }
        return plan.append("]").toString();
    }
}
