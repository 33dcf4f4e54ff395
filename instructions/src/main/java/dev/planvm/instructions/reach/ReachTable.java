package dev.planvm.instructions.reach;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;

/** The readable form of a {@link Reach}: one row per tool, then where params come from, paths, hosts and notes. */
final class ReachTable {

    private static final List<String> HEADER = List.of("TOOL", "KIND", "EFFECT", "APPROVAL", "MOST CALLS", "AT");

    private ReachTable() {}

    static String of(Reach reach) {
        StringBuilder out = new StringBuilder();
        out.append(reach.source())
                .append(": ")
                .append(reach.tools().size())
                .append(reach.tools().size() == 1 ? " tool" : " tools")
                .append(" reachable")
                .append(reach.complete() ? "" : " (incomplete: see the notes)")
                .append('\n');
        if (!reach.tools().isEmpty()) {
            List<List<String>> rows = new ArrayList<>();
            rows.add(HEADER);
            for (Reach.ToolReach tool : reach.tools()) {
                rows.add(List.of(
                        tool.tool(),
                        tool.kind().label(),
                        tool.effect().label(),
                        approval(tool),
                        count(tool.maxCalls()),
                        at(tool)));
            }
            table(rows, out);
        }
        params(reach, out);
        List<String> unapproved = new ArrayList<>();
        for (Reach.ToolReach tool : reach.tools()) {
            if (tool.unapproved() != null) {
                Reach.Site last = tool.unapproved().get(tool.unapproved().size() - 1);
                unapproved.add(tool.tool() + " at " + last.describe() + ": " + PolicyCheck.path(tool.unapproved()));
            }
        }
        section("Reached without approval", unapproved, out);
        section("Hosts", reach.hosts(), out);
        List<String> branches = new ArrayList<>();
        for (Reach.Branch branch : reach.branches()) {
            branches.add(branch.site().describe() + ": decided by "
                    + (branch.decidedBy().equals("llm") ? "an LLM" : "a condition on run-time values")
                    + ", both ways taken");
        }
        section("Jumps decided at run time", branches, out);
        section("Notes", reach.notes(), out);
        List<String> violations = new ArrayList<>();
        reach.violations().forEach(v -> violations.add(v.message()));
        section("Policy violations", violations, out);
        return out.toString();
    }

    private static String approval(Reach.ToolReach tool) {
        if (tool.kind() == Reach.ToolKind.CONDITION) {
            return "-";
        }
        long approved = tool.calls().stream().filter(Reach.Call::approved).count();
        if (approved == tool.calls().size()) {
            return "yes";
        }
        return approved == 0 ? "no" : "some";
    }

    private static String count(Reach.Count count) {
        if (count.unbounded()) {
            return "unbounded (loop " + PolicyCheck.path(count.loop()) + ")";
        }
        return count.describe();
    }

    private static String at(Reach.ToolReach tool) {
        StringJoiner sites = new StringJoiner(", ");
        for (Reach.Call call : tool.calls()) {
            sites.add(call.site().shortForm() + (call.forEach() ? " (for_each)" : ""));
        }
        return sites.toString();
    }

    private static void params(Reach reach, StringBuilder out) {
        List<String> lines = new ArrayList<>();
        for (Reach.ToolReach tool : reach.tools()) {
            Map<String, Set<String>> byParam = new LinkedHashMap<>();
            for (Reach.Call call : tool.calls()) {
                call.params().forEach((param, origins) -> {
                    Set<String> from = byParam.computeIfAbsent(param, p -> new LinkedHashSet<>());
                    origins.forEach(origin -> from.add(origin.describe()));
                });
            }
            byParam.forEach((param, from) -> lines.add(
                    tool.tool() + "." + param + " ← " + (from.isEmpty() ? "nothing" : String.join("; ", from))));
        }
        section("Where params come from", lines, out);
    }

    private static void section(String title, List<String> lines, StringBuilder out) {
        if (lines.isEmpty()) {
            return;
        }
        out.append('\n').append(title).append(":\n");
        lines.forEach(line -> out.append("  ").append(line).append('\n'));
    }

    private static void table(List<List<String>> rows, StringBuilder out) {
        int[] widths = new int[HEADER.size()];
        for (List<String> row : rows) {
            for (int i = 0; i < row.size(); i++) {
                widths[i] = Math.max(widths[i], row.get(i).length());
            }
        }
        for (List<String> row : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.size(); i++) {
                line.append(row.get(i));
                if (i < row.size() - 1) {
                    line.append(" ".repeat(widths[i] - row.get(i).length() + 2));
                }
            }
            out.append(line.toString().stripTrailing()).append('\n');
        }
    }
}
