package dev.planvm.json;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Finds a {@code $ref} cycle in an untrusted JSON Schema: references that lead back to where they started
 * without going one level deeper into the value being checked ({@code {"$ref": "#"}}, two {@code $defs}
 * naming each other, a property whose schema is a {@code $ref} to itself). A validator follows such a loop
 * until its thread's stack overflows, on every value, so such a schema is refused before it is used. A
 * recursive schema that descends ({@code {"properties": {"child": {"$ref": "#"}}}}, a tree) is fine: each
 * turn reads a deeper part of a value whose depth is bounded.
 *
 * <p>What counts as staying in place: {@code $ref}, {@code $dynamicRef} and {@code $recursiveRef}, and the
 * subschemas of {@code allOf}, {@code anyOf}, {@code oneOf}, {@code not}, {@code if}, {@code then},
 * {@code else}, {@code dependentSchemas} and {@code dependencies}. References resolve inside the schema only
 * (JSON pointers, {@code $id} and {@code $anchor}/{@code $dynamicAnchor}); one that leads outside it is not
 * followed (it is never fetched either). The walk is iterative, so a long chain of references costs no stack.
 */
public final class SchemaRefCycles {

    /** The base URI of a schema without {@code $id}: only references inside it resolve. */
    private static final URI DOCUMENT = URI.create("https://planvm.invalid/schema.json");

    private static final List<String> IN_PLACE_ONE = List.of("not", "if", "then", "else");
    private static final List<String> IN_PLACE_MANY = List.of("allOf", "anyOf", "oneOf");
    private static final List<String> IN_PLACE_MAP = List.of("dependentSchemas", "dependencies");
    private static final List<String> REFS = List.of("$ref", "$dynamicRef", "$recursiveRef");
    /** Keywords whose values are data, not schemas: no {@code $id} or {@code $ref} in them counts. */
    private static final Set<String> DATA = Set.of("enum", "const", "default", "examples");

    /**
     * A cycle found.
     *
     * @param pointer the JSON pointer, inside the schema, of the {@code $ref} that closes it
     * @param target  the JSON pointer of the schema it leads back to
     */
    public record Cycle(String pointer, String target) {
        /** One sentence for the user, without location. */
        public String message() {
            return "its " + pointer.substring(pointer.lastIndexOf('/') + 1) + " at " + pointer + " leads back to "
                    + (target.isEmpty() ? "the whole schema" : target)
                    + " without going deeper into the value (a $ref cycle): no value could ever be checked";
        }
    }

    private final Map<JsonNode, String> pointers = new IdentityHashMap<>();
    /** The schema's objects in document order (pre-order), where the search starts from. */
    private final List<JsonNode> order = new ArrayList<>();

    private final Map<JsonNode, URI> bases = new IdentityHashMap<>();
    private final Map<String, JsonNode> resources = new HashMap<>();
    private final Map<String, JsonNode> anchors = new HashMap<>();

    private SchemaRefCycles() {}

    /** The first {@code $ref} cycle of {@code schema}, or empty when it has none. */
    public static Optional<Cycle> find(JsonNode schema) {
        if (schema == null || !schema.isContainerNode()) {
            return Optional.empty();
        }
        SchemaRefCycles graph = new SchemaRefCycles();
        graph.index(schema);
        return graph.cycle();
    }

    /** Every object of the schema with its pointer and base URI; the resources ({@code $id}) and anchors. */
    private void index(JsonNode root) {
        record Item(JsonNode node, String pointer, URI base) {}
        Deque<Item> work = new ArrayDeque<>();
        work.push(new Item(root, "", DOCUMENT));
        resources.put(withoutFragment(DOCUMENT), root);
        while (!work.isEmpty()) {
            Item item = work.pop();
            JsonNode node = item.node();
            URI base = item.base();
            if (node.isObject()) {
                JsonNode id = node.get("$id");
                if (id != null && id.isTextual()) {
                    URI resolved = resolve(base, id.asText());
                    if (resolved != null) {
                        base = resolved;
                        resources.putIfAbsent(withoutFragment(base), node);
                    }
                }
                for (String keyword : List.of("$anchor", "$dynamicAnchor")) {
                    JsonNode anchor = node.get(keyword);
                    if (anchor != null && anchor.isTextual()) {
                        anchors.putIfAbsent(withoutFragment(base) + "#" + anchor.asText(), node);
                    }
                }
                pointers.put(node, item.pointer());
                bases.put(node, base);
                order.add(node);
                List<Item> children = new ArrayList<>();
                for (Map.Entry<String, JsonNode> field : node.properties()) {
                    if (field.getValue().isContainerNode() && !DATA.contains(field.getKey())) {
                        children.add(
                                new Item(field.getValue(), JsonPointers.append(item.pointer(), field.getKey()), base));
                    }
                }
                for (int i = children.size() - 1; i >= 0; i--) { // popped in document order
                    work.push(children.get(i));
                }
            } else if (node.isArray()) {
                for (int i = node.size() - 1; i >= 0; i--) {
                    if (node.get(i).isContainerNode()) {
                        work.push(new Item(node.get(i), JsonPointers.append(item.pointer(), i), base));
                    }
                }
            }
        }
    }

