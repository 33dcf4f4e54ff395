package dev.planvm.dialects.internal;

import com.fasterxml.jackson.databind.node.NullNode;
import dev.planvm.dialects.internal.Bindings.Binding;
import dev.planvm.instructions.expr.Builtins;
import dev.planvm.json.Spelling;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Gives every {@link Ast.Name} and {@link Ast.Call} its meaning through {@link Bindings}: an alias
 * or input becomes a {@link Ast.Var}, a tool call a {@link Ast.ToolCall} (one object-literal
 * argument is the params; any other arguments become {@code {"args": [...]}}), a builtin a
 * {@link Ast.BuiltinCall}, a date/time helper stays as written. Problems are reported, located, and
 * the node is replaced by {@code null} so that one pass finds them all.
 */
public final class Resolver {

    /** Property names the JavaScript seed's security rules keep out of plans. */
    public static final Set<String> PROTOTYPE_NAMES = Set.of(
            "__proto__",
            "prototype",
            "constructor",
            "__defineGetter__",
            "__defineSetter__",
            "__lookupGetter__",
            "__lookupSetter__",
            "hasOwnProperty",
            "isPrototypeOf",
            "propertyIsEnumerable",
            "toString",
            "toLocaleString",
            "valueOf");

    private final Bindings bindings;
    private final Problems problems;
    private final boolean guardPrototypeNames;
    private Set<String> deps;
    /** Inside the function given to {@code map}: the name of its parameter, the element; else null. */
    private String element;
    /** Inside the function given to {@code map}: the name of its second parameter, the element's index; else null. */
    private String position;

    /** The one method values have in the JavaScript subset: a map, one tool call per element. */
    private static final String MAP = "map";
    /** The element's name in the params of {@code list.map(tool)}. */
    private static final String ELEMENT = dev.planvm.instructions.ForEach.DEFAULT_AS;

    private static final String INDEX = dev.planvm.instructions.ForEach.INDEX;

    /**
     * @param guardPrototypeNames refuse {@link #PROTOTYPE_NAMES} as property names (the JavaScript subset)
     */
    public Resolver(Bindings bindings, Problems problems, boolean guardPrototypeNames) {
        this.bindings = bindings;
        this.problems = problems;
        this.guardPrototypeNames = guardPrototypeNames;
    }

    /** The resolved tree; the names of the aliases it reads are added to {@code aliasesRead}. */
    public Ast resolve(Ast ast, Set<String> aliasesRead) {
        this.deps = aliasesRead;
        return walk(ast);
    }

    private Ast walk(Ast ast) {
        if (ast instanceof Ast.Literal || ast instanceof Ast.Var || ast instanceof Ast.DateName) {
            return ast;
        }
        if (ast instanceof Ast.Template t) {
            return new Ast.Template(walkAll(t.parts()), t.pos());
        }
        if (ast instanceof Ast.ArrayLit a) {
            return new Ast.ArrayLit(walkAll(a.elements()), a.pos());
        }
        if (ast instanceof Ast.ObjectLit o) {
            return object(o);
        }
        if (ast instanceof Ast.Name n) {
            return name(n);
        }
        if (ast instanceof Ast.Member m) {
            checkProperty(m.name(), m.pos());
            return new Ast.Member(value(m.target(), "read the property '" + m.name() + "' of"), m.name(), m.pos());
        }
        if (ast instanceof Ast.Index i) {
            if (i.index() instanceof Ast.Literal l && l.value().isTextual()) {
                checkProperty(l.value().textValue(), l.pos());
            }
            return new Ast.Index(value(i.target(), "index"), walk(i.index()), i.pos());
        }
        if (ast instanceof Ast.Call c) {
            return call(c);
        }
        if (ast instanceof Ast.ToolCall t) {
            return new Ast.ToolCall(t.tool(), object(t.params()), t.pos(), t.slots());
        }
        if (ast instanceof Ast.BuiltinCall b) {
            return new Ast.BuiltinCall(b.function(), walkAll(b.args()), b.pos());
        }
        if (ast instanceof Ast.MethodCall m) {
            return new Ast.MethodCall(walk(m.target()), m.method(), walkAll(m.args()), m.pos());
        }
        if (ast instanceof Ast.Unwrap u) {
            return new Ast.Unwrap(walk(u.inner()), u.pos());
        }
        if (ast instanceof Ast.Arrow a) {
            problems.error(a.pos(), "a function (=>) can only be given to map: items.map(x => tool({...}))");
            return nothing(a.pos());
        }
        if (ast instanceof Ast.EachCall e) {
            Ast list = value(e.list(), "map over");
            return new Ast.EachCall(list, e.as(), (Ast.ToolCall) walk(e.call()), e.pos());
        }
        throw new IllegalStateException("unknown node " + ast);
    }

