package dev.planvm.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.planvm.vm.run.FailureKind;
import org.junit.jupiter.api.Test;

/** The HTTP status of a failed request is decided by the failure's kind alone. */
class FailureStatusTest {

    @Test
    void each_kind_of_failure_answers_its_status() {
        assertThat(ServiceException.Kind.of(FailureKind.INVALID_PLAN).status()).isEqualTo(422);
        assertThat(ServiceException.Kind.of(FailureKind.REJECTED_BEFORE_RUNNING).code())
                .isEqualTo("rejected");
        assertThat(ServiceException.Kind.of(FailureKind.NO_SUCH_RUN).status()).isEqualTo(404);
        assertThat(ServiceException.Kind.of(FailureKind.CONFLICT).status()).isEqualTo(409);
        assertThat(ServiceException.Kind.of(FailureKind.WAITING_FOR_APPROVAL).status())
                .isEqualTo(409);
        assertThat(ServiceException.Kind.of(FailureKind.WAITING_FOR_INPUT).status())
                .isEqualTo(409);
        assertThat(ServiceException.Kind.of(FailureKind.STORE_FULL).status()).isEqualTo(507);
        assertThat(ServiceException.Kind.of(FailureKind.STORE_FAILED).status()).isEqualTo(500);
        assertThat(ServiceException.Kind.of(FailureKind.UNAVAILABLE).status()).isEqualTo(503);
        for (FailureKind kind : FailureKind.values()) {
            assertThat(ServiceException.Kind.of(kind)).as(kind.name()).isNotNull();
        }
    }
}
