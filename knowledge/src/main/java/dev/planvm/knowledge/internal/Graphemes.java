package dev.planvm.knowledge.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Extended grapheme clusters (what a reader sees as one character: a letter and its accents, an emoji
 * with its skin tone, a ZWJ sequence such as a family, a flag), so that text is never cut inside one.
 * {@code \X} of {@link Pattern}, which follows Unicode's rules on every JDK this runs on.
 */
final class Graphemes {

    private static final Pattern CLUSTER = Pattern.compile("\\X");
    /** Further back than any real cluster is long: a cut searches this far for a boundary. */
    private static final int LOOKBACK = 64;

    private Graphemes() {}

    /** The offsets where the clusters of {@code text[from, to)} start, ascending. */
    static List<Integer> starts(String text, int from, int to) {
        List<Integer> starts = new ArrayList<>();
        Matcher m = CLUSTER.matcher(text).region(from, to);
        while (m.find()) {
            starts.add(m.start());
        }
        return starts;
    }

    /**
     * The cluster boundary at or before {@code cut}, but after {@code floor} (then {@code cut} itself when
     * there is none: a cluster longer than the room).
     */
    static int boundaryAtOrBefore(String text, int floor, int cut) {
        if (cut >= text.length() || cut <= floor) {
            return cut;
        }
        int from = Math.max(floor, cut - LOOKBACK);
        Matcher m = CLUSTER.matcher(text).region(from, Math.min(text.length(), cut + LOOKBACK));
        int best = -1;
        while (m.find() && m.start() <= cut) {
            best = m.start();
        }
        return best > floor ? best : cut;
    }
}
