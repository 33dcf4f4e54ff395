package dev.planvm.knowledge.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.TextNode;
import java.util.List;
import org.junit.jupiter.api.Test;

class ExtractionTest {

    private static final String OBJECT = "{\"entities\": [{\"name\": \"TiDB\", \"type\": \"database\"}],"
            + " \"relationships\": [{\"source\": \"TiDB\", \"target\": \"TiKV\", \"description\": \"stores in\"}]}";

    @Test
    void reads_the_object_of_an_answer_that_is_only_json() {
        Extraction extraction = Extraction.fromAnswer(TextNode.valueOf(OBJECT)).orElseThrow();
        assertThat(extraction.entities()).containsExactly(new Extraction.Entity("TiDB", "database", ""));
        assertThat(extraction.relationships())
                .containsExactly(new Extraction.Relationship("TiDB", "TiKV", "stores in"));
    }

    @Test
    void finds_the_object_after_prose_that_holds_braces_too() {
        String answer = "I found {1} entity and {1} relationship:\n" + OBJECT + "\nHope {this} helps.";
        assertThat(Extraction.fromAnswer(TextNode.valueOf(answer)))
                .hasValueSatisfying(e -> assertThat(e.entities()).hasSize(1));
    }

    @Test
    void reads_a_json_fence_and_passes_over_a_fence_of_another_language() {
        String answer = "```python\n{\"entities\": []}\n```\nand\n```json\n" + OBJECT + "\n```";
        assertThat(Extraction.fromAnswer(TextNode.valueOf(answer)))
                .hasValueSatisfying(e -> assertThat(e.entities()).hasSize(1));
    }

    @Test
    void holds_nothing_without_an_entities_array() {
        assertThat(Extraction.fromAnswer(TextNode.valueOf("no JSON here"))).isEmpty();
        assertThat(Extraction.fromAnswer(TextNode.valueOf("{\"people\": []}"))).isEmpty();
    }

    @Test
    void reads_back_what_it_stored() {
        Extraction extraction = new Extraction(
                List.of(new Extraction.Entity("a", "b", "c")), List.of(new Extraction.Relationship("a", "a", "d")));
        assertThat(Extraction.fromStored(extraction.toJson())).isEqualTo(extraction);
    }
}
