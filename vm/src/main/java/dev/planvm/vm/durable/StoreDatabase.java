package dev.planvm.vm.durable;

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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The SQLite connection of a run store: opening it with the journal and durability settings,
 * creating or upgrading the schema, and small query and update helpers whose failures name the
 * file. A statement or commit that fails (a full disk, a file-size limit, an I/O error) discards the
 * connection and its statements — SQLite rolls back what was not committed — and the next use opens a
 * fresh one, so the store works again by itself once writes succeed again. Not thread-safe:
 * {@link RunStore} serialises access.
 */
final class StoreDatabase implements AutoCloseable {

    /** A row mapper that may throw what JDBC throws. */
    @FunctionalInterface
    interface Row<T> {
        T read(ResultSet rs) throws SQLException;
    }

    private final Path file;
    private final RunStore.Durability durability;
    private final Map<String, PreparedStatement> statements = new HashMap<>();
    /** {@code null} after a failure (or before the first use): the next use connects again. */
    private Connection connection;

    private boolean closed;

    private StoreDatabase(Path file, RunStore.Durability durability, Connection connection) {
        this.file = file;
        this.durability = durability;
        this.connection = connection;
    }

    /** Opens the database at {@code file} (creating it when {@code create}), with WAL and this durability. */
    static StoreDatabase open(Path file, boolean create, RunStore.Durability durability) {
        try {
            if (!Files.exists(file)) {
                if (!create) {
                    throw new StoreException("there is no run store at " + file + " (runs are kept where planvm run "
                            + "was started: .planvm/runs.db, or --store / PLANVM_STORE)");
                }
                Path parent = file.toAbsolutePath().getParent();
                if (parent != null) {
                    Files.createDirectories(parent);
                }
            }
            Connection connection = connect(file, durability);
            try (Statement statement = connection.createStatement()) {
                for (String ddl : schema().replaceAll("--[^\n]*", "").split(";")) {
                    if (!ddl.isBlank()) {
                        statement.execute(ddl);
                    }
                }
                migrate(statement);
                keyByElement(connection, "approvals", "decision, reason, decided_at");
                keyByElement(connection, "waits", "answer_json, answered_at");
            } catch (SQLException | IOException e) {
                closeQuietly(connection);
                throw e;
            }
            return new StoreDatabase(file, durability, connection);
        } catch (SQLException e) {
            throw StoreFailures.exception(file, file + ": cannot open the run store: ", e);
        } catch (IOException e) {
            throw new StoreException(file + ": cannot open the run store: " + e.getMessage(), e);
        }
    }

    private static Connection connect(Path file, RunStore.Durability durability) throws SQLException {
        Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
        try (Statement statement = connection.createStatement()) {
            statement.execute("PRAGMA journal_mode=WAL");
            statement.execute("PRAGMA synchronous=" + (durability == RunStore.Durability.FULL ? "FULL" : "NORMAL"));
            statement.execute("PRAGMA busy_timeout=10000");
            statement.execute("PRAGMA foreign_keys=ON");
        } catch (SQLException e) {
            closeQuietly(connection);
            throw e;
        }
        return connection;
    }

    /** Stores written by earlier versions of planvm get the columns they lack. */
    private static void migrate(Statement statement) throws SQLException {
        addMissing(statement, "steps", "outcome", "TEXT NOT NULL DEFAULT 'next'");
        addMissing(statement, "steps", "calls_json", "TEXT NOT NULL DEFAULT '[]'");
        addMissing(statement, "runs", "owner", "TEXT");
        addMissing(statement, "runs", "owned_since", "TEXT");
        addMissing(statement, "runs", "lease_until", "INTEGER");
        addMissing(statement, "runs", "stored_bytes", "INTEGER NOT NULL DEFAULT 0");
        addMissing(statement, "runs", "options_json", "TEXT");
        addMissing(statement, "runs", "clock_json", "TEXT");
        addMissing(statement, "runs", "source_lines_json", "TEXT");
        addMissing(statement, "runs", "caller_run", "TEXT");
        addMissing(statement, "runs", "caller_seq", "INTEGER");
        addMissing(statement, "runs", "caller_step", "INTEGER"); // none: an earlier child is never taken as unused
        addMissing(statement, "runs", "wake_at", "TEXT");
        addMissing(statement, "runs", "plan_tools_json", "TEXT"); // none: the plan tools of the VM that continues it
        statement.execute("CREATE INDEX IF NOT EXISTS runs_caller ON runs (caller_run, caller_seq)");
    }

    private static void addMissing(Statement statement, String table, String column, String type) throws SQLException {
        if (!columns(statement, table).contains(column)) {
            statement.execute("ALTER TABLE " + table + " ADD COLUMN " + column + " " + type);
        }
    }

    private static List<String> columns(Statement statement, String table) throws SQLException {
        List<String> columns = new ArrayList<>();
        try (ResultSet rs = statement.executeQuery("PRAGMA table_info(" + table + ")")) {
            while (rs.next()) {
                columns.add(rs.getString("name"));
            }
        }
        return columns;
    }

