package dev.planvm.dialects.internal.ppe;

import static dev.planvm.dialects.internal.YamlMarks.describe;
import static dev.planvm.dialects.internal.YamlMarks.firstLine;

import dev.planvm.dialects.internal.Pos;
import dev.planvm.dialects.internal.Problems;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.events.CollectionStartEvent;
import org.yaml.snakeyaml.events.DocumentStartEvent;
import org.yaml.snakeyaml.events.Event;
import org.yaml.snakeyaml.events.NodeEvent;
import org.yaml.snakeyaml.events.ScalarEvent;
import org.yaml.snakeyaml.parser.Parser;
import org.yaml.snakeyaml.parser.ParserImpl;
import org.yaml.snakeyaml.reader.StreamReader;

/**
 * Reads a PPE script's YAML documents from SnakeYAML's events, without its type resolution or its
 * composer (the same safety as the YAML dialect's reader): anchors and aliases are refused (no
 * billion-laughs expansion), nesting is bounded, the tree is built with an explicit stack. Unlike a
 * YAML plan, a script has several documents ({@code ---} starts a new dialogue), tags are kept for
 * the compiler to refuse by name, and duplicate keys are kept in order.
 */
final class PpeReader {

    private final int maxNesting;
    private final Problems problems;
    /** How many columns each line (from 1) was moved by {@link LenientForm}: positions are given without it. */
    private final java.util.function.IntUnaryOperator shift;

    private final Deque<Builder> stack = new ArrayDeque<>();
    private PNode root;

    private PpeReader(int maxNesting, Problems problems, java.util.function.IntUnaryOperator shift) {
        this.maxNesting = maxNesting;
        this.problems = problems;
        this.shift = shift;
    }

    /** The documents of {@code text}, or null when it cannot be read (problems reported). */
    static List<PNode.Document> read(String text, int maxNesting, Problems problems) {
        return new PpeReader(maxNesting, problems, line -> 0).read(text);
    }

    /** The documents of a script in the lenient form, positions as the script has them. */
    static List<PNode.Document> read(LenientForm form, int maxNesting, Problems problems) {
        return new PpeReader(maxNesting, problems, form::shift).read(form.text());
    }

    private Pos pos(Mark mark) {
        Pos at = dev.planvm.dialects.internal.YamlMarks.pos(mark);
        return new Pos(at.line(), Math.max(1, at.column() - shift.applyAsInt(at.line())));
    }

    private List<PNode.Document> read(String text) {
        LoaderOptions options = new LoaderOptions();
        options.setCodePointLimit(Math.max(text.length() + 1, options.getCodePointLimit()));
        options.setAllowDuplicateKeys(true);
        options.setMaxAliasesForCollections(0);
        options.setNestingDepthLimit(maxNesting);
        Parser parser = new ParserImpl(new StreamReader(text), options);
        List<PNode.Document> documents = new ArrayList<>();
        Pos start = null;
        boolean explicit = false;
        try {
            while (true) {
                Event event = parser.getEvent();
                switch (event.getEventId()) {
                    case StreamEnd -> {
                        return documents;
                    }
                    case DocumentStart -> {
                        root = null;
                        start = pos(event.getStartMark());
                        explicit = ((DocumentStartEvent) event).getExplicit();
                    }
                    case DocumentEnd ->
                        documents.add(new PNode.Document(
                                root instanceof PNode.Scalar s
                                                && s.plain()
                                                && s.value().isEmpty()
                                                && s.tag() == null
                                        ? null
                                        : root,
                                start,
                                explicit));
                    case Alias -> {
                        problems.error(
                                pos(event.getStartMark()),
                                "YAML aliases (*name) are not supported in scripts: write the value out");
                        add(new PNode.Scalar("", pos(event.getStartMark()), true, null)); // reported
                    }
                    case Scalar -> add(scalar((ScalarEvent) event));
                    case MappingStart, SequenceStart -> {
                        refuseAnchor((NodeEvent) event);
                        if (stack.size() >= maxNesting) {
                            problems.error(
                                    pos(event.getStartMark()),
                                    "the YAML is nested too deeply (more than " + maxNesting + " levels)");
                            return null;
                        }
                        stack.push(new Builder(
                                event.is(Event.ID.MappingStart),
                                pos(event.getStartMark()),
                                ((CollectionStartEvent) event).getTag()));
                    }
                    case MappingEnd, SequenceEnd -> add(stack.pop().build());
                    default -> {} // stream start, comments
                }
            }
        } catch (MarkedYAMLException e) {
            Mark mark = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
            problems.error(mark == null ? null : pos(mark), "not valid YAML: " + describe(e));
        } catch (YAMLException e) {
            problems.fileError("not valid YAML: " + firstLine(e.getMessage()));
        } catch (RuntimeException | StackOverflowError e) {
            problems.fileError(
                    "not valid YAML: the script cannot be read (" + e.getClass().getSimpleName() + ")");
        }
        return null;
    }

    private PNode.Scalar scalar(ScalarEvent event) {
        refuseAnchor(event);
        return new PNode.Scalar(event.getValue(), pos(event.getStartMark()), event.isPlain(), event.getTag());
    }

    private void refuseAnchor(NodeEvent event) {
        if (event.getAnchor() != null) {
            problems.error(
                    pos(event.getStartMark()),
                    "YAML anchors (&" + event.getAnchor() + ") are not supported in scripts: write each value out");
        }
    }

    private void add(PNode node) {
        if (stack.isEmpty()) {
            root = node;
        } else {
            stack.peek().add(node);
        }
    }

    /** A mapping or sequence being read. */
    private final class Builder {
        private final boolean mapping;
        private final Pos pos;
        private final String tag;
        private final List<PNode> items = new ArrayList<>();
        private final List<PNode.Entry> entries = new ArrayList<>();
        private PNode.Scalar key;

        Builder(boolean mapping, Pos pos, String tag) {
            this.mapping = mapping;
            this.pos = pos;
            this.tag = tag;
        }

        void add(PNode node) {
            if (!mapping) {
                items.add(node);
            } else if (key == null) {
                if (node instanceof PNode.Scalar s) {
                    key = s;
                } else {
                    problems.error(
                            node.pos(),
                            "a key must be text, not a " + (node instanceof PNode.Mapping ? "mapping" : "list"));
                    key = new PNode.Scalar("", node.pos(), true, null); // reported
                }
            } else {
                entries.add(new PNode.Entry(key, node));
                key = null;
            }
        }

        PNode build() {
            return mapping ? new PNode.Mapping(entries, pos, tag) : new PNode.Sequence(items, pos, tag);
        }
    }
}
