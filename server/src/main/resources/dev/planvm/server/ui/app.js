// planvm's run browser: the run list and the run page, over the server's own HTTP API (same origin, JSON POSTs,
// the bearer token when the server has one). Every value of a run is untrusted: it is put in the page with
// textContent or setAttribute, never as markup. The run page draws with report.js, the renderer of `planvm report`.

const PAGE_SIZE = 25;
const STATES = ['running', 'waiting', 'interrupted', 'succeeded', 'completed_with_failures', 'failed'];
const main = document.getElementById('main');
const status = document.getElementById('status');
const tokenForm = document.getElementById('token-form');
let token = sessionStorage.getItem('planvm-token') || '';
let current = null; // what the page shown now must stop when it is left: {stop()}

class ApiError extends Error {
  constructor(status, body) {
    super(body && body.message ? body.message : 'the server answered ' + status);
    this.status = status;
    this.body = body;
  }
}

/** A request to the API: JSON in and out, the token when there is one. */
async function api(path, options = {}) {
  const headers = { Accept: 'application/json' };
  if (token) headers.Authorization = 'Bearer ' + token;
  const init = { method: options.method || 'GET', headers, credentials: 'same-origin', cache: 'no-store' };
  if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(options.body);
  }
  if (options.signal) init.signal = options.signal;
  const response = await fetch(path, init);
  const type = response.headers.get('Content-Type') || '';
  const body = type.startsWith('application/json') ? await response.json() : await response.text();
  if (response.status === 401) askForToken();
  if (!response.ok) throw new ApiError(response.status, typeof body === 'object' ? body : null);
  return body;
}

function el(tag, attrs, text) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value !== null && value !== undefined && value !== false) node.setAttribute(name, value === true ? '' : String(value));
  }
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

function say(message, error) {
  status.textContent = message || '';
  status.classList.toggle('error', !!error);
}

function askForToken() {
  tokenForm.hidden = false;
  say('This server needs its bearer token: enter it above (kept in this tab only).', true);
  document.getElementById('token').focus();
}

tokenForm.addEventListener('submit', (event) => {
  event.preventDefault();
  token = document.getElementById('token').value.trim();
  sessionStorage.setItem('planvm-token', token);
  tokenForm.hidden = true;
  say('');
  route();
});

function badge(state) {
  return el('span', { class: 'badge ' + String(state).replace(/[^a-z]/g, '') }, state);
}

function duration(started, finished) {
  const a = Date.parse(started);
  const b = finished ? Date.parse(finished) : Date.now();
  if (Number.isNaN(a) || Number.isNaN(b)) return '';
  const ms = Math.max(0, b - a);
  if (ms < 1000) return ms + ' ms';
  if (ms < 60_000) return (ms / 1000).toFixed(1) + ' s';
  const m = Math.floor(ms / 60_000);
  return m < 60 ? m + ' min ' + Math.round((ms % 60_000) / 1000) + ' s' : Math.floor(m / 60) + ' h ' + (m % 60) + ' min';
}

function when(text) {
  const t = Date.parse(text);
  return Number.isNaN(t) ? (text || '') : new Date(t).toLocaleString();
}

