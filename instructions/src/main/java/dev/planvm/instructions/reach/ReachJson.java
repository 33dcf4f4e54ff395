package dev.planvm.instructions.reach;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/** The {@code planvm-reach/1} document of a {@link Reach} (schema: {@code reach.schema.json} beside this class). */
final class ReachJson {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private ReachJson() {}

    static ObjectNode of(Reach reach) {
        ObjectNode root = JSON.objectNode()
                .put("format", Reach.FORMAT)
                .put("source", reach.source())
                .put("complete", reach.complete());
        ArrayNode tools = root.putArray("tools");
        for (Reach.ToolReach tool : reach.tools()) {
            tools.add(tool(tool));
        }
        reach.hosts().forEach(root.putArray("hosts")::add);
        ArrayNode branches = root.putArray("branches");
        for (Reach.Branch branch : reach.branches()) {
            site(branches.addObject(), branch.site()).put("decided_by", branch.decidedBy());
        }
        reach.notes().forEach(root.putArray("notes")::add);
        ArrayNode violations = root.putArray("violations");
        for (Reach.Violation violation : reach.violations()) {
            ObjectNode item = violations.addObject().put("rule", violation.rule());
            if (violation.site() == null) {
                item.putNull("seq_no");
                item.putArray("via");
            } else {
                site(item, violation.site());
            }
            item.put("message", violation.message());
        }
        return root;
    }

    private static ObjectNode tool(Reach.ToolReach tool) {
        ObjectNode item = JSON.objectNode()
                .put("tool", tool.tool())
                .put("kind", tool.kind().label())
                .put("effect", tool.effect().label())
                .put("approval", tool.approval());
        tool.hosts().forEach(item.putArray("hosts")::add);
        ObjectNode count = item.putObject("max_calls")
                .put("calls", tool.maxCalls().calls())
                .put("per_element", tool.maxCalls().perElement())
                .put("unbounded", tool.maxCalls().unbounded());
        if (tool.maxCalls().unbounded()) {
            count.putNull("at_most");
            count.set("loop", sites(tool.maxCalls().loop()));
        } else {
            count.put("at_most", tool.maxCalls().atMost());
            count.putNull("loop");
        }
        if (tool.unapproved() == null) {
            item.putNull("unapproved_path");
        } else {
            item.set("unapproved_path", sites(tool.unapproved()));
        }
        ArrayNode calls = item.putArray("calls");
        for (Reach.Call call : tool.calls()) {
            ObjectNode entry = site(calls.addObject(), call.site())
                    .put("for_each", call.forEach())
                    .put("approved", call.approved());
            ObjectNode params = entry.putObject("params");
            call.params().forEach((name, origins) -> {
                ArrayNode list = params.putArray(name);
                origins.forEach(origin -> list.add(origin(origin)));
            });
        }
        return item;
    }

    private static ObjectNode origin(Reach.Origin origin) {
        ObjectNode item = JSON.objectNode().put("kind", origin.kind().label());
        if (origin.name() == null) {
            item.putNull("name");
        } else {
            item.put("name", origin.name());
        }
        if (origin.site() != null) {
            site(item, origin.site());
        }
        return item;
    }

    private static ArrayNode sites(List<Reach.Site> sites) {
        ArrayNode list = JSON.arrayNode();
        sites.forEach(site -> site(list.addObject(), site));
        return list;
    }

    private static ObjectNode site(ObjectNode item, Reach.Site site) {
        item.put("seq_no", site.seqNo());
        ArrayNode via = item.putArray("via");
        for (Reach.Frame frame : site.via()) {
            via.addObject().put("tool", frame.tool()).put("seq_no", frame.seqNo());
        }
        return item;
    }
}
