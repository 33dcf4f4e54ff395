package dev.planvm.instructions.reach;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The sources of values one analysis met, each numbered once, so a set of them is a {@link BitSet}. */
final class Origins {

    /** The one literal source: text written in the plan. */
    static final int LITERAL = 0;

    private final List<Reach.Origin> origins = new ArrayList<>();
    private final Map<Reach.Origin, Integer> ids = new HashMap<>();

    Origins() {
        id(new Reach.Origin(Reach.Kind.LITERAL, null, null));
    }

    int id(Reach.Origin origin) {
        Integer known = ids.get(origin);
        if (known != null) {
            return known;
        }
        int id = origins.size();
        origins.add(origin);
        ids.put(origin, id);
        return id;
    }

    Reach.Origin get(int id) {
        return origins.get(id);
    }

    /** The origins of a set, in the order they were first met. */
    List<Reach.Origin> list(BitSet set) {
        List<Reach.Origin> list = new ArrayList<>(set.cardinality());
        for (int i = set.nextSetBit(0); i >= 0; i = set.nextSetBit(i + 1)) {
            list.add(origins.get(i));
        }
        return list;
    }
}
