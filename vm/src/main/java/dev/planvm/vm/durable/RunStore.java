package dev.planvm.vm.durable;

import dev.planvm.vm.run.RunStatus;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.instructions.Plan;
import dev.planvm.tools.Redactor;
import dev.planvm.vm.run.RunError;
import dev.planvm.vm.run.RunResult;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Durable runs in an embedded SQLite database (WAL journal): a run, its plan and inputs, and one
 * row per committed step, each written in its own transaction when the step commits — so a
 * process that dies at any point loses at most the step that was running. The schema
 * ({@code schema.sql}) is plain SQL. Thread-safe (one connection, methods synchronized).
 */
public final class RunStore implements AutoCloseable {

    /** Where the CLI keeps runs unless told otherwise. */
    public static final Path DEFAULT_PATH = Path.of(".planvm", "runs.db");

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final Connection connection;
    private final Path file;
    private final Redactor redactor;

    private RunStore(Path file, Connection connection, Redactor redactor) {
        this.file = file;
        this.connection = connection;
        this.redactor = redactor;
    }

    /** Opens (creating when needed) the store at {@code file}. */
    public static RunStore open(Path file) {
        return open(file, Redactor.none());
    }

    /** Opens the store; every JSON value written to it first goes through {@code redactor}. */
    public static RunStore open(Path file, Redactor redactor) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
            try (Statement statement = connection.createStatement()) {
                statement.execute("PRAGMA journal_mode=WAL");
                statement.execute("PRAGMA synchronous=NORMAL");
                statement.execute("PRAGMA busy_timeout=10000");
                statement.execute("PRAGMA foreign_keys=ON");
                for (String ddl : schema().replaceAll("--[^\n]*", "").split(";")) {
                    if (!ddl.isBlank()) {
                        statement.execute(ddl);
                    }
                }
                migrate(statement);
            }
            return new RunStore(file, connection, redactor);
        } catch (SQLException | IOException e) {
            throw new StoreException(file + ": cannot open the run store: " + e.getMessage(), e);
        }
    }

    /** Stores written by planvm before steps kept their outcome and typed calls get both columns. */
    private static void migrate(Statement statement) throws SQLException {
        List<String> columns = new ArrayList<>();
        try (ResultSet rs = statement.executeQuery("PRAGMA table_info(steps)")) {
            while (rs.next()) {
                columns.add(rs.getString("name"));
            }
        }
        if (!columns.contains("outcome")) {
            statement.execute("ALTER TABLE steps ADD COLUMN outcome TEXT NOT NULL DEFAULT 'next'");
        }
        if (!columns.contains("calls_json")) {
            statement.execute("ALTER TABLE steps ADD COLUMN calls_json TEXT NOT NULL DEFAULT '[]'");
        }
    }

    public Path file() {
        return file;
    }

    /** Records a new run (status {@code running}) and returns its id. */
    public synchronized String createRun(Plan plan, Map<String, JsonNode> inputs, String mode, String parentRun,
                                         Integer fromSeq) {
        String id = UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        update("INSERT INTO runs (id, plan_source, plan_digest, plan_json, inputs_json, mode, status, parent_run, from_seq, "
                        + "started_at, sessions) VALUES (?, ?, ?, ?, ?, ?, 'running', ?, ?, ?, 1)",
                id, plan.source(), plan.digest(), json(plan.document()), json(MAPPER.valueToTree(inputs)), mode, parentRun,
                fromSeq, Instant.now().truncatedTo(ChronoUnit.MILLIS).toString());
        return id;
    }

    /** Marks a run as worked on again by a new session (a resume); returns the session number. */
    public synchronized int resumeRun(String id) {
        update("UPDATE runs SET status = 'running', sessions = sessions + 1, finished_at = NULL, error = NULL WHERE id = ?", id);
        return query("SELECT sessions FROM runs WHERE id = ?", rs -> rs.getInt(1), id).get(0);
    }

    /** Writes one committed step, durably, before the run goes on. */
    public synchronized void commitStep(String runId, StoredStep step) {
        update("INSERT INTO steps (run_id, step_index, seq_no, type, outcome, next_position, writes_json, calls_json, "
                        + "trace_json, session, committed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                runId, step.index(), step.seqNo(), step.type(), step.outcome(), step.nextPosition(), json(step.writes()),
                json(CallsJson.write(step.calls())), json(step.trace()), step.session(), step.committedAt());
    }

    /** Records how a run (or one session of it) ended. */
    public synchronized void finishRun(String runId, RunResult result) {
        RunError error = result.error();
        ObjectNode errorJson = null;
        if (error != null) {
            errorJson = MAPPER.createObjectNode();
            errorJson.put("seq_no", error.seqNo()).put("type", error.type()).put("message", error.message());
        }
        update("UPDATE runs SET status = ?, finished_at = ?, final_answer = ?, error = ? WHERE id = ?",
                result.status().label(), Instant.now().truncatedTo(ChronoUnit.MILLIS).toString(), json(result.finalAnswer()),
                errorJson == null ? null : json(errorJson), runId);
    }

    /** The most recent runs first. */
    public synchronized List<RunSummary> list(int limit) {
        return query("SELECT r.id, r.plan_source, r.status, r.started_at, r.finished_at, "
                + "(SELECT COUNT(*) FROM steps s WHERE s.run_id = r.id), r.parent_run FROM runs r "
                + "ORDER BY r.started_at DESC LIMIT ?", rs -> new RunSummary(rs.getString(1), rs.getString(2),
                RunStatus.ofLabel(rs.getString(3)), rs.getString(4), rs.getString(5), rs.getInt(6), rs.getString(7)), limit);
    }

    /** The run whose id is {@code idOrPrefix} or starts with it (when exactly one does). */
    public synchronized Optional<StoredRun> find(String idOrPrefix) {
        List<String> ids = query("SELECT id FROM runs WHERE id = ? OR id LIKE ? ORDER BY id", rs -> rs.getString(1),
                idOrPrefix, idOrPrefix.replace("%", "").replace("_", "") + "%");
        if (ids.size() > 1 && !ids.contains(idOrPrefix)) {
            throw new StoreException("'" + idOrPrefix + "' names " + ids.size() + " runs: give more of the id");
        }
        if (ids.isEmpty()) {
            return Optional.empty();
        }
        String id = ids.contains(idOrPrefix) ? idOrPrefix : ids.get(0);
        List<StoredStep> steps = query("SELECT step_index, seq_no, type, outcome, next_position, writes_json, calls_json, "
                + "trace_json, session, committed_at FROM steps WHERE run_id = ? ORDER BY step_index",
                rs -> new StoredStep(rs.getInt(1), rs.getInt(2), rs.getString(3), rs.getString(4), rs.getInt(5),
                        parse(rs.getString(6)), CallsJson.read(parse(rs.getString(7)), rs.getInt(2)), parse(rs.getString(8)),
                        rs.getInt(9), rs.getString(10)), id);
        return Optional.of(query("SELECT id, plan_source, plan_digest, plan_json, inputs_json, mode, status, parent_run, "
                + "from_seq, started_at, finished_at, sessions, final_answer, error FROM runs WHERE id = ?",
                rs -> new StoredRun(rs.getString(1), rs.getString(2), rs.getString(3), parse(rs.getString(4)),
                        inputs(parse(rs.getString(5))), rs.getString(6), RunStatus.ofLabel(rs.getString(7)), rs.getString(8),
                        (Integer) rs.getObject(9), rs.getString(10), rs.getString(11), rs.getInt(12), parse(rs.getString(13)),
                        parse(rs.getString(14)), steps), id).get(0));
    }

    @Override
    public synchronized void close() {
        try {
            connection.close();
        } catch (SQLException e) {
            throw new StoreException(file + ": cannot close the run store: " + e.getMessage(), e);
        }
    }

    @FunctionalInterface
    private interface Row<T> {
        T read(ResultSet rs) throws SQLException;
    }

    private <T> List<T> query(String sql, Row<T> row, Object... args) {
        try (PreparedStatement statement = prepare(sql, args); ResultSet rs = statement.executeQuery()) {
            List<T> rows = new ArrayList<>();
            while (rs.next()) {
                rows.add(row.read(rs));
            }
            return rows;
        } catch (SQLException e) {
            throw new StoreException(file + ": " + e.getMessage(), e);
        }
    }

    private void update(String sql, Object... args) {
        try (PreparedStatement statement = prepare(sql, args)) {
            statement.executeUpdate();
        } catch (SQLException e) {
            throw new StoreException(file + ": " + e.getMessage(), e);
        }
    }

    private PreparedStatement prepare(String sql, Object... args) throws SQLException {
        PreparedStatement statement = connection.prepareStatement(sql);
        for (int i = 0; i < args.length; i++) {
            statement.setObject(i + 1, args[i]);
        }
        return statement;
    }

    private static String schema() throws IOException {
        try (InputStream in = RunStore.class.getResourceAsStream("schema.sql")) {
            if (in == null) {
                throw new IOException("missing resource schema.sql");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private String json(JsonNode node) {
        try {
            return node == null ? null : MAPPER.writeValueAsString(redactor.redact(node));
        } catch (JsonProcessingException e) {
            throw new StoreException("cannot write JSON: " + e.getMessage(), e);
        }
    }

    private static JsonNode parse(String json) {
        try {
            return json == null ? null : MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new StoreException("the run store holds malformed JSON: " + e.getMessage(), e);
        }
    }

    private static Map<String, JsonNode> inputs(JsonNode object) {
        Map<String, JsonNode> inputs = new LinkedHashMap<>();
        object.properties().forEach(e -> inputs.put(e.getKey(), e.getValue()));
        return inputs;
    }
}
