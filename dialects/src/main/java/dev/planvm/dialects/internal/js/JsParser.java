package dev.planvm.dialects.internal.js;

import com.fasterxml.jackson.databind.node.NullNode;
import dev.planvm.dialects.internal.Ast;
import dev.planvm.dialects.internal.Bindings;
import dev.planvm.dialects.internal.ExprParser;
import dev.planvm.dialects.internal.FrontEndOptions;
import dev.planvm.dialects.internal.Locator;
import dev.planvm.dialects.internal.Pos;
import dev.planvm.dialects.internal.Problems;
import dev.planvm.dialects.internal.Program;
import dev.planvm.dialects.internal.SyntaxError;
import dev.planvm.dialects.internal.Token;
import dev.planvm.dialects.internal.Token.Kind;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Parses seed 001's grammar: {@code (ALIAS_DEC)* 'return' EXPRESSION ';'}, where an alias
 * declaration is {@code name = expression;}, and its note on use vs return: {@code use EXPRESSION;} in
 * place of the {@code return} hands the value back to the LLM that wrote the plan. Accepted beside the grammar, as JavaScript does:
 * {@code const}/{@code let}/{@code var} before a declaration, {@code //} and block comments, and a
 * line break in place of a {@code ;}. On a syntax error it reports the place and skips to the next
 * statement, so one pass finds every error.
 */
final class JsParser {

    /** JavaScript's reserved words (and {@code this}, which is also a date/time function): never alias names. */
    private static final Set<String> RESERVED = Set.of(
            "break",
            "case",
            "catch",
            "class",
            "const",
            "continue",
            "debugger",
            "default",
            "delete",
            "do",
            "else",
            "export",
            "extends",
            "finally",
            "for",
            "function",
            "if",
            "import",
            "in",
            "instanceof",
            "new",
            "return",
            "super",
            "switch",
            "this",
            "throw",
            "try",
            "typeof",
            "var",
            "void",
            "while",
            "with",
            "yield",
            "let",
            "static",
            "enum",
            "await",
            "implements",
            "package",
            "protected",
            "interface",
            "private",
            "public",
            "null",
            "true",
            "false",
            "undefined",
            "NaN",
            "Infinity",
            "arguments",
            "async",
            "of");

    private final String source;
    private final FrontEndOptions options;
    private final Problems problems;
    private final Locator locator;
    private final Map<String, Program.AliasDef> aliases = new LinkedHashMap<>();
    private Program.AliasDef result;
    /** Whether the result is handed back ({@code use}) rather than returned. */
    private boolean use;

    private ExprParser p;
    /** The name of the alias being defined, once its '=' was read. */
    private Token pending;

    JsParser(String source, FrontEndOptions options, Problems problems) {
        this.source = source;
        this.options = options;
        this.problems = problems;
        this.locator = Locator.of(source);
    }

    /** The program, or null when it has no {@code return} (problems reported). */
    Program parse() {
        p = start(0);
        while (p != null && !p.current().is(Kind.EOF) && !problems.full()) {
            pending = null;
            try {
                statement();
            } catch (SyntaxError e) {
                problems.error(locator.at(e.offset()), e.getMessage());
                if (pending != null && !aliases.containsKey(pending.text())) {
                    // reported; keeps the name known, so its uses are not reported again
                    aliases.put(
                            pending.text(),
                            new Program.AliasDef(
                                    pending.text(),
                                    p.pos(pending),
                                    new Ast.Literal(NullNode.getInstance(), p.pos(pending))));
                }
                synchronize();
            }
        }
        if (aliases.size() > options.maxAliases()) {
            problems.error(
                    new Pos(1, 1),
                    "the plan has " + aliases.size() + " aliases, more than the limit of " + options.maxAliases());
        }
        if (result == null) {
            if (!problems.hasErrors()) {
                problems.error(
                        locator.at(source.length()),
                        "the plan has no 'return' statement: end it with" + " 'return <expression>;'");
            }
            return null;
        }
        return new Program(aliases.values().stream().toList(), result, false, use);
    }

    /** A parser from {@code offset}, skipping what cannot be scanned (reported); null at the end. */
    private ExprParser start(int offset) {
        for (int at = offset; at <= source.length(); ) {
            try {
                return new ExprParser(source, at, locator, true, options.maxNesting());
            } catch (SyntaxError e) {
                problems.error(locator.at(e.offset()), e.getMessage());
                at = Math.max(e.offset(), at) + 1;
            }
        }
        return null;
    }

    private void statement() {
        Token t = p.current();
        if (result != null) {
            throw new SyntaxError(
                    use
                            ? "nothing may follow the 'use' statement (a plan has one return or use, at its end)"
                            : "nothing may follow the 'return' statement (a plan has one return, at its end)",
                    t.offset());
        }
        if (t.isWord("return") || t.isWord("use")) {
            p.advance();
            if (t.isWord("use") && p.current().is(Kind.EQUALS)) {
                alias(t); // an alias named 'use'
                return;
            }
            if (p.current().is(Kind.SEMI) || p.current().is(Kind.EOF)) {
                throw new SyntaxError("'" + t.text() + "' needs a value: " + t.text() + " <expression>;", t.offset());
            }
            Ast value = p.expression();
            end();
            result = new Program.AliasDef("return", p.pos(t), value);
            use = t.isWord("use");
            return;
        }
        if (t.isWord("const") || t.isWord("let") || t.isWord("var")) {
            p.advance();
            if (!p.current().is(Kind.IDENT)) {
                throw new SyntaxError(
                        "expected an alias name after '" + t.text() + "' but found "
                                + p.current().describe(),
                        p.current().offset());
            }
        }
        Token name = p.current();
        if (!name.is(Kind.IDENT)) {
            throw new SyntaxError(
                    "expected an alias definition (name = expression;) or 'return expression;' but found "
                            + name.describe(),
                    name.offset());
        }
        if (name.isWord("await")) {
            throw new SyntaxError("'await' is not needed: every call is awaited implicitly", name.offset());
        }
        if (RESERVED.contains(name.text())) {
            throw new SyntaxError(
                    "'" + name.text() + "' is not part of the plan language: a plan is alias definitions"
                            + " (name = expression;) and one 'return expression;'",
                    name.offset());
        }
        pending = name;
        p.advance();
        if (!p.current().is(Kind.EQUALS)) {
            throw new SyntaxError(
                    "expected '=' after the alias name '" + name.text() + "' but found "
                            + p.current().describe()
                            + (p.current().is(Kind.LPAREN)
                                    ? " (a call on its own does nothing: bind it to an alias, or return it)"
                                    : ""),
                    p.current().offset());
        }
        alias(name);
    }

    /** The rest of {@code name = expression;}, the name read and the {@code =} the lookahead. */
    private void alias(Token name) {
        pending = name;
        p.advance();
        if (p.current().isWord("await")) {
            throw new SyntaxError(
                    "'await' is not needed: every call is awaited implicitly",
                    p.current().offset());
        }
        Ast value = p.expression();
        end();
        define(name, value);
    }

    private void define(Token name, Ast value) {
        Pos at = p.pos(name);
        if (Bindings.NEVER.contains(name.text())) {
            problems.error(at, "'" + name.text() + "' cannot be an alias name");
            return;
        }
        Program.AliasDef earlier = aliases.get(name.text());
        if (earlier != null) {
            problems.error(
                    at,
                    "alias '" + name.text() + "' is already defined at "
                            + earlier.pos().describe() + " (an alias is defined once)");
            return;
        }
        aliases.put(name.text(), new Program.AliasDef(name.text(), at, value));
    }

    /** A statement ends with ';', a line break or the end of the text. */
    private void end() {
        Token t = p.current();
        if (t.is(Kind.SEMI)) {
            p.advance();
        } else if (!t.is(Kind.EOF) && !t.newlineBefore()) {
            throw new SyntaxError("expected ';' after the statement but found " + t.describe(), t.offset());
        }
    }

    /** Skips to the start of the next statement: past a ';', or to a name that starts a line. */
    private void synchronize() {
        advanceSafely();
        while (!p.current().is(Kind.EOF)) {
            Token t = p.current();
            if (t.is(Kind.SEMI)) {
                advanceSafely();
                return;
            }
            if (t.newlineBefore() && t.is(Kind.IDENT)) {
                return;
            }
            advanceSafely();
        }
    }

    private void advanceSafely() {
        while (true) {
            try {
                p.advance();
                return;
            } catch (SyntaxError e) {
                p.lexer().skipTo(Math.max(e.offset() + 1, p.lexer().position()));
            }
        }
    }
}
