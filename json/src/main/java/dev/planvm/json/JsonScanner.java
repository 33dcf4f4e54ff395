package dev.planvm.json;

/**
 * Finds, in one left-to-right pass, every JSON object and array that starts at a bracket of a
 * text and parses: strict JSON (RFC 8259 as Jackson reads it by default), and only what JSON can
 * hold — a number that would overflow a double, a lone surrogate (raw or escaped), a number of
 * more than {@value #MAX_NUMBER_LENGTH} characters or nesting deeper than {@value #MAX_DEPTH}
 * levels makes the value fail, like a syntax error.
 *
 * <p><b>Why one pass is enough.</b> A parse started at a bracket is a pushdown automaton; a
 * bracket met where that parse expects a value starts a nested value that the same automaton
 * parses on its stack, and if the outer parse fails while the nested one is still open, the nested
 * one fails at the same character (it reads the same characters in the same state). So one
 * automaton with the start of every open container on its stack stands for all the parses it
 * contains. A bracket inside what that automaton reads as a string starts a second automaton, in
 * the other string phase: the two change phase together at every unescaped quote, and a backslash
 * kills the one outside a string, so at most one automaton is outside a string and one inside at
 * any time. A bracket the automaton outside a string cannot take (it fails there) starts a new
 * one. Each character is thus read by at most two automata, each doing constant amortized work:
 * the scan is linear in the text, with no backtracking and no parser exceptions.
 */
final class JsonScanner {

    /** Jackson's default limit on the length of one number. */
    static final int MAX_NUMBER_LENGTH = 1000;

    /**
     * Jackson's default nesting limit: a value nested deeper does not parse, so a container that
     * comes to hold more than this many levels is given up (its start is forgotten) while the
     * automaton goes on parsing what it holds. The starts kept are therefore at most this many,
     * whatever the text: the scan needs constant memory beyond one bit per open container.
     */
    static final int MAX_DEPTH = 1000;

    /** Told about each value that parsed, as it closes, and asked when it may stop. */
    interface Sink {
        /** A JSON object ({@code object}) or array spanning {@code [start, end)} parsed. */
        void closed(boolean object, int start, int end);

        /**
         * Whether the scan may stop, now that it has read up to {@code position} (exclusive) and
         * the earliest start of a value still open is {@code earliestOpen} ({@link Integer#MAX_VALUE}
         * when none is): values found later start at or after {@code earliestOpen} or {@code position}.
         */
        boolean done(int position, int earliestOpen);
    }

    private final String text;
    private final Automaton first = new Automaton();
    private final Automaton second = new Automaton();

    private JsonScanner(String text) {
        this.text = text;
    }

    /** Scans {@code text} from its start, telling {@code sink} every value that parses, until it is done. */
    static void scan(String text, Sink sink) {
        new JsonScanner(text).run(sink);
    }