    /** A depth-first search over the in-place edges, iterative: a back edge is a cycle. */
    private Optional<Cycle> cycle() {
        Map<JsonNode, Boolean> state = new IdentityHashMap<>(); // absent: new; true: on the path; false: done
        for (JsonNode start : order) {
            if (state.containsKey(start)) {
                continue;
            }
            Deque<Frame> path = new ArrayDeque<>();
            path.push(new Frame(start, edges(start), new int[1]));
            state.put(start, true);
            while (!path.isEmpty()) {
                Frame frame = path.peek();
                if (frame.next()[0] == frame.edges().size()) {
                    state.put(frame.node(), false);
                    path.pop();
                    continue;
                }
                Edge edge = frame.edges().get(frame.next()[0]++);
                Boolean seen = state.get(edge.to());
                if (seen == null) {
                    state.put(edge.to(), true);
                    path.push(new Frame(edge.to(), edges(edge.to()), new int[1]));
                } else if (seen) {
                    return Optional.of(closing(path, edge));
                }
            }
        }
        return Optional.empty();
    }

    /**
     * The cycle {@code back} closes on {@code path}: named by {@code back} when it is a reference, else by the
     * last reference on the cycle (a cycle of in-place steps has one: the schema itself is a tree).
     */
    private Cycle closing(Deque<Frame> path, Edge back) {
        if (back.refPointer() != null) {
            return new Cycle(back.refPointer(), pointers.get(back.to()));
        }
        for (Frame frame : path) { // from the top of the path down to where the cycle starts
            Edge taken = frame.edges().get(frame.next()[0] - 1);
            if (taken.refPointer() != null) {
                return new Cycle(taken.refPointer(), pointers.get(taken.to()));
            }
            if (frame.node() == back.to()) {
                break;
            }
        }
        return new Cycle(pointers.get(back.to()), pointers.get(back.to()));
    }

    private record Frame(JsonNode node, List<Edge> edges, int[] next) {}

    /** An in-place step from a schema to a subschema; {@code refPointer} names the reference that made it. */
    private record Edge(JsonNode to, String refPointer) {}

    private List<Edge> edges(JsonNode node) {
        List<Edge> edges = new ArrayList<>();
        String at = pointers.get(node);
        for (String keyword : REFS) {
            JsonNode ref = node.get(keyword);
            if (ref != null && ref.isTextual()) {
                JsonNode target = target(bases.get(node), ref.asText());
                if (target != null) {
                    edges.add(new Edge(target, JsonPointers.append(at, keyword)));
                }
            }
        }
        for (String keyword : IN_PLACE_ONE) {
            addObject(edges, node.get(keyword));
        }
        for (String keyword : IN_PLACE_MANY) {
            JsonNode all = node.get(keyword);
            if (all != null && all.isArray()) {
                all.forEach(sub -> addObject(edges, sub));
            }
        }
        for (String keyword : IN_PLACE_MAP) {
            JsonNode map = node.get(keyword);
            if (map != null && map.isObject()) {
                map.forEach(sub -> addObject(edges, sub));
            }
        }
        return edges;
    }

    private void addObject(List<Edge> edges, JsonNode sub) {
        if (sub != null && sub.isObject() && pointers.containsKey(sub)) {
            edges.add(new Edge(sub, null));
        }
    }

    /** The schema object {@code ref} names from {@code base}, or {@code null} when it is not inside this schema. */
    private JsonNode target(URI base, String ref) {
        if (ref.startsWith("#/") && ref.indexOf('%') < 0) { // the usual case, without parsing a URI
            JsonNode target = walk(resources.get(withoutFragment(base)), ref.substring(1));
            return target != null && pointers.containsKey(target) ? target : null;
        }
        URI uri = resolve(base, ref);
        if (uri == null) {
            return null;
        }
        JsonNode resource = resources.get(withoutFragment(uri));
        if (resource == null) {
            return null;
        }
        String fragment = uri.getFragment();
        JsonNode target;
        if (fragment == null || fragment.isEmpty()) {
            target = resource;
        } else if (fragment.startsWith("/")) {
            target = walk(resource, fragment);
        } else {
            target = anchors.get(withoutFragment(uri) + "#" + fragment);
        }
        return target != null && pointers.containsKey(target) ? target : null;
    }

    /** The node JSON pointer {@code pointer} names inside {@code from}, or {@code null}. */
    private static JsonNode walk(JsonNode from, String pointer) {
        JsonNode node = from;
        int at = 1;
        while (node != null && at <= pointer.length()) {
            int end = pointer.indexOf('/', at);
            end = end < 0 ? pointer.length() : end;
            String token = pointer.substring(at, end).replace("~1", "/").replace("~0", "~");
            node = node.isArray() ? index(node, token) : node.get(token);
            at = end + 1;
        }
        return node;
    }

    private static JsonNode index(JsonNode array, String token) {
        try {
            return array.get(Integer.parseInt(token));
        } catch (NumberFormatException notAnIndex) {
            return null;
        }
    }

    private static URI resolve(URI base, String reference) {
        try {
            return base.resolve(new URI(reference.startsWith("#") ? reference : reference.replace(" ", "%20")));
        } catch (java.net.URISyntaxException | IllegalArgumentException e) {
            try {
                int hash = reference.indexOf('#');
                String fragment = hash < 0 ? null : reference.substring(hash + 1);
                String rest = hash < 0 ? reference : reference.substring(0, hash);
                URI resolved = rest.isEmpty() ? base : base.resolve(new URI(rest));
                return new URI(resolved.getScheme(), resolved.getSchemeSpecificPart(), fragment);
            } catch (java.net.URISyntaxException | IllegalArgumentException again) {
                return null;
            }
        }
    }

    private static String withoutFragment(URI uri) {
        String text = uri.toString();
        int hash = text.indexOf('#');
        return hash < 0 ? text : text.substring(0, hash);
    }
}