function params() {
  const hash = location.hash.replace(/^#/, '') || '/';
  const [path, query] = hash.split('?');
  return { path, query: new URLSearchParams(query || '') };
}

// ---------------------------------------------------------------- the run list

async function listPage(query) {
  document.title = 'planvm runs';
  document.body.dataset.page = 'list';
  const state = STATES.includes(query.get('state')) ? query.get('state') : '';
  const search = query.get('q') || '';
  const hideChildren = query.get('children') === 'hide';
  const offset = Math.max(0, parseInt(query.get('offset') || '0', 10) || 0);
  main.replaceChildren(el('h1', null, 'Runs'));

  const filters = el('form', { class: 'filters', role: 'search' });
  const stateLabel = el('label', { for: 'state-filter' }, 'State');
  const select = el('select', { id: 'state-filter', name: 'state' });
  select.appendChild(el('option', { value: '' }, 'all'));
  STATES.forEach((s) => select.appendChild(el('option', { value: s, selected: s === state }, s)));
  stateLabel.appendChild(select);
  const searchLabel = el('label', { for: 'search' }, 'Plan or run id');
  const input = el('input', { id: 'search', name: 'q', type: 'search', value: search, placeholder: 'e.g. tidb or 4f2a' });
  searchLabel.appendChild(input);
  const hideLabel = el('label', { for: 'hide-children' });
  const hide = el('input', { id: 'hide-children', name: 'children', type: 'checkbox', checked: hideChildren });
  hideLabel.append(hide, document.createTextNode(' Hide child runs'));
  filters.append(stateLabel, searchLabel, hideLabel, el('button', { type: 'submit' }, 'Filter'));
  const go = (event) => {
    if (event) event.preventDefault();
    const next = new URLSearchParams();
    if (select.value) next.set('state', select.value);
    if (input.value.trim()) next.set('q', input.value.trim());
    if (hide.checked) next.set('children', 'hide');
    navigate('#/?' + next.toString());
  };
  filters.addEventListener('submit', go);
  select.addEventListener('change', go);
  hide.addEventListener('change', go);
  main.appendChild(filters);

  const url = new URLSearchParams({ limit: String(PAGE_SIZE), offset: String(offset) });
  if (state) url.set('state', state);
  if (search) url.set('q', search);
  let page;
  try {
    page = await api('v1/runs?' + url.toString());
  } catch (e) {
    say('Cannot list the runs: ' + e.message, true);
    return;
  }
  const box = el('div', { class: 'table-box' });
  const table = el('table', { class: 'runs' });
  table.appendChild(el('caption', { class: 'skip' }, 'Runs, most recent first'));
  const head = el('tr');
  [['Run', ''], ['State', ''], ['Plan', ''], ['Started', 'hide-narrow'], ['Duration', ''], ['Steps', 'hide-narrow'], ['Waiting for', ''], ['Parent run', '']]
    .forEach(([name, cls]) => head.appendChild(el('th', { scope: 'col', class: cls || null }, name)));
  table.appendChild(el('thead')).appendChild(head);
  const body = table.appendChild(el('tbody'));
  const runs = hideChildren ? page.runs.filter((run) => !run.parent_run_id) : page.runs;
  runs.forEach((run) => {
    const row = el('tr', { 'data-run': run.id, 'data-state': run.state, 'data-parent': run.parent_run_id || null,
      class: run.parent_run_id ? 'child' : null });
    const link = el('a', { href: '#/runs/' + encodeURIComponent(run.id) });
    link.appendChild(el('code', null, run.id));
    row.appendChild(el('td')).appendChild(link);
    row.appendChild(el('td')).appendChild(badge(run.state));
    row.appendChild(el('td', { class: 'plan' }, run.plan));
    row.appendChild(el('td', { class: 'num hide-narrow' }, when(run.started)));
    row.appendChild(el('td', { class: 'num' }, run.state === 'interrupted' ? '' : duration(run.started, run.finished)));
    row.appendChild(el('td', { class: 'num hide-narrow' }, run.steps));
    row.appendChild(el('td', null, run.state === 'waiting' ? (run.waiting_for || 'approval') : ''));
    const parentCell = row.appendChild(el('td', { class: 'parent' }));
    if (run.parent_run_id) {
      const up = el('a', { href: '#/runs/' + encodeURIComponent(run.parent_run_id), 'aria-label': 'parent run ' + run.parent_run_id });
      up.appendChild(el('code', null, run.parent_run_id));
      parentCell.appendChild(up);
    }
    body.appendChild(row);
  });
  box.appendChild(table);
  main.appendChild(box);
  if (!runs.length) main.appendChild(el('p', { class: 'empty' }, 'No runs' + (state || search ? ' match.' : ' yet.')));

  const pager = el('nav', { class: 'pager', 'aria-label': 'pages of runs' });
  const move = (to) => {
    const next = new URLSearchParams(query);
    next.set('offset', String(Math.max(0, to)));
    navigate('#/?' + next.toString());
  };
  const previous = el('button', { type: 'button', disabled: offset === 0 }, 'Previous');
  previous.addEventListener('click', () => move(offset - PAGE_SIZE));
  const next = el('button', { type: 'button', disabled: page.next_offset === null || page.next_offset === undefined }, 'Next');
  next.addEventListener('click', () => move(page.next_offset));
  pager.append(previous, el('span', null, page.runs.length ? 'runs ' + (offset + 1) + '–' + (offset + page.runs.length) : ''), next);
  main.appendChild(pager);
  document.body.dataset.ready = 'list';
  say('');
}

// ---------------------------------------------------------------- the run page

/** Follows a run's events (server-sent events read with fetch, so the token can go along); calls back on each. */
function follow(id, onEvent, onEnd) {
  const controller = new AbortController();
  let lastId = null;
  let stopped = false;
  let failures = 0;
  (async function read() {
    while (!stopped) {
      const headers = { Accept: 'text/event-stream' };
      if (token) headers.Authorization = 'Bearer ' + token;
      if (lastId) headers['Last-Event-ID'] = lastId;
      try {
        const response = await fetch('v1/runs/' + encodeURIComponent(id) + '/events',
          { headers, credentials: 'same-origin', cache: 'no-store', signal: controller.signal });
        if (!response.ok) throw new ApiError(response.status, null);
        const reader = response.body.getReader();
        const decoder = new TextDecoder();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
          let cut;
          while ((cut = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.substring(0, cut);
            buffer = buffer.substring(cut + 2);
            const event = { type: 'message', data: '' };
            block.split('\n').forEach((line) => {
              const colon = line.indexOf(':');
              if (colon <= 0) return;
              const field = line.substring(0, colon);
              const text = line.substring(colon + 1).replace(/^ /, '');
              if (field === 'id') event.id = text;
              else if (field === 'event') event.type = text;
              else if (field === 'data') event.data += text;
            });
            if (event.id) lastId = event.id;
            if (event.type !== 'message') onEvent(event);
          }
        }
        break; // the stream ended: the run can produce no more events for now
      } catch (e) {
        if (stopped) return;
        if (++failures > 5 || (e instanceof ApiError && e.status !== 429 && e.status !== 503)) break;
        await new Promise((resolve) => setTimeout(resolve, 1000 * failures));
      }
    }
    if (!stopped) onEnd();
  })();
  return { stop() { stopped = true; controller.abort(); } };
}

async function runPage(id) {
  document.body.dataset.page = 'run';
  document.title = 'planvm run ' + id;
  const back = el('p');
  back.appendChild(el('a', { href: '#/' }, '← all runs'));
  const head = el('div', { class: 'run-head' });
  const title = el('h1', null, 'Run ' + id);
  const stateBadge = el('span');
  const live = el('span', { class: 'live', 'aria-live': 'polite' });
  head.append(title, stateBadge, live);
  const parent = el('div');
  const approval = el('div');
  const actions = el('div', { class: 'actions' });
  const report = el('div', { id: 'report' });
  main.replaceChildren(back, head, parent, approval, actions, report);

  let model = null;
  let refreshing = null;
  let again = false;
  let refreshes = 0;
  let stream = null;
  let left = false;

  async function refresh() {
    if (refreshing) { again = true; return refreshing; }
    refreshing = (async () => {
      do {
        again = false;
        try {
          model = await api('v1/runs/' + encodeURIComponent(id) + '/report');
        } catch (e) {
          say(e.status === 404 ? 'There is no run ' + id + '.' : 'Cannot read the run: ' + e.message, true);
          return;
        }
        if (left) return;
        draw();
        refreshes++;
        main.dataset.refreshes = String(refreshes);
      } while (again);
    })();
    try { await refreshing; } finally { refreshing = null; }
  }

  function draw() {
    const run = model.run;
    main.dataset.state = run.state;
    stateBadge.replaceChildren(badge(run.state));
    drawParent(run);
    window.PlanvmReport.render(report, model, {
      heading: false,
      child: (child) => api('v1/runs/' + encodeURIComponent(child) + '/report'),
      childLink: (child) => '#/runs/' + encodeURIComponent(child),
    });
    main.dataset.children = String(report.querySelectorAll('details.child-run').length);
    main.dataset.ran = String(report.querySelectorAll('#flow-graph g.node.ran, #flow-graph g.node.failed').length);
    main.dataset.steps = String(model.summary.steps);
    drawApproval(run);
    drawActions(run);
  }

  /** A child run of a plan-tool call links to its parent run and the step that started it. */
  function drawParent(run) {
    if (!run.parent_run_id) { parent.replaceChildren(); return; }
    const p = el('p', { class: 'parent-run' }, 'Child run of a plan-tool call: seq_no ' + run.parent_seq_no + ' of run ');
    const link = el('a', { href: '#/runs/' + encodeURIComponent(run.parent_run_id), class: 'parent-link' });
    link.appendChild(el('code', null, run.parent_run_id));
    p.appendChild(link);
    parent.replaceChildren(p);
  }

  function drawApproval(run) {
    const pending = run.pending;
    const shown = approval.querySelector('fieldset');
    if (!pending || run.state !== 'waiting') { approval.replaceChildren(); return; }
    if (shown && shown.dataset.call === pending.call_id) return; // keep what the reviewer typed
    if (pending.kind === 'input') { drawInput(pending, run); return; }
    if (pending.kind === 'sleep') { // nothing to decide: the server's timer continues it
      const set = el('fieldset', { class: 'approval sleeping' });
      set.appendChild(el('legend', null, 'Sleeping: seq_no ' + pending.seq_no));
      set.appendChild(el('p', null, 'The run sleeps until ' + pending.wake_at + '; the server continues it then. It holds no run slot meanwhile.'));
      approval.replaceChildren(set);
      return;
    }
    const form = el('form', { class: 'approval-form' });
    const set = el('fieldset', { class: 'approval', 'data-call': pending.call_id, 'data-element': element(pending) });
    set.appendChild(el('legend', null, 'Approval needed: ' + where(pending) + ' calls ' + pending.tool));
    set.appendChild(el('p', null, 'The run waits for a reviewer to approve or deny this call, asked ' + when(pending.requested) + '. Its params:'));
    set.appendChild(el('pre', null, JSON.stringify(pending.params, null, 2)));
    others(set, run);
    const label = el('label', { for: 'approval-reason' }, 'Reason (optional, kept with the decision)');
    const reason = el('textarea', { id: 'approval-reason', name: 'reason', maxlength: 2000 });
    const buttons = el('div', { class: 'buttons' });
    const approve = el('button', { type: 'submit', class: 'primary', value: 'approve' }, 'Approve and continue');
    const deny = el('button', { type: 'submit', class: 'danger', value: 'deny' }, 'Deny');
    buttons.append(approve, deny);
    set.append(label, reason, buttons);
    form.appendChild(set);
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const approved = !(event.submitter && event.submitter.value === 'deny');
      approve.disabled = deny.disabled = true;
      try {
        await api('v1/runs/' + encodeURIComponent(id) + '/approve', {
          method: 'POST', body: { call_id: pending.call_id, approved, reason: reason.value },
        });
        say(approved ? 'Approved: the run continues.' : 'Denied: the run continues without that call.');
        approval.replaceChildren();
        start();
      } catch (e) {
        approve.disabled = deny.disabled = false;
        say('The approval was not taken: ' + e.message, true);
      }
    });
    approval.replaceChildren(form);
  }

  /** 'seq_no 3', or 'seq_no 3 (for_each element 1)' for the call of one element of a map. */
  function where(pending) {
    return 'seq_no ' + pending.seq_no + (typeof pending.element === 'number' ? ' (for_each element ' + pending.element + ')' : '');
  }

  function element(pending) {
    return typeof pending.element === 'number' ? String(pending.element) : '';
  }

  /** Elements of a map wait each on their own: say how many more wait after the one shown. */
  function others(set, run) {
    const calls = Array.isArray(run.pending_calls) ? run.pending_calls.length + (run.pending_calls_more || 0) : 0;
    if (calls > 1) {
      const more = calls - 1;
      set.appendChild(el('p', { class: 'others' }, more + (more === 1 ? ' more call waits' : ' more calls wait') +
        ' after this one; each is decided on its own, and the run asks for the next once this one is.'));
    }
  }

  /** A run waiting for a human_input answer: its prompt, and the choices as buttons or a field for the answer. */
  function drawInput(pending, run) {
    const params = pending.params || {};
    const form = el('form', { class: 'approval-form input-form' });
    const set = el('fieldset', { class: 'approval', 'data-call': pending.call_id, 'data-element': element(pending) });
    set.appendChild(el('legend', null, 'Input needed: ' + where(pending) + ' asks'));
    set.appendChild(el('p', { class: 'prompt' }, params.prompt));
    others(set, run);
    const buttons = el('div', { class: 'buttons' });
    let field = null;
    if (Array.isArray(params.choices)) {
      params.choices.forEach((choice) => buttons.appendChild(el('button', { type: 'submit', class: 'primary', value: choice }, choice)));
    } else {
      if (params.schema) {
        set.appendChild(el('p', null, 'The answer must fit this JSON Schema (write JSON; other text is taken as a string):'));
        set.appendChild(el('pre', null, JSON.stringify(params.schema, null, 2)));
      }
      set.appendChild(el('label', { for: 'input-answer' }, 'Answer'));
      field = el('textarea', { id: 'input-answer', name: 'value' });
      set.appendChild(field);
      buttons.appendChild(el('button', { type: 'submit', class: 'primary', value: '' }, 'Answer and continue'));
    }
    set.appendChild(buttons);
    form.appendChild(set);
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      let value = event.submitter ? event.submitter.value : '';
      if (field) {
        try { value = JSON.parse(field.value); } catch (notJson) { value = field.value; }
      }
      const all = form.querySelectorAll('button');
      all.forEach((b) => { b.disabled = true; });
      try {
        await api('v1/runs/' + encodeURIComponent(id) + '/input', {
          method: 'POST', body: { call_id: pending.call_id, value },
        });
        say('Answered: the run continues.');
        approval.replaceChildren();
        start();
      } catch (e) {
        all.forEach((b) => { b.disabled = false; });
        say('The answer was not taken: ' + e.message, true);
      }
    });
    approval.replaceChildren(form);
  }

  function drawActions(run) {
    actions.replaceChildren();
    const base = 'v1/runs/' + encodeURIComponent(id);
    const post = async (action, body, done) => {
      try {
        const answer = await api(base + '/' + action, { method: 'POST', body });
        done(answer);
      } catch (e) {
        say('Cannot ' + action + ' the run: ' + e.message, true);
      }
    };
    if (run.state === 'failed' || run.state === 'interrupted') {
      const resume = el('button', { type: 'button' }, 'Resume');
      resume.addEventListener('click', () => post('resume', {}, () => { say('Resumed.'); start(); }));
      actions.appendChild(resume);
    }
    if (run.state !== 'running') {
      const label = el('label', { for: 'rerun-from' }, 'Rerun from seq_no');
      const from = el('input', { id: 'rerun-from', type: 'number', min: 0, value: model.steps.length ? model.steps[0].seq : 0 });
      label.appendChild(from);
      const rerun = el('button', { type: 'button' }, 'Rerun');
      rerun.addEventListener('click', () => post('rerun', { from_seq: parseInt(from.value, 10) || 0 }, (answer) => {
        say('Rerun started as run ' + answer.id + '.');
        navigate('#/runs/' + encodeURIComponent(answer.id));
      }));
      actions.append(label, rerun);
    }
    if (run.state === 'running' || run.state === 'waiting') {
      const cancel = el('button', { type: 'button', class: 'danger' }, 'Cancel');
      cancel.addEventListener('click', () => post('cancel', { reason: 'cancelled in the run browser' }, () => {
        say('Cancelling.');
        refresh();
      }));
      actions.appendChild(cancel);
    }
    actions.append(download('trace', base + '/trace', 'planvm-trace-' + id + '.json'),
      download('cassette', base + '/cassette', 'planvm-cassette-' + id + '.json'));
    if (!token) actions.appendChild(el('a', { href: 'runs/' + encodeURIComponent(id) }, 'Standalone report'));
  }

  function start() {
    if (stream) stream.stop();
    live.textContent = 'following live';
    live.classList.add('on');
    main.dataset.live = 'following';
    stream = follow(id, () => {
      main.dataset.events = String(Number(main.dataset.events || 0) + 1);
      refresh();
    }, async () => {
      live.textContent = 'not running';
      live.classList.remove('on');
      await refresh();
      main.dataset.live = 'ended';
    });
  }

  current = { stop() { left = true; if (stream) stream.stop(); } };
  await refresh();
  if (model && !left) start();
}