    private List<Ast> walkAll(List<Ast> items) {
        List<Ast> out = new ArrayList<>(items.size());
        for (Ast item : items) {
            out.add(walk(item));
        }
        return out;
    }

    private Ast.ObjectLit object(Ast.ObjectLit o) {
        List<Ast.Property> properties = new ArrayList<>();
        for (Ast.Property p : o.properties()) {
            checkProperty(p.key(), p.pos());
            properties.add(new Ast.Property(p.key(), walk(p.value()), p.pos()));
        }
        return new Ast.ObjectLit(properties, o.pos());
    }

    /** A target of '.', '[...]' or a method: a value, never a function. */
    private Ast value(Ast target, String doing) {
        if (target instanceof Ast.Name n) {
            Optional<Binding> b = bindings.lookup(n.name());
            if (b.isPresent() && isFunction(b.get())) {
                problems.error(
                        n.pos(),
                        "cannot " + doing + " the function '" + n.name() + "': call it first, e.g. " + n.name()
                                + "(...)");
                return nothing(n.pos());
            }
        }
        return walk(target);
    }

    private Ast name(Ast.Name n) {
        if (n.name().equals(element)) {
            return new Ast.Var(element, n.pos());
        }
        if (n.name().equals(position)) {
            return new Ast.Var(INDEX, n.pos()); // for_each binds the element's index to 'index'
        }
        Optional<Binding> b = bindings.lookup(n.name());
        if (b.isEmpty()) {
            problems.error(n.pos(), unknown("name", n.name()));
            return nothing(n.pos());
        }
        Binding binding = b.get();
        if (binding instanceof Bindings.Alias a) {
            deps.add(n.name());
            return new Ast.Var(a.variable(), n.pos());
        }
        if (binding instanceof Bindings.Input in) {
            return new Ast.Var(in.variable(), n.pos());
        }
        if (binding instanceof Bindings.DateConstant) {
            return new Ast.DateName(n.name(), n.pos());
        }
        problems.error(n.pos(), "'" + n.name() + "' is a function: call it, e.g. " + n.name() + "(...)");
        return nothing(n.pos());
    }

    private Ast call(Ast.Call c) {
        if (c.callee() instanceof Ast.Member m && m.name().equals(MAP) && guardPrototypeNames) { // the JS subset
            return each(m, c);
        }
        if (c.callee() instanceof Ast.Member m) {
            if (!Bindings.DATE_METHODS.contains(m.name())) {
                problems.error(
                        m.pos(),
                        "there is no method '" + m.name() + "' (values have no methods; the date/time"
                                + " helpers have " + String.join(", ", sorted(Bindings.DATE_METHODS)) + ")");
                return nothing(c.pos());
            }
            Builtins.Arity arity = Builtins.METHODS.get(m.name());
            if (!arity.accepts(c.args().size())) {
                problems.error(
                        m.pos(),
                        m.name() + "() takes " + arity.describe() + ", not "
                                + c.args().size());
                return nothing(c.pos());
            }
            return new Ast.MethodCall(value(m.target(), "call a method of"), m.name(), walkAll(c.args()), m.pos());
        }
        if (!(c.callee() instanceof Ast.Name n)) {
            problems.error(c.pos(), "only a named function can be called");
            return nothing(c.pos());
        }
        Optional<Binding> b = bindings.lookup(n.name());
        if (b.isEmpty()) {
            if (bindings.infersTools() && !Bindings.NEVER.contains(n.name())) {
                return toolCall(n.name(), c);
            }
            problems.error(n.pos(), unknown("function", n.name()));
            return nothing(c.pos());
        }
        Binding binding = b.get();
        if (binding instanceof Bindings.Tool t) {
            return toolCall(t.tool(), c);
        }
        if (binding instanceof Bindings.Builtin builtin) {
            if (!builtin.arity().accepts(c.args().size())) {
                problems.error(
                        n.pos(),
                        n.name() + "() takes " + builtin.arity().describe() + ", not "
                                + c.args().size());
                return nothing(c.pos());
            }
            return new Ast.BuiltinCall(n.name(), walkAll(c.args()), n.pos());
        }
        if (binding instanceof Bindings.DateFunction) {
            if (c.args().size() != 1) {
                problems.error(
                        n.pos(),
                        n.name() + "() takes 1 argument, not " + c.args().size());
                return nothing(c.pos());
            }
            return new Ast.BuiltinCall("this", walkAll(c.args()), n.pos()); // seed 001's current(x) is this(x)
        }
        if (binding instanceof Bindings.Alias) {
            deps.add(n.name()); // used, if wrongly: not also reported as unused
        }
        String what = binding instanceof Bindings.Alias
                ? "an alias"
                : binding instanceof Bindings.Input ? "an input" : "a date/time constant";
        problems.error(n.pos(), "'" + n.name() + "' is " + what + ", not a function, so it cannot be called");
        return nothing(c.pos());
    }

