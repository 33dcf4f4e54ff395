package dev.planvm.dialects.internal.yaml;

import static dev.planvm.dialects.internal.YamlMarks.describe;
import static dev.planvm.dialects.internal.YamlMarks.firstLine;
import static dev.planvm.dialects.internal.YamlMarks.pos;

import dev.planvm.dialects.internal.Pos;
import dev.planvm.dialects.internal.Problems;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.events.CollectionStartEvent;
import org.yaml.snakeyaml.events.Event;
import org.yaml.snakeyaml.events.NodeEvent;
import org.yaml.snakeyaml.events.ScalarEvent;
import org.yaml.snakeyaml.parser.Parser;
import org.yaml.snakeyaml.parser.ParserImpl;
import org.yaml.snakeyaml.reader.StreamReader;

/**
 * Reads a YAML document safely into {@link YNode}s from SnakeYAML's events, without its type
 * resolution or its composer: scalars stay text (YAML 1.1's {@code yes}/{@code on} booleans and
 * {@code 0123} octals never happen), duplicate keys are refused at the second one, and anchors,
 * aliases and tags are refused (no billion-laughs expansion, no type tags). Nesting is bounded,
 * and the document-size limit is the plan limit, not SnakeYAML's 3 MB default. The tree is built
 * with an explicit stack.
 */
final class YamlReader {

    private final int maxNesting;
    private final Problems problems;
    private final Deque<Builder> stack = new ArrayDeque<>();
    private final List<YNode> roots = new ArrayList<>();
    private final List<Pos> starts = new ArrayList<>();

    /**
     * The documents of a YAML text, in order: the root node of each and the place its {@code ---} (or
     * its first line) starts.
     */
    record Documents(List<YNode> roots, List<Pos> starts) {
        Documents {
            roots = List.copyOf(roots);
            starts = List.copyOf(starts);
        }
    }

    private YamlReader(int maxNesting, Problems problems) {
        this.maxNesting = maxNesting;
        this.problems = problems;
    }

    /**
     * Every document of the text (at most {@code maxDocuments}; the next one is an error naming
     * {@code tooMany}), an empty list when there is none, or null when the text cannot be read
     * (problems reported).
     */
    static Documents read(String text, int maxNesting, int maxDocuments, String tooMany, Problems problems) {
        return new YamlReader(maxNesting, problems).read(text, maxDocuments, tooMany);
    }

    private Documents read(String text, int maxDocuments, String tooMany) {
        LoaderOptions options = new LoaderOptions();
        options.setCodePointLimit(Math.max(text.length() + 1, options.getCodePointLimit()));
        options.setAllowDuplicateKeys(false);
        options.setMaxAliasesForCollections(0);
        options.setNestingDepthLimit(maxNesting);
        Parser parser = new ParserImpl(new StreamReader(text), options);
        int documents = 0;
        try {
            while (true) {
                Event event = parser.getEvent();
                switch (event.getEventId()) {
                    case StreamEnd -> {
                        return new Documents(roots, starts);
                    }
                    case DocumentStart -> {
                        if (++documents > maxDocuments) {
                            problems.error(pos(event.getStartMark()), tooMany);
                            return null;
                        }
                        starts.add(pos(event.getStartMark()));
                    }
                    case Alias -> {
                        problems.error(
                                pos(event.getStartMark()),
                                "YAML aliases (*name) are not supported in plans:" + " write the value out");
                        add(new YNode.Scalar("", pos(event.getStartMark()), false, false, false, 1, 1)); // reported
                    }
                    case Scalar -> add(scalar((ScalarEvent) event));
                    case MappingStart, SequenceStart -> {
                        refuseAnchorAndTag((NodeEvent) event, ((CollectionStartEvent) event).getTag());
                        if (stack.size() >= maxNesting) {
                            problems.error(
                                    pos(event.getStartMark()),
                                    "the YAML is nested too deeply (more than " + maxNesting + " levels)");
                            return null;
                        }
                        stack.push(new Builder(event.is(Event.ID.MappingStart), pos(event.getStartMark())));
                    }
                    case MappingEnd, SequenceEnd -> add(stack.pop().build());
                    default -> {} // stream start, document end, comments
                }
            }
        } catch (MarkedYAMLException e) {
            Mark mark = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
            String hint = mark != null && lineOf(text, mark.getLine()).contains("${")
                    ? " (YAML may misread a value holding ${...}, e.g. inside [...] or {...}: quote it, '${...}')"
                    : "";
            problems.error(mark == null ? null : pos(mark), "not valid YAML: " + describe(e) + hint);
        } catch (YAMLException e) {
            problems.fileError("not valid YAML: " + firstLine(e.getMessage()));
        } catch (RuntimeException | StackOverflowError e) {
            problems.fileError("not valid YAML: the document cannot be read ("
                    + e.getClass().getSimpleName() + ")");
        }
        return null;
    }