    /**
     * A store written before the elements of a {@code for_each} step waited each on its own has an {@code approvals}
     * or {@code waits} table whose key lacks the element: the table is rebuilt with the schema's key, its rows kept
     * (as calls that are no element), in one transaction that also decides which of two processes opening the store
     * at once rebuilds it.
     */
    private static void keyByElement(Connection connection, String table, String stateColumns)
            throws SQLException, IOException {
        String kept = "run_id, step_index, seq_no, tool, params_json, requested_at, " + stateColumns;
        try (Statement statement = connection.createStatement()) {
            if (columns(statement, table).contains("element")) {
                return; // the usual case: no write lock taken
            }
            statement.execute("BEGIN IMMEDIATE");
            try {
                if (!columns(statement, table).contains("element")) {
                    String before = table + "_before_elements";
                    statement.execute("ALTER TABLE " + table + " RENAME TO " + before);
                    statement.execute(createTable(table));
                    statement.execute("INSERT INTO " + table + " (" + kept + ") SELECT " + kept + " FROM " + before);
                    statement.execute("DROP TABLE " + before);
                }
                statement.execute("COMMIT");
            } catch (SQLException e) {
                statement.execute("ROLLBACK");
                throw e;
            }
        }
    }

    /** The schema's {@code CREATE TABLE} statement of {@code table}. */
    private static String createTable(String table) throws IOException {
        String start = "CREATE TABLE IF NOT EXISTS " + table + " (";
        for (String ddl : schema().replaceAll("--[^\n]*", "").split(";")) {
            if (ddl.strip().startsWith(start)) {
                return ddl;
            }
        }
        throw new IOException("schema.sql has no table " + table);
    }

    private static String schema() throws IOException {
        try (InputStream in = StoreDatabase.class.getResourceAsStream("schema.sql")) {
            if (in == null) {
                throw new IOException("missing resource schema.sql");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    Path file() {
        return file;
    }

    <T> List<T> query(String sql, Row<T> row, Object... args) {
        try {
            PreparedStatement statement = prepare(sql, args);
            try (ResultSet rs = statement.executeQuery()) {
                List<T> rows = new ArrayList<>();
                while (rs.next()) {
                    rows.add(row.read(rs));
                }
                return rows;
            }
        } catch (SQLException e) {
            throw failed(e);
        }
    }

    /** Runs an insert, update or delete; returns how many rows it changed. */
    int update(String sql, Object... args) {
        try {
            return prepare(sql, args).executeUpdate();
        } catch (SQLException e) {
            throw failed(e);
        }
    }

    /**
     * Runs {@code work} in one transaction: all of it is written, or (when it throws, or the commit
     * fails) none of it.
     */
    void transaction(Runnable work) {
        Connection c;
        try {
            c = connection();
            c.setAutoCommit(false);
        } catch (SQLException e) {
            throw failed(e);
        }
        try {
            work.run();
            c.commit();
            c.setAutoCommit(true);
        } catch (SQLException e) {
            throw failed(e);
        } catch (RuntimeException e) {
            if (connection == c) { // the work gave up (a statement that failed has discarded the connection already)
                try {
                    c.rollback();
                    c.setAutoCommit(true);
                } catch (SQLException rollback) {
                    discard();
                }
            }
            throw e;
        }
    }

    /** Gives back the space of deleted rows to the file system (after pruning); needs no statement open. */
    void vacuum() {
        try {
            closeStatements();
            try (Statement statement = connection().createStatement()) {
                statement.execute("VACUUM");
            }
        } catch (SQLException e) {
            throw failed(e);
        }
    }

    /**
     * Discards the connection and its statements after {@code e} (sqlite-jdbc closes a statement that
     * failed, and a failed commit may or may not have ended the transaction): the next use connects
     * again. Returns the exception to throw, with the file and the cause.
     */
    private StoreException failed(SQLException e) {
        // described before closing, which may checkpoint and shrink the files
        StoreException failure = StoreFailures.exception(file, file + ": ", e);
        discard();
        return failure;
    }

    private void discard() {
        closeStatements();
        if (connection != null) {
            closeQuietly(connection);
            connection = null;
        }
    }

    private void closeStatements() {
        for (PreparedStatement statement : statements.values()) {
            try {
                statement.close();
            } catch (SQLException ignored) {
                // it goes with its connection
            }
        }
        statements.clear();
    }

    private static void closeQuietly(Connection connection) {
        try {
            connection.close();
        } catch (SQLException ignored) {
            // nothing more to give back
        }
    }

    private Connection connection() throws SQLException {
        if (closed) {
            throw new SQLException("the run store is closed");
        }
        if (connection == null) {
            connection = connect(file, durability);
        }
        return connection;
    }

    private PreparedStatement prepare(String sql, Object... args) throws SQLException {
        PreparedStatement statement = statements.get(sql);
        if (statement == null) {
            statement = connection().prepareStatement(sql);
            statements.put(sql, statement);
        }
        statement.clearParameters();
        for (int i = 0; i < args.length; i++) {
            statement.setObject(i + 1, args[i]);
        }
        return statement;
    }

    /**
     * Closes the connection for good: a later use fails instead of connecting again (a dropped connection,
     * after a full disk, reconnects; a closed store does not, so it never makes its file again).
     */
    @Override
    public void close() {
        closed = true;
        closeStatements();
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException e) {
                throw new StoreException(file + ": cannot close the run store: " + e.getMessage(), e);
            } finally {
                connection = null;
            }
        }
    }
}