    /**
     * {@code list.map(tool)} or {@code list.map(x => tool({...x...}))}: the tool called once per element
     * (a {@link Ast.EachCall}); {@code map(tool)} passes the element as the call's one argument
     * ({@code {"args": [element]}}), an arrow names the element in the params of the one tool call it makes.
     */
    private Ast each(Ast.Member m, Ast.Call c) {
        String usage = "map takes a tool or a function that calls one tool, e.g. " + "items.map(fetch) or"
                + " items.map(x => fetch({url: x.url}))";
        if (c.args().size() != 1) {
            problems.error(m.pos(), usage + "; found " + c.args().size() + " arguments");
            return nothing(c.pos());
        }
        Ast list = value(m.target(), "map over");
        Ast f = c.args().get(0);
        if (f instanceof Ast.Name n) {
            Optional<String> tool = toolNamed(n.name());
            if (tool.isEmpty()) {
                problems.error(n.pos(), usage + "; '" + n.name() + "' is not a tool");
                return nothing(c.pos());
            }
            Ast.ObjectLit params = new Ast.ObjectLit(
                    List.of(new Ast.Property(
                            "args", new Ast.ArrayLit(List.of(new Ast.Var(ELEMENT, n.pos())), n.pos()), n.pos())),
                    n.pos());
            return new Ast.EachCall(list, ELEMENT, new Ast.ToolCall(tool.get(), params, n.pos()), c.pos());
        }
        if (!(f instanceof Ast.Arrow arrow)) {
            problems.error(f.pos(), usage);
            return nothing(c.pos());
        }
        if (element != null) {
            problems.error(
                    arrow.pos(), "a map inside the function of another map is not supported: map into an alias first");
            return nothing(c.pos());
        }
        List<String> params = parameters(arrow);
        if (params == null) {
            return nothing(c.pos());
        }
        element = params.get(0);
        position = params.size() > 1 ? params.get(1) : null;
        int reported = problems.list().size();
        Ast body;
        try {
            body = arrow.body() instanceof Ast.Call call ? call(call) : null;
        } finally {
            element = null;
            position = null;
        }
        if (!(body instanceof Ast.ToolCall toolCall)) {
            if (problems.list().size() == reported) { // else the body's own problem says what is wrong
                problems.error(arrow.body().pos(), usage + " (the function's body must be that one tool call)");
            }
            return nothing(c.pos());
        }
        if (callsInside(toolCall.params())) {
            problems.error(
                    arrow.body().pos(),
                    "the function given to map makes one tool call per element; compute the other calls in its"
                            + " arguments into an alias first");
            return nothing(c.pos());
        }
        return new Ast.EachCall(list, element(arrow), toolCall, c.pos());
    }

    /** The element's name: the first parameter of a function {@link #parameters} accepted. */
    private static String element(Ast.Arrow arrow) {
        return ((Ast.Name) arrow.params().get(0)).name();
    }

    /**
     * The names of the parameters of the function given to {@code map}: the element and, optionally, its
     * index ({@code (x, i) => ...}); {@code null} after reporting, at its place, a shape map does not take
     * (more parameters, destructuring, a name planvm keeps, one name twice).
     */
    private List<String> parameters(Ast.Arrow arrow) {
        String shape = "map takes a function of the element and, optionally, its index: items.map((x, i) =>"
                + " fetch({url: x.url, at: i}))";
        if (arrow.params().size() > 2) {
            problems.error(
                    arrow.params().get(2).pos(),
                    shape + "; found " + arrow.params().size() + " parameters");
            return null;
        }
        List<String> names = new ArrayList<>();
        for (Ast param : arrow.params()) {
            if (!(param instanceof Ast.Name n)) {
                problems.error(
                        param.pos(),
                        shape + "; a parameter must be a plain name (destructuring is not supported: name the"
                                + " element and read its fields, x.url)");
                return null;
            }
            names.add(n.name());
        }
        if (names.get(0).equals(INDEX)) {
            problems.error(
                    arrow.params().get(0).pos(),
                    "the element cannot be named 'index' (planvm binds the element's position to it)");
            return null;
        }
        if (names.size() == 2 && names.get(1).equals(names.get(0))) {
            problems.error(
                    arrow.params().get(1).pos(),
                    "the element and its index need two names: '" + names.get(1) + "' is given twice");
            return null;
        }
        return names;
    }

