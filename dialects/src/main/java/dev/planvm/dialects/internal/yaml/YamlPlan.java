package dev.planvm.dialects.internal.yaml;

import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.dialects.internal.Ast;
import dev.planvm.dialects.internal.Bindings;
import dev.planvm.dialects.internal.ExprParser;
import dev.planvm.dialects.internal.FrontEndOptions;
import dev.planvm.dialects.internal.Lexer;
import dev.planvm.dialects.internal.Locator;
import dev.planvm.dialects.internal.Pos;
import dev.planvm.dialects.internal.Problems;
import dev.planvm.dialects.internal.Program;
import dev.planvm.dialects.internal.SyntaxError;
import dev.planvm.dialects.internal.Token;
import dev.planvm.instructions.ForEach;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads seed 000's plan structure from the YAML tree: aliases bound to text or to a set of domains,
 * each domain a tool call whose slots are its params ({@code {slot: [values...]}}, a single text
 * being a one-element list), and the {@code result} alias. Slot values and text aliases may hold
 * {@code ${expression}} references; a value that is exactly one reference keeps the expression's
 * JSON type, and <code>$${</code> is a literal <code>${</code> (as in planvm).
 */
final class YamlPlan {

    static final String RESULT = "result";
    private static final Pattern TOOL_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_.-]*(:[A-Za-z_][A-Za-z0-9_.-]*)?");

    private final FrontEndOptions options;
    private final Map<Integer, ValueRepair.Repair> repairs;
    private final Problems problems;
    /** Every alias name of the plan: the element of an {@code each(...)} slot is named apart from them. */
    private final Set<String> aliasNames = new HashSet<>();

    /** A slot whose one value is {@code ${each(list)}} makes the call once for each element of the list. */
    static final String EACH = "each";

    YamlPlan(FrontEndOptions options, Map<Integer, ValueRepair.Repair> repairs, Problems problems) {
        this.options = options;
        this.repairs = repairs;
        this.problems = problems;
    }

    /** The plan's aliases and result, or null when there is no result to compile. */
    Program build(YNode root) {
        if (!(root instanceof YNode.Mapping plan)) {
            problems.error(
                    root.pos(),
                    "a YAML plan is a mapping of aliases (name: domains or text), with a '" + RESULT + "' alias");
            return null;
        }
        if (plan.entries().size() > options.maxAliases()) {
            problems.error(
                    plan.pos(),
                    "the plan has " + plan.entries().size() + " aliases, more than the limit of "
                            + options.maxAliases());
            return null;
        }
        plan.entries().forEach(e -> aliasNames.add(e.key().value()));
        List<Program.AliasDef> aliases = new ArrayList<>();
        Program.AliasDef result = null;
        for (YNode.Entry entry : plan.entries()) {
            String name = entry.key().value();
            Pos at = entry.key().pos();
            if (!Lexer.isName(name)) {
                problems.error(
                        at,
                        "the alias name '" + name + "' is not a name: use letters, digits and _,"
                                + " not starting with a digit");
                continue;
            }
            if (Bindings.NEVER.contains(name)) {
                problems.error(at, "'" + name + "' cannot be an alias name");
                continue;
            }
            Ast body = alias(name, entry.value());
            if (body == null) {
                body = new Ast.Literal(NullNode.getInstance(), at); // reported; keeps the name known
            }
            Program.AliasDef def = new Program.AliasDef(name, at, body);
            if (name.equals(RESULT)) {
                result = def;
            } else {
                aliases.add(def);
            }
        }
        if (result == null) {
            if (plan.entries().stream().noneMatch(e -> e.key().value().equals(RESULT))) {
                problems.error(plan.pos(), "the plan has no '" + RESULT + "' alias: its value is the plan's result");
            }
            return null;
        }
        return new Program(aliases, result, true);
    }

    /** The expression an alias stands for, or null (problem reported). */
    private Ast alias(String name, YNode value) {
        if (value instanceof YNode.Scalar s) {
            if (s.empty()) {
                problems.error(s.pos(), "alias '" + name + "' has no value: bind it to domains or to text");
                return null;
            }
            return template(s);
        }
        if (value instanceof YNode.Sequence seq) {
            problems.error(
                    seq.pos(),
                    "alias '" + name + "' is a list: bind it to domains (a mapping) or to text;"
                            + " for a list value write ${[a, b]}");
            return null;
        }
        YNode.Mapping domains = (YNode.Mapping) value;
        if (domains.entries().isEmpty()) {
            problems.error(domains.pos(), "alias '" + name + "' has no domains");
            return null;
        }
        List<Ast.Property> calls = new ArrayList<>();
        for (YNode.Entry domain : domains.entries()) {
            Ast call = domain(name, domain);
            if (call != null) {
                Ast result = options.unwrapSingleElement() && call instanceof Ast.ToolCall
                        ? new Ast.Unwrap(call, call.pos())
                        : call;
                calls.add(new Ast.Property(
                        domain.key().value(), result, domain.key().pos()));
            }
        }
        if (calls.size() != domains.entries().size()) {
            return null;
        }
        if (calls.size() == 1 && options.singleDomainResult()) {
            return calls.get(0).value();
        }
        return new Ast.ObjectLit(calls, domains.pos());
    }

    /** A domain's call: a tool call, or (with an {@code each(...)} slot) one call per element. */
    private Ast domain(String alias, YNode.Entry domain) {
        String tool = domain.key().value();
        Pos at = domain.key().pos();
        if (!TOOL_NAME.matcher(tool).matches()) {
            problems.error(
                    at,
                    "the domain '" + tool + "' of alias '" + alias + "' is not a tool name (an identifier"
                            + " or module:function)");
            return null;
        }
        List<Ast.Property> slots = new ArrayList<>();
        if (domain.value() instanceof YNode.Scalar s && s.empty()) {
            return new Ast.ToolCall(tool, new Ast.ObjectLit(slots, at), at); // a domain with no slots
        }
        if (!(domain.value() instanceof YNode.Mapping mapping)) {
            problems.error(
                    domain.value().pos(),
                    "the domain '" + tool + "' of alias '" + alias + "' must be a mapping" + " of slots (slot: value)");
            return null;
        }
        boolean ok = true;
        for (YNode.Entry slot : mapping.entries()) {
            Ast values = slot(tool, slot);
            if (values == null) {
                ok = false;
            } else {
                slots.add(
                        new Ast.Property(slot.key().value(), values, slot.key().pos()));
            }
        }
        return ok ? each(tool, slots, mapping.pos(), at) : null;
    }

    /**
     * The domain's call; when one slot's only value is {@code ${each(list)}}, the call made once for each
     * element of the list, that slot holding the element (as a one-element list, as any slot does).
     */
    private Ast each(String tool, List<Ast.Property> slots, Pos params, Pos at) {
        Ast.Property eachSlot = null;
        for (Ast.Property slot : slots) {
            if (!(slot.value() instanceof Ast.ArrayLit values)) {
                continue;
            }
            for (Ast value : values.elements()) {
                if (!(value instanceof Ast.Call c
                        && c.callee() instanceof Ast.Name n
                        && n.name().equals(EACH))) {
                    continue;
                }
                if (values.elements().size() != 1 || c.args().size() != 1) {
                    problems.error(
                            value.pos(),
                            "each(list) must be the only value of its slot and take one list: " + slot.key()
                                    + ": ${each(cities)}");
                    return null;
                }
                if (eachSlot != null) {
                    problems.error(
                            value.pos(),
                            "domain '" + tool + "' has two each(...) slots ('" + eachSlot.key() + "' and '" + slot.key()
                                    + "'): one call per element maps over one list");
                    return null;
                }
                eachSlot = slot;
            }
        }
        if (eachSlot == null) {
            return new Ast.ToolCall(tool, new Ast.ObjectLit(slots, params), at, true);
        }
        String element = ForEach.DEFAULT_AS;
        for (int i = 1; aliasNames.contains(element); i++) {
            element = ForEach.DEFAULT_AS + "_" + i;
        }
        Ast list = ((Ast.Call) ((Ast.ArrayLit) eachSlot.value()).elements().get(0))
                .args()
                .get(0);
        List<Ast.Property> perElement = new ArrayList<>();
        for (Ast.Property slot : slots) {
            perElement.add(
                    slot == eachSlot
                            ? new Ast.Property(
                                    slot.key(),
                                    new Ast.ArrayLit(List.of(new Ast.Var(element, slot.pos())), slot.pos()),
                                    slot.pos())
                            : slot);
        }
        return new Ast.EachCall(
                list, element, new Ast.ToolCall(tool, new Ast.ObjectLit(perElement, params), at, true), at);
    }

    /** A slot's values as a list (seed 000: a single text is a one-element list). */
    private Ast slot(String tool, YNode.Entry slot) {
        String name = slot.key().value();
        if (name.isEmpty()) {
            problems.error(slot.key().pos(), "a slot of domain '" + tool + "' has an empty name");
            return null;
        }
        YNode value = slot.value();
        List<Ast> items = new ArrayList<>();
        if (value instanceof YNode.Scalar s) {
            if (s.empty()) {
                problems.error(
                        s.pos(),
                        "slot '" + name + "' of domain '" + tool + "' has no value (write '' for empty" + " text)");
                return null;
            }
            items.add(template(s));
        } else if (value instanceof YNode.Sequence seq) {
            for (YNode item : seq.items()) {
                if (!(item instanceof YNode.Scalar s)) {
                    problems.error(
                            item.pos(),
                            "the values of slot '" + name + "' must be text, not a "
                                    + (item instanceof YNode.Mapping ? "mapping" : "list")
                                    + " (for structured values write"
                                    + " ${...})");
                    return null;
                }
                items.add(template(s));
            }
        } else {
            problems.error(
                    value.pos(),
                    "slot '" + name + "' of domain '" + tool + "' must be text or a list of text,"
                            + " not a mapping (for an object write ${{key: value}})");
            return null;
        }
        return new Ast.ArrayLit(items, slot.key().pos());
    }

    /** A scalar's text with its references: the expression itself when the text is exactly one reference. */
    private Ast template(YNode.Scalar s) {
        String text = s.value();
        Locator at = locator(s);
        warnDashWithoutSpace(s);
        List<Ast> parts = new ArrayList<>();
        StringBuilder literal = new StringBuilder();
        int references = 0;
        int i = 0;
        try {
            while (i < text.length()) {
                if (text.startsWith("$${", i)) {
                    literal.append("${");
                    i += 3;
                } else if (text.startsWith("${", i)) {
                    if (literal.length() > 0) {
                        parts.add(new Ast.Literal(TextNode.valueOf(literal.toString()), at.at(i)));
                        literal.setLength(0);
                    }
                    i = reference(text, i, at, parts);
                    references++;
                } else {
                    literal.append(text.charAt(i++));
                }
            }
        } catch (SyntaxError e) {
            problems.error(at.at(e.offset()), e.getMessage());
            return new Ast.Literal(TextNode.valueOf(text), s.pos());
        }
        if (literal.length() > 0) {
            parts.add(new Ast.Literal(TextNode.valueOf(literal.toString()), at.at(i)));
        }
        if (references == 0) {
            return new Ast.Literal(TextNode.valueOf(literal.toString()), s.pos());
        }
        return parts.size() == 1 ? parts.get(0) : new Ast.Template(parts, s.pos());
    }

    /** Parses the reference whose {@code $} is at {@code dollar} into {@code parts}; returns the offset after its '}'. */
    private int reference(String text, int dollar, Locator at, List<Ast> parts) {
        ExprParser parser = new ExprParser(text, dollar + 2, at, false, options.maxNesting());
        Token first = parser.current();
        if (first.is(Token.Kind.RBRACE)) {
            throw new SyntaxError("empty reference '${}'", dollar);
        }
        if (first.is(Token.Kind.EOF)) {
            throw new SyntaxError("unterminated reference: missing '}' to close '${'", dollar);
        }
        parts.add(parser.expression());
        Token end = parser.current();
        if (end.is(Token.Kind.EOF)) {
            throw new SyntaxError("unterminated reference: missing '}' to close '${'", dollar);
        }
        if (!end.is(Token.Kind.RBRACE)) {
            throw new SyntaxError("expected '}' to end the reference but found " + end.describe(), end.offset());
        }
        return end.offset() + 1;
    }

    /** Seed 000 writes {@code -value3}: YAML reads that as the text "-value3", not as a list item. */
    private void warnDashWithoutSpace(YNode.Scalar s) {
        String v = s.value();
        if (s.plain() && v.length() > 1 && v.charAt(0) == '-' && Character.isLetter(v.charAt(1))) {
            problems.warning(
                    s.pos(),
                    "'" + shorten(v) + "' is the text '" + shorten(v) + "', not a list item:" + " write '- "
                            + shorten(v.substring(1)) + "' (with a space) for a list");
        }
    }

    private static String shorten(String s) {
        return s.length() <= 40 ? s : s.substring(0, 37) + "...";
    }

    /** Maps offsets in a scalar's value to the file: exactly for one-line plain, repaired and simple quoted values. */
    private Locator locator(YNode.Scalar s) {
        Pos start = s.pos();
        ValueRepair.Repair repair = repairs.get(start.line() - 1);
        if (repair != null && repair.valueColumn() == start.column() - 1) {
            return offset -> new Pos(start.line(), repair.valueColumn() + 1 + offset);
        }
        boolean oneLine = s.endLine() == start.line();
        if (oneLine && s.plain()) {
            return offset -> new Pos(start.line(), start.column() + offset);
        }
        if (oneLine
                && s.quoted()
                && s.endColumn() - start.column() - 2 == s.value().length()) {
            return offset -> new Pos(start.line(), start.column() + 1 + offset);
        }
        return offset -> start;
    }
}