    private void run(Sink sink) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean opener = c == '{' || c == '[';
            int took = step(first, c, i, sink, opener) | step(second, c, i, sink, opener);
            if (opener && (took & TOOK) == 0) {
                (first.live ? second : first).start(c, i);
            }
            if ((took & CHANGED) != 0 && sink.done(i + 1, earliestOpen())) {
                return;
            }
        }
    }

    private static final int TOOK = 1, CHANGED = 2;

    /** Lets a live automaton read {@code c}: {@link #TOOK} when it took an opener outside a string, {@link #CHANGED} when a value closed or a parse failed. */
    private static int step(Automaton automaton, char c, int at, Sink sink, boolean opener) {
        if (!automaton.live) {
            return 0;
        }
        boolean outside = !automaton.inString();
        if (!automaton.read(c, at, sink)) {
            automaton.live = false;
            return CHANGED;
        }
        return (outside && opener ? TOOK : 0) | (automaton.closedOne ? CHANGED : 0);
    }

    private int earliestOpen() {
        int earliest = Integer.MAX_VALUE;
        if (first.live) {
            earliest = first.earliestStart();
        }
        if (second.live) {
            earliest = Math.min(earliest, second.earliestStart());
        }
        return earliest;
    }

    /** What an automaton expects next between tokens. */
    private static final byte VALUE = 0, VALUE_OR_CLOSE = 1, KEY = 2, KEY_OR_CLOSE = 3, COLON = 4, COMMA_OR_CLOSE = 5;

    /** Where an automaton is inside a token. */
    private static final byte BETWEEN = 0,
            STRING = 1,
            ESCAPE = 2,
            UNICODE = 3,
            MINUS = 4,
            ZERO = 5,
            INTEGER = 6,
            POINT = 7,
            FRACTION = 8,
            EXPONENT_MARK = 9,
            EXPONENT_SIGN = 10,
            EXPONENT = 11,
            LITERAL = 12;

    private static final String[] LITERALS = {"true", "false", "null"};

    /** One strict JSON parse: a stack of open containers and a token state. */
    private final class Automaton {
        boolean live;
        /** Whether the last {@link #read} closed a value. */
        boolean closedOne;
        /** The start of each open container from level {@link #given} up, at {@code level % MAX_DEPTH}. */
        final int[] starts = new int[MAX_DEPTH];
        /** Whether each open container is an object (bit {@code level}), for every level. */
        long[] objects = new long[4];
        /** How many containers are open. */
        int depth;
        /** The open containers below this level are given up: they nest deeper than {@link #MAX_DEPTH}. */
        int given;

        byte expect;
        byte token;
        boolean stringIsKey;
        /** While in a {@code \\u} escape: how many hex digits are read and their value. */
        int hexDigits;

        int hexValue;
        /** A high surrogate was just read (raw or escaped): a low one must follow, the same way. */
        boolean highRaw;

        boolean highEscaped;
        int tokenStart;
        String literal;
        int literalIndex;

        void start(char bracket, int at) {
            live = true;
            depth = 0;
            given = 0;
            token = BETWEEN;
            expect = VALUE;
            closedOne = false;
            highRaw = false;
            highEscaped = false;
            open(bracket == '{', at);
        }

        boolean inString() {
            return token == STRING || token == ESCAPE || token == UNICODE;
        }

        /** Reads {@code c} at {@code at}; false when the parse fails there. */
        boolean read(char c, int at, Sink sink) {
            closedOne = false;
            return switch (token) {
                case STRING -> stringChar(c);
                case ESCAPE -> escape(c);
                case UNICODE -> hex(c);
                case LITERAL -> literal(c, at, sink);
                case BETWEEN -> between(c, at, sink);
                default -> number(c, at, sink);
            };
        }

        private boolean between(char c, int at, Sink sink) {
            switch (c) {
                case ' ', '\t', '\n', '\r':
                    return true;
                case '{', '[':
                    if (expect != VALUE && expect != VALUE_OR_CLOSE) {
                        return false;
                    }
                    open(c == '{', at);
                    return true;
                case '}', ']':
                    return close(c == '}', at, sink);
                case '"':
                    if (expect == KEY || expect == KEY_OR_CLOSE) {
                        stringIsKey = true;
                    } else if (expect == VALUE || expect == VALUE_OR_CLOSE) {
                        stringIsKey = false;
                    } else {
                        return false;
                    }
                    token = STRING;
                    return true;
                case ':':
                    if (expect != COLON) {
                        return false;
                    }
                    expect = VALUE;
                    return true;
                case ',':
                    if (expect != COMMA_OR_CLOSE) {
                        return false;
                    }
                    expect = isObject(depth - 1) ? KEY : VALUE;
                    return true;
                default:
                    return scalarStart(c, at);
            }
        }

        private boolean scalarStart(char c, int at) {
            if (expect != VALUE && expect != VALUE_OR_CLOSE) {
                return false;
            }
            tokenStart = at;
            if (c == '-') {
                token = MINUS;
                return true;
            }
            if (c >= '0' && c <= '9') {
                token = c == '0' ? ZERO : INTEGER;
                return true;
            }
            for (String candidate : LITERALS) {
                if (candidate.charAt(0) == c) {
                    literal = candidate;
                    literalIndex = 1;
                    token = LITERAL;
                    return true;
                }
            }
            return false;
        }

        private void open(boolean object, int at) {
            if (depth >> 6 == objects.length) {
                objects = java.util.Arrays.copyOf(objects, objects.length * 2);
            }
            if (object) {
                objects[depth >> 6] |= 1L << depth;
            } else {
                objects[depth >> 6] &= ~(1L << depth);
            }
            starts[depth % MAX_DEPTH] = at;
            depth++;
            if (depth - given > MAX_DEPTH) {
                given = depth - MAX_DEPTH; // the outermost kept container now nests too deep to parse
            }
            expect = object ? KEY_OR_CLOSE : VALUE_OR_CLOSE;
        }

        private boolean isObject(int level) {
            return (objects[level >> 6] & 1L << level) != 0;
        }

        /** The start of the outermost open container that may still parse, or {@link Integer#MAX_VALUE}. */
        int earliestStart() {
            return given < depth ? starts[given % MAX_DEPTH] : Integer.MAX_VALUE;
        }

        private boolean close(boolean object, int at, Sink sink) {
            boolean allowed = object
                    ? expect == KEY_OR_CLOSE || expect == COMMA_OR_CLOSE
                    : expect == VALUE_OR_CLOSE || expect == COMMA_OR_CLOSE;
            if (!allowed || isObject(depth - 1) != object) {
                return false;
            }
            depth--;
            if (depth >= given) {
                sink.closed(object, starts[depth % MAX_DEPTH], at + 1);
                closedOne = true;
            } else {
                given = depth;
            }
            if (depth == 0) {
                live = false; // a whole value: this parse is over
            }
            expect = COMMA_OR_CLOSE;
            return true;
        }

        private boolean stringChar(char c) {
            if (highRaw) {
                highRaw = false;
                if (!Character.isLowSurrogate(c)) {
                    return false;
                }
                return true;
            }
            if (highEscaped) {
                token = ESCAPE; // only an escaped low surrogate may follow an escaped high one
                return c == '\\';
            }
            if (c == '"') {
                token = BETWEEN;
                expect = stringIsKey ? COLON : COMMA_OR_CLOSE;
                return true;
            }
            if (c == '\\') {
                token = ESCAPE;
                return true;
            }
            if (Character.isHighSurrogate(c)) {
                highRaw = true;
                return true;
            }
            return c >= 0x20 && !Character.isLowSurrogate(c);
        }

        private boolean escape(char c) {
            if (c == 'u') {
                token = UNICODE;
                hexDigits = 0;
                hexValue = 0;
                return true;
            }
            if (highEscaped) {
                return false;
            }
            token = STRING;
            return c == '"' || c == '\\' || c == '/' || c == 'b' || c == 'f' || c == 'n' || c == 'r' || c == 't';
        }

        private boolean hex(char c) {
            int digit = c >= '0' && c <= '9'
                    ? c - '0'
                    : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
            if (digit < 0) {
                return false;
            }
            hexValue = hexValue * 16 + digit;
            if (++hexDigits < 4) {
                return true;
            }
            token = STRING;
            char decoded = (char) hexValue;
            if (highEscaped) {
                highEscaped = false;
                return Character.isLowSurrogate(decoded);
            }
            if (Character.isHighSurrogate(decoded)) {
                highEscaped = true;
                return true;
            }
            return !Character.isLowSurrogate(decoded);
        }

        private boolean literal(char c, int at, Sink sink) {
            if (literalIndex < literal.length()) {
                return c == literal.charAt(literalIndex++);
            }
            token = BETWEEN;
            expect = COMMA_OR_CLOSE;
            return between(c, at, sink);
        }

        /** A character while reading a number: part of it, or the end of it (then read between tokens). */
        private boolean number(char c, int at, Sink sink) {
            boolean digit = c >= '0' && c <= '9';
            byte next = switch (token) {
                case MINUS -> digit ? (c == '0' ? ZERO : INTEGER) : -1;
                case ZERO -> c == '.' ? POINT : (c == 'e' || c == 'E') ? EXPONENT_MARK : 0;
                case INTEGER -> digit ? INTEGER : c == '.' ? POINT : (c == 'e' || c == 'E') ? EXPONENT_MARK : 0;
                case POINT -> digit ? FRACTION : -1;
                case FRACTION -> digit ? FRACTION : (c == 'e' || c == 'E') ? EXPONENT_MARK : 0;
                case EXPONENT_MARK -> (c == '+' || c == '-') ? EXPONENT_SIGN : digit ? EXPONENT : -1;
                case EXPONENT_SIGN -> digit ? EXPONENT : -1;
                default -> digit ? EXPONENT : 0;
            };
            if (next < 0) {
                return false;
            }
            if (next > 0) {
                token = next;
                return at - tokenStart < MAX_NUMBER_LENGTH;
            }
            if (!finite(tokenStart, at)) {
                return false;
            }
            token = BETWEEN;
            expect = COMMA_OR_CLOSE;
            return between(c, at, sink);
        }

        /** Whether the number in {@code [from, to)} is within a double's range (only long ones or exponents can leave it). */
        private boolean finite(int from, int to) {
            if (to - from < 300) {
                boolean exponent = false;
                for (int i = from; i < to && !exponent; i++) {
                    exponent = text.charAt(i) == 'e' || text.charAt(i) == 'E';
                }
                if (!exponent) {
                    return true;
                }
            }
            return !Double.isInfinite(Double.parseDouble(text.substring(from, to)));
        }
    }
}
