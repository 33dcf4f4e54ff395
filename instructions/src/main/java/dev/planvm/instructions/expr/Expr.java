package dev.planvm.instructions.expr;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Objects;

/**
 * A parsed expression of the plan expression language (the part inside {@code ${...}}).
 *
 * <p>Every node records {@link #pos()}, the 0-based character offset in the original string that
 * was parsed (for a reference inside a template, an offset into the whole template string). For
 * literals, variables, calls, array and object literals it is the offset of the first character;
 * for unary and binary operations it is the offset of the operator; for {@link Member} and
 * {@link Method} it is the offset of the member name; for {@link Index} it is the offset of the {@code [}.
 */
public sealed interface Expr {

    /** 0-based character offset of this node in the original string. */
    int pos();

    /**
     * A literal value. Integer literals without fraction or exponent are {@code IntNode} or
     * {@code LongNode} (when they fit a long), all other numbers are {@code DoubleNode}; strings are
     * {@code TextNode}; {@code true}/{@code false} are {@code BooleanNode}; {@code null} is
     * {@code NullNode}.
     */
    record Literal(JsonNode value, int pos) implements Expr {
        public Literal {
            Objects.requireNonNull(value, "value");
        }
    }

    /** A root variable reference such as {@code steps}. */
    record Variable(String name, int pos) implements Expr {
        public Variable {
            Objects.requireNonNull(name, "name");
        }
    }

    /** Member access {@code target.name}. */
    record Member(Expr target, String name, int pos) implements Expr {
        public Member {
            Objects.requireNonNull(target, "target");
            Objects.requireNonNull(name, "name");
        }
    }

    /** Index access {@code target[index]}. */
    record Index(Expr target, Expr index, int pos) implements Expr {
        public Index {
            Objects.requireNonNull(target, "target");
            Objects.requireNonNull(index, "index");
        }
    }

    /** A prefix operation such as {@code !x} or {@code -x}. */
    record Unary(UnaryOp op, Expr operand, int pos) implements Expr {
        public Unary {
            Objects.requireNonNull(op, "op");
            Objects.requireNonNull(operand, "operand");
        }
    }

    /** A binary operation such as {@code a + b}. */
    record Binary(BinaryOp op, Expr left, Expr right, int pos) implements Expr {
        public Binary {
            Objects.requireNonNull(op, "op");
            Objects.requireNonNull(left, "left");
            Objects.requireNonNull(right, "right");
        }
    }

    /** A call of a builtin function (see {@link Builtins}). */
    record Call(String function, List<Expr> args, int pos) implements Expr {
        public Call {
            Objects.requireNonNull(function, "function");
            args = List.copyOf(args);
        }
    }

    /**
     * A method call {@code target.name(args)}: only the date/time values' methods exist
     * ({@link Builtins#METHODS}).
     */
    record Method(Expr target, String name, List<Expr> args, int pos) implements Expr {
        public Method {
            Objects.requireNonNull(target, "target");
            Objects.requireNonNull(name, "name");
            args = List.copyOf(args);
        }
    }

    /** An array literal {@code [a, b]}. */
    record ArrayLiteral(List<Expr> elements, int pos) implements Expr {
        public ArrayLiteral {
            elements = List.copyOf(elements);
        }
    }

    /** An object literal {@code {k: v}}; fields keep their source order. */
    record ObjectLiteral(List<Field> fields, int pos) implements Expr {
        public ObjectLiteral {
            fields = List.copyOf(fields);
        }
    }

    /** One {@code key: value} entry of an {@link ObjectLiteral}. */
    record Field(String key, Expr value) {
        public Field {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(value, "value");
        }
    }
}
