package dev.planvm.knowledge.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ChunkerTest {

    private final Tokens tokens = Tokens.shared();

    private static ParsedDocument markdown(String text) throws DocumentException {
        return new DocumentReader(1_000_000, 10).read(Path.of("doc.md"), text.getBytes(StandardCharsets.UTF_8));
    }

    private static String paragraphs(int count) {
        return IntStream.range(0, count)
                .mapToObj(i -> "Paragraph " + i + " talks about topic number " + i
                        + " in a few plain words. It has two sentences.")
                .collect(Collectors.joining("\n\n"));
    }

    @Test
    void every_chunk_fits_the_token_limit_and_its_offsets_give_its_text() throws Exception {
        ParsedDocument doc = markdown("# Title\n\n" + paragraphs(60));
        Chunker.Result result = new Chunker(64, 8, 1000).chunk(doc, tokens);
        assertThat(result.spans()).hasSizeGreaterThan(5);
        for (Chunker.Span span : result.spans()) {
            String text = doc.text().substring(span.start(), span.end());
            assertThat(tokens.count(text)).isLessThanOrEqualTo(64);
            assertThat(span.tokens()).isEqualTo(tokens.count(text));
            assertThat(text).isEqualTo(text.strip());
        }
    }

    @Test
    void chunks_cover_the_text_in_order_and_consecutive_chunks_overlap() throws Exception {
        ParsedDocument doc = markdown(paragraphs(40));
        List<Chunker.Span> spans = new Chunker(64, 16, 1000).chunk(doc, tokens).spans();
        for (int i = 1; i < spans.size(); i++) {
            Chunker.Span previous = spans.get(i - 1);
            Chunker.Span next = spans.get(i);
            assertThat(next.start()).isGreaterThan(previous.start());
            assertThat(next.start())
                    .as("chunk %d starts inside the previous one (the overlap)", i)
                    .isLessThan(previous.end());
        }
        assertThat(spans.get(spans.size() - 1).end())
                .isEqualTo(doc.text().strip().length());
    }

    @Test
    void without_overlap_chunks_do_not_overlap() throws Exception {
        ParsedDocument doc = markdown(paragraphs(40));
        List<Chunker.Span> spans = new Chunker(64, 0, 1000).chunk(doc, tokens).spans();
        for (int i = 1; i < spans.size(); i++) {
            assertThat(spans.get(i).start())
                    .isGreaterThanOrEqualTo(spans.get(i - 1).end());
        }
    }

    @Test
    void splits_prefer_paragraph_boundaries() throws Exception {
        ParsedDocument doc = markdown(paragraphs(30));
        for (Chunker.Span span : new Chunker(100, 0, 1000).chunk(doc, tokens).spans()) {
            String text = doc.text().substring(span.start(), span.end());
            assertThat(text).startsWith("Paragraph ").endsWith("two sentences.");
        }
    }

    @Test
    void a_chunk_never_spans_two_sections() throws Exception {
        ParsedDocument doc = markdown("# A\none two three\n## B\nfour five six\n## C\nseven");
        List<Chunker.Span> spans = new Chunker(256, 32, 1000).chunk(doc, tokens).spans();
        assertThat(spans).extracting(Chunker.Span::heading).containsExactly("A", "A > B", "A > C");
    }

    @Test
    void a_single_huge_word_is_cut_between_tokens() throws Exception {
        ParsedDocument doc = markdown("x".repeat(20_000));
        List<Chunker.Span> spans = new Chunker(32, 0, 10_000).chunk(doc, tokens).spans();
        assertThat(spans).allSatisfy(span -> assertThat(span.tokens()).isLessThanOrEqualTo(32));
        assertThat(spans.get(spans.size() - 1).end()).isEqualTo(20_000);
    }

    @Test
    void chunks_stop_at_the_limit_and_the_result_says_so() throws Exception {
        ParsedDocument doc = markdown(paragraphs(100));
        Chunker.Result result = new Chunker(32, 0, 5).chunk(doc, tokens);
        assertThat(result.spans()).hasSize(5);
        assertThat(result.truncated()).isTrue();
    }

    private static ParsedDocument text(String text) throws DocumentException {
        return new DocumentReader(5_000_000, 10).read(Path.of("run.txt"), text.getBytes(StandardCharsets.UTF_8));
    }

    /** Each chunk holds at most its tokens and characters, tokens that count what it holds, and its offsets give its text. */
    private void assertCapped(ParsedDocument doc, List<Chunker.Span> spans, int maxTokens) {
        assertThat(spans).isNotEmpty();
        for (Chunker.Span span : spans) {
            String text = doc.text().substring(span.start(), span.end());
            assertThat(span.tokens()).isLessThanOrEqualTo(maxTokens);
            assertThat(text.length()).isLessThanOrEqualTo(maxTokens * Chunker.MAX_CHARS_PER_TOKEN);
            assertThat(span.tokens())
                    .as("a chunk of %s characters counts them", text.length())
                    .isGreaterThanOrEqualTo(text.strip().length() / Chunker.MAX_CHARS_PER_TOKEN);
        }
    }

    @Test
    void a_run_of_millions_of_characters_without_whitespace_is_cut_into_capped_chunks_counted_by_size()
            throws Exception {
        ParsedDocument doc = text("x".repeat(4_900_000));
        Chunker.Result result = new Chunker(256, 32, 100_000).chunk(doc, tokens);
        assertCapped(doc, result.spans(), 256);
        assertThat(result.spans().get(result.spans().size() - 1).end()).isEqualTo(4_900_000);
        assertThat(result.spans().get(0).tokens())
                .as("counted about one token per %d characters", Tokens.UNKNOWN_CHARS_PER_TOKEN)
                .isEqualTo(256);
    }

    @Test
    void emoji_and_zwj_sequences_are_capped_and_never_cut_inside_a_grapheme_cluster() throws Exception {
        String family = "\uD83D\uDC68\u200D\uD83D\uDC69\u200D\uD83D\uDC67\u200D\uD83D\uDC66"; // 11 UTF-16 units
        ParsedDocument doc = text(family.repeat(60_000));
        List<Chunker.Span> spans =
                new Chunker(64, 8, 100_000).chunk(doc, tokens).spans();
        assertCapped(doc, spans, 64);
        assertThat(spans).allSatisfy(span -> {
            assertThat(span.start() % family.length()).isZero();
            assertThat(span.end() % family.length()).isZero();
            assertThat((span.tokens() + 1) * Tokens.UNKNOWN_CHARS_PER_TOKEN)
                    .as("counted by size (give or take the rounding)")
                    .isGreaterThanOrEqualTo(span.end() - span.start());
        });
    }

    @Test
    void whitespace_and_invisible_characters_between_words_do_not_make_a_chunk_longer_than_its_cap() throws Exception {
        ParsedDocument doc = text("alpha" + " ".repeat(1_000_000) + "omega and more words\n\n" + "beta"
                + "\u200B".repeat(1_000_000) + "gamma\n\nzalgo o" + "\u0301".repeat(200_000) + " delta");
        List<Chunker.Span> spans =
                new Chunker(64, 8, 100_000).chunk(doc, tokens).spans();
        assertCapped(doc, spans, 64);
        String all = spans.stream()
                .map(span -> doc.text().substring(span.start(), span.end()))
                .collect(Collectors.joining(" "));
        assertThat(all).contains("alpha", "omega and more words", "beta", "gamma", "zalgo", "delta");
    }
}
