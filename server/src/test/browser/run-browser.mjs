// Drives the run browser of a real `planvm serve` (started by RunBrowserTest on 127.0.0.1) in headless Chromium
// with puppeteer-core: node run-browser.mjs CONFIG.json. It writes what it saw to config.results (JSON) and the
// screenshots to config.artifacts; RunBrowserTest asserts on the results. It exits 1 when a step could not be done.
//
// config: {base, chromium, artifacts, results, finished_id, waiting_id, input_id, live_body, report_file,
//          token_base, token, token_run_id, children_base, children_parent_id, map_base, map_id}
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import puppeteer from 'puppeteer-core';

const config = JSON.parse(readFileSync(process.argv[2], 'utf8'));
mkdirSync(config.artifacts, { recursive: true });
const results = { console_errors: [], requests_elsewhere: [], screenshots: [] };
const WIDE = { width: 1400, height: 1000 };
const NARROW = { width: 800, height: 1000 };

const browser = await puppeteer.launch({
  executablePath: config.chromium,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-background-networking'],
});

/** A status a step provokes on purpose (the browser logs every answer that is not ok), or null. */
let expectedStatus = null;

async function newPage(viewport) {
  const page = await browser.newPage();
  await page.setViewport(viewport);
  page.on('console', (message) => {
    const expected401 = config.token_base && page.url().startsWith(config.token_base) && message.text().includes('401');
    const expectedRefusal = expectedStatus !== null && message.text().includes('status of ' + expectedStatus);
    if (message.type() === 'error' && !expected401 && !expectedRefusal) results.console_errors.push(page.url() + ': ' + message.text());
  });
  page.on('pageerror', (error) => results.console_errors.push(page.url() + ': ' + error.message));
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(config.base) && !(config.token_base && url.startsWith(config.token_base)) && !(config.children_base && url.startsWith(config.children_base)) && !(config.map_base && url.startsWith(config.map_base)) && !url.startsWith('file:') && !url.startsWith('blob:') && !url.startsWith('data:')) {
      results.requests_elsewhere.push(url);
    }
  });
  return page;
}

async function shoot(page, name, viewport) {
  await page.setViewport(viewport);
  await new Promise((resolve) => setTimeout(resolve, 150)); // let the layout settle after a resize
  const file = join(config.artifacts, name + '-' + viewport.width + '.png');
  await page.screenshot({ path: file, fullPage: true });
  results.screenshots.push(file);
}

async function step(name, work) {
  try {
    await work();
  } catch (error) {
    results[name + '_error'] = String(error && error.stack ? error.stack : error);
    process.exitCode = 1;
  }
}

// 1. the list shows a finished run; the state filter narrows it
await step('list', async () => {
  const page = await newPage(WIDE);
  const answer = await page.goto(config.base + '/', { waitUntil: 'networkidle0' });
  results.list_csp = answer.headers()['content-security-policy'] || null;
  await page.waitForSelector('body[data-ready="list"]', { timeout: 20_000 });
  results.list_rows = await page.$$eval('table.runs tbody tr', (rows) =>
    rows.map((row) => ({ id: row.dataset.run, state: row.dataset.state, cells: [...row.cells].map((c) => c.textContent) })));
  results.list_labels = await page.$$eval('label', (labels) => labels.map((l) => l.textContent.trim()));
  await shoot(page, 'run-list', WIDE);
  await shoot(page, 'run-list', NARROW);
  await page.setViewport(WIDE);
  await page.select('#state-filter', 'waiting');
  await page.waitForFunction(() => location.hash.includes('state=waiting') && document.body.dataset.ready === 'list');
  results.waiting_rows = await page.$$eval('table.runs tbody tr', (rows) => rows.map((row) => row.dataset.run));
  await page.goto(config.base + '/#/?q=' + encodeURIComponent(config.finished_id.substring(0, 6)), { waitUntil: 'networkidle0' });
  await page.waitForSelector('body[data-ready="list"]');
  results.search_rows = await page.$$eval('table.runs tbody tr', (rows) => rows.map((row) => row.dataset.run));
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  results.keyboard_focus = await page.evaluate(() => document.activeElement && document.activeElement.textContent.trim());
  await page.close();
});

