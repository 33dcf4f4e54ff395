package dev.planvm.instructions.reach;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The JSON Schema the docs publish is the one the code carries. */
class ReachSchemaDocTest {

    @Test
    void the_docs_copy_of_the_reach_schema_is_the_resource() throws Exception {
        Path docs = Path.of("../docs/reference/reach.schema.json");
        Path resource = Path.of("src/main/resources/dev/planvm/instructions/reach/reach.schema.json");
        assertThat(Files.readString(docs)).isEqualTo(Files.readString(resource));
    }
}