    /** The tool a name calls, if it names one. */
    private Optional<String> toolNamed(String name) {
        Optional<Binding> b = bindings.lookup(name);
        if (b.isPresent()) {
            return b.get() instanceof Bindings.Tool t ? Optional.of(t.tool()) : Optional.empty();
        }
        return bindings.infersTools() && !Bindings.NEVER.contains(name) ? Optional.of(name) : Optional.empty();
    }

    private static boolean callsInside(Ast ast) {
        if (ast instanceof Ast.ToolCall || ast instanceof Ast.EachCall) {
            return true;
        }
        if (ast instanceof Ast.ObjectLit o) {
            return o.properties().stream().anyMatch(p -> callsInside(p.value()));
        }
        if (ast instanceof Ast.ArrayLit a) {
            return a.elements().stream().anyMatch(Resolver::callsInside);
        }
        if (ast instanceof Ast.Template t) {
            return t.parts().stream().anyMatch(Resolver::callsInside);
        }
        if (ast instanceof Ast.Member m) {
            return callsInside(m.target());
        }
        if (ast instanceof Ast.Index i) {
            return callsInside(i.target()) || callsInside(i.index());
        }
        if (ast instanceof Ast.BuiltinCall b) {
            return b.args().stream().anyMatch(Resolver::callsInside);
        }
        if (ast instanceof Ast.MethodCall m) {
            return callsInside(m.target()) || m.args().stream().anyMatch(Resolver::callsInside);
        }
        return ast instanceof Ast.Unwrap u && callsInside(u.inner());
    }

    private Ast toolCall(String tool, Ast.Call c) {
        if (c.args().size() == 1 && c.args().get(0) instanceof Ast.ObjectLit params) {
            return new Ast.ToolCall(tool, object(params), c.pos());
        }
        List<Ast.Property> params = new ArrayList<>();
        if (!c.args().isEmpty()) {
            params.add(new Ast.Property("args", new Ast.ArrayLit(walkAll(c.args()), c.pos()), c.pos()));
        }
        return new Ast.ToolCall(tool, new Ast.ObjectLit(params, c.pos()), c.pos());
    }

    private void checkProperty(String name, Pos pos) {
        if (guardPrototypeNames && PROTOTYPE_NAMES.contains(name)) {
            problems.error(
                    pos,
                    "'" + name + "' cannot be used as a property name (it names JavaScript object"
                            + " internals, which plans must not reach)");
        }
    }

    private String unknown(String kind, String name) {
        if (kind.equals("function") && name.equals("each") && !guardPrototypeNames) {
            return "each(list) can only be the whole value of a domain's slot (city: ${each(cities)}):"
                    + " it calls the domain once for each element";
        }
        if (Bindings.NEVER.contains(name)) {
            return "'" + name + "' is not available in plans: they cannot run code or reach the host";
        }
        List<String> candidates = kind.equals("function")
                ? bindings.namesOf(Resolver::isFunction)
                : bindings.namesOf(b -> !isFunction(b));
        String message = "unknown " + kind + " '" + name + "'";
        Optional<String> close = Spelling.closest(name, candidates);
        if (close.isPresent()) {
            return message + " (did you mean '" + close.get() + "'?)";
        }
        if (kind.equals("function")) {
            List<String> tools = bindings.namesOf(b -> b instanceof Bindings.Tool);
            return message + (tools.isEmpty() ? "" : " (tools: " + String.join(", ", tools) + ")");
        }
        List<String> aliases = bindings.namesOf(b -> b instanceof Bindings.Alias);
        return message + (aliases.isEmpty() ? "" : " (aliases: " + Suggest.list(aliases, 10) + ")");
    }

    private static boolean isFunction(Binding b) {
        return b instanceof Bindings.Tool || b instanceof Bindings.Builtin || b instanceof Bindings.DateFunction;
    }

    private static List<String> sorted(Set<String> s) {
        return s.stream().sorted().toList();
    }

    /** Stands for a node that had a problem (already reported); never emitted, since the plan has errors. */
    private static Ast nothing(Pos pos) {
        return new Ast.Literal(NullNode.getInstance(), pos);
    }
}
