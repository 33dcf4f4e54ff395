package dev.planvm.instructions.expr;

import java.util.stream.Collectors;

/** Test helper: renders an AST with every unary and binary operation parenthesized. */
final class Shapes {

    private Shapes() {}

    static String shape(String source) {
        return shape(ExprParser.parse(source));
    }

    static String shape(Expr e) {
        if (e instanceof Expr.Binary) {
            Expr.Binary b = (Expr.Binary) e;
            return "(" + shape(b.left()) + " " + b.op().symbol() + " " + shape(b.right()) + ")";
        }
        if (e instanceof Expr.Unary) {
            Expr.Unary u = (Expr.Unary) e;
            return "(" + u.op().symbol() + shape(u.operand()) + ")";
        }
        if (e instanceof Expr.Member) {
            Expr.Member m = (Expr.Member) e;
            return shape(m.target()) + "." + m.name();
        }
        if (e instanceof Expr.Index) {
            Expr.Index i = (Expr.Index) e;
            return shape(i.target()) + "[" + shape(i.index()) + "]";
        }
        if (e instanceof Expr.Call) {
            Expr.Call c = (Expr.Call) e;
            return c.function() + c.args().stream().map(Shapes::shape).collect(Collectors.joining(", ", "(", ")"));
        }
        if (e instanceof Expr.ArrayLiteral) {
            return ((Expr.ArrayLiteral) e)
                    .elements().stream().map(Shapes::shape).collect(Collectors.joining(", ", "[", "]"));
        }
        if (e instanceof Expr.ObjectLiteral) {
            return ((Expr.ObjectLiteral) e)
                    .fields().stream()
                            .map(f -> f.key() + ": " + shape(f.value()))
                            .collect(Collectors.joining(", ", "{", "}"));
        }
        return Exprs.render(e);
    }
}
