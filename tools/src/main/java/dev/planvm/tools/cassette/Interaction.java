package dev.planvm.tools.cassette;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.tools.TokenCount;
import dev.planvm.tools.ToolException;
import java.util.List;
import java.util.Objects;

/** One recorded call of a {@link Cassette}. */
public sealed interface Interaction permits Interaction.ToolInteraction, Interaction.ConditionInteraction {

    /** How long the real call took, in milliseconds ({@code --replay-timing} waits this long). */
    long durationMs();

    /** The tokens the call's LLM requests spent ({@link TokenCount#ZERO} when it spent none or none were recorded). */
    TokenCount tokens();

    /**
     * One piece of a streamed answer and when it arrived.
     *
     * @param text the piece
     * @param atMs milliseconds from the start of the call
     */
    record Chunk(String text, long atMs) {
        public Chunk {
            Objects.requireNonNull(text, "text");
            if (atMs < 0) {
                throw new IllegalArgumentException("a chunk's at_ms must not be negative");
            }
        }
    }

    /**
     * A tool call: matched by tool name and params.
     *
     * @param output the answer (JSON null when the call failed)
     * @param chunks the pieces of a streamed answer (the planner's), in order; empty when not streamed
     * @param error  why the call failed (a recording that keeps failures, see {@link Recording#keepingFailures()}),
     *               or {@code null} when it answered
     * @param errorKind what kind of failure it was (a replay fails it again with that kind, so a plan's
     *               {@code last_error.kind} is the same); {@code null} when it answered
     * @param childRun whether the call was a plan tool's whose child run was recorded too
     *               ({@code "child_run": true}): a VM that has the plan tool replays the child from the
     *               child's own interactions; a VM without it is answered by this one
     * @param children the child run's own interactions, in the order they were answered, nested under this
     *               one ({@code "child_interactions"}); empty in a cassette of an earlier version, where they
     *               come before this one in the same list ({@link Cassette#flat()} reads both alike)
     * @param waiting whether the plan tool's child run stopped waiting (for an approval or an input) in the
     *               session that recorded this call ({@code "waiting": true}): {@code error} says what it waits
     *               for and {@code children} hold the child's interactions until then; a session that continues
     *               the run into the same recording ({@link Recording#continuing}) completes it
     */
    record ToolInteraction(
            String tool,
            JsonNode params,
            JsonNode output,
            long durationMs,
            List<Chunk> chunks,
            TokenCount tokens,
            String error,
            ToolException.Kind errorKind,
            boolean childRun,
            List<Interaction> children,
            boolean waiting)
            implements Interaction {
        public ToolInteraction {
            Objects.requireNonNull(tool, "tool");
            Objects.requireNonNull(params, "params");
            Objects.requireNonNull(output, "output");
            chunks = List.copyOf(chunks);
            tokens = Objects.requireNonNullElse(tokens, TokenCount.ZERO);
            errorKind = error == null ? null : Objects.requireNonNullElse(errorKind, ToolException.Kind.TOOL_ERROR);
            children = List.copyOf(children);
            if (!children.isEmpty() && !childRun) {
                throw new IllegalArgumentException("only a plan tool's call that recorded its child run has children");
            }
            if (waiting && (!childRun || error == null)) {
                throw new IllegalArgumentException("only a plan tool's call whose child run waits, saying why, waits");
            }
        }

        /** An interaction of a call that did not stop waiting. */
        public ToolInteraction(
                String tool,
                JsonNode params,
                JsonNode output,
                long durationMs,
                List<Chunk> chunks,
                TokenCount tokens,
                String error,
                ToolException.Kind errorKind,
                boolean childRun,
                List<Interaction> children) {
            this(tool, params, output, durationMs, chunks, tokens, error, errorKind, childRun, children, false);
        }

        /** An interaction with no child interactions nested under it (those of a flat, earlier cassette come before it). */
        public ToolInteraction(
                String tool,
                JsonNode params,
                JsonNode output,
                long durationMs,
                List<Chunk> chunks,
                TokenCount tokens,
                String error,
                ToolException.Kind errorKind,
                boolean childRun) {
            this(tool, params, output, durationMs, chunks, tokens, error, errorKind, childRun, List.of());
        }

        /** This interaction without the child interactions nested under it. */
        public ToolInteraction withoutChildren() {
            return children.isEmpty()
                    ? this
                    : new ToolInteraction(
                            tool,
                            params,
                            output,
                            durationMs,
                            chunks,
                            tokens,
                            error,
                            errorKind,
                            childRun,
                            List.of(),
                            waiting);
        }

        /** This interaction with {@code newChildren} nested under it instead of its own. */
        public ToolInteraction withChildren(List<Interaction> newChildren) {
            return new ToolInteraction(
                    tool, params, output, durationMs, chunks, tokens, error, errorKind, childRun, newChildren, waiting);
        }

        /**
         * An interaction of a call that started no recorded child run: answered ({@code error} null), or
         * failed with a {@code tool_error}.
         */
        public ToolInteraction(
                String tool,
                JsonNode params,
                JsonNode output,
                long durationMs,
                List<Chunk> chunks,
                TokenCount tokens,
                String error) {
            this(tool, params, output, durationMs, chunks, tokens, error, null, false);
        }

        /** An answered interaction. */
        public ToolInteraction(
                String tool, JsonNode params, JsonNode output, long durationMs, List<Chunk> chunks, TokenCount tokens) {
            this(tool, params, output, durationMs, chunks, tokens, null);
        }

        /** An answered interaction that was not streamed and spent no tokens. */
        public ToolInteraction(String tool, JsonNode params, JsonNode output, long durationMs) {
            this(tool, params, output, durationMs, List.of(), TokenCount.ZERO);
        }

        /** Whether the call failed (replay fails it again with {@link #error()} and {@link #errorKind()}). */
        public boolean failed() {
            return error != null;
        }
    }

    /** An LLM condition: matched by prompt and context. */
    record ConditionInteraction(
            String prompt, JsonNode context, boolean result, String explanation, long durationMs, TokenCount tokens)
            implements Interaction {
        public ConditionInteraction {
            Objects.requireNonNull(prompt, "prompt");
            Objects.requireNonNull(context, "context");
            Objects.requireNonNull(explanation, "explanation");
            tokens = Objects.requireNonNullElse(tokens, TokenCount.ZERO);
        }

        /** An interaction that spent no tokens. */
        public ConditionInteraction(
                String prompt, JsonNode context, boolean result, String explanation, long durationMs) {
            this(prompt, context, result, explanation, durationMs, TokenCount.ZERO);
        }
    }
}
