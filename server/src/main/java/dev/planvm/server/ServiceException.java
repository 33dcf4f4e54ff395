package dev.planvm.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.vm.run.FailureKind;
import java.util.Objects;

/**
 * A request the service cannot carry out, said the way both servers report it: a stable
 * {@link Kind} (the HTTP status and the {@code error} code of the JSON body), one sentence, and
 * details (e.g. every located diagnostic of an invalid plan). Never carries a stack trace or a secret.
 */
public final class ServiceException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** What went wrong, with its HTTP status and error code. */
    public enum Kind {
        BAD_REQUEST(400, "bad_request"),
        UNAUTHORIZED(401, "unauthorized"),
        FORBIDDEN(403, "forbidden"),
        NOT_FOUND(404, "not_found"),
        NO_SUCH_RUN(404, "no_such_run"),
        METHOD_NOT_ALLOWED(405, "method_not_allowed"),
        REQUEST_TIMEOUT(408, "request_timeout"),
        CONFLICT(409, "conflict"),
        TOO_LARGE(413, "too_large"),
        UNSUPPORTED_MEDIA_TYPE(415, "unsupported_media_type"),
        INVALID_PLAN(422, "invalid_plan"),
        REJECTED(422, "rejected"),
        BUSY(429, "busy"),
        INTERNAL(500, "internal"),
        UNAVAILABLE(503, "unavailable"),
        SHUTTING_DOWN(503, "shutting_down"),
        STORE_FULL(507, "store_full");

        private final int status;
        private final String code;

        Kind(int status, String code) {
            this.status = status;
            this.code = code;
        }

        public int status() {
            return status;
        }

        /**
         * How the service answers a request that failed with {@code failure}: decided by the kind alone, never
         * by a message. A run's own outcome (a failed step, a limit, a wait) is the state of a 200 answer; as a
         * request's failure it is a conflict with the run's state.
         */
        public static Kind of(FailureKind failure) {
            return switch (failure) {
                case INVALID_PLAN -> INVALID_PLAN;
                case REJECTED_BEFORE_RUNNING -> REJECTED;
                case NO_SUCH_RUN -> NO_SUCH_RUN;
                case CONFLICT, WAITING_FOR_APPROVAL, WAITING_FOR_INPUT, WAITING_FOR_TIMER, INTERRUPTED, CANCELLED ->
                    CONFLICT;
                case STORE_FULL -> STORE_FULL;
                case UNAVAILABLE -> UNAVAILABLE;
                case STEP_FAILED, LIMIT_REACHED, STORE_FAILED -> INTERNAL;
            };
        }

        public String code() {
            return code;
        }
    }

    private final Kind kind;
    private final transient JsonNode details;

    public ServiceException(Kind kind, String message) {
        this(kind, message, JsonNodeFactory.instance.objectNode());
    }

    public ServiceException(Kind kind, String message, JsonNode details) {
        super(Objects.requireNonNull(message, "message"), null, false, false);
        this.kind = Objects.requireNonNull(kind, "kind");
        this.details = details == null ? JsonNodeFactory.instance.objectNode() : details;
    }

    public Kind kind() {
        return kind;
    }

    public JsonNode details() {
        return details;
    }

    /** {@code {"error": CODE, "message": SENTENCE, "details": {...}}}: the body of every error answer. */
    public ObjectNode toJson() {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.put("error", kind.code()).put("message", getMessage()).set("details", details);
        return body;
    }
}