// 2. a run page follows a replay with its recorded latencies: the graph fills in as steps commit
await step('live', async () => {
  const started = await fetch(config.base + '/v1/runs', {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: config.live_body,
  });
  const run = await started.json();
  results.live_id = run.id;
  const page = await newPage(WIDE);
  await page.goto(config.base + '/#/runs/' + run.id);
  await page.waitForSelector('#report[data-ready="1"]', { timeout: 20_000 });
  await page.evaluate(() => {
    window.__seen = [];
    const main = document.getElementById('main');
    const note = () => window.__seen.push({ state: main.dataset.state, ran: Number(main.dataset.ran), steps: Number(main.dataset.steps) });
    note();
    new MutationObserver(note).observe(main, { attributes: true, attributeFilter: ['data-refreshes', 'data-state'] });
  });
  await page.waitForFunction(() => {
    const main = document.getElementById('main');
    return main.dataset.state === 'running' && Number(main.dataset.steps) >= 2;
  }, { timeout: 30_000 });
  results.live_shot_state = await page.$eval('#main', (main) => ({ state: main.dataset.state, steps: Number(main.dataset.steps) }));
  await shoot(page, 'run-page-live', WIDE);
  await shoot(page, 'run-page-live', NARROW);
  await page.setViewport(WIDE);
  await page.waitForFunction(() => {
    const main = document.getElementById('main');
    return main.dataset.live === 'ended' && main.dataset.state === 'succeeded';
  }, { timeout: 60_000 });
  results.live_seen = await page.evaluate(() => window.__seen);
  results.live_final = await page.$eval('#main', (main) => ({ state: main.dataset.state, ran: Number(main.dataset.ran), steps: Number(main.dataset.steps) }));
  results.live_result_markdown = await page.$$eval('#report dd.result .markdown li, #report dd.result .markdown h3, #report dd.result .markdown h4',
    (items) => items.length);
  results.live_downloads = await page.$$eval('a.download', (links) => links.map((a) => a.getAttribute('href')));
  results.live_reach = await page.$$eval('#report section#reach table.reach tr', (rows) =>
    rows.slice(1).map((row) => Array.from(row.cells).map((cell) => cell.textContent)));
  await shoot(page, 'run-page-finished', WIDE);
  await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'dark' }]);
  results.dark_background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  await shoot(page, 'run-page-dark', WIDE);
  await page.close();
});

// 3. an approval form continues a waiting run
await step('approval', async () => {
  const page = await newPage(WIDE);
  await page.goto(config.base + '/#/runs/' + config.waiting_id);
  await page.waitForSelector('fieldset.approval', { timeout: 20_000 });
  results.approval_legend = await page.$eval('fieldset.approval legend', (legend) => legend.textContent);
  results.approval_params = await page.$eval('fieldset.approval pre', (pre) => pre.textContent);
  await shoot(page, 'run-page-approval', WIDE);
  await page.type('#approval-reason', 'checked by the browser test');
  await page.click('fieldset.approval button.primary');
  await page.waitForFunction(() => document.getElementById('main').dataset.state === 'succeeded', { timeout: 30_000 });
  results.approval_final_state = await page.$eval('#main', (main) => main.dataset.state);
  results.approval_form_gone = (await page.$('fieldset.approval')) === null;
  await page.close();
});

// 3b. an input form answers a run waiting for human_input: a wrong answer is refused, the right one continues it
await step('input', async () => {
  if (!config.input_id) return;
  const page = await newPage(WIDE);
  await page.goto(config.base + '/#/runs/' + config.input_id);
  await page.waitForSelector('fieldset.approval textarea#input-answer', { timeout: 20_000 });
  results.input_legend = await page.$eval('fieldset.approval legend', (legend) => legend.textContent);
  results.input_prompt = await page.$eval('fieldset.approval p.prompt', (p) => p.textContent);
  await shoot(page, 'run-page-input', WIDE);
  await page.type('#input-answer', '0');
  expectedStatus = 422; // the wrong answer is refused
  await page.click('fieldset.approval button.primary');
  await page.waitForFunction(() => /not taken/.test(document.body.textContent), { timeout: 20_000 });
  expectedStatus = null;
  results.input_refusal = await page.evaluate(() => document.body.textContent.match(/The answer was not taken: [^\n]*/)[0]);
  await page.$eval('#input-answer', (field) => { field.value = ''; });
  await page.type('#input-answer', '3');
  await page.click('fieldset.approval button.primary');
  await page.waitForFunction(() => document.getElementById('main').dataset.state === 'succeeded', { timeout: 30_000 });
  results.input_final_state = await page.$eval('#main', (main) => main.dataset.state);
  results.input_form_gone = (await page.$('fieldset.approval')) === null;
  await page.close();
});

