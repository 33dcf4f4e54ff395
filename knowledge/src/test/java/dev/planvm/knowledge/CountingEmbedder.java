package dev.planvm.knowledge;

import dev.planvm.knowledge.spi.Embedder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** The in-process model, recording every text it is asked to embed. */
final class CountingEmbedder implements Embedder {

    private final Embedder delegate;
    final List<String> texts = Collections.synchronizedList(new ArrayList<>());

    CountingEmbedder(Embedder delegate) {
        this.delegate = delegate;
    }

    @Override
    public String model() {
        return delegate.model();
    }

    @Override
    public List<float[]> embed(List<String> batch) {
        texts.addAll(batch);
        return delegate.embed(batch);
    }

    void reset() {
        texts.clear();
    }
}
