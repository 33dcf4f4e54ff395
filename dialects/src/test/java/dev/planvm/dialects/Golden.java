package dev.planvm.dialects;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Golden files for dialect sources: {@code X.yaml} (or {@code .yml}, {@code .js}, {@code .json})
 * beside {@code X.expected}, which holds the diagnostics, the line of each {@code seq_no} and the
 * compiled plan. Run with {@code -Dgolden.update=true} to rewrite the expectations (then review
 * the diff).
 *
 * <p>A source may choose options in a comment line: {@code dialect-options: no-single-domain,
 * no-unwrap, tools=a|b, inputs=x|y}.
 */
final class Golden {

    static final Path EXAMPLES = Path.of("src/test/resources/examples");
    static final Path GOLDEN = Path.of("src/test/resources/golden");

    private Golden() {}

    /** Every dialect source under {@code dir}, sorted. */
    static List<Path> sources(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(
                            p -> Dialect.forFileName(p.getFileName().toString()).isPresent())
                    .filter(p -> !p.getFileName().toString().endsWith(".cassette.json")
                            && !p.getFileName().toString().endsWith(".answer.json"))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The source compiled with the options its {@code dialect-options:} line asks for. */
    static Compiled compile(Path source) {
        String text = read(source);
        DialectOptions options = options(text);
        Dialect dialect = Dialect.ofFile(source.toString());
        if (dialect == Dialect.PPE) { // from its file, so that it may import the scripts beside it
            return DialectCompiler.of(dialect, options).compile(source);
        }
        return DialectCompiler.of(dialect, options)
                .compile(text, source.getFileName().toString());
    }

    static DialectOptions options(String text) {
        DialectOptions options = DialectOptions.DEFAULT;
        for (String line : text.split("\n")) {
            int at = line.indexOf("dialect-options:");
            if (at < 0) {
                continue;
            }
            for (String option :
                    line.substring(at + "dialect-options:".length()).split(",")) {
                String o = option.trim();
                if (o.equals("no-single-domain")) {
                    options = options.withSingleDomainResult(false);
                } else if (o.equals("no-unwrap")) {
                    options = options.withUnwrapSingleElement(false);
                } else if (o.startsWith("tools=")) {
                    options = options.withTools(names(o.substring(6)));
                } else if (o.startsWith("inputs=")) {
                    options = options.withInputs(names(o.substring(7)));
                } else if (!o.isEmpty()) {
                    throw new IllegalArgumentException("unknown dialect option '" + o + "'");
                }
            }
        }
        return options;
    }

    private static Set<String> names(String list) {
        return new HashSet<>(Arrays.asList(list.split("\\|")));
    }

    /** What the golden file holds for a compilation. */
    static String render(Compiled compiled, String fileName) {
        StringBuilder sb = new StringBuilder("== diagnostics\n");
        compiled.diagnostics().forEach(d -> sb.append(d.format(fileName)).append('\n'));
        sb.append("== lines\n");
        new TreeMap<>(compiled.lineOfSeqNo())
                .forEach((seq, line) -> sb.append("seq_no ")
                        .append(seq)
                        .append(": line ")
                        .append(line)
                        .append('\n'));
        sb.append("== plan\n");
        sb.append(compiled.valid() ? compiled.planText() : "(none)").append('\n');
        return sb.toString();
    }

    /** Compares with (or, when updating, writes) {@code X.expected} beside {@code source}. */
    static void check(Path source, String actual) {
        String name = source.getFileName().toString();
        Path expected = source.resolveSibling(name.substring(0, name.lastIndexOf('.')) + ".expected");
        try {
            if (Boolean.getBoolean("golden.update")) {
                Files.writeString(expected, actual, StandardCharsets.UTF_8);
                return;
            }
            assertThat(expected)
                    .as("golden file (run with -Dgolden.update=true to create it)")
                    .exists();
            assertThat(actual).isEqualTo(Files.readString(expected, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
