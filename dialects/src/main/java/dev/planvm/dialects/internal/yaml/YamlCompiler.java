package dev.planvm.dialects.internal.yaml;

import dev.planvm.dialects.internal.Backend;
import dev.planvm.dialects.internal.CompileResult;
import dev.planvm.dialects.internal.FrontEndOptions;
import dev.planvm.dialects.internal.Pos;
import dev.planvm.dialects.internal.Problems;
import dev.planvm.dialects.internal.Program;
import dev.planvm.dialects.internal.Results;
import dev.planvm.dialects.internal.ToolHeader;
import java.util.Map;

/**
 * The YAML dataflow dialect (seed 000): {@code ${...}} repair, safe YAML reading, the plan's
 * structure, then the shared back end. Use it through {@link dev.planvm.dialects.DialectCompiler}.
 */
public final class YamlCompiler {

    /**
     * The longest line a YAML plan may have. SnakeYAML looks ahead over a whole plain value (and
     * over each run of non-blanks in a quoted one) and copies its buffer for every 1 KiB it reads
     * meanwhile, so one long line costs time quadratic in its length: about a second for 1 MiB.
     * At 64 Ki characters a line costs a few milliseconds, and a 5 MiB plan well under a second.
     * Longer text can be written as a block scalar ({@code |}), which is read line by line.
     */
    public static final int MAX_LINE_LENGTH = 65_536;

    private YamlCompiler() {}

    /** Compiles a YAML plan; never throws on bad input. The size limit is checked by the caller. */
    public static CompileResult compile(String source, FrontEndOptions options) {
        Problems problems = new Problems();
        int longLine = longLine(source);
        if (longLine > 0) {
            problems.error(
                    new Pos(longLine, MAX_LINE_LENGTH + 1),
                    "the line is longer than " + String.format(java.util.Locale.ROOT, "%,d", MAX_LINE_LENGTH)
                            + " characters: write long text as a block"
                            + " scalar (key: |, then the text on indented lines)");
            return new CompileResult(null, Map.of(), problems.list());
        }
        ValueRepair.Result repaired = ValueRepair.repair(source);
        YamlReader.Documents documents = YamlReader.read(
                repaired.text(),
                options.maxNesting(),
                2,
                "a plan is one YAML document, after an optional plan-tool header: remove the third document"
                        + " (from this '---' on)",
                problems);
        if (documents == null || documents.roots().isEmpty()) {
            if (!problems.hasErrors()) {
                problems.error(new Pos(1, 1), "the plan is empty: write aliases and a 'result' alias");
            }
            return new CompileResult(null, Map.of(), problems.list());
        }
        ToolHeader header = null;
        YNode root = documents.roots().get(0);
        if (documents.roots().size() == 2) {
            if (!YamlHeader.isHeader(root)) {
                problems.error(
                        documents.starts().get(1),
                        "a plan is one YAML document: remove the second document (from this '---' on), or make"
                                + " the first one a plan-tool header (name: ...)");
                return new CompileResult(null, Map.of(), problems.list());
            }
            header = YamlHeader.read((YNode.Mapping) root, problems);
            root = documents.roots().get(1);
            if (header != null) {
                options = header.readable(options);
            }
        }
        Program program = new YamlPlan(options, repaired.repairs(), problems).build(root);
        if (program == null) {
            return Results.of(null, problems);
        }
        Backend.Settings settings =
                new Backend.Settings(java.util.Set.of(), false, options.inputs(), false, options.maxInstructions());
        CompileResult compiled = Results.of(Backend.compile(program, settings, problems), problems);
        return header == null ? compiled : header.wrap(compiled);
    }

    /** The 1-based number of the first line longer than {@link #MAX_LINE_LENGTH}, or 0. */
    private static int longLine(String source) {
        int line = 1;
        int start = 0;
        for (int i = 0; i <= source.length(); i++) {
            if (i == source.length() || source.charAt(i) == '\n' || source.charAt(i) == '\r') {
                if (i - start > MAX_LINE_LENGTH) {
                    return line;
                }
                if (i < source.length()
                        && source.charAt(i) == '\r'
                        && i + 1 < source.length()
                        && source.charAt(i + 1) == '\n') {
                    i++;
                }
                line++;
                start = i + 1;
            }
        }
        return 0;
    }
}
