package dev.planvm.knowledge.internal;

import dev.planvm.knowledge.spi.IndexListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Passes events on to a listener; one that throws is logged and ignored. */
public final class SafeListener implements IndexListener {

    private static final Logger LOG = LoggerFactory.getLogger(SafeListener.class);

    private final IndexListener delegate;

    public SafeListener(IndexListener delegate) {
        this.delegate = delegate == null ? IndexListener.none() : delegate;
    }

    @Override
    public void started(Phase phase, int total) {
        try {
            delegate.started(phase, total);
        } catch (RuntimeException e) {
            LOG.warn("index listener failed on start of {}: {}", phase, e.toString());
        }
    }

    @Override
    public void advanced(Phase phase, int done, String item) {
        try {
            delegate.advanced(phase, done, item);
        } catch (RuntimeException e) {
            LOG.warn("index listener failed in {}: {}", phase, e.toString());
        }
    }

    @Override
    public void finished(Phase phase) {
        try {
            delegate.finished(phase);
        } catch (RuntimeException e) {
            LOG.warn("index listener failed on end of {}: {}", phase, e.toString());
        }
    }
}