    private YNode.Scalar scalar(ScalarEvent event) {
        refuseAnchorAndTag(event, event.getTag());
        Mark end = event.getEndMark();
        boolean plain = event.isPlain();
        return new YNode.Scalar(
                event.getValue(),
                pos(event.getStartMark()),
                plain,
                plain && event.getValue().isEmpty(),
                event.isSQuoted() || event.isDQuoted(),
                end.getLine() + 1,
                end.getColumn() + 1);
    }

    private void refuseAnchorAndTag(NodeEvent event, String tag) {
        if (event.getAnchor() != null) {
            problems.error(
                    pos(event.getStartMark()),
                    "YAML anchors (&" + event.getAnchor() + ") are not supported in" + " plans: write each value out");
        }
        if (tag != null) {
            problems.error(
                    pos(event.getStartMark()),
                    "YAML tags (" + tag + ") are not supported in plans: every"
                            + " value is read as text; use ${...} for numbers, booleans, lists and objects");
        }
    }

    private void add(YNode node) {
        if (stack.isEmpty()) {
            roots.add(node);
        } else {
            stack.peek().add(node);
        }
    }

    /** A mapping or sequence being read. */
    private final class Builder {
        private final boolean mapping;
        private final Pos pos;
        private final List<YNode> items = new ArrayList<>();
        private final List<YNode.Entry> entries = new ArrayList<>();
        private final Map<String, Pos> keys = new HashMap<>();
        private YNode.Scalar key;

        Builder(boolean mapping, Pos pos) {
            this.mapping = mapping;
            this.pos = pos;
        }

        void add(YNode node) {
            if (!mapping) {
                items.add(node);
            } else if (key == null) {
                if (node instanceof YNode.Scalar s) {
                    key = s;
                } else {
                    problems.error(
                            node.pos(),
                            "a key must be text, not a " + (node instanceof YNode.Mapping ? "mapping" : "list"));
                    key = new YNode.Scalar("", node.pos(), false, false, false, 1, 1); // reported
                }
                Pos first = keys.putIfAbsent(key.value(), key.pos());
                if (first != null) {
                    problems.error(
                            key.pos(), "duplicate key '" + key.value() + "' (first at " + first.describe() + ")");
                }
            } else {
                entries.add(new YNode.Entry(key, node));
                key = null;
            }
        }

        YNode build() {
            return mapping ? new YNode.Mapping(entries, pos) : new YNode.Sequence(items, pos);
        }
    }

    /** The 0-based line {@code line} of {@code text}, or "". */
    private static String lineOf(String text, int line) {
        int start = 0;
        for (int i = 0; i < line; i++) {
            start = text.indexOf('\n', start) + 1;
            if (start == 0) {
                return "";
            }
        }
        int end = text.indexOf('\n', start);
        return end < 0 ? text.substring(start) : text.substring(start, end);
    }
}