// 3c. a for_each whose elements need approval: the form names one element and how many more wait; approving it
// makes that element's call, and the run waits again, the form naming the next element
await step('approval_map', async () => {
  if (!config.map_id) return;
  const page = await newPage(WIDE);
  const shown = () => page.$eval('fieldset.approval', (set) => ({
    legend: set.querySelector('legend').textContent,
    params: set.querySelector('pre').textContent,
    element: set.dataset.element,
    call: set.dataset.call,
    others: set.querySelector('p.others') ? set.querySelector('p.others').textContent : null,
  }));
  await page.goto(config.map_base + '/#/runs/' + config.map_id);
  await page.waitForSelector('fieldset.approval', { timeout: 20_000 });
  results.map_first = await shown();
  await shoot(page, 'run-page-approval-map', WIDE);
  await page.click('fieldset.approval button.primary');
  await page.waitForFunction(() => {
    const set = document.querySelector('fieldset.approval');
    return set && set.dataset.element === '1';
  }, { timeout: 30_000 });
  results.map_second = await shown();
  results.map_state = await page.$eval('#main', (main) => main.dataset.state);
  await page.close();
});

// 4. the report of a real plan: labels inside the graph and apart, the result as text, the last tick in view
async function measureReport(page) {
  return page.evaluate(() => {
    const svg = document.getElementById('flow-graph');
    const width = svg.viewBox.baseVal.width;
    const labels = [...svg.querySelectorAll('text.var')].map((t) => {
      const b = t.getBBox();
      return { text: t.textContent, x: b.x, y: b.y, w: b.width, h: b.height };
    });
    let overlaps = 0;
    for (let i = 0; i < labels.length; i++) {
      for (let j = i + 1; j < labels.length; j++) {
        const a = labels[i], b = labels[j];
        if (a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h) overlaps++;
      }
    }
    const timeline = document.getElementById('timeline');
    const ticks = [...timeline.querySelectorAll('text.tick')].map((t) => t.getBBox());
    const last = ticks[ticks.length - 1];
    const result = document.querySelector('dd.result');
    return {
      nodes: svg.querySelectorAll('g.node').length,
      labels: labels.length,
      labels_outside: labels.filter((l) => l.x < 0 || l.x + l.w > width).length,
      label_texts: labels.map((l) => l.text),
      overlaps,
      last_tick_right: last ? last.x + last.width : null,
      timeline_width: timeline.viewBox.baseVal.width,
      result_text: result.textContent.substring(0, 400),
      result_has_escapes: result.textContent.includes('\\n'),
      result_markdown_items: result.querySelectorAll('.markdown li, .markdown h3, .markdown h4').length,
      body_ready: document.body.dataset.ready,
    };
  });
}

await step('report', async () => {
  const page = await newPage(WIDE);
  await page.goto(pathToFileURL(config.report_file).href, { waitUntil: 'load' });
  await page.waitForSelector('body[data-ready="1"]', { timeout: 20_000 });
  results.report = await measureReport(page);
  await shoot(page, 'report', WIDE);
  await shoot(page, 'report', NARROW);
  results.report_narrow = await measureReport(page);
  await page.close();
  const served = await newPage(WIDE);
  const answer = await served.goto(config.base + '/runs/' + config.finished_id, { waitUntil: 'load' });
  await served.waitForSelector('body[data-ready="1"]', { timeout: 20_000 });
  results.served_report_status = answer.status();
  results.served_report_nodes = await served.$eval('body', (body) => Number(body.dataset.nodes));
  results.served_report_result = await served.$eval('dd.result', (dd) => dd.textContent);
  await served.close();
});

// 5. a hostile Markdown answer on the run page: text, no markup, only http(s) links
await step('hostile', async () => {
  const page = await newPage(WIDE);
  await page.goto(config.base + '/#/runs/' + config.finished_id);
  await page.waitForSelector('#report[data-ready="1"]', { timeout: 20_000 });
  results.hostile = await page.evaluate(() => {
    const result = document.querySelector('#report dd.result');
    return {
      title: document.title,
      headings: [...result.querySelectorAll('h3, h4')].map((h) => h.textContent),
      items: result.querySelectorAll('li').length,
      images: document.querySelectorAll('img').length,
      scripts_in_result: result.querySelectorAll('script').length,
      links: [...result.querySelectorAll('a')].map((a) => a.getAttribute('href')),
      text: result.textContent,
    };
  });
  await page.close();
});

// 6. a server with a token: the page asks for it, then lists and follows runs with it (event stream included)
await step('token', async () => {
  const page = await newPage(WIDE);
  await page.goto(config.token_base + '/');
  await page.waitForSelector('#token-form:not([hidden])', { timeout: 20_000 });
  results.token_asked = await page.$eval('#status', (s) => s.textContent);
  await page.type('#token', config.token);
  await page.click('#token-form button[type="submit"]');
  await page.waitForSelector('body[data-ready="list"]', { timeout: 20_000 });
  results.token_rows = await page.$$eval('table.runs tbody tr', (rows) => rows.map((row) => row.dataset.run));
  await page.goto(config.token_base + '/#/runs/' + config.token_run_id);
  await page.waitForFunction(() => document.getElementById('main').dataset.live === 'ended', { timeout: 20_000 });
  results.token_run = await page.$eval('#main', (main) => ({ state: main.dataset.state, events: Number(main.dataset.events || 0) }));
  await page.close();
});

