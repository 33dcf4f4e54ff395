package dev.planvm.vm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.planvm.instructions.Plan;
import dev.planvm.vm.run.FailureKind;
import dev.planvm.vm.run.RunJournal;
import dev.planvm.vm.run.RunResult;
import dev.planvm.vm.run.RunStatus;
import dev.planvm.vm.run.StepRecord;
import dev.planvm.vm.run.TypedFailure;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A run whose journal cannot record a step, or the run's end: the run stops at the step it could
 * not commit, a result that cannot be recorded fails, and the failure's kind says whether the store
 * was full or failed.
 */
class JournalFailuresTest {

    private static final String PLAN = """
            [{"seq_no": 0, "type": "assign", "parameters": {"a": 1}},
             {"seq_no": 1, "type": "assign", "parameters": {"b": 2}},
             {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "${a + b}"}}]""";

    /** A store failure that says the store is full, as the run store's own does. */
    private static final class StoreFull extends RuntimeException implements TypedFailure {
        private static final long serialVersionUID = 1L;

        StoreFull(String message) {
            super(message);
        }

        @Override
        public FailureKind kind() {
            return FailureKind.STORE_FULL;
        }
    }

    /** A journal that keeps its commits in memory and fails the commit of one step, or the end. */
    private static final class Journal implements RunJournal {
        final List<Integer> committed = new ArrayList<>();
        final List<RunResult> finished = new ArrayList<>();
        private final int failingSeqNo;
        private final RuntimeException failure;
        private final RuntimeException finishFailure;

        Journal(int failingSeqNo, RuntimeException failure, RuntimeException finishFailure) {
            this.failingSeqNo = failingSeqNo;
            this.failure = failure;
            this.finishFailure = finishFailure;
        }

        @Override
        public void commit(StepRecord step, int nextPosition) {
            if (step.seqNo() == failingSeqNo) {
                throw failure;
            }
            committed.add(step.seqNo());
        }

        @Override
        public void finish(RunResult result) {
            finished.add(result);
            if (finishFailure != null) {
                throw finishFailure;
            }
        }
    }

    private static RunResult run(String json, Journal journal) {
        PlanVm vm = PlanVm.builder().build();
        Plan plan = vm.loader().load(json, "journal.json").planOrThrow();
        return vm.run(RunRequest.builder(plan).journal(journal).build());
    }

    @Test
    void a_step_the_journal_cannot_commit_stops_the_run_there_as_a_store_failure() {
        Journal journal = new Journal(1, new IllegalStateException("disk on fire"), null);
        RunResult result = run(PLAN, journal);

        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.error().seqNo()).isEqualTo(1);
        assertThat(result.error().message())
                .isEqualTo("the step could not be recorded, so the run stops here: disk on fire");
        assertThat(result.error().kind()).isEqualTo(FailureKind.STORE_FAILED);
        assertThat(result.variables()).doesNotContainKey("final_answer");
        assertThat(journal.committed).containsExactly(0);
    }

    @Test
    void a_full_store_stops_the_run_as_store_full() {
        Journal journal = new Journal(0, new StoreFull("no room left"), null);
        RunResult result = run(PLAN, journal);

        assertThat(result.error().kind()).isEqualTo(FailureKind.STORE_FULL);
        assertThat(result.error().message()).endsWith("no room left");
        assertThat(journal.committed).isEmpty();
    }

    @Test
    void a_run_whose_end_cannot_be_recorded_fails_without_a_step() {
        Journal journal = new Journal(-1, null, new IllegalStateException("gone"));
        RunResult result = run(PLAN, journal);

        assertThat(journal.committed).containsExactly(0, 1, 2);
        assertThat(journal.finished)
                .singleElement()
                .satisfies(end -> assertThat(end.succeeded()).isTrue());
        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.error().seqNo()).isNull();
        assertThat(result.error().message()).isEqualTo("the run ended but its end could not be recorded: gone");
        assertThat(result.error().kind()).isEqualTo(FailureKind.STORE_FAILED);
    }

    @Test
    void a_full_store_at_the_end_fails_the_run_as_store_full() {
        RunResult result = run(PLAN, new Journal(-1, null, new StoreFull("full at the end")));

        assertThat(result.error().kind()).isEqualTo(FailureKind.STORE_FULL);
        assertThat(result.error().message()).endsWith("full at the end");
    }

    @Test
    void a_failed_run_whose_end_cannot_be_recorded_keeps_its_steps_error_and_says_so() {
        Journal journal = new Journal(-1, null, new IllegalStateException("gone"));
        RunResult result = run("""
                [{"seq_no": 0, "type": "assign", "parameters": {"a": 1}},
                 {"seq_no": 1, "type": "assign", "parameters": {"b": "${nope.x}"}}]""", journal);

        assertThat(journal.finished)
                .singleElement()
                .satisfies(end -> assertThat(end.error().seqNo()).isEqualTo(1));
        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.error().seqNo()).isEqualTo(1);
        assertThat(result.error().type()).isEqualTo("assign");
        assertThat(result.error().message())
                .isEqualTo(journal.finished.get(0).error().message() + " (nor could the end of the run be recorded)");
        assertThat(result.error().kind())
                .isEqualTo(journal.finished.get(0).error().kind());
    }
}
