package dev.planvm.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.json.JsonText;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.run.RunResult;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Wall-clock figures for hostile inputs (issue 9): finding JSON in text against the quadratic
 * search it replaced, case mapping of characters that grow, and how fast a plan that passes the
 * run's memory budget is stopped. {@code bench/run --main dev.planvm.bench.HostileInputsBench}.
 */
public final class HostileInputsBench {

    private HostileInputsBench() {}

    public static void main(String[] args) {
        System.out.println("JSON in text, unmatched '{' (JsonText.parse, linear):");
        for (int n : new int[] {64 << 10, 256 << 10, 1 << 20, 4 << 20}) {
            String text = "{".repeat(n);
            System.out.printf(Locale.ROOT, "  %,10d characters: %8.1f ms%n", n, millis(() -> JsonText.parse(text)));
        }
        String answer =
                "Sure! " + "{\"a\": ".repeat(200_000) + " and finally {\"result\": true, \"explanation\": \"ok\"}";
        System.out.printf(
                Locale.ROOT,
                "  a %,d-character LLM answer with 200,000 open objects: %.1f ms%n",
                answer.length(),
                millis(() -> JsonText.findObject(answer)));
        System.out.println("the search it replaced (a balanced span per '{', quadratic):");
        for (int n : new int[] {8 << 10, 16 << 10, 32 << 10}) {
            String text = "{".repeat(n);
            System.out.printf(
                    Locale.ROOT, "  %,10d characters: %8.1f ms%n", n, millis(() -> QuadraticSearch.firstObject(text)));
        }

        PlanVm vm = PlanVm.builder().sequential(true).build();
        System.out.println(
                "upper() of 1,000,000 'ß' (each becomes 'SS'; the JDK alone copies its result per character):");
        Map<String, JsonNode> inputs = Map.of("s", TextNode.valueOf("\u00df".repeat(1_000_000)));
        String upper =
                "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": \"${len(upper(s))}\"}}]";
        System.out.printf(
                Locale.ROOT,
                "  %.1f ms%n",
                millis(() -> vm.run(vm.loader().load(upper, "u").planOrThrow(), inputs)));

        System.out.println("900 passes of 30 new 512 Ki values, traced, default 64 MiB budget:");
        PlanVm traced = PlanVm.builder().sequential(true).maxSteps(5_000).build();
        RunResult[] result = new RunResult[1];
        double ms = millis(() ->
                result[0] = traced.run(traced.loader().load(assigns(), "a").planOrThrow(), Map.of()));
        System.out.printf(
                Locale.ROOT,
                "  stopped after %d steps in %.1f ms: %s%n",
                result[0].steps(),
                ms,
                result[0].error() == null
                        ? "no error"
                        : result[0].error().describe().substring(0, 120) + "…");
    }

    private static String assigns() {
        StringBuilder keys = new StringBuilder();
        for (int k = 0; k < 30; k++) {
            keys.append("\"v").append(k).append("\": \"${s}${i}\", ");
        }
        return "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"s\": \"xxxxxxxx\", \"i\": 0}},"
                + "{\"seq_no\": 1, \"type\": \"assign\", \"parameters\": {\"s\": \"${s + s}\"}},"
                + "{\"seq_no\": 2, \"type\": \"jmp\", \"parameters\": {\"condition\": \"${len(s) < 524288}\", \"jump_if_true\": 1}},"
                + "{\"seq_no\": 3, \"type\": \"assign\", \"parameters\": {" + keys + "\"i\": \"${i + 1}\"}},"
                + "{\"seq_no\": 4, \"type\": \"jmp\", \"parameters\": {\"condition\": \"${i < 900}\", \"jump_if_true\": 3}}]";
    }

    /** The best of three timed runs after one warm-up, in milliseconds. */
    private static double millis(Supplier<?> work) {
        work.get();
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            long start = System.nanoTime();
            work.get();
            best = Math.min(best, System.nanoTime() - start);
        }
        return best / 1e6;
    }

    private static double millis(Runnable work) {
        return millis(() -> {
            work.run();
            return null;
        });
    }

    /** The first-object search JsonText made before it became linear (for comparison only). */
    private static final class QuadraticSearch {

        static int firstObject(String text) {
            for (int start = text.indexOf('{'); start >= 0; start = text.indexOf('{', start + 1)) {
                if (matchingClose(text, start) > 0) {
                    return start;
                }
            }
            return -1;
        }

        private static int matchingClose(String text, int start) {
            int depth = 0;
            boolean inString = false;
            for (int i = start; i < text.length(); i++) {
                char c = text.charAt(i);
                if (inString) {
                    if (c == '\\') {
                        i++;
                    } else if (c == '"') {
                        inString = false;
                    }
                } else if (c == '"') {
                    inString = true;
                } else if (c == '{') {
                    depth++;
                } else if (c == '}' && --depth == 0) {
                    return i + 1;
                }
            }
            return -1;
        }
    }
}
