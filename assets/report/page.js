// @ts-check
// The page of `rec report`, run in the browser from the file itself. It reads the JSON block the
// command wrote (reportData.ts) and builds every element with createElement and textContent: text
// from sessions (commands, reasons, outputs, file names) is never parsed as HTML. Charts are
// Chart.js, each followed by a table of the same numbers.
/* global Chart */
(function () {
  'use strict';

  // The command writes #rec-data and #app into the page (reportPage.ts), so both are there.
  var data = JSON.parse(/** @type {string} */ (/** @type {HTMLElement} */ (document.getElementById('rec-data')).textContent));
  // The sessions travel as arrays, each folder written once in data.paths (compactSessions.ts);
  // the page works on them as objects.
  data.sessions = data.sessions.map(function (a) {
    var file = a[5] === null ? null : (a[4] === null ? '' : data.paths[a[4]] + '/') + a[5];
    return { agent: a[0], id: a[1], started: a[2], cwd: a[3] === null ? null : data.paths[a[3]], file: file, counts: a[6], steps: a[7] };
  });
  var app = /** @type {HTMLElement} */ (document.getElementById('app'));
  var STEP = ['type', 'ts', 'tool', 'call_id', 'what', 'kind', 'trigger', 'option', 'reason', 'reason_source', 'ran', 'partial', 'decided_by'];
  // Okabe and Ito's palette, told apart by readers with any common colour-vision deficiency.
  var TYPE_COLOURS = { rejection: '#D55E00', interruption: '#0072B2', skipped: '#CC79A7', approval: '#009E73', unknown: '#999999' };
  var EXTRA = ['#E69F00', '#56B4E9', '#F0E442', '#000000'];
  var PAGE_SIZE = 25;
  var TRIGGERS = { esc: 'Esc', ctrl_c: 'Ctrl+C', enter: 'Enter on an option', digit: 'No by digit', letter: 'No by letter', tab: 'Tab with a reason', shift_tab: 'Shift+Tab', hook: 'a hook', rule: 'a rule', exit: 'agent exit' };
  var DECIDERS = { user: 'the user', config: 'a setting', hook: 'a hook', rule: 'a rule', reviewer: 'a reviewer model' };
  // The timeline's key names: its rows are approvals as well as refusals, so no key is called a No.
  var KEY_NAMES = { esc: 'Esc', ctrl_c: 'Ctrl+C', enter: 'Enter on an option', digit: 'a digit', letter: 'a letter', tab: 'Tab with a reason', shift_tab: 'Shift+Tab', hook: 'a hook', rule: 'a rule', exit: 'agent exit' };

  function el(tag, attrs, children) {
    var e = document.createElement(tag);
    if (attrs) Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    (children || []).forEach(function (c) {
      if (c === null || c === undefined) return;
      e.appendChild(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
    });
    return e;
  }

  function pct(part, whole) {
    return whole > 0 ? (100 * part / whole).toFixed(1) + '%' : '–';
  }

  function section(id, title, intro) {
    var s = el('section', { id: id, 'aria-labelledby': id + '-h' }, [el('h2', { id: id + '-h', tabindex: '-1' }, [title])]);
    if (intro) s.appendChild(el('p', { class: 'intro' }, [intro]));
    app.appendChild(s);
    return s;
  }

  // A table whose column headers sort it (click or Enter/Space on the header's button).
  function table(caption, columns, rows, opts) {
    opts = opts || {};
    var tbody = el('tbody');
    var head = el('tr');
    var t = el('table', opts.id ? { id: opts.id } : null, [el('caption', null, [caption]), el('thead', null, [head]), tbody]);
    var order = rows.slice();
    function fill() {
      tbody.textContent = '';
      order.forEach(function (r) {
        var tr = el('tr');
        columns.forEach(function (c, i) {
          var v = c.cell ? c.cell(r) : r[i];
          tr.appendChild(el(i === 0 ? 'th' : 'td', i === 0 ? { scope: 'row', class: c.num ? 'num' : '' } : { class: c.num ? 'num' : '' }, [v instanceof Node ? v : (c.show ? c.show(r) : String(v))]));
        });
        tbody.appendChild(tr);
      });
    }
    columns.forEach(function (c, i) {
      var th = el('th', { scope: 'col', class: c.num ? 'num' : '' });
      if (opts.sortable) {
        var b = el('button', { type: 'button' }, [c.label]);
        b.addEventListener('click', function () {
          var dir = th.getAttribute('aria-sort') === 'descending' ? 1 : -1;
          Array.prototype.forEach.call(head.children, function (h) { h.removeAttribute('aria-sort'); });
          th.setAttribute('aria-sort', dir === 1 ? 'ascending' : 'descending');
          var key = c.sort || function (r) { return r[i]; };
          order.sort(function (a, b) { var x = key(a), y = key(b); return (x < y ? -1 : x > y ? 1 : 0) * dir; });
          fill();
        });
        th.appendChild(b);
      } else th.appendChild(document.createTextNode(c.label));
      head.appendChild(th);
    });
    fill();
    if (rows.length === 0) tbody.appendChild(el('tr', null, [el('td', { colspan: String(columns.length), class: 'empty' }, ['none'])]));
    return el('div', { class: 'table-wrap' }, [t]);
  }

  function chart(parent, label, config) {
    var canvas = el('canvas', { role: 'img', 'aria-label': label + ' (the table below has the same numbers)' });
    parent.appendChild(el('div', { class: 'chart' }, [canvas]));
    config.options = Object.assign({ responsive: true, maintainAspectRatio: false, animation: false }, config.options || {});
    new Chart(canvas, config);
  }

  function countRows(rows, names) {
    return rows.map(function (r) { return [names && names[r.key] ? names[r.key] + ' (' + r.key + ')' : r.key, r.count]; });
  }

  function barChart(parent, label, rows, colour) {
    chart(parent, label, {
      type: 'bar',
      data: { labels: rows.map(function (r) { return r[0]; }), datasets: [{ label: label, data: rows.map(function (r) { return r[1]; }), backgroundColor: colour }] },
      options: { indexAxis: 'y', plugins: { legend: { display: false } }, scales: { x: { beginAtZero: true, ticks: { precision: 0 } } } },
    });
  }

  function summary() {
    var s = data.stats;
    var decisions = s.approvals + s.rejections.total + s.skipped.total + s.interruptions.total + s.unknown_fates;
    var sec = section('summary', 'Summary', 'Each share is of all ' + decisions + ' decisions: approvals, rejections, skipped calls, interruptions and calls of unknown fate.');
    var cards = [
      ['sessions', 'Sessions', s.sessions, null],
      ['calls', 'Tool calls', s.calls, null],
      ['approvals', 'Approvals', s.approvals, decisions],
      ['rejections', 'Rejections', s.rejections.total, decisions],
      ['skipped', 'Skipped', s.skipped.total, decisions],
      ['interruptions', 'Interruptions', s.interruptions.total, decisions],
      ['unknown_fates', 'Unknown fates', s.unknown_fates, decisions],
      // A miss is not a decision of its own: one the agent's file shows and rec saw no prompt for.
      ['misses', 'Missed by rec', s.misses.total, decisions],
    ];
    var list = el('ul', { class: 'cards' });
    cards.forEach(function (c) {
      list.appendChild(el('li', { class: 'card' }, [
        el('span', { class: 'card-label' }, [c[1]]),
        el('span', { class: 'card-value', 'data-stat': c[0] }, [String(c[2])]),
        el('span', { class: 'card-share' }, [c[3] === null ? '' : pct(c[2], c[3]) + ' of decisions']),
      ]));
    });
    sec.appendChild(list);
    sec.appendChild(el('p', { class: 'note' }, [(data.newest ? 'Data up to ' + data.newest.replace('T', ' ').slice(0, 19) + ' UTC.' : 'No dated sessions.') + (s.diagnostics > 0 ? ' ' + s.diagnostics + ' diagnostics: run rec stats to see them.' : '')]));
  }

  function overTime() {
    var o = data.over_time;
    var sec = section('over-time', 'Over time', 'Decisions per ' + o.unit + ', stacked by type, one column per agent.' + (o.undated ? ' ' + o.undated + ' decisions carry no time and are left out.' : ''));
    var agents = [];
    o.series.forEach(function (s) { if (agents.indexOf(s.agent) < 0) agents.push(s.agent); });
    chart(sec, 'Decisions per ' + o.unit + ' by type and agent', {
      type: 'bar',
      data: {
        labels: o.buckets,
        datasets: o.series.map(function (s) {
          return { label: s.agent + ' · ' + s.type, data: s.counts, stack: s.agent, backgroundColor: TYPE_COLOURS[s.type] || EXTRA[0], borderColor: '#ffffff', borderWidth: 1 };
        }),
      },
      options: { scales: { x: { stacked: true }, y: { stacked: true, beginAtZero: true, ticks: { precision: 0 } } } },
    });
    var cols = [{ label: o.unit === 'week' ? 'Week of' : 'Day' }].concat(o.series.map(function (s) { return { label: s.agent + ' ' + s.type, num: true }; }));
    var rows = o.buckets.map(function (b, i) { return [b].concat(o.series.map(function (s) { return s.counts[i]; })); });
    sec.appendChild(table('Decisions per ' + o.unit, cols, rows, { sortable: true }));
  }

  function rates() {
    var sec = section('rates', 'Rejection rate per tool and per agent', 'Rejections over tool calls; sort by any column.');
    var tools = data.stats.rejection_rate_by_tool.slice(0, 15);
    chart(sec, 'Rejection rate per tool', {
      type: 'bar',
      data: { labels: tools.map(function (r) { return r.tool; }), datasets: [{ label: 'rejection rate (%)', data: tools.map(function (r) { return +(100 * r.rate).toFixed(1); }), backgroundColor: TYPE_COLOURS.rejection }] },
      options: { indexAxis: 'y', plugins: { legend: { display: false } }, scales: { x: { beginAtZero: true, max: 100 } } },
    });
    var rateCols = function (first) {
      return [
        { label: first, cell: function (r) { return r.tool || r.agent; } },
        { label: 'Calls', num: true, cell: function (r) { return r.calls; }, sort: function (r) { return r.calls; } },
        { label: 'Rejections', num: true, cell: function (r) { return r.rejections; }, sort: function (r) { return r.rejections; } },
        { label: 'Rate', num: true, cell: function (r) { return pct(r.rejections, r.calls); }, sort: function (r) { return r.rate; } },
      ];
    };
    var toolCols = rateCols('Tool');
    toolCols[0].sort = function (r) { return r.tool; };
    var agentCols = rateCols('Agent');
    agentCols[0].sort = function (r) { return r.agent; };
    sec.appendChild(table('Per tool', toolCols, data.stats.rejection_rate_by_tool, { sortable: true, id: 'rate-by-tool' }));
    sec.appendChild(table('Per agent', agentCols, data.rate_by_agent, { sortable: true, id: 'rate-by-agent' }));
  }

  function howRefused() {
    var sec = section('refusing', 'How users refuse', 'The key that refused, and where the reason came from.');
    var grid = el('div', { class: 'pair' });
    sec.appendChild(grid);
    var trig = countRows(data.stats.rejections.by_trigger, TRIGGERS);
    var a = el('div');
    grid.appendChild(a);
    barChart(a, 'Rejections by trigger', trig, TYPE_COLOURS.rejection);
    a.appendChild(table('By trigger', [{ label: 'Trigger' }, { label: 'Rejections', num: true }], trig, { id: 'by-trigger' }));
    var src = countRows(data.reason_source, { inline: 'typed at the prompt', next_message: 'the next message', reviewer: "the reviewer's rationale", hook: "the hook's message", none: 'no reason' });
    var b = el('div');
    grid.appendChild(b);
    barChart(b, 'Rejections by reason source', src, EXTRA[1]);
    b.appendChild(table('By reason source', [{ label: 'Reason source' }, { label: 'Rejections', num: true }], src, { id: 'by-reason-source' }));
    // A rule, a hook or a reviewer model refuses without a person: never counted as the user's.
    var who = countRows(data.stats.rejections.by_decided_by, DECIDERS);
    a.appendChild(table('By who decided', [{ label: 'Decided by' }, { label: 'Rejections', num: true }], who, { id: 'by-decided-by' }));
  }

  function sessionLinks(indexes) {
    var span = el('span', { class: 'links' });
    indexes.forEach(function (i) {
      var s = data.sessions[i];
      var b = el('button', { type: 'button', class: 'link' }, [s.agent + ' ' + (s.id ? s.id.slice(0, 8) : '#' + (i + 1))]);
      b.addEventListener('click', function () { openTimeline(i); });
      span.appendChild(b);
    });
    return span;
  }

  function refused() {
    var sec = section('refused', 'Most-refused commands and edits', 'The command or the files, how often, a few reasons given, and the sessions.');
    var reasons = function (r) {
      var ul = el('ul', { class: 'reasons' });
      r.reasons.forEach(function (x) { ul.appendChild(el('li', null, [x])); });
      return r.reasons.length ? ul : el('span', { class: 'muted' }, ['none given']);
    };
    sec.appendChild(table('Most refused', [
      { label: 'Command or edit', cell: function (r) { return el('code', null, [r.what]); } },
      { label: 'Times', num: true, cell: function (r) { return r.count; } },
      { label: 'Reasons', cell: reasons },
      { label: 'Sessions', cell: function (r) { return sessionLinks(r.sessions); } },
    ], data.refused, { id: 'most-refused' }));
  }

  function interruptions() {
    var sec = section('interruptions', 'Interruptions', 'Calls and responses cut short, by kind; the partial output is behind each "output" button.');
    var rows = data.interruptions.map(function (k) { return [k.kind, k.count]; });
    barChart(sec, 'Interruptions by kind', rows, TYPE_COLOURS.interruption);
    sec.appendChild(table('By kind', [{ label: 'Kind' }, { label: 'Interruptions', num: true }], rows, { id: 'interruptions-by-kind' }));
    data.interruptions.forEach(function (k) {
      var list = el('ul', { class: 'cut' });
      k.items.forEach(function (it) {
        var li = el('li', null, [sessionLinks([it.session]), ' ', el('span', null, [it.tool]), ' ', it.what ? el('code', null, [it.what]) : null]);
        if (it.partial) li.appendChild(el('details', null, [el('summary', null, ['output']), el('pre', null, [it.partial])]));
        list.appendChild(li);
      });
      sec.appendChild(el('h3', null, [k.kind + ' (' + k.count + ')']));
      sec.appendChild(list);
    });
  }

  function sessions() {
    var sec = section('sessions', 'Sessions', 'Newest first. Filter by agent or by any text (folder, id, file); open one to see its decisions in order.');
    var agents = Object.keys(data.stats.sessions_by_agent).sort();
    var pick = el('select', { id: 'session-agent' }, [el('option', { value: '' }, ['all agents'])].concat(agents.map(function (a) { return el('option', { value: a }, [a]); })));
    var text = el('input', { id: 'session-filter', type: 'search', placeholder: 'folder, id or file' });
    var bar = el('div', { class: 'filters' }, [el('label', { for: 'session-agent' }, ['Agent ']), pick, el('label', { for: 'session-filter' }, [' Filter ']), text]);
    var body = el('div');
    var nav = el('div', { class: 'pager' });
    sec.appendChild(bar);
    sec.appendChild(body);
    sec.appendChild(nav);
    var page = 0;
    function matching() {
      var q = text.value.toLowerCase();
      var out = [];
      data.sessions.forEach(function (s, i) {
        if (pick.value && s.agent !== pick.value) return;
        if (q && [s.cwd, s.id, s.file].join(' ').toLowerCase().indexOf(q) < 0) return;
        out.push(i);
      });
      return out;
    }
    function render() {
      var idx = matching();
      var pages = Math.max(1, Math.ceil(idx.length / PAGE_SIZE));
      page = Math.min(page, pages - 1);
      var shown = idx.slice(page * PAGE_SIZE, page * PAGE_SIZE + PAGE_SIZE).map(function (i) { return [i, data.sessions[i]]; });
      body.textContent = '';
      body.appendChild(table('Sessions ' + (idx.length ? page * PAGE_SIZE + 1 : 0) + '–' + (page * PAGE_SIZE + shown.length) + ' of ' + idx.length, [
        { label: 'Session', cell: function (r) { return sessionLinks([r[0]]); } },
        { label: 'Started', cell: function (r) { return r[1].started ? r[1].started.replace('T', ' ').slice(0, 19) : '–'; } },
        { label: 'Folder', cell: function (r) { return el('code', null, [r[1].cwd || '–']); } },
        { label: 'Rejections', num: true, cell: function (r) { return r[1].counts[0]; } },
        { label: 'Interruptions', num: true, cell: function (r) { return r[1].counts[1]; } },
        { label: 'Skipped', num: true, cell: function (r) { return r[1].counts[2]; } },
        { label: 'Approvals', num: true, cell: function (r) { return r[1].counts[3]; } },
      ], shown, { id: 'session-list' }));
      nav.textContent = '';
      var prev = el('button', { type: 'button' }, ['Previous page']);
      var next = el('button', { type: 'button' }, ['Next page']);
      prev.disabled = page === 0;
      next.disabled = page >= pages - 1;
      prev.addEventListener('click', function () { page--; render(); });
      next.addEventListener('click', function () { page++; render(); });
      nav.appendChild(prev);
      nav.appendChild(el('span', null, [' page ' + (page + 1) + ' of ' + pages + ' ']));
      nav.appendChild(next);
    }
    pick.addEventListener('change', function () { page = 0; render(); });
    text.addEventListener('input', function () { page = 0; render(); });
    render();
  }

  function dash(v) {
    return v === null || v === undefined || v === '' ? '–' : String(v);
  }

  // The prompt a step answered: its title and every option it offered, in the prompt's order, the
  // chosen one marked in words as well as in bold. A step with no recorded prompt shows its option.
  function promptCell(r) {
    if (r.prompt === null || r.prompt === undefined) return dash(r.option);
    var p = data.prompts[r.prompt];
    var list = el('ol', { class: 'options' });
    p.options.forEach(function (o, k) {
      // The key, where the label does not already end with it as Codex's "Yes, proceed (y)" does.
      var key = o[1] && o[0].slice(-(o[1].length + 2)) !== '(' + o[1] + ')' ? el('kbd', null, [o[1]]) : null;
      var chosen = k === r.chosen;
      list.appendChild(el('li', chosen ? { class: 'chosen' } : null, [key, key ? ' ' : null, el(chosen ? 'strong' : 'span', { class: 'option-label' }, [o[0]]), chosen ? ' (chosen)' : null]));
    });
    var cellBody = el('div', null, [el('span', { class: 'prompt-title' }, [p.title]), list]);
    if (r.chosen === null || r.chosen === undefined) cellBody.appendChild(el('span', { class: 'muted' }, [r.option ? 'chose: ' + r.option : 'no option chosen']));
    return cellBody;
  }

  var timeline;
  function openTimeline(i) {
    var s = data.sessions[i];
    timeline.textContent = '';
    var h = el('h2', { id: 'timeline-h', tabindex: '-1' }, ['Session ' + (s.id || '#' + (i + 1))]);
    timeline.appendChild(h);
    timeline.appendChild(el('p', { class: 'intro' }, [s.agent + ' · started ' + (s.started || 'unknown') + ' · ', el('code', null, [s.cwd || 'folder unknown']), ' · ', el('code', null, [s.file || ''])]));
    // A step that answered a recorded prompt carries two more cells: the prompt (an index into
    // data.prompts) and the index of the option chosen.
    var steps = s.steps.map(function (a) {
      var o = { prompt: a.length > STEP.length ? a[STEP.length] : null, chosen: a.length > STEP.length ? a[STEP.length + 1] : null };
      STEP.forEach(function (f, k) { o[f] = a[k]; });
      return o;
    });
    timeline.appendChild(table('Every decision in order', [
      { label: 'Decision', cell: function (r) { return el('span', { class: 'tag tag-' + r.type }, [r.type]); } },
      { label: 'Time', cell: function (r) { return r.ts ? r.ts.replace('T', ' ').slice(0, 19) : '–'; } },
      { label: 'Tool', cell: function (r) { return r.tool; } },
      { label: 'Command or edit', cell: function (r) { return r.what ? el('code', null, [r.what]) : '–'; } },
      { label: 'Key', cell: function (r) { return r.trigger ? (KEY_NAMES[r.trigger] || r.trigger) : '–'; } },
      { label: 'Decided by', cell: function (r) { return dash(r.decided_by); } },
      { label: 'Prompt and options', cell: promptCell },
      { label: 'Reason', cell: function (r) { return dash(r.reason); } },
      { label: 'Reason from', cell: function (r) { return dash(r.reason_source); } },
      { label: 'Ran', cell: function (r) { return dash(r.ran); } },
      { label: 'Detail', cell: function (r) {
        if (r.type === 'skipped') return r.kind ? 'skipped with ' + r.kind : '–';
        if (r.partial) return el('details', null, [el('summary', null, [dash(r.kind) + ': output']), el('pre', null, [r.partial])]);
        return dash(r.kind);
      } },
    ], steps, { id: 'timeline-steps' }));
    var close = el('button', { type: 'button' }, ['Back to the sessions']);
    close.addEventListener('click', function () { timeline.hidden = true; /** @type {HTMLElement} */ (document.getElementById('sessions-h')).focus(); });
    timeline.appendChild(close);
    timeline.hidden = false;
    h.focus();
  }

  function nav() {
    var links = [['summary', 'Summary'], ['over-time', 'Over time'], ['rates', 'Rates'], ['refusing', 'How users refuse'], ['refused', 'Most refused'], ['interruptions', 'Interruptions'], ['sessions', 'Sessions']];
    var list = el('ul');
    links.forEach(function (l) {
      var b = el('button', { type: 'button', class: 'link' }, [l[1]]);
      b.addEventListener('click', function () { var h = /** @type {HTMLElement} */ (document.getElementById(l[0] + '-h')); h.scrollIntoView(); h.focus(); });
      list.appendChild(el('li', null, [b]));
    });
    app.appendChild(el('header', null, [el('h1', null, ['rec report']), el('nav', { 'aria-label': 'Sections' }, [list])]));
  }

  Chart.defaults.font.family = 'system-ui, sans-serif';
  Chart.defaults.color = '#222222';
  nav();
  timeline = el('section', { id: 'timeline', 'aria-labelledby': 'timeline-h', hidden: '' });
  summary();
  app.appendChild(timeline);
  overTime();
  rates();
  howRefused();
  refused();
  interruptions();
  sessions();
  if (data.open !== null) openTimeline(data.open);
  document.body.setAttribute('data-ready', 'true');
})();
