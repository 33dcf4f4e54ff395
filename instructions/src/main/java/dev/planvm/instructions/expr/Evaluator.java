package dev.planvm.instructions.expr;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Set;

/**
 * Evaluates a parsed expression (DESIGN P6) over JSON values: a plain recursive walk over the AST,
 * with no reflection and no access to Java objects.
 *
 * <ul>
 *   <li><b>Variables</b>: reading an unset variable is an error ("variable 'x' is not set"), never
 *       a silent empty string or null.</li>
 *   <li><b>Paths</b>: {@code a.b} and {@code a['k']} read an object key, {@code a[0]} an array
 *       element (a whole number in range). A step applied to text that holds a JSON object or array
 *       (the whole text, a <code>```json</code> fence, or the first object in prose) navigates into
 *       it. A missing key lists the keys there are; an index out of range gives the length; a step
 *       into text holding no JSON, null, a number or a boolean names the type.</li>
 *   <li><b>Literals</b> evaluate to themselves; array and object literals build new nodes.</li>
 *   <li><b>Arithmetic</b>: {@code +} concatenates rendered values when either side is text, adds
 *       numbers, concatenates arrays, and fails otherwise. {@code - * / %} need numbers; results
 *       are JavaScript numbers ({@link JsNumbers}): {@code 6 / 2} is 3, {@code 7 / 2} is 3.5;
 *       dividing by zero is an error. Unary {@code -} needs a number.</li>
 *   <li><b>Truthiness</b> (JS): false, null, 0, NaN and "" are falsy; everything else, empty
 *       arrays and objects included, is truthy. {@code !} negates it.</li>
 *   <li><b>{@code && ||}</b> short-circuit and return the deciding operand's value
 *       ({@code a || 'default'}); the skipped side is not evaluated, so an unset variable there is
 *       no error.</li>
 *   <li><b>{@code == !=}</b>: strict JSON equality with numbers compared by value at any depth
 *       ({@code 5 == 5.0}, but {@code '5' != 5}). <b>{@code < <= > >=}</b> compare two numbers by
 *       value or two texts lexicographically; any other pair is an error.</li>
 *   <li><b>Builtins</b> ({@code len str num json keys values lower upper trim contains join split
 *       abs round floor ceil min max}) take evaluated arguments and check their kinds:
 *       {@code len} counts code points, elements or keys; {@code str} renders like
 *       {@link Interpolator#render}; {@code num} reads plain decimal text; {@code json} parses text
 *       (also a fenced or embedded object); {@code round} is JavaScript's Math.round; {@code min}
 *       and {@code max} take numbers or one array of numbers.</li>
 *   <li><b>Date/time helpers</b> ({@link DateFunctions}): {@code today}, {@code now} and the other
 *       bare helper names stand for a value when no variable of that name is set (a variable shadows
 *       them); {@code next(x)}, {@code last(x)}, {@code this(x)}; the methods {@code at},
 *       {@code plus}, {@code minus} and the parts of the day ({@code .morning}) of date/time text.
 *       They read the run's clock from the {@link Variables}, never the system clock.</li>
 * </ul>
 *
 * <p>Errors are {@link EvaluationException}s whose message starts with the expression, e.g.
 * {@code ${user.address.city}: 'user.address' has no key 'city' (it has: street, zip)}.
 */
final class Evaluator {

    private Evaluator() {}

    /**
     * The value of {@code expr}; never Java null (JSON null is {@code NullNode}).
     *
     * @throws EvaluationException when the expression fails; the message names the expression,
     *     the variable and the path
     */
    public static JsonNode evaluate(Expr expr, Variables vars) {
        try {
            return eval(expr, vars);
        } catch (EvaluationException e) {
            throw located(expr, e);
        }
    }

    /** {@code e} with the expression's source in front of its message. */
    private static EvaluationException located(Expr expr, EvaluationException e) {
        String variable = e.variable();
        if (variable == null) {
            Set<String> roots = Exprs.rootVariables(expr);
            variable = roots.size() == 1 ? roots.iterator().next() : null;
        }
        return new EvaluationException("${" + Exprs.render(expr) + "}: " + e.getMessage(), variable, e.path());
    }

