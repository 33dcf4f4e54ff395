package dev.planvm.server;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.vm.PlanRejectedException;
import dev.planvm.vm.durable.DurableRunException;
import dev.planvm.vm.durable.DurableRuns;
import dev.planvm.vm.durable.RunStore;
import dev.planvm.vm.durable.StoreException;
import dev.planvm.vm.durable.StoredRun;
import dev.planvm.vm.run.FailureKind;
import dev.planvm.vm.run.RunStatus;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The service's reads of stored runs, in its words: a run found by its exact id, its state as read, where its wait
 * is; and every failure of the durable-runs API said as a {@link ServiceException}.
 */
final class RunLookup {

    private static final Logger log = LoggerFactory.getLogger(PlanService.class);

    private final RunStore store;
    private final DurableRuns runs;

    RunLookup(RunStore store, DurableRuns runs) {
        this.store = store;
        this.runs = runs;
    }

    /**
     * The stored run whose id is exactly {@code id}. Never a prefix: the store finds a run by the start of its
     * id (for the command line), which over the network would let a one-character guess reach a run.
     */
    StoredRun find(String id) {
        ServiceException none = new ServiceException(ServiceException.Kind.NO_SUCH_RUN, "no run '" + id + "'");
        if (id == null
                || id.isBlank()
                || id.length() > 64
                || guard(() -> store.summary(id)).isEmpty()) {
            throw none;
        }
        StoredRun run;
        try {
            run = DurableRuns.find(store, id);
        } catch (RuntimeException e) {
            throw failure(e);
        }
        if (!run.id().equals(id)) {
            throw none;
        }
        return run;
    }

    /**
     * The state of {@code run} as read: a run read as running is {@code running} or {@code interrupted}
     * (whether a live process owns it). A run that finished after it was read is still {@code running}
     * here, so the state never disagrees with the rest of the document (a finished state with no result).
     */
    String state(StoredRun run) {
        if (run.status() != RunStatus.RUNNING) {
            return run.status().label();
        }
        return guard(() -> store.summary(run.id()))
                .map(now -> now.status() == RunStatus.RUNNING ? now.state() : "running")
                .orElse("interrupted");
    }

    /** Where a stored run's wait is ({@link DurableRuns#tree}). */
    DurableRuns.Tree tree(StoredRun run) {
        try {
            return runs.tree(run);
        } catch (RuntimeException e) {
            throw failure(e);
        }
    }

    /** {@code read}'s value, or its failure said as a {@link ServiceException}. */
    static <T> T guard(Supplier<T> read) {
        try {
            return read.get();
        } catch (RuntimeException e) {
            throw failure(e);
        }
    }

    /** The service's word for a failure of the durable-runs API. */
    static ServiceException failure(Throwable e) {
        if (e instanceof ServiceException service) {
            return service;
        }
        if (e instanceof PlanRejectedException rejected) {
            ObjectNode details = JsonNodeFactory.instance.objectNode();
            rejected.problems().forEach(details.putArray("problems")::add);
            return new ServiceException(
                    ServiceException.Kind.REJECTED,
                    "the plan cannot run here: "
                            + Plans.count(rejected.problems().size(), "problem") + ", the first: "
                            + rejected.problems().get(0),
                    details);
        }
        if (e instanceof DurableRunException || e instanceof StoreException) {
            return new ServiceException(ServiceException.Kind.of(FailureKind.of(e)), e.getMessage());
        }
        log.warn("unexpected failure", e);
        return new ServiceException(
                ServiceException.Kind.INTERNAL,
                "unexpected " + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage()));
    }
}