// 7. child runs of plan tools: nested, expandable blocks on the parent's page and in its standalone report
await step('children', async () => {
  const base = config.children_base;
  const parent = config.children_parent_id;
  const page = await newPage(WIDE);
  await page.goto(base + '/#/runs/' + parent);
  await page.waitForFunction(() => document.getElementById('main').dataset.live === 'ended', { timeout: 20_000 });
  await page.waitForSelector('#report[data-ready="1"]');
  results.children_blocks = await page.$$eval('#report details.child-run', (all) => all.map((d) => ({
    id: d.dataset.child, seq: d.dataset.parentSeq, in_step: !!d.closest('details.step'), open: d.open })));
  await page.$eval('#report details.step', (d) => { d.open = true; });
  await page.focus('#report details.child-run > summary');
  await page.keyboard.press('Enter'); // keyboard: a <summary> opens its <details>
  await page.waitForSelector('#report details.child-run[data-loaded]', { timeout: 20_000 });
  results.children_expanded = await page.$eval('#report details.child-run[data-loaded]', (d) => ({
    id: d.dataset.child,
    steps: d.querySelectorAll('details.step').length,
    link: (d.querySelector('a.child-link') || {}).hash || null,
    graph_nodes: d.querySelectorAll('.child-graph svg.flow-graph g.node').length,
    timeline_bars: d.querySelectorAll('.child-timeline svg.timeline rect.bar').length,
  }));
  // the page's own graph is still the parent's alone
  results.children_parent_nodes = await page.$eval('#report', (r) => ({
    attr: Number(r.dataset.nodes), drawn: r.querySelectorAll('#flow-graph g.node').length }));
  await page.screenshot({ path: join(config.artifacts, 'run-page-children.png'), fullPage: true });
  results.screenshots.push(join(config.artifacts, 'run-page-children.png'));
  await page.click('#report details.child-run[data-loaded] a.child-link');
  await page.waitForSelector('#main .parent-run a.parent-link', { timeout: 20_000 });
  results.child_page_parent = await page.$eval('#main .parent-run a.parent-link', (a) => a.textContent);
  await page.goto(base + '/#/');
  await page.waitForSelector('body[data-ready="list"]', { timeout: 20_000 });
  results.children_list = await page.$$eval('table.runs tbody tr', (rows) => rows.map((r) => ({ id: r.dataset.run, parent: r.dataset.parent || null })));
  // the list is ready already: forget it, so the wait below ends only once the filtered list is drawn
  await page.evaluate(() => { delete document.body.dataset.ready; });
  await page.click('#hide-children');
  await page.waitForFunction(() => location.hash.includes('children=hide') && document.body.dataset.ready === 'list');
  results.children_hidden_list = await page.$$eval('table.runs tbody tr', (rows) => rows.map((r) => r.dataset.run));
  await page.close();

  const report = await newPage(WIDE);
  await report.goto(base + '/runs/' + parent, { waitUntil: 'load' });
  await report.waitForSelector('body[data-ready="1"]', { timeout: 20_000 });
  await report.$eval('details.step', (d) => { d.open = true; });
  await report.click('details.child-run > summary');
  await report.waitForSelector('details.child-run[data-loaded]', { timeout: 20_000 });
  results.report_children = await report.$$eval('details.child-run', (all) => all.map((d) => ({
    id: d.dataset.child, steps: d.querySelectorAll('details.step').length, open: d.open,
    graph_nodes: d.querySelectorAll('.child-graph svg.flow-graph g.node').length,
    timeline_bars: d.querySelectorAll('.child-timeline svg.timeline rect.bar').length })));
  await report.screenshot({ path: join(config.artifacts, 'report-children.png'), fullPage: true });
  results.screenshots.push(join(config.artifacts, 'report-children.png'));
  // a node of the child's graph opens the child's own step
  await report.$eval('details.child-run[data-loaded] details.step', (d) => { d.open = false; });
  await report.click('details.child-run[data-loaded] .child-graph svg.flow-graph g.node');
  results.report_child_node_opens = await report.$eval('details.child-run[data-loaded]', (d) => {
    const opened = d.querySelector('.child-steps details.step.hl');
    return opened ? { id: opened.id, open: opened.open } : null;
  });
  const block = await report.$('details.child-run[data-loaded] .child-body');
  await block.screenshot({ path: join(config.artifacts, 'report-child-graph.png') });
  results.screenshots.push(join(config.artifacts, 'report-child-graph.png'));
  await report.close();
});

await browser.close();
writeFileSync(config.results, JSON.stringify(results, null, 2));
