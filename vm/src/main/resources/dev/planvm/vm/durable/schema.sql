-- planvm run store: plain SQL shared by the SQLite store (and a later PostgreSQL one).
-- A run, its plan and inputs; one row per committed step, written when the step commits; large
-- values once per content hash.
CREATE TABLE IF NOT EXISTS runs (
    id            TEXT PRIMARY KEY,
    plan_source   TEXT NOT NULL,
    plan_digest   TEXT NOT NULL,
    plan_json     TEXT NOT NULL,
    inputs_json   TEXT NOT NULL,
    mode          TEXT NOT NULL,
    status        TEXT NOT NULL,          -- running | succeeded | failed | waiting (RunStatus labels)
    parent_run    TEXT,                   -- the run a rerun started from
    from_seq      INTEGER,                -- the seq_no a rerun started at
    started_at    TEXT NOT NULL,
    finished_at   TEXT,
    sessions      INTEGER NOT NULL,       -- processes that worked on the run (1 + resumes)
    final_answer  TEXT,                   -- JSON
    error         TEXT,                   -- JSON {seq_no, type, message}
    owner         TEXT,                   -- the process working on it: pid@host@start-epoch-ms, NULL when none
    owned_since   TEXT,                   -- when that process claimed it
    lease_until   INTEGER,                -- epoch ms; the owner renews it while it works (heartbeat)
    stored_bytes  INTEGER NOT NULL DEFAULT 0, -- what this run has written to the store (its budget)
    options_json  TEXT,                   -- the run's own options: {allow_tools, deny_tools, approve_tools, max_steps, origin}
    clock_json    TEXT,                   -- the run's clock {now, tz}: a resume and a rerun compute the same dates
    source_lines_json TEXT,               -- a compiled dialect plan's {"seq_no": line}; NULL for a JSON plan
    caller_run    TEXT,                   -- a child run (a plan tool's): the run whose call started it
    caller_seq    INTEGER,                -- a child run: the seq_no of that call in its caller
    caller_step   INTEGER,                -- a child run: its caller's committed steps + 1 when it started
    wake_at       TEXT,                   -- a run waiting at a sleep for its timer: when it is due (ISO-8601)
    plan_tools_json TEXT                  -- the plan tools it started with: ["blob hash", ...] of {source, plan, source_lines}
);

CREATE TABLE IF NOT EXISTS steps (
    run_id        TEXT NOT NULL REFERENCES runs (id),
    step_index    INTEGER NOT NULL,       -- 1, 2, ... in execution order
    seq_no        INTEGER NOT NULL,
    type          TEXT NOT NULL,
    outcome       TEXT NOT NULL,          -- next | jump | halt: what the handler said happens next
    next_position INTEGER NOT NULL,       -- where execution goes on (index into the plan's instructions)
    writes_json   TEXT NOT NULL,          -- variables the step set (large values as blob references)
    calls_json    TEXT NOT NULL,          -- the calls it made: [{type: tool, tool, params} | {type: condition, prompt, context}]
    trace_json    TEXT NOT NULL,          -- the step's trace entry without its writes (large values as blob references)
    session       INTEGER NOT NULL,       -- which session committed it
    committed_at  TEXT NOT NULL,
    PRIMARY KEY (run_id, step_index)
);

-- Values of 512 bytes or more (as compact JSON), once per SHA-256 of that JSON; a stored value
-- {"$planvm-blob": HASH} stands for one.
CREATE TABLE IF NOT EXISTS blobs (
    hash          TEXT PRIMARY KEY,
    json          TEXT NOT NULL
);

-- Which runs use which blobs, so that pruning runs can drop the blobs no run uses any more.
CREATE TABLE IF NOT EXISTS blob_refs (
    hash          TEXT NOT NULL,
    run_id        TEXT NOT NULL,
    PRIMARY KEY (hash, run_id)
);

-- Calls that needed a reviewer's approval (approveTools): asked when the run reached them (it then
-- waits), decided by planvm approve (or a prompt); the step that makes the call finds its decision here.
-- Each element of a for_each step is a call of its own, asked and decided on its own.
CREATE TABLE IF NOT EXISTS approvals (
    run_id        TEXT NOT NULL REFERENCES runs (id),
    step_index    INTEGER NOT NULL,       -- the step that makes the call (its committed predecessors + 1)
    seq_no        INTEGER NOT NULL,
    element       INTEGER NOT NULL DEFAULT -1, -- the call's index in its for_each list; -1: not an element
    tool          TEXT NOT NULL,
    params_json   TEXT NOT NULL,          -- the interpolated params (secrets redacted)
    requested_at  TEXT NOT NULL,
    decision      TEXT,                   -- NULL while pending | approved | denied
    reason        TEXT,
    decided_at    TEXT,
    PRIMARY KEY (run_id, step_index, element, tool, params_json)
);

-- Calls of the built-in human_input tool (the run waits for a person's answer) and sleep tool (its wake
-- time, kept when the sleep starts): the step that makes the call finds them here when it runs again.
-- Each element of a for_each step keeps its own question and answer, or its own wake time.
CREATE TABLE IF NOT EXISTS waits (
    run_id        TEXT NOT NULL REFERENCES runs (id),
    step_index    INTEGER NOT NULL,       -- the step that makes the call (its committed predecessors + 1)
    seq_no        INTEGER NOT NULL,
    element       INTEGER NOT NULL DEFAULT -1, -- the call's index in its for_each list; -1: not an element
    tool          TEXT NOT NULL,          -- human_input | sleep
    params_json   TEXT NOT NULL,          -- the interpolated params (secrets redacted)
    requested_at  TEXT NOT NULL,
    answer_json   TEXT,                   -- human_input: the answer, NULL while pending; sleep: the wake time
    answered_at   TEXT,
    PRIMARY KEY (run_id, step_index, element, tool, params_json)
);

-- Answers of the elements of a for_each step, each committed as it settles, before the step itself
-- commits: a resume of the step calls only the elements not found here (same position, same call).
CREATE TABLE IF NOT EXISTS element_calls (
    run_id        TEXT NOT NULL REFERENCES runs (id),
    step_index    INTEGER NOT NULL,       -- the step that makes the calls (its committed predecessors + 1)
    seq_no        INTEGER NOT NULL,
    position      INTEGER NOT NULL,       -- the element's call among the step's calls (0, 1, ...)
    call_json     TEXT NOT NULL,          -- {type: tool, tool, params} as calls_json writes one (secrets redacted)
    answer_json   TEXT NOT NULL,          -- the element's answer (secrets redacted)
    session       INTEGER NOT NULL,       -- which session committed it
    committed_at  TEXT NOT NULL,
    PRIMARY KEY (run_id, step_index, position)
);

CREATE INDEX IF NOT EXISTS runs_started ON runs (started_at);
CREATE INDEX IF NOT EXISTS blob_refs_run ON blob_refs (run_id);
CREATE INDEX IF NOT EXISTS runs_status ON runs (status, started_at);
