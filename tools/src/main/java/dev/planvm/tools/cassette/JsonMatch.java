package dev.planvm.tools.cassette;

import dev.planvm.json.JsonEquality;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/** Cassette matching: {@link JsonEquality} and a readable diff of what was recorded against what is asked now. */
final class JsonMatch {

    private JsonMatch() {
    }

    static boolean same(JsonNode a, JsonNode b) {
        return JsonEquality.equal(a, b);
    }

    /** Lines {@code /pointer: recorded X, got Y}, at most {@code limit} of them. */
    static List<String> diff(JsonNode recorded, JsonNode actual, int limit) {
        List<String> lines = new ArrayList<>();
        diff("", recorded, actual, lines, limit);
        return lines;
    }

    private static void diff(String at, JsonNode recorded, JsonNode actual, List<String> lines, int limit) {
        if (lines.size() >= limit || same(recorded, actual)) {
            return;
        }
        if (recorded.isObject() && actual.isObject()) {
            Set<String> keys = new HashSet<>();
            recorded.fieldNames().forEachRemaining(keys::add);
            actual.fieldNames().forEachRemaining(keys::add);
            for (String key : keys.stream().sorted().toList()) {
                String child = at + "/" + key;
                if (!recorded.has(key)) {
                    add(lines, limit, child + ": not recorded, got " + brief(actual.get(key)));
                } else if (!actual.has(key)) {
                    add(lines, limit, child + ": recorded " + brief(recorded.get(key)) + ", missing now");
                } else {
                    diff(child, recorded.get(key), actual.get(key), lines, limit);
                }
            }
            return;
        }
        if (recorded.isArray() && actual.isArray() && recorded.size() == actual.size()) {
            Iterator<JsonNode> r = recorded.elements();
            Iterator<JsonNode> a = actual.elements();
            for (int i = 0; r.hasNext(); i++) {
                diff(at + "/" + i, r.next(), a.next(), lines, limit);
            }
            return;
        }
        add(lines, limit, (at.isEmpty() ? "/" : at) + ": recorded " + brief(recorded) + ", got " + brief(actual));
    }

    /** How many leaf differences, for picking the closest interaction. */
    static int distance(JsonNode recorded, JsonNode actual) {
        return diff(recorded, actual, 1000).size();
    }

    private static void add(List<String> lines, int limit, String line) {
        if (lines.size() < limit) {
            lines.add(line);
        }
    }

    static String brief(JsonNode value) {
        String text = value.toString();
        return text.length() > 120 ? text.substring(0, 120) + "…" : text;
    }
}