    /** The walk itself; errors carry no expression prefix yet. */
    static JsonNode eval(Expr e, Variables vars) {
        if (e instanceof Expr.Variable v) {
            return variable(v, vars);
        }
        if (e instanceof Expr.Member m) {
            return Paths.member(eval(m.target(), vars), m, vars);
        }
        if (e instanceof Expr.Literal literal) {
            return literal.value();
        }
        if (e instanceof Expr.Binary b) {
            return binary(b, vars);
        }
        if (e instanceof Expr.Index i) {
            JsonNode target = eval(i.target(), vars);
            return Paths.index(target, eval(i.index(), vars), i, vars);
        }
        if (e instanceof Expr.Call c) {
            return call(c, vars);
        }
        if (e instanceof Expr.Method m) {
            JsonNode target = eval(m.target(), vars);
            return Builtins.callMethod(m.name(), target, arguments(m.args(), vars), vars);
        }
        if (e instanceof Expr.Unary u) {
            return unary(u, vars);
        }
        if (e instanceof Expr.ArrayLiteral arrayLiteral) {
            return array(arrayLiteral, vars);
        }
        if (e instanceof Expr.ObjectLiteral objectLiteral) {
            return object(objectLiteral, vars);
        }
        throw new IllegalArgumentException(
                "unknown expression node " + e.getClass().getSimpleName());
    }

    /** A variable; when it is unset, a date/time helper of that name ({@code today}), else an error. */
    private static JsonNode variable(Expr.Variable v, Variables vars) {
        JsonNode value = vars.get(v.name());
        if ((value == null || value.isMissingNode()) && Builtins.isConstant(v.name())) {
            return DateFunctions.constant(v.name(), DateFunctions.clock(vars, "'" + v.name() + "'"));
        }
        if (value == null || value.isMissingNode()) {
            throw new EvaluationException("variable '" + v.name() + "' is not set", v.name(), v.name());
        }
        return value;
    }

    private static JsonNode binary(Expr.Binary b, Variables vars) {
        JsonNode left = eval(b.left(), vars);
        return switch (b.op()) {
            case AND -> Values.truthy(left) ? eval(b.right(), vars) : left;
            case OR -> Values.truthy(left) ? left : eval(b.right(), vars);
            default -> Operators.apply(b.op(), left, eval(b.right(), vars));
        };
    }

    private static JsonNode unary(Expr.Unary u, Variables vars) {
        JsonNode operand = eval(u.operand(), vars);
        if (u.op() == UnaryOp.NOT) {
            return BooleanNode.valueOf(!Values.truthy(operand));
        }
        if (!operand.isNumber()) {
            throw new EvaluationException("'-' needs a number, got " + Values.describe(operand));
        }
        return operand.isInt()
                ? JsNumbers.number(-(long) operand.intValue())
                : JsNumbers.number(-operand.doubleValue());
    }

    private static JsonNode call(Expr.Call c, Variables vars) {
        return Builtins.call(c.function(), arguments(c.args(), vars), vars);
    }

    private static JsonNode[] arguments(java.util.List<Expr> exprs, Variables vars) {
        JsonNode[] args = new JsonNode[exprs.size()];
        for (int i = 0; i < args.length; i++) {
            args[i] = eval(exprs.get(i), vars);
        }
        return args;
    }

    private static JsonNode array(Expr.ArrayLiteral a, Variables vars) {
        ArrayNode array = JsonNodeFactory.instance.arrayNode(a.elements().size());
        for (Expr element : a.elements()) {
            array.add(eval(element, vars));
        }
        return array;
    }

    private static JsonNode object(Expr.ObjectLiteral o, Variables vars) {
        ObjectNode object = JsonNodeFactory.instance.objectNode();
        for (Expr.Field field : o.fields()) {
            object.set(field.key(), eval(field.value(), vars));
        }
        return object;
    }
}
