package dev.planvm.vm.durable;

import static org.assertj.core.api.Assertions.assertThat;

import dev.planvm.vm.run.FailureKind;
import java.nio.file.Path;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A store failure says whether the disk is full by its kind, which is what the server's 507 is decided by. */
class StoreFailuresTest {

    @TempDir
    Path dir;

    @Test
    void sqlite_full_is_a_full_store_and_says_so() {
        StoreException e = StoreFailures.exception(
                dir.resolve("runs.db"),
                "runs.db: ",
                new SQLException("[SQLITE_FULL] database or disk is full", null, 13));
        assertThat(e.kind()).isEqualTo(FailureKind.STORE_FULL);
        assertThat(e.getMessage()).startsWith("runs.db: the disk is full");
    }

    @Test
    void another_sqlite_error_is_a_store_failure() {
        StoreException e = StoreFailures.exception(
                dir.resolve("runs.db"), "runs.db: ", new SQLException("[SQLITE_CORRUPT] malformed", null, 11));
        assertThat(e.kind()).isEqualTo(FailureKind.STORE_FAILED);
        assertThat(e.getMessage()).isEqualTo("runs.db: [SQLITE_CORRUPT] malformed");
    }
}
