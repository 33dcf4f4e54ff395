package dev.planvm.knowledge.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Splits a document into chunks of at most {@code maxTokens} tokens and {@code maxTokens} &times;
 * {@value #MAX_CHARS_PER_TOKEN} characters, section by section (a chunk never spans two headings),
 * recursively: a range too long is cut at blank lines, a piece still too long at line ends, then at
 * sentence ends, then between words, then between tokens, and a piece that still holds too many
 * characters (whitespace, text without tokens) at whitespace or else between grapheme clusters. Text the
 * tokenizer cannot read counts by its size (see {@link Tokens#starts}). Adjacent pieces are then
 * merged back up to the limit, and each chunk after the first of a section starts up to
 * {@code overlapTokens} tokens before the previous one ends (at a word start). Offsets are exact
 * character offsets into the document's text; chunks are trimmed of surrounding whitespace.
 */
public final class Chunker {

    /** A chunk: a range of the document's text under a heading path, and its token count. */
    public record Span(String heading, int start, int end, int tokens) {}

    /** A chunk holds at most this many characters per token of its limit. */
    public static final int MAX_CHARS_PER_TOKEN = 16;

    private final int maxTokens;
    private final int maxChars;
    private final int overlapTokens;
    private final int maxChunks;

    public Chunker(int maxTokens, int overlapTokens, int maxChunks) {
        if (maxTokens < 8) {
            throw new IllegalArgumentException("chunks must hold at least 8 tokens, not " + maxTokens);
        }
        if (overlapTokens < 0 || overlapTokens >= maxTokens / 2 + 1) {
            throw new IllegalArgumentException(
                    "the overlap must be between 0 and half the chunk size, not " + overlapTokens);
        }
        this.maxTokens = maxTokens;
        this.maxChars = maxTokens * MAX_CHARS_PER_TOKEN;
        this.overlapTokens = overlapTokens;
        this.maxChunks = maxChunks;
    }

    /** The chunks of {@code document}, at most {@code maxChunks} (then the result says it was cut). */
    public Result chunk(ParsedDocument document, Tokens tokens) {
        List<Span> spans = new ArrayList<>();
        String text = document.text();
        for (ParsedDocument.Section section : document.sections()) {
            Counter counter = new Counter(tokens.starts(text, section.start(), section.end()));
            List<int[]> pieces = new ArrayList<>();
            split(text, counter, section.start(), section.end(), 0, pieces);
            for (int[] range : merge(text, counter, pieces)) {
                int start = range[0];
                int end = range[1];
                while (start < end && Character.isWhitespace(text.charAt(start))) {
                    start++;
                }
                while (end > start && Character.isWhitespace(text.charAt(end - 1))) {
                    end--;
                }
                if (start < end) {
                    if (spans.size() == maxChunks) {
                        return new Result(spans, true);
                    }
                    spans.add(new Span(section.heading(), start, end, Math.max(1, counter.count(start, end))));
                }
            }
        }
        return new Result(spans, false);
    }

    /** The chunks, and whether there were more than the limit allows. */
    public record Result(List<Span> spans, boolean truncated) {}

    /** Cuts {@code [from, to)} into pieces of at most {@code maxTokens} tokens, appended in order. */
    private void split(String text, Counter counter, int from, int to, int level, List<int[]> out) {
        if (from >= to) {
            return;
        }
        if (counter.count(from, to) <= maxTokens && to - from <= maxChars) {
            out.add(new int[] {from, to});
            return;
        }
        if (level == 4) { // between tokens: a few may start at one offset (a long grapheme cluster)
            int[] starts = counter.starts;
            int last = counter.index(to);
            int cut = from;
            int cutIndex = counter.index(from);
            int i = cutIndex + maxTokens;
            while (i < last) {
                int offset = starts[i];
                int first = counter.index(offset);
                if (first <= cutIndex) { // more tokens than fit start at one offset: cut after them
                    while (i < last && starts[i] == offset) {
                        i++;
                    }
                    if (i == last) {
                        break;
                    }
                    offset = starts[i];
                    first = i;
                }
                capChars(text, cut, offset, out);
                cut = offset;
                cutIndex = first;
                i = first + maxTokens;
            }
            capChars(text, cut, to, out);
            return;
        }
        List<Integer> cuts = cuts(text, from, to, level);
        if (cuts.isEmpty()) {
            split(text, counter, from, to, level + 1, out);
            return;
        }
        int start = from;
        for (int cut : cuts) {
            split(text, counter, start, cut, level + 1, out);
            start = cut;
        }
        split(text, counter, start, to, level + 1, out);
    }

    /**
     * Appends {@code [from, to)} (within the token limit) in pieces of at most {@code maxChars}
     * characters: cut at the last whitespace in the second half of the room, else between grapheme
     * clusters.
     */
    private void capChars(String text, int from, int to, List<int[]> out) {
        while (to - from > maxChars) {
            int cut = from + maxChars;
            int space = cut;
            while (space > from + maxChars / 2 && !Character.isWhitespace(text.charAt(space - 1))) {
                space--;
            }
            cut = space > from + maxChars / 2 ? space : Graphemes.boundaryAtOrBefore(text, from, cut);
            out.add(new int[] {from, cut});
            from = cut;
        }
        if (from < to) {
            out.add(new int[] {from, to});
        }
    }

    /** Where {@code [from, to)} may be cut at {@code level}: after blank lines, line ends, sentence ends, spaces. */
    private static List<Integer> cuts(String text, int from, int to, int level) {
        List<Integer> cuts = new ArrayList<>();
        for (int i = from; i < to - 1; i++) {
            char c = text.charAt(i);
            int cut = switch (level) {
                case 0 -> c == '\n' ? afterBlankLine(text, i, to) : -1;
                case 1 -> c == '\n' ? i + 1 : -1;
                case 2 ->
                    (c == '.' || c == '!' || c == '?' || c == '。') && Character.isWhitespace(text.charAt(i + 1))
                            ? i + 1
                            : -1;
                default -> Character.isWhitespace(c) && !Character.isWhitespace(text.charAt(i + 1)) ? i + 1 : -1;
            };
            if (cut > from && cut < to) {
                cuts.add(cut);
                i = cut - 1;
            }
        }
        return cuts;
    }

    /** The end of the blank line that starts after the newline at {@code i}, or -1 when the next line is not blank. */
    private static int afterBlankLine(String text, int i, int to) {
        int j = i + 1;
        while (j < to && (text.charAt(j) == ' ' || text.charAt(j) == '\t' || text.charAt(j) == '\r')) {
            j++;
        }
        if (j < to && text.charAt(j) == '\n') {
            while (j < to && Character.isWhitespace(text.charAt(j))) {
                j++;
            }
            return j;
        }
        return -1;
    }

    /** Merges consecutive pieces up to the limit; each chunk after the first starts with the overlap. */
    private List<int[]> merge(String text, Counter counter, List<int[]> pieces) {
        List<int[]> chunks = new ArrayList<>();
        int i = 0;
        int chunkStart = -1;
        while (i < pieces.size()) {
            int[] piece = pieces.get(i);
            if (chunkStart < 0) {
                chunkStart = piece[0];
            }
            int end = piece[1];
            i++;
            while (i < pieces.size() && fits(counter, chunkStart, pieces.get(i)[1])) {
                end = pieces.get(i)[1];
                i++;
            }
            chunks.add(new int[] {chunkStart, end});
            if (i < pieces.size()) {
                int next = pieces.get(i)[0];
                int overlapStart = overlapStart(text, counter, chunkStart, end);
                boolean fits = overlapStart < next && fits(counter, overlapStart, pieces.get(i)[1]);
                chunkStart = fits ? overlapStart : next;
            }
        }
        return chunks;
    }

    /** Whether {@code [from, to)} fits one chunk: its tokens and its characters. */
    private boolean fits(Counter counter, int from, int to) {
        return counter.count(from, to) <= maxTokens && to - from <= maxChars;
    }

    /** Where the overlap with a chunk {@code [chunkStart, end)} starts: about {@code overlapTokens} before its end, at a word start. */
    private int overlapStart(String text, Counter counter, int chunkStart, int end) {
        if (overlapTokens == 0) {
            return end;
        }
        int endIndex = counter.index(end);
        int index = Math.max(counter.index(chunkStart) + 1, endIndex - overlapTokens);
        if (index >= endIndex) {
            return end;
        }
        int position = counter.starts[index];
        while (position < end && position > 0 && !Character.isWhitespace(text.charAt(position - 1))) {
            position++;
        }
        return position;
    }

    /** Token counts over ranges of the text, from the sorted token start offsets. */
    private static final class Counter {
        final int[] starts;

        Counter(int[] starts) {
            this.starts = starts;
        }

        /** The number of tokens that start in {@code [from, to)}. */
        int count(int from, int to) {
            return index(to) - index(from);
        }

        /** The index of the first token starting at or after {@code offset}. */
        int index(int offset) {
            int found = Arrays.binarySearch(starts, offset);
            if (found < 0) {
                return -found - 1;
            }
            while (found > 0 && starts[found - 1] == offset) {
                found--;
            }
            return found;
        }
    }
}
