/*
 * planvm's run renderer: draws a run report model (what ReportModel builds on the server: summary, lineage,
 * differences, flow graph, timeline, steps) into an element. Used by the self-contained page of
 * `planvm report` (the model inline as JSON in the element #report-data) and by the run page of the browser served by
 * `planvm serve`, which redraws it as the run proceeds. Every value of a run is untrusted: text goes in with
 * textContent and attributes with setAttribute, never as markup.
 */
(function (global) {
  'use strict';

  var SVG = 'http://www.w3.org/2000/svg';

  /** An HTML element with attributes (null values skipped) and text. */
  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    setAll(node, attrs);
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  /** An SVG element with attributes and text. */
  function sv(tag, attrs, text) {
    var node = document.createElementNS(SVG, tag);
    setAll(node, attrs);
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function setAll(node, attrs) {
    if (!attrs) return;
    Object.keys(attrs).forEach(function (name) {
      var value = attrs[name];
      if (value !== null && value !== undefined && value !== false) node.setAttribute(name, String(value));
    });
  }

  function cut(text, max) {
    text = String(text === null || text === undefined ? '' : text);
    return text.length <= max ? text : text.substring(0, Math.max(1, max - 1)) + '…';
  }

  function fmt(value) {
    return (Math.round(value * 10) / 10).toFixed(1);
  }

  // ---------------------------------------------------------------- Markdown, safely

  /** Whether a text answer reads as Markdown (a heading, a list, a fence, bold or a link). */
  function looksLikeMarkdown(text) {
    return /(^|\n)(#{1,6} |[-*+] |\d+\. |```)/.test(text) || /\*\*[^*\n]+\*\*/.test(text) ||
      /\[[^\]\n]+\]\(https?:\/\/[^)\s]+\)/.test(text);
  }

  /**
   * Markdown to DOM nodes: headings, lists (nested by indentation), fenced and inline code, bold, italics,
   * block quotes, rules, paragraphs, and links whose target is http(s) (any other link stays text). No HTML
   * in the text is ever interpreted: it is all text.
   */
  function markdown(text) {
    var out = document.createDocumentFragment();
    var lines = String(text).replace(/\r\n?/g, '\n').split('\n');
    var i = 0;
    var paragraph = [];
    var lists = []; // stack of {indent, node}

    function flushParagraph() {
      if (paragraph.length) {
        var p = el('p');
        inline(p, paragraph.join(' '));
        out.appendChild(p);
        paragraph = [];
      }
    }
    function closeLists() {
      lists = [];
    }
    while (i < lines.length) {
      var line = lines[i];
      var fence = /^\s*```/.exec(line);
      if (fence) {
        flushParagraph();
        closeLists();
        var code = [];
        i++;
        while (i < lines.length && !/^\s*```/.test(lines[i])) code.push(lines[i++]);
        i++;
        var pre = el('pre', { class: 'code' });
        pre.appendChild(el('code', null, code.join('\n')));
        out.appendChild(pre);
        continue;
      }
      var heading = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
      if (heading) {
        flushParagraph();
        closeLists();
        var h = el('h' + Math.min(6, heading[1].length + 2));
        inline(h, heading[2]);
        out.appendChild(h);
        i++;
        continue;
      }
      if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) {
        flushParagraph();
        closeLists();
        out.appendChild(el('hr'));
        i++;
        continue;
      }
      var item = /^(\s*)([-*+]|\d+[.)])\s+(.*)$/.exec(line);
      if (item) {
        flushParagraph();
        var indent = item[1].replace(/\t/g, '    ').length;
        var ordered = /\d/.test(item[2]);
        while (lists.length && lists[lists.length - 1].indent > indent) lists.pop();
        var top = lists[lists.length - 1];
        if (!top || top.indent < indent || top.ordered !== ordered) {
          if (top && top.indent === indent) lists.pop();
          var list = el(ordered ? 'ol' : 'ul');
          var parent = lists.length ? lists[lists.length - 1].node.lastElementChild : null;
          (parent || out).appendChild(list);
          top = { indent: indent, node: list, ordered: ordered };
          lists.push(top);
        }
        var li = el('li');
        inline(li, item[3]);
        top.node.appendChild(li);
        i++;
        continue;
      }
      var quote = /^\s*>\s?(.*)$/.exec(line);
      if (quote) {
        flushParagraph();
        closeLists();
        var block = el('blockquote');
        inline(block, quote[1]);
        out.appendChild(block);
        i++;
        continue;
      }
      if (/^\s*$/.test(line)) {
        flushParagraph();
        closeLists();
        i++;
        continue;
      }
      if (lists.length && /^\s+\S/.test(line)) { // a continued list item
        var last = lists[lists.length - 1].node.lastElementChild;
        last.appendChild(document.createTextNode(' '));
        inline(last, line.trim());
        i++;
        continue;
      }
      closeLists();
      paragraph.push(line.trim());
      i++;
    }
    flushParagraph();
    return out;
  }

  /** Inline Markdown into {@code parent}: `code`, **bold**, *italics* / _italics_, [text](http(s) url). */
  function inline(parent, text) {
    // underscores emphasise only at word edges: AUTO_RANDOM stays as it is
    var pattern = /(`+)([^`]+?)\1|\*\*([^*]+?)\*\*|(?<![A-Za-z0-9])__([^_]+?)__(?![A-Za-z0-9])|\*([^*\s][^*]*?)\*|(?<![A-Za-z0-9])_([^_\s][^_]*?)_(?![A-Za-z0-9])|\[([^\]]+)\]\(([^)\s]+)\)/g;
    var at = 0;
    var match;
    while ((match = pattern.exec(text)) !== null) {
      if (match.index > at) parent.appendChild(document.createTextNode(text.substring(at, match.index)));
      if (match[2] !== undefined) {
        parent.appendChild(el('code', null, match[2]));
      } else if (match[3] !== undefined || match[4] !== undefined) {
        var strong = el('strong');
        inline(strong, match[3] !== undefined ? match[3] : match[4]);
        parent.appendChild(strong);
      } else if (match[5] !== undefined || match[6] !== undefined) {
        var em = el('em');
        inline(em, match[5] !== undefined ? match[5] : match[6]);
        parent.appendChild(em);
      } else {
        var url = match[8];
        if (/^https?:\/\/[^\s]+$/i.test(url)) {
          var a = el('a', { href: url, rel: 'noopener noreferrer nofollow', target: '_blank' });
          inline(a, match[7]);
          parent.appendChild(a);
        } else {
          parent.appendChild(document.createTextNode(match[0]));
        }
      }
      at = pattern.lastIndex;
    }
    if (at < text.length) parent.appendChild(document.createTextNode(text.substring(at)));
  }

  /** A run's result: a text answer as text (Markdown rendered as Markdown), anything else as JSON. */
  function result(value) {
    if (value === null || value === undefined) return el('span', { class: 'none' }, '—');
    if (typeof value === 'string') {
      if (looksLikeMarkdown(value)) {
        var doc = el('div', { class: 'markdown' });
        doc.appendChild(markdown(value));
        return doc;
      }
      return el('pre', { class: 'text' }, value);
    }
    return el('pre', { class: 'json' }, JSON.stringify(value, null, 2));
  }

  // ---------------------------------------------------------------- summary

  function summary(model) {
    var s = model.summary || {};
    var dl = el('dl', { class: 'summary' });
    function item(term, value, cls) {
      dl.appendChild(el('dt', null, term));
      var dd = el('dd', cls ? { class: cls } : null);
      if (value instanceof Node) dd.appendChild(value); else dd.textContent = cut(value, 2000);
      dl.appendChild(dd);
    }
    item('status', s.status || '?', 'status ' + String(s.status || '').replace(/[^a-z-]/g, '-'));
    item('plan', s.plan || '?');
    item('mode', s.mode || '?');
    item('started', s.started || '');
    item('finished', s.finished || '');
    item('steps', String(s.steps === undefined ? '' : s.steps));
    if (s.error) item('error', s.error, 'error');
    if (s.pending) {
      var element = typeof s.pending.element === 'number' ? ' (for_each element ' + s.pending.element + ')' : '';
      item('waiting for', 'approval of seq_no ' + s.pending.seq_no + element + ' calling ' + s.pending.tool +
        ' with ' + cut(s.pending.params, 500), 'waiting');
    }
    if (s.use) item('use', 'the plan ends in use: its result goes back to the LLM that wrote it', 'use');
    item('result', result(s.result), 'result');
    return dl;
  }

  // ---------------------------------------------------------------- flow graph

  var G = { top: 24, row: 56, height: 34, width: 300, lane: 12, labels: 124, margin: 10, maxLanes: 10, slot: 12 };

  /**
   * The flow graph: nodes top to bottom, sequential edges down the middle, jumps on the right, data on the left.
   * {@code prefix} (a child run's block) keeps its element ids apart from the page's own graph.
   */
  function graph(model, prefix) {
    prefix = prefix || '';
    var g = model.graph || { nodes: [], edges: [] };
    var nodes = g.nodes || [];
    var index = {};
    nodes.forEach(function (n, i) { index[n.seq] = i; });
    var data = (g.edges || []).filter(function (e) { return e.kind === 'data' && e.from in index && e.to in index; });

    // data edges: lanes by greedy interval packing (short spans nearest the nodes), entry slots per target
    data.forEach(function (e) {
      e.lo = Math.min(index[e.from], index[e.to]);
      e.hi = Math.max(index[e.from], index[e.to]);
    });
    var order = data.slice().sort(function (a, b) { return (a.hi - a.lo) - (b.hi - b.lo) || a.lo - b.lo; });
    var laneEnds = [];
    order.forEach(function (e) {
      var lane = 0;
      while (lane < laneEnds.length && laneEnds[lane].some(function (span) { return !(e.hi < span[0] || e.lo > span[1]); })) lane++;
      if (lane >= G.maxLanes) lane = G.maxLanes - 1;
      if (!laneEnds[lane]) laneEnds[lane] = [];
      laneEnds[lane].push([e.lo, e.hi]);
      e.lane = lane;
    });
    var lanes = Math.max(1, laneEnds.length);
    var incoming = {};
    data.forEach(function (e) { (incoming[e.to] = incoming[e.to] || []).push(e); });

    // rows grow with the labels entering them, so labels never stack
    var rowTop = [];
    var y = G.top;
    nodes.forEach(function (n, i) {
      rowTop.push(y);
      var k = (incoming[n.seq] || []).length;
      y += Math.max(G.row, G.height + 22 + Math.max(0, k - 3) * G.slot);
    });
    var left = G.margin + lanes * G.lane + G.labels;
    var right = left + G.width;
    function mid(i) { return rowTop[i] + G.height / 2; }

    var jumpBends = [];
    var svg = sv('svg', { id: prefix + 'flow-graph', class: 'flow-graph', xmlns: SVG, role: 'img',
      'aria-label': 'flow graph of the plan' + (prefix ? ' of the child run' : '') });
    var arrow = 'url(#' + prefix + 'arrow)';
    var defs = sv('defs');
    var marker = sv('marker', { id: prefix + 'arrow', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7,
      orient: 'auto-start-reverse' });
    marker.appendChild(sv('path', { d: 'M0,0 L10,5 L0,10 z', class: 'arrowhead' }));
    defs.appendChild(marker);
    svg.appendChild(defs);

    var jumpsFrom = {};
    (g.edges || []).forEach(function (e) {
      if (!(e.from in index) || !(e.to in index) || e.kind === 'data') return;
      var a = index[e.from], b = index[e.to];
      var group = sv('g', { class: 'edge ' + e.kind + (e.count > 0 ? ' taken' : ''), 'data-from': e.from,
        'data-to': e.to, 'data-count': e.count });
      var path, lx, ly, anchor = 'start';
      if (e.kind === 'seq') {
        var x = left + G.width / 2, y1 = rowTop[a] + G.height, y2 = rowTop[b];
        path = 'M' + x + ',' + y1 + ' L' + x + ',' + y2;
        lx = x + 6; ly = (y1 + y2) / 2 + 4;
      } else {
        var k = jumpsFrom[e.from] = (jumpsFrom[e.from] || 0) + 1;
        var bend = right + 40 + Math.min(Math.abs(b - a), 12) * 12 + (k - 1) * 14;
        jumpBends.push(bend);
        path = 'M' + right + ',' + mid(a) + ' C' + bend + ',' + mid(a) + ' ' + bend + ',' + mid(b) + ' ' + (right + 2) + ',' + mid(b);
        lx = bend - 8; ly = (mid(a) + mid(b)) / 2 + 4;
        anchor = 'end';
      }
      group.appendChild(sv('title', null, e.kind + ' from seq_no ' + e.from + ' to ' + e.to + ': taken ' + e.count + '×'));
      group.appendChild(sv('path', { d: path, 'marker-end': arrow }));
      if (e.count > 0) group.appendChild(sv('text', { class: 'count', x: lx, y: ly, 'text-anchor': anchor }, '×' + e.count));
      svg.appendChild(group);
    });

    var slotOf = {};
    Object.keys(incoming).forEach(function (to) {
      incoming[to].sort(function (p, q) { return q.lane - p.lane; }).forEach(function (e, s) { slotOf[data.indexOf(e)] = s; });
    });
    data.forEach(function (e, n) {
      var a = index[e.from], b = index[e.to];
      var laneX = left - G.labels - (e.lane + 1) * G.lane + G.lane / 2;
      var k = incoming[e.to].length;
      var y1 = mid(a);
      var y2 = rowTop[b] + G.height / 2 + (slotOf[n] - (k - 1) / 2) * G.slot;
      var group = sv('g', { class: 'edge data', 'data-from': e.from, 'data-to': e.to });
      group.appendChild(sv('title', null, e.variable + ': written by seq_no ' + e.from + ', read by seq_no ' + e.to));
      group.appendChild(sv('path', { d: 'M' + left + ',' + y1 + ' H' + laneX + ' V' + y2 + ' H' + (left - 2),
        'marker-end': arrow }));
      var room = Math.floor((left - laneX - 10) / 6.2);
      group.appendChild(sv('text', { class: 'var', x: laneX + 4, y: y2 - 3 }, cut(e.variable, room)));
      svg.appendChild(group);
    });

    nodes.forEach(function (n, i) {
      var label = 'seq_no ' + n.seq + ' (' + n.type + '): ' + n.outcome;
      var group = sv('g', { class: 'node ' + String(n.outcome).replace(/[^a-z-]/g, '-'), 'data-seq': n.seq,
        tabindex: 0, role: 'button', 'aria-label': label + ', open its step' });
      group.appendChild(sv('title', null, label));
      group.appendChild(sv('rect', { x: left, y: rowTop[i], width: G.width, height: G.height, rx: 6 }));
      group.appendChild(sv('text', { x: left + 10, y: rowTop[i] + 22 }, cut(n.seq + ' · ' + n.label, 44)));
      svg.appendChild(group);
    });

    var width = Math.max(right + 30, Math.max.apply(null, jumpBends.concat([0])) + 24);
    var height = y + G.top;
    setAll(svg, { width: width, height: height, viewBox: '0 0 ' + width + ' ' + height });
    var box = el('div', { class: 'figure' });
    box.appendChild(svg);
    if (g.more_nodes > 0) box.appendChild(el('p', { class: 'note' }, g.more_nodes + ' more instructions are not drawn.'));
    return box;
  }

  // ---------------------------------------------------------------- timeline

  var T = { width: 820, labels: 176, right: 44, row: 18 };

  function niceStep(raw) {
    var magnitude = Math.pow(10, Math.floor(Math.log10(Math.max(raw, 0.001))));
    var steps = [1, 2, 5, 10];
    for (var i = 0; i < steps.length; i++) if (steps[i] * magnitude >= raw) return steps[i] * magnitude;
    return 10 * magnitude;
  }

  /**
   * The timeline: a row per step, then the calls in lanes; failed attempts red, waits before retries and waits
   * for a slot of a tool's concurrency limit (drawn at the call's start) hatched.
   * {@code prefix} (a child run's block) keeps its element ids apart from the page's own timeline.
   */
  function timeline(model, prefix) {
    prefix = prefix || '';
    var t = model.timeline || { steps: [], calls: [], end_ms: 1 };
    var steps = t.steps || [], calls = t.calls || [];
    var lanes = calls.reduce(function (m, c) { return Math.max(m, c.lane + 1); }, 0);
    var height = 30 + (steps.length + lanes + (lanes > 0 ? 1 : 0)) * T.row + 10;
    var end = Math.max(1, t.end_ms || 1);
    var scale = (T.width - T.labels - T.right) / end;
    var svg = sv('svg', { id: prefix + 'timeline', class: 'timeline', xmlns: SVG, width: T.width, height: height, viewBox: '0 0 ' + T.width + ' ' + height,
      role: 'img', 'aria-label': 'timeline of the steps and calls' });
    var defs = sv('defs');
    var hatch = sv('pattern', { id: prefix + 'hatch', width: 6, height: 6, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' });
    hatch.appendChild(sv('line', { x1: 0, y1: 0, x2: 0, y2: 6, class: 'hatch' }));
    defs.appendChild(hatch);
    svg.appendChild(defs);

    var step = niceStep(end / 6);
    for (var v = 0; v <= end + 1e-9; v += step) {
      var x = T.labels + v * scale;
      svg.appendChild(sv('line', { class: 'tick', x1: fmt(x), y1: 14, x2: fmt(x), y2: height - 6 }));
      svg.appendChild(sv('text', { class: 'tick', x: fmt(x), y: 11, 'text-anchor': v === 0 ? 'start' : 'middle' },
        (step < 1 ? fmt(v) : String(Math.round(v))) + ' ms'));
    }

    function bar(kind, start, duration, y, target, title) {
      var rect = sv('rect', { class: kind, 'data-target': target, x: fmt(T.labels + start * scale), y: y + 2,
        width: fmt(Math.max(1.5, duration * scale)), height: T.row - 5, fill: kind.indexOf('wait') >= 0 ? 'url(#' + prefix + 'hatch)' : null });
      rect.appendChild(sv('title', null, title));
      svg.appendChild(rect);
    }
    function attempts(list, t0, y, target) {
      (list || []).forEach(function (a) {
        bar('bar attempt', t0, a.duration_ms, y, target, 'attempt ' + a.attempt + ' failed: ' + a.error);
        t0 += a.duration_ms;
        if (a.waited_ms > 0) {
          bar('bar wait', t0, a.waited_ms, y, target, 'waited ' + fmt(a.waited_ms) + ' ms before retrying');
          t0 += a.waited_ms;
        }
      });
      return t0;
    }
    steps.forEach(function (s, i) {
      var y = 26 + i * T.row;
      var label = 'step ' + s.n + ' · seq_no ' + s.seq + ' ' + s.type;
      var row = sv('text', { class: 'row', x: 4, y: y + 12 }, cut(label, 28));
      row.appendChild(sv('title', null, label));
      svg.appendChild(row);
      bar(s.failed ? 'bar step failed' : 'bar step', s.start_ms, s.duration_ms, y, 'step-' + s.n,
        label + ': ' + fmt(s.duration_ms) + ' ms');
      attempts(s.attempts, s.start_ms, y, 'step-' + s.n);
    });
    if (lanes > 0) {
      var y0 = 26 + steps.length * T.row + T.row;
      svg.appendChild(sv('text', { class: 'row', x: 4, y: y0 - 4 }, 'calls'));
      calls.forEach(function (c) {
        var y = y0 + c.lane * T.row;
        var t0 = c.start_ms;
        if (c.waited_ms > 0) { // waiting for a slot of the tool's concurrency limit: a wait, not work
          bar('bar wait slot', t0, c.waited_ms, y, 'seq-' + c.seq,
            'waited ' + fmt(c.waited_ms) + ' ms for a slot of ' + c.name + '\u2019s concurrency limit');
          t0 += c.waited_ms;
        }
        var t1 = attempts(c.attempts, t0, y, 'seq-' + c.seq);
        bar(c.outcome === 'failed' ? 'bar call failed' : 'bar call', t1, Math.max(0, c.start_ms + c.duration_ms - t1), y,
          'seq-' + c.seq, 'seq_no ' + c.seq + ' ' + c.name + ': ' + fmt(c.duration_ms) + ' ms, ' + c.outcome);
      });
    }
    var box = el('div', { class: 'figure' });
    box.appendChild(svg);
    if (t.more_steps > 0 || t.more_calls > 0) {
      box.appendChild(el('p', { class: 'note' }, t.more_steps + ' steps and ' + t.more_calls + ' calls are not drawn.'));
    }
    return box;
  }

  // ---------------------------------------------------------------- steps

  function steps(model, open, options, prefix) {
    options = options || {};
    prefix = prefix || '';
    var section = el('section', prefix ? { class: 'child-steps' } : { id: 'steps' });
    section.appendChild(el(prefix ? 'h4' : 'h2', null, 'Steps'));
    (model.steps || []).forEach(function (s) {
      var id = prefix + 'step-' + s.n;
      var details = el('details', { class: 'step' + (s.failed ? ' failed' : ''), id: id, 'data-seq': s.seq });
      if (open[id]) details.open = true;
      details.appendChild(el('summary', null, 'step ' + s.n + ' · seq_no ' + s.seq + ' · ' + s.type + ' · ' +
        fmt(s.duration_ms) + ' ms' + (s.failed ? ' · failed' : '')));
      ['inputs', 'writes', 'jump'].forEach(function (name) {
        if (s[name]) {
          details.appendChild(el('h4', null, name));
          details.appendChild(el('pre', null, s[name]));
        }
      });
      if (s.error) {
        details.appendChild(el('h4', null, 'error'));
        details.appendChild(el('pre', { class: 'error' }, s.error));
      }
      (s.children || []).forEach(function (child) {
        details.appendChild(childBlock(child, s.seq, model, open, options));
      });
      section.appendChild(details);
    });
    if (model.more_steps > 0) section.appendChild(el('p', { class: 'note' }, model.more_steps + ' more steps are not listed.'));
    return section;
  }

  /**
   * A plan-tool call's child run as a nested, expandable block: a <details> whose summary names the run. Opened,
   * it shows the child's summary, its own flow graph and timeline (drawn as the page's, scoped to the block: a node or
   * bar opens the child's step) and its steps: from {@code options.child(id)} (a promise of the child's model, in the
   * run browser), else from {@code model.child_reports[id]} (embedded by {@code planvm report}), else it says where
   * the child's steps are. Its open state survives a redraw.
   */
  function childBlock(id, seq, model, open, options) {
    var key = 'child-' + String(id).replace(/[^A-Za-z0-9]/g, '');
    var details = el('details', { class: 'child-run', id: key, 'data-child': id, 'data-parent-seq': seq });
    var head = el('summary', null, 'child run ' + id + ' (seq_no ' + seq + ')');
    details.appendChild(head);
    var body = el('div', { class: 'child-body' });
    details.appendChild(body);
    if (options.childLink) {
      var p = el('p');
      p.appendChild(el('a', { href: options.childLink(id), class: 'child-link' }, 'open run ' + id + ' on its own page'));
      details.insertBefore(p, body);
    }
    function fill(child) {
      body.replaceChildren();
      if (!child) {
        body.appendChild(el('p', { class: 'note' }, 'child run ' + id + ': its steps are in its own trace, not in this one.'));
        return;
      }
      body.appendChild(summary(child));
      var flow = el('section', { class: 'child-graph' });
      flow.appendChild(el('h4', null, 'Flow'));
      flow.appendChild(graph(child, key + '-'));
      body.appendChild(flow);
      var time = el('section', { class: 'child-timeline' });
      time.appendChild(el('h4', null, 'Timeline'));
      time.appendChild(timeline(child, key + '-'));
      body.appendChild(time);
      var list = steps(child, open, {}, key + '-');
      body.appendChild(list);
      wireScope(flow.querySelector('svg.flow-graph'), time.querySelector('svg.timeline'), list, key + '-');
      details.setAttribute('data-loaded', String((child.steps || []).length));
      details.setAttribute('data-nodes', flow.querySelectorAll('g.node').length);
      details.setAttribute('data-bars', time.querySelectorAll('rect.bar').length);
    }
    function load() {
      if (options.child) {
        body.replaceChildren(el('p', { class: 'note' }, 'loading child run ' + id + '…'));
        Promise.resolve(options.child(id)).then(fill, function (e) {
          body.replaceChildren(el('p', { class: 'error' }, 'cannot read child run ' + id + ': ' + e.message));
        });
      } else {
        fill((model.child_reports || {})[id]);
      }
    }
    details.addEventListener('toggle', function () { if (details.open) load(); });
    if (open[key]) { details.open = true; load(); }
    return details;
  }

  function legend(keys) {
    var p = el('p', { class: 'legend' });
    keys.forEach(function (k) {
      p.appendChild(el('span', { class: 'key ' + k[0] }, k[1]));
      p.appendChild(document.createTextNode(' '));
    });
    return p;
  }

  // ---------------------------------------------------------------- the whole report

  /**
   * What the plan could do before it ran (its reach) beside what this run did: one row per tool, the steps of its
   * sites the run executed, then the paths without approval, hosts, jumps decided at run time, notes and violations.
   */
  function reach(r) {
    var section = el('section', { id: 'reach' });
    section.appendChild(el('h2', null, 'What the plan could do'));
    if (!r.complete) section.appendChild(el('p', { class: 'note' }, 'Part of the plan could not be analysed: see the notes.'));
    var table = el('table', { class: 'reach' });
    var head = el('tr');
    ['tool', 'kind', 'effect', 'approval', 'most calls', 'sites', 'ran here'].forEach(function (h) { head.appendChild(el('th', null, h)); });
    table.appendChild(head);
    (r.tools || []).forEach(function (t) {
      var row = el('tr', { class: 'effect-' + t.effect });
      [t.tool, t.kind, t.effect, t.approval, t.most, t.sites, String(t.ran)].forEach(function (v) { row.appendChild(el('td', null, v)); });
      table.appendChild(row);
    });
    section.appendChild(table);
    if (r.more_tools) section.appendChild(el('p', { class: 'note' }, r.more_tools + ' more tools not shown'));
    [['unapproved', 'Reached without approval'], ['hosts', 'Hosts'], ['branches', 'Jumps decided at run time'],
      ['notes', 'Notes'], ['violations', 'Policy violations']].forEach(function (part) {
      var items = r[part[0]] || [];
      if (!items.length) return;
      section.appendChild(el('h4', null, part[1]));
      var ul = el('ul', { class: 'reach-' + part[0] });
      items.forEach(function (line) { ul.appendChild(el('li', null, line)); });
      section.appendChild(ul);
    });
    return section;
  }

  /**
   * Draws {@code model} into {@code root} (replacing what was there, keeping the steps that were open);
   * {@code options.heading} false leaves out the title. Sets data-nodes, data-bars and data-ready on root.
   */
  function render(root, model, options) {
    options = options || {};
    var open = {};
    root.querySelectorAll('details.step[open], details.child-run[open]').forEach(function (d) { open[d.id] = true; });
    root.replaceChildren();
    var header = el('header');
    if (options.heading !== false) header.appendChild(el('h1', null, model.title || 'planvm run'));
    header.appendChild(summary(model));
    root.appendChild(header);
    if (model.lineage && model.lineage.length) {
      var lineage = el('section', { id: 'lineage' });
      lineage.appendChild(el('h2', null, 'Lineage'));
      var ol = el('ol');
      model.lineage.forEach(function (line) { ol.appendChild(el('li', null, line)); });
      lineage.appendChild(ol);
      root.appendChild(lineage);
    }
    if (model.diff && model.diff.length) {
      var diff = el('section', { id: 'diff' });
      diff.appendChild(el('h2', null, 'Differences from the expectation'));
      var pre = el('pre', { class: 'diff' });
      model.diff.forEach(function (line) {
        var t = line.replace(/^\s+/, '');
        pre.appendChild(el('span', { class: t.charAt(0) === '-' ? 'del' : t.charAt(0) === '+' ? 'ins' : 'ctx' }, cut(line, 2000)));
        pre.appendChild(document.createTextNode('\n'));
      });
      diff.appendChild(pre);
      root.appendChild(diff);
    }
    if (model.reach) root.appendChild(reach(model.reach));
    var flow = el('section', { id: 'graph' });
    flow.appendChild(el('h2', null, 'Flow'));
    flow.appendChild(legend([['seq', 'sequential'], ['jump', 'jump'], ['data', 'data (${} reference)'], ['count', '×N: times taken']]));
    flow.appendChild(graph(model));
    root.appendChild(flow);
    var time = el('section', { id: 'timeline-section' });
    time.appendChild(el('h2', null, 'Timeline'));
    time.appendChild(legend([['step', 'step'], ['call', 'call'], ['attempt', 'failed attempt'], ['wait', 'wait for a slot or before a retry']]));
    time.appendChild(timeline(model));
    root.appendChild(time);
    root.appendChild(steps(model, open, options));
    var listed = {};
    (model.steps || []).forEach(function (s) { (s.children || []).forEach(function (c) { listed[c] = true; }); });
    var others = ((model.run || {}).children || []).filter(function (c) { return !listed[c.id]; });
    if (others.length) {
      var more = el('section', { id: 'children' });
      more.appendChild(el('h2', null, 'Child runs of steps not committed yet'));
      others.forEach(function (c) { more.appendChild(childBlock(c.id, c.seq_no, model, open, options)); });
      root.appendChild(more);
    }
    wire(root);
    root.setAttribute('data-nodes', root.querySelectorAll('#flow-graph g.node').length);
    root.setAttribute('data-bars', root.querySelectorAll('#timeline rect.bar').length);
    root.setAttribute('data-ready', '1');
    return root;
  }

  /** Clicking (or Enter on) a node, or clicking a bar, opens its step. */
  function wire(root) {
    wireScope(root.querySelector('#flow-graph'), root.querySelector('#timeline'), root.querySelector('#steps'), '');
  }

  /** Wires one graph and timeline to their steps (the page's, or a child run's with its id prefix). */
  function wireScope(graphSvg, timelineSvg, stepList, prefix) {
    if (!stepList) return;
    function openStep(step) {
      if (!step) return;
      stepList.querySelectorAll('details.step.hl').forEach(function (d) { d.classList.remove('hl'); });
      step.open = true;
      step.classList.add('hl');
      step.scrollIntoView({ block: 'center' });
    }
    function bySeq(seq) {
      return stepList.querySelector(':scope > details.step[data-seq="' + String(seq).replace(/[^0-9-]/g, '') + '"]');
    }
    if (graphSvg) {
      graphSvg.querySelectorAll('g.node').forEach(function (node) {
        function go() { openStep(bySeq(node.getAttribute('data-seq'))); }
        node.addEventListener('click', go);
        node.addEventListener('keydown', function (e) { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); go(); } });
      });
    }
    if (timelineSvg) {
      timelineSvg.querySelectorAll('rect.bar').forEach(function (bar) {
        bar.addEventListener('click', function () {
          var t = bar.getAttribute('data-target') || '';
          openStep(t.indexOf('seq-') === 0 ? bySeq(t.substring(4))
            : stepList.querySelector(':scope > details.step[id="' + prefix + t.replace(/[^a-z0-9-]/g, '') + '"]'));
        });
      });
    }
  }

  global.PlanvmReport = { render: render, markdown: markdown, result: result };

  var inlineData = document.getElementById('report-data');
  if (inlineData) {
    var root = document.getElementById('report');
    render(root, JSON.parse(inlineData.textContent));
    ['data-nodes', 'data-bars', 'data-ready'].forEach(function (name) {
      document.body.setAttribute(name, root.getAttribute(name));
    });
  }
})(typeof window !== 'undefined' ? window : this);
