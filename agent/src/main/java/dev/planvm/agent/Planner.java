package dev.planvm.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.agent.format.AnswerFormat;
import dev.planvm.agent.format.StrictPlanSchema;
import dev.planvm.agent.internal.AnswerCheck;
import dev.planvm.agent.internal.Catalog;
import dev.planvm.agent.internal.PlanStream;
import dev.planvm.agent.internal.Prompts;
import dev.planvm.instructions.Diagnostic;
import dev.planvm.instructions.Instruction;
import dev.planvm.instructions.Plan;
import dev.planvm.instructions.PlanLoader;
import dev.planvm.llm.PlannerTool;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.CallEvents;
import dev.planvm.tools.TokenCount;
import dev.planvm.tools.ToolException;
import dev.planvm.tools.call.Call;
import dev.planvm.tools.call.TokenBudget;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunSession;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks the configured LLM for a plan: from a goal ({@link #plan}), or for the instructions from a
 * failed step on ({@link #replan}). The prompt is built from planvm's own sources of truth (the plan
 * language, the expression functions, the tools with their params schemas, the plan JSON Schema); the
 * answer is asked for as strict structured output ({@link AnswerFormat#STRICT}, falling back to JSON
 * mode once when the server refuses it) unless a format is set. Each answer is loaded and checked;
 * when it has errors, the located problems are sent back and a corrected plan is asked for, up to the
 * repair rounds; then planning fails with a {@link PlanningException} listing the last problems.
 *
 * <p>Every request is a call of the {@code planvm:planner} tool through the session's call chain, so
 * it is recorded and replayed with the run, retried, and counted against the session's token budget.
 * With streaming, each instruction is typed and checked as soon as it has arrived and handed to the
 * {@link Listener} (which may start its calls early). One planner per session: it remembers the
 * format the server accepted.
 */
public final class Planner {

    /** Repair rounds when none are set. */
    public static final int DEFAULT_REPAIR_ROUNDS = 2;

    private static final Logger log = LoggerFactory.getLogger(Planner.class);
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    /** Sees a streamed answer arrive. Called on the thread that receives the stream; no-op defaults. */
    public interface Listener {
        /** An answer starts arriving (a first answer, a repair, a re-plan, or a retried attempt): what arrived before is void. */
        default void answerStarted() {}

        /** The next instruction of the answer: complete, typed, checked on its own, and calling an available tool. */
        default void instruction(Instruction instruction) {}

        /**
         * The next instruction of the answer is complete but fails its own check, or calls a tool that is not
         * available: nothing of it starts early. {@code problem} is its first error, located in the answer.
         */
        default void rejected(JsonNode instruction, Diagnostic problem) {}

        /** The streamed answer is complete; {@code valid}: it is the plan (otherwise a repair follows, or planning fails). */
        default void answerEnded(boolean valid) {}
    }

    private final PlanVm vm;
    private final int repairRounds;
    private final AnswerFormat requested;
    private final boolean stream;
    private volatile AnswerFormat settled;

    /**
     * @param repairRounds how many corrected plans to ask for after an invalid one (0: none)
     * @param format       how to ask for the answer, or {@code null}: strict, and JSON mode when the server refuses it
     * @param stream       whether answers stream (each instruction handed to the listener as it arrives)
     */
    public Planner(PlanVm vm, int repairRounds, AnswerFormat format, boolean stream) {
        if (repairRounds < 0) {
            throw new IllegalArgumentException("repair rounds must not be negative");
        }
        this.vm = Objects.requireNonNull(vm, "vm");
        this.repairRounds = repairRounds;
        this.requested = format;
        this.stream = stream;
    }

    /**
     * A plan for {@code goal}.
     *
     * @param inputs the variables the run will start with (their names are told to the planner)
     * @throws PlanningException when no valid plan came within the repair rounds, or a request failed
     */
    public Planned plan(String goal, Set<String> inputs, RunSession session, Listener listener) {
        Catalog catalog = Catalog.of(vm, session.mode());
        AnswerCheck checker = new AnswerCheck(vm, session.mode(), catalog);
        List<ObjectNode> conversation = new ArrayList<>();
        conversation.add(message("user", Prompts.goal(goal, inputs)));
        return converse(
                "plan",
                conversation,
                catalog,
                session,
                listener,
                (answer, format) -> checker.check(answer, format, "plan"));
    }

    /**
     * The plan {@code plan} with new instructions from {@code failedSeqNo} on, after a run of it failed
     * there; the instructions before stay as they were.
     *
     * @param committedSteps the trace entries of the steps the run committed (what they wrote is shown)
     * @param failure        why the step failed
     * @throws PlanningException when no valid plan came within the repair rounds, or a request failed
     */
    public Planned replan(
            String goal,
            Plan plan,
            JsonNode committedSteps,
            int failedSeqNo,
            String failure,
            RunSession session,
            Listener listener) {
        Catalog catalog = Catalog.of(vm, session.mode());
        AnswerCheck checker = new AnswerCheck(vm, session.mode(), catalog);
        List<ObjectNode> conversation = new ArrayList<>();
        conversation.add(message("user", Prompts.replan(goal, plan.document(), committedSteps, failedSeqNo, failure)));
        return converse(
                "replan",
                conversation,
                catalog,
                session,
                listener,
                (answer, format) -> checker.checkReplan(answer, format, plan, failedSeqNo, "plan"));
    }

    /**
     * The next plan for {@code goal}, after a run of {@code plan} ended in seed 001's {@code use}: the planner sees
     * the value the plan handed back, which the next run also starts with ({@link Agent#HANDED_BACK}).
     *
     * @param left   how many more times a plan may hand a value back
     * @param inputs the variables the next run starts with
     * @throws PlanningException when no valid plan came within the repair rounds, or a request failed
     */
    public Planned handBack(
            String goal,
            Plan plan,
            JsonNode value,
            int left,
            Set<String> inputs,
            RunSession session,
            Listener listener) {
        Catalog catalog = Catalog.of(vm, session.mode());
        AnswerCheck checker = new AnswerCheck(vm, session.mode(), catalog);
        List<ObjectNode> conversation = new ArrayList<>();
        conversation.add(message("user", Prompts.handBack(goal, plan.document(), value, left, inputs)));
        return converse(
                "use",
                conversation,
                catalog,
                session,
                listener,
                (answer, format) -> checker.check(answer, format, "plan"));
    }

    private Planned converse(
            String purpose,
            List<ObjectNode> conversation,
            Catalog catalog,
            RunSession session,
            Listener listener,
            BiFunction<String, AnswerFormat, AnswerCheck.Checked> check) {
        List<PlanRound> rounds = new ArrayList<>();
        for (int round = 0; ; round++) {
            String label = round == 0 ? purpose : "repair";
            Answer answer;
            try {
                answer = ask(conversation, catalog, session, listener);
            } catch (ToolException e) {
                String why = e instanceof TokenBudget.Spent
                        ? e.getMessage()
                        : "the planner's request failed: " + e.getMessage();
                throw new PlanningException(why, rounds, List.of(), e);
            }
            AnswerCheck.Checked checked = check.apply(answer.text(), answer.format());
            if (answer.streamed()) {
                listener.answerEnded(checked.plan() != null);
            }
            List<Diagnostic> errors = checked.errors();
            rounds.add(new PlanRound(
                    label, answer.format(), answer.durationMs(), answer.tokens(), errors, answer.instructions()));
            if (checked.plan() != null) {
                log.info("planner: a valid plan after {} answer(s)", rounds.size());
                return new Planned(checked.plan(), rounds);
            }
            if (round >= repairRounds) {
                throw new PlanningException(failureMessage(rounds, errors), rounds, errors, null);
            }
            conversation.add(message("assistant", answer.text()));
            conversation.add(message("user", Prompts.repair(errors, "plan")));
        }
    }

    private static String failureMessage(List<PlanRound> rounds, List<Diagnostic> errors) {
        StringBuilder message = new StringBuilder("no valid plan after ")
                .append(rounds.size())
                .append(
                        rounds.size() == 1
                                ? " answer"
                                : " answers (" + (rounds.size() - 1) + " repair" + (rounds.size() == 2 ? "" : "s")
                                        + ")")
                .append("; the last answer's problems:");
        for (Diagnostic error : errors) {
            message.append("\n  ").append(error.format("plan"));
        }
        return message.toString();
    }

    /** One answer to the conversation so far, in the format the server takes. */
    private record Answer(
            String text, AnswerFormat format, long durationMs, TokenCount tokens, boolean streamed, int instructions) {}

    private Answer ask(List<ObjectNode> conversation, Catalog catalog, RunSession session, Listener listener) {
        AnswerFormat format = settled != null ? settled : requested != null ? requested : AnswerFormat.STRICT;
        try {
            Answer answer = askOnce(conversation, format, catalog, session, listener);
            settled = format;
            return answer;
        } catch (ToolException e) {
            boolean fallBack = requested == null
                    && settled == null
                    && format == AnswerFormat.STRICT
                    && !e.retriable()
                    && !(e instanceof TokenBudget.Spent);
            if (!fallBack) {
                throw e;
            }
            log.info(
                    "the LLM did not take a request for a strict JSON Schema answer ({}); asking in JSON mode",
                    e.getMessage());
            settled = AnswerFormat.JSON;
            return askOnce(conversation, AnswerFormat.JSON, catalog, session, listener);
        }
    }

    private Answer askOnce(
            List<ObjectNode> conversation,
            AnswerFormat format,
            Catalog catalog,
            RunSession session,
            Listener listener) {
        ArrayNode messages = JSON.arrayNode();
        messages.add(message("system", Prompts.system(catalog, format)));
        conversation.forEach(messages::add);
        ObjectNode params = JSON.objectNode();
        params.set("messages", messages);
        if (format == AnswerFormat.STRICT) {
            ObjectNode schema = params.putObject("response_format")
                    .put("type", "json_schema")
                    .putObject("json_schema");
            schema.put("name", "plan").put("strict", true).set("schema", StrictPlanSchema.schema());
        } else if (format == AnswerFormat.JSON) {
            params.putObject("response_format").put("type", "json_object");
        }
        params.put("stream", stream);
        params.set("tools", catalog.tools());
        params.put("conditions", catalog.conditions());
        Arrivals arrivals = new Arrivals(vm.loader(), catalog, format, listener);
        long start = System.nanoTime();
        JsonNode output = session.call(
                new Call.ToolCall(
                        PlannerTool.NAME, params, new CallContext(CallContext.NO_INSTRUCTION, List.of(), arrivals)),
                attempt -> {});
        arrivals.end();
        String text = output.isTextual() ? output.asText() : output.toString();
        return new Answer(
                text,
                format,
                (System.nanoTime() - start) / 1_000_000,
                arrivals.tokens(),
                arrivals.streamed(),
                arrivals.instructions());
    }

    private static ObjectNode message(String role, String content) {
        return JSON.objectNode().put("role", role).put("content", content);
    }

    /** The planner call's events: tokens counted, a streamed answer read instruction by instruction. */
    private static final class Arrivals implements CallEvents {
        private final PlanLoader loader;
        private final Catalog catalog;
        private final AnswerFormat format;
        private final Listener listener;
        private PlanStream stream;
        private TokenCount tokens = TokenCount.ZERO;
        private int instructions;

        Arrivals(PlanLoader loader, Catalog catalog, AnswerFormat format, Listener listener) {
            this.loader = loader;
            this.catalog = catalog;
            this.format = format;
            this.listener = listener;
        }

        @Override
        public synchronized void tokens(TokenCount spent) {
            tokens = tokens.plus(spent);
        }

        @Override
        public synchronized void streamStarted() {
            instructions = 0;
            stream = new PlanStream(
                    this::arrived,
                    loader.limits().maxBytes() * 2,
                    2 * loader.limits().maxDepth() + 8);
            listener.answerStarted();
        }

        @Override
        public synchronized void chunk(String text) {
            if (stream != null) {
                stream.feed(text);
            }
        }

        private void arrived(JsonNode node, int index, String pointer) {
            JsonNode instruction = format == AnswerFormat.STRICT ? StrictPlanSchema.decodeInstruction(node) : node;
            PlanLoader.CheckedInstruction checked = loader.checkInstruction(instruction, pointer);
            Instruction typed = checked.instruction();
            if (typed == null) {
                listener.rejected(
                        instruction,
                        checked.diagnostics().stream()
                                .filter(Diagnostic::isError)
                                .findFirst()
                                .orElseGet(() -> Diagnostic.error(
                                        null, pointer, "this instruction cannot be read as any instruction type")));
                return;
            }
            if (typed instanceof dev.planvm.instructions.Calling calling && !catalog.has(calling.tool())) {
                listener.rejected(
                        instruction,
                        Diagnostic.error(
                                typed.seqNo(),
                                pointer + "/parameters/tool_name",
                                "tool '" + calling.tool() + "' is not available"));
                return;
            }
            instructions++;
            listener.instruction(typed);
        }

        synchronized void end() {
            if (stream != null) {
                stream.end();
            }
        }

        synchronized TokenCount tokens() {
            return tokens;
        }

        synchronized boolean streamed() {
            return stream != null;
        }

        synchronized int instructions() {
            return instructions;
        }
    }
}