function download(what, path, file) {
  const link = el('a', { href: path, download: file, class: 'download' }, 'Download the ' + what);
  link.addEventListener('click', async (event) => {
    if (!token) return; // a plain link: the answer is an attachment
    event.preventDefault();
    try {
      const document_ = await api(path);
      const url = URL.createObjectURL(new Blob([JSON.stringify(document_, null, 2)], { type: 'application/json' }));
      const a = el('a', { href: url, download: file });
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (e) {
      say('Cannot download the ' + what + ': ' + e.message, true);
    }
  });
  return link;
}

// ---------------------------------------------------------------- routing

function route() {
  if (current) current.stop();
  current = null;
  delete document.body.dataset.ready;
  delete main.dataset.state;
  delete main.dataset.live;
  delete main.dataset.refreshes;
  delete main.dataset.events;
  const { path, query } = params();
  const run = /^\/runs\/([A-Za-z0-9]{1,64})$/.exec(path);
  say('');
  if (run) runPage(run[1]);
  else listPage(query);
}

// The page is not ready from the moment it starts to move: hashchange fires
// later, and a reader polling data-ready must not see the old page as the new.
function navigate(hash) {
  if (location.hash === hash) {
    route();
    return;
  }
  delete document.body.dataset.ready;
  location.hash = hash;
}

window.addEventListener('hashchange', () => {
  route();
  main.focus({ preventScroll: true });
});
route();
