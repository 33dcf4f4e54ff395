package dev.planvm.dialects.internal.ppe;

import dev.planvm.dialects.internal.Pos;
import dev.planvm.dialects.internal.Problems;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Script inheritance, as the reference does it: a script whose front matter says {@code type: NAME} (other than
 * {@code lib} and {@code type}) runs as the script {@code NAME} ({@link Library}: {@code char} is built in) with
 * its own settings over that script's: the front matters are merged (the type's keys, then the script's, which
 * win; {@code input} lists and {@code parameters} and {@code prompt} mappings are joined), and the type's steps
 * run first, then the script's. A type may have a type of its own.
 */
final class Inheritance {

    private static final int MAX_DEPTH = 8;
    private static final Set<String> JOINED = Set.of("parameters", "prompt");

    /** A script's two parts: its front matter (null: none) and its steps (null: none). */
    record Parts(PNode front, PNode steps) {}

    private Inheritance() {}

    /** {@code script} with its type's settings and steps (itself when it has no type). */
    static Parts resolve(Parts script, Path folder, int maxNesting, Problems problems) {
        return resolve(script, folder, maxNesting, problems, new ArrayList<>());
    }

    private static Parts resolve(Parts script, Path folder, int maxNesting, Problems problems, List<String> chain) {
        PNode.Scalar type = type(script.front());
        if (type == null || Set.of("lib", "type", "").contains(type.value().strip())) {
            return script;
        }
        String name = type.value().strip();
        if (chain.contains(name) || chain.size() >= MAX_DEPTH) {
            problems.error(type.pos(), "the type '" + name + "' inherits itself (" + String.join(" → ", chain) + ")");
            return script;
        }
        Library.Found found = Library.find(name, folder);
        if (found == null) {
            problems.error(
                    type.pos(),
                    "the type '" + name + "' is not found: planvm's library has char; else write " + name
                            + ".ai.yaml beside this script");
            return script;
        }
        Problems own = new Problems();
        List<PNode.Document> documents = PpeReader.read(LenientForm.of(found.text()), maxNesting, own);
        if (documents == null || own.hasErrors()) {
            own.list().stream()
                    .filter(dev.planvm.instructions.Diagnostic::isError)
                    .limit(3)
                    .forEach(d -> problems.error(type.pos(), "the type '" + name + "' cannot be read: " + d.message()));
            return script;
        }
        boolean front = documents.size() > 1 && documents.get(0).explicit();
        Parts base = new Parts(
                front ? documents.get(0).root() : null,
                front
                        ? documents.get(1).root()
                        : documents.isEmpty() ? null : documents.get(0).root());
        List<String> deeper = new ArrayList<>(chain);
        deeper.add(name);
        base = resolve(base, found.builtIn() ? null : found.file().getParent(), maxNesting, problems, deeper);
        return new Parts(front(base.front(), script.front()), steps(base.steps(), script.steps()));
    }

    /** The {@code type:} of a front matter, or null. */
    static PNode.Scalar type(PNode front) {
        if (front instanceof PNode.Mapping m) {
            for (PNode.Entry e : m.entries()) {
                if (e.key().value().equals("type") && e.value() instanceof PNode.Scalar s) {
                    return s;
                }
            }
        }
        return null;
    }

    private static PNode front(PNode base, PNode own) {
        if (!(base instanceof PNode.Mapping b)) {
            return own;
        }
        if (own != null && !(own instanceof PNode.Mapping)) {
            return own;
        }
        Map<String, PNode.Entry> merged = new LinkedHashMap<>();
        for (PNode.Entry e : b.entries()) {
            if (!e.key().value().equals("type")) {
                merged.put(e.key().value(), e);
            }
        }
        Pos pos = b.pos();
        if (own instanceof PNode.Mapping o) {
            pos = o.pos();
            for (PNode.Entry e : o.entries()) {
                String key = e.key().value();
                PNode.Entry earlier = merged.get(key);
                if (key.equals("type")) {
                    continue;
                }
                if (earlier != null
                        && key.equals("input")
                        && earlier.value() instanceof PNode.Sequence a
                        && e.value() instanceof PNode.Sequence c) {
                    Map<String, PNode> inputs = new LinkedHashMap<>();
                    for (PNode item : a.items()) {
                        inputs.put(inputName(item), item);
                    }
                    for (PNode item : c.items()) {
                        inputs.remove(inputName(item));
                        inputs.put(inputName(item), item);
                    }
                    List<PNode> items = new ArrayList<>(inputs.values());
                    merged.put(key, new PNode.Entry(e.key(), new PNode.Sequence(items, c.pos(), c.tag())));
                } else if (earlier != null
                        && JOINED.contains(key)
                        && earlier.value() instanceof PNode.Mapping a
                        && e.value() instanceof PNode.Mapping c) {
                    Map<String, PNode.Entry> fields = new LinkedHashMap<>();
                    a.entries().forEach(f -> fields.put(f.key().value(), f));
                    c.entries().forEach(f -> fields.put(f.key().value(), f));
                    merged.put(
                            key,
                            new PNode.Entry(
                                    e.key(), new PNode.Mapping(List.copyOf(fields.values()), c.pos(), c.tag())));
                } else {
                    merged.remove(key); // the script's own value, in its place
                    merged.put(key, e);
                }
            }
        }
        return new PNode.Mapping(List.copyOf(merged.values()), pos, null);
    }

    /** The name an {@code input} item declares ({@code name} or {@code name: {...}}), or a key no name has. */
    private static String inputName(PNode item) {
        if (item instanceof PNode.Scalar s) {
            return s.value();
        }
        if (item instanceof PNode.Mapping m && m.entries().size() == 1) {
            return m.entries().get(0).key().value();
        }
        return "\u0000" + System.identityHashCode(item);
    }

    private static PNode steps(PNode base, PNode own) {
        if (base == null) {
            return own;
        }
        if (own == null) {
            return base;
        }
        List<PNode> items = new ArrayList<>(items(base));
        items.addAll(items(own));
        return new PNode.Sequence(items, own.pos(), null);
    }

    private static List<PNode> items(PNode steps) {
        return steps instanceof PNode.Sequence s && s.tag() == null ? s.items() : List.of(steps);
    }
}
