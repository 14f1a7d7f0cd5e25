// The playground page: a grammar and an input side by side, and what kifu makes of them as
// they are typed (its findings, the parse tree, the board, the grammar diff). The state lives
// in the address's fragment, so that a link reproduces it. Every answer comes from kifu's
// WebAssembly build through api.js.
/* global wasm_bindgen, KIFU_WASM, kifuApi */
'use strict';

(async function () {
  const $ = (id) => document.getElementById(id);

  const EXAMPLES = {
    sfen: [
      'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1',
      'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSL b - 1',
      '8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124',
    ].join('\n'),
    fen: [
      'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1',
      'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0',
    ].join('\n'),
    epd: 'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - bm Bb5; id "Ruy Lopez";',
    psn: [
      '[Sente "Habu Yoshiharu"]',
      '[Gote "Moriuchi Toshiyuki"]',
      '',
      '1. P7f P3d 2. P2f P4d 3. P2e B-33',
      '4. S4h R-32 5. K6h K6b 6. K7h K7b',
      '',
    ].join('\n'),
    kif: [
      '手合割：平手',
      '先手：羽生善治',
      '後手：森内俊之',
      '手数----指手---------消費時間--',
      '   1 ７六歩(77)   ( 0:01/00:00:01)',
      '   2 ３四歩(33)   ( 0:02/00:00:02)',
      '   3 ２六歩(27)   ( 0:03/00:00:04)',
      '   4 ４四歩(43)   ( 0:01/00:00:03)',
      '   5 ２五歩(26)   ( 0:01/00:00:05)',
      '   6 ３三角(22)   ( 0:02/00:00:05)',
      '',
    ].join('\n'),
    csa: [
      'V2.2',
      'N+Habu Yoshiharu',
      'N-Moriuchi Toshiyuki',
      'PI',
      '+',
      '+7776FU',
      'T1',
      '-3334FU',
      'T2',
      '+2726FU',
      'T3',
      '-4344FU',
      'T1',
      '%TORYO',
      '',
    ].join('\n'),
    jkf: JSON.stringify({
      header: { 先手: 'Habu Yoshiharu', 後手: 'Moriuchi Toshiyuki' },
      moves: [
        {},
        { move: { color: 0, from: { x: 7, y: 7 }, to: { x: 7, y: 6 }, piece: 'FU' } },
        { move: { color: 1, from: { x: 3, y: 3 }, to: { x: 3, y: 4 }, piece: 'FU' } },
        { move: { color: 0, from: { x: 2, y: 7 }, to: { x: 2, y: 6 }, piece: 'FU' } },
        { special: 'TORYO' },
      ],
    }, null, 2) + '\n',
    json: '{"sideOnMove":"black","blackHand":[0,0,0,2,0,0,0],"whiteHand":[0,0,0,0,0,0,0],"pieces":{"2a":"wR","3b":"bB","1b":"wP","3c":"bB","2c":"wS","1c":"wK","2e":"bP"}}',
  };
  const DIALECTS = {
    sfen: [['auto', 'either, by the side letter'], ['usi', 'USI'], ['sfen2007', 'SFEN 2007']],
    fen: [['standard', 'standard'], ['chess960', 'Chess960']],
    epd: [['standard', 'standard'], ['chess960', 'Chess960']],
    psn: [['auto', 'each game’s own']],
    kif: [['auto', 'KIF or KI2, by the moves']],
    csa: [['auto', 'CSA, by its version line']],
    jkf: [['auto', 'JKF, as its schema defines it']],
    json: [['standard', 'the model the keys name']],
  };
  const MAX_TREES = 100;

  const status = $('status');
  let kifu;
  try {
    const bytes = Uint8Array.from(atob(KIFU_WASM), (c) => c.charCodeAt(0));
    wasm_bindgen.initSync({ module: await WebAssembly.compile(bytes) });
    kifu = kifuApi(wasm_bindgen);
  } catch (e) {
    status.textContent = `kifu did not load: ${e.message}`;
    status.className = 'bad';
    return;
  }

  const ui = {
    format: $('format'), dialect: $('dialect'), rule: $('rule'), rules: $('rules'),
    grammar: $('grammar'), input: $('input'),
    select: $('select'), ignore: $('ignore'), warningsAsErrors: $('warnings-as-errors'),
  };
  const state = {
    format: 'sfen', dialect: '', rule: '', input: EXAMPLES.sfen, grammar: null,
    select: '', ignore: '', warningsAsErrors: false,
  };
  let shipped = null; // kifu's grammar of the format: { name, text }, or null (JSON)

  // ---- The address's fragment: format, dialect, rule, input, and the grammar when edited.

  async function pack(text) {
    const stream = new Blob([text]).stream().pipeThrough(new CompressionStream('deflate-raw'));
    const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
    let s = '';
    for (const b of bytes) s += String.fromCharCode(b);
    return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  }

  async function unpack(packed) {
    const b64 = packed.replace(/-/g, '+').replace(/_/g, '/');
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
    return new Response(stream).text();
  }

  async function saveState() {
    const params = new URLSearchParams();
    params.set('format', state.format);
    if (state.dialect) params.set('dialect', state.dialect);
    if (state.rule) params.set('rule', state.rule);
    if (state.select) params.set('select', state.select);
    if (state.ignore) params.set('ignore', state.ignore);
    if (state.warningsAsErrors) params.set('warnings-as-errors', '1');
    params.set('input', await pack(state.input));
    if (state.grammar !== null) params.set('grammar', await pack(state.grammar));
    history.replaceState(null, '', `#${params}`);
  }

  async function loadState() {
    const params = new URLSearchParams(location.hash.slice(1));
    const format = params.get('format');
    if (!format || !(format in EXAMPLES)) return;
    state.format = format;
    state.dialect = params.get('dialect') || '';
    state.rule = params.get('rule') || '';
    state.select = params.get('select') || '';
    state.ignore = params.get('ignore') || '';
    state.warningsAsErrors = params.get('warnings-as-errors') === '1';
    try {
      state.input = params.has('input') ? await unpack(params.get('input')) : EXAMPLES[format];
      state.grammar = params.has('grammar') ? await unpack(params.get('grammar')) : null;
    } catch (e) {
      status.textContent = 'the link’s input or grammar could not be read: starting from the example';
      state.input = EXAMPLES[format];
      state.grammar = null;
    }
  }

  // ---- Editors: a text area over a copy of its text where the characters at fault are marked.

  const escapeHtml = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

  /** Marks `ranges` ([start, end, class], indices into the text) in the editor's backdrop. */
  function mark(textarea, ranges) {
    const text = textarea.value;
    const sorted = ranges.filter((r) => r[0] <= text.length).sort((a, b) => a[0] - b[0] || b[1] - a[1]);
    let html = '';
    let at = 0;
    for (const [start, end, cls] of sorted) {
      if (start < at) continue; // overlaps one already marked
      html += escapeHtml(text.slice(at, start));
      if (end > start) {
        html += `<mark class="${cls}">${escapeHtml(text.slice(start, end))}</mark>`;
      } else {
        html += `<mark class="${cls} point"></mark>`;
      }
      at = Math.max(end, start);
    }
    html += escapeHtml(text.slice(at));
    // A last empty line keeps its height in the backdrop.
    textarea.previousElementSibling.innerHTML = `${html}\n`;
    syncScroll(textarea);
  }

  function syncScroll(textarea) {
    const backdrop = textarea.previousElementSibling;
    backdrop.scrollTop = textarea.scrollTop;
    backdrop.scrollLeft = textarea.scrollLeft;
  }

  function select(textarea, start, end) {
    textarea.focus();
    textarea.setSelectionRange(start, Math.max(start, end));
  }

  /** A place of an answer (1-based line, character column) in `text`, as an index. */
  const at = (text, line, column) => kifu.offsetOf(text, line, column);
  const rangeOf = (text, p) => [at(text, p.line, p.column), at(text, p.end_line, p.end_column)];

  // ---- Findings.

  function findingItem(f, text, textarea) {
    const li = document.createElement('li');
    li.className = f.severity;
    const [start, end] = rangeOf(text, f);
    li.innerHTML = `<span class="place">${f.line}:${f.column}</span> <code>${escapeHtml(f.code)}</code> ${escapeHtml(f.message)}`;
    for (const label of f.labels.filter((l) => !l.primary && l.message)) {
      const note = document.createElement('div');
      note.className = 'label';
      note.textContent = `${label.line}:${label.column} ${label.message}`;
      li.append(note);
    }
    if (f.help) {
      const help = document.createElement('div');
      help.className = 'help';
      help.textContent = `help: ${f.help}`;
      li.append(help);
    }
    if (f.fixes && f.fixes.length) {
      const fix = document.createElement('button');
      fix.type = 'button';
      fix.className = 'fix';
      fix.textContent = f.applicability === 'safe' ? 'Apply the fix' : 'Apply the likeliest fix';
      fix.addEventListener('click', (event) => {
        event.stopPropagation();
        // The edits from last to first, so that each one's place still holds.
        let value = textarea.value;
        const edits = f.fixes.map((e) => [...rangeOf(value, e), e.replacement]).sort((a, b) => b[0] - a[0]);
        for (const [s, e, r] of edits) value = value.slice(0, s) + r + value.slice(e);
        textarea.value = value;
        textarea.dispatchEvent(new Event('input'));
      });
      li.append(fix);
    }
    li.title = 'Show these characters';
    li.addEventListener('click', () => select(textarea, start, end));
    return { li, marks: f.labels.map((l) => [...rangeOf(text, l), `${f.severity}${l.primary ? '' : ' secondary'}`]) };
  }

  // ---- The parse tree.

  function treeList(nodes, record) {
    const ul = document.createElement('ul');
    for (const node of nodes) {
      const li = document.createElement('li');
      const line = document.createElement('span');
      line.className = `node${node.open ? ' open' : ''}`;
      const shown = node.text !== undefined ? ` <span class="text">${escapeHtml(JSON.stringify(node.text))}</span>` : '';
      line.innerHTML = `<span class="rule">${escapeHtml(node.rule)}</span> <span class="place">${node.line}:${node.column}–${node.end_line}:${node.end_column}</span>${shown}`;
      const start = utf16(record, node.start);
      const end = utf16(record, node.end);
      line.addEventListener('mouseenter', () => highlightNode([start, end]));
      line.addEventListener('mouseleave', () => highlightNode(null));
      line.addEventListener('click', () => select(ui.input, start, end));
      li.append(line);
      if (node.children && node.children.length) li.append(treeList(node.children, record));
      ul.append(li);
    }
    return ul;
  }

  // Tree nodes count bytes from their record's start: the index in the input is found from
  // where the record starts there and its UTF-8 text.
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  function utf16(record, byte) {
    return record.offset + decoder.decode(encoder.encode(record.text).slice(0, byte)).length;
  }

  let nodeMark = null;
  let inputMarks = [];
  function highlightNode(range) {
    nodeMark = range;
    paintInput();
  }

  function paintInput() {
    const marks = inputMarks.slice();
    if (nodeMark) marks.unshift([nodeMark[0], nodeMark[1], 'node']);
    mark(ui.input, marks);
  }

  function showTree(answer, text) {
    const box = $('tree');
    box.replaceChildren();
    const records = answer.records;
    let valid = 0;
    records.forEach((r, i) => {
      valid += r.accepted ? 1 : 0;
      if (i >= MAX_TREES) return;
      // The record starts at its line (a PSN game at its first line).
      const record = { offset: at(text, r.line, 1), text: r.record };
      const head = document.createElement('div');
      head.className = `record ${r.accepted ? 'accepted' : 'rejected'}`;
      head.textContent = `line ${r.line}: ${r.accepted ? 'accepted' : 'rejected'}`;
      box.append(head);
      box.append(treeList(r.tree, record));
      if (r.stopped) {
        const stop = document.createElement('div');
        stop.className = 'stopped';
        const found = r.stopped.found !== undefined ? `; found ${JSON.stringify(r.stopped.found)}` : '';
        const expected = r.stopped.expected !== undefined ? `: expected ${r.stopped.expected}` : `: ${r.stopped.message}`;
        stop.textContent = `× stopped at ${r.stopped.line}:${r.stopped.column}${expected}${found}`;
        box.append(stop);
      }
    });
    if (records.length > MAX_TREES) {
      const more = document.createElement('div');
      more.className = 'muted';
      more.textContent = `… and ${records.length - MAX_TREES} more records`;
      box.append(more);
    }
    $('tree-caption').textContent = records.length
      ? `${valid} of ${records.length} record${records.length === 1 ? '' : 's'} accepted by \`${currentRule()}\``
      : 'no record';
  }

  // ---- The grammar diff.

  const CHANGE_WORDS = { newly_accepted: 'newly accepted', newly_rejected: 'newly rejected', changed_tree: 'tree changed' };

  /** `kifu grammar diff`'s report: the counts, each changed record (a click shows where the
   *  grammars part), and the changes by transition. */
  function showDiff(report, text) {
    const box = $('diff');
    box.replaceChildren();
    const table = document.createElement('table');
    for (const [what, n, change] of [
      ['accepted by both, same tree', report.accepted_both, false],
      ['rejected by both', report.rejected_both, false],
      ['newly accepted', report.newly_accepted, true],
      ['newly rejected', report.newly_rejected, true],
      ['accepted by both, tree changed', report.changed_tree, true],
    ]) {
      const tr = document.createElement('tr');
      tr.innerHTML = `<td>${what}</td><td class="count">${n}</td>`;
      if (change && n) tr.className = 'changed';
      table.append(tr);
    }
    box.append(table);
    const list = document.createElement('ul');
    list.className = 'examples findings';
    for (const e of report.examples.slice(0, MAX_TREES)) {
      const li = document.createElement('li');
      li.className = 'warning';
      li.innerHTML = `<span class="place">${e.at_line}:${e.column}</span> ${CHANGE_WORDS[e.kind]}: old ${escapeHtml(e.old)}; new ${escapeHtml(e.new)}`;
      const start = at(text, e.at_line, e.column);
      li.addEventListener('click', () => select(ui.input, start, start));
      list.append(li);
    }
    box.append(list);
    if (report.transitions.length) {
      const by = document.createElement('ul');
      by.className = 'transitions';
      for (const t of report.transitions) {
        const li = document.createElement('li');
        li.textContent = `${t.count} × ${t.old} → ${t.new}`;
        by.append(li);
      }
      box.append(by);
    }
  }

  // ---- Running kifu.

  const hasGrammar = () => shipped !== null;
  const currentGrammar = () => (state.grammar === null ? shipped && shipped.text : state.grammar);
  const currentRule = () => state.rule || kifu.defaultRule(state.format, state.dialect);
  const options = () => ({ format: state.format, dialect: state.dialect || undefined });
  const chosen = () => ({ select: state.select, ignore: state.ignore, warningsAsErrors: state.warningsAsErrors });

  /** kifu check with the codes chosen; when they cannot be read (an unknown code), every
   *  finding, and the words that say why, shown by the two fields. */
  function checkChosen(text) {
    try {
      const findings = kifu.check(text, { ...options(), ...chosen() });
      for (const field of [ui.select, ui.ignore]) field.removeAttribute('aria-invalid');
      return { findings, unread: null };
    } catch (e) {
      if (e.name === 'KifuStopped') throw e;
      for (const field of [ui.select, ui.ignore]) field.setAttribute('aria-invalid', 'true');
      return { findings: kifu.check(text, options()), unread: e.message };
    }
  }

  /** What the edited grammar makes of the records the findings are about, in words. */
  function editedVerdict(report) {
    const parts = [
      [report.newly_rejected, 'newly rejected'],
      [report.newly_accepted, 'newly accepted'],
      [report.changed_tree, 'read with another tree'],
    ].filter(([n]) => n > 0).map(([n, what]) => `${n} record${n === 1 ? '' : 's'} ${what}`);
    return parts.length
      ? `These findings are kifu’s grammar’s. The edited grammar differs: ${parts.join(', ')} (the grammar diff, at the top of the right pane).`
      : 'These findings are kifu’s grammar’s; the edited grammar reads every record alike.';
  }

  function run() {
    const began = performance.now();
    const text = state.input;
    try {
      // kifu check.
      const { findings, unread } = checkChosen(text);
      const list = $('findings');
      list.replaceChildren();
      inputMarks = [];
      for (const f of findings) {
        const { li, marks } = findingItem(f, text, ui.input);
        list.append(li);
        inputMarks.push(...marks);
      }
      const errors = findings.filter((f) => f.severity === 'error').length;
      const warnings = findings.length - errors;
      $('verdict').textContent = findings.length
        ? `${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}`
        : 'none: valid';
      $('verdict').className = errors ? 'bad' : 'good';
      const note = $('verdict-note');
      note.hidden = true;

      // kifu tree, with the grammar as it stands, and grammar diff when it is edited.
      const grammarFindings = $('grammar-findings');
      grammarFindings.replaceChildren();
      let grammarMarks = [];
      $('diff-section').hidden = true;
      if (hasGrammar()) {
        const edited = state.grammar !== null && state.grammar !== shipped.text;
        const tree = kifu.parse(text, { ...options(), grammar: edited ? state.grammar : undefined, rule: state.rule || undefined });
        for (const f of tree.grammar) {
          const inGrammar = f.file === shipped.name;
          const { li, marks } = findingItem(f, ui.grammar.value, ui.grammar);
          if (!inGrammar) li.prepend(`${f.file}: `);
          grammarFindings.append(li);
          if (inGrammar) grammarMarks = grammarMarks.concat(marks);
        }
        if (tree.grammar.length) {
          $('tree').replaceChildren();
          $('tree-caption').textContent = 'the grammar has faults: see them under it';
        } else {
          showTree(tree, text);
        }
        if (edited && !tree.grammar.length) {
          const diff = kifu.grammarDiff(text, { ...options(), grammar: state.grammar, rule: state.rule || undefined });
          if (diff.report) {
            showDiff(diff.report, text);
            $('diff-section').hidden = false;
            note.textContent = editedVerdict(diff.report);
            note.hidden = false;
          }
        }
      } else {
        $('tree').replaceChildren();
        $('tree-caption').textContent = `${state.format === 'jkf' ? 'JKF records' : 'JSON positions'} have no grammar`;
      }
      mark(ui.grammar, grammarMarks);
      paintInput();
      showBoard();
      status.textContent = unread ?? `checked in ${Math.round(performance.now() - began)} ms`;
      status.className = unread ? 'bad' : '';
    } catch (e) {
      status.textContent = e.message;
      status.className = 'bad';
      if (e.name === 'KifuStopped' && kifu.stopped()) stoppedReload();
    }
  }

  function showBoard() {
    const cursor = ui.input.selectionStart;
    let svg = null;
    try {
      svg = kifu.toSvg(state.input, { ...options(), at: cursor, kanji: false });
    } catch (e) {
      // kifu stopped on the grammar: run() has said so and loads it again.
      return;
    }
    const board = $('board');
    if (svg) {
      board.innerHTML = svg;
      $('board-caption').textContent = ['psn', 'kif', 'csa', 'jkf'].includes(state.format) ? 'the position after the move at the cursor, or the game’s last' : 'the record at the cursor';
    } else {
      board.replaceChildren();
      $('board-caption').textContent = 'no position at the cursor';
    }
  }

  // kifu stopped (a trap in WebAssembly): the page loads it again, its state kept in the
  // address, and runs nothing until the next edit.
  function stoppedReload() {
    sessionStorage.setItem('kifu-stopped', location.hash);
    saveState().then(() => {
      sessionStorage.setItem('kifu-stopped', location.hash);
      location.reload();
    });
  }

  let timer = null;
  function later(delay) {
    clearTimeout(timer);
    timer = setTimeout(() => {
      run();
      saveState();
    }, delay);
  }

  // ---- Controls.

  function fillDialects() {
    ui.dialect.replaceChildren();
    for (const [value, label] of DIALECTS[state.format]) {
      const option = document.createElement('option');
      option.value = value === DIALECTS[state.format][0][0] ? '' : value;
      option.textContent = label;
      ui.dialect.append(option);
    }
    ui.dialect.value = state.dialect;
  }

  function loadGrammar() {
    shipped = kifu.grammarSource(state.format);
    $('grammar-pane').classList.toggle('disabled', !shipped);
    ui.grammar.disabled = !shipped;
    ui.rule.disabled = !shipped;
    ui.grammar.value = shipped
      ? currentGrammar()
      : `${state.format === 'jkf' ? 'JKF records' : 'JSON positions'} have no grammar: kifu reads them as JSON, and checks the model.`;
    $('grammar-name').textContent = shipped ? shipped.name : '';
    $('grammar-edited').hidden = state.grammar === null || !shipped || state.grammar === shipped.text;
    ui.rules.replaceChildren();
    for (const m of (shipped ? shipped.text : '').matchAll(/^[ \t]*([A-Za-z_][A-Za-z0-9_]*)[ \t]*=/gm)) {
      const option = document.createElement('option');
      option.value = m[1];
      ui.rules.append(option);
    }
    ui.rule.placeholder = kifu.defaultRule(state.format, state.dialect);
  }

  function showState() {
    ui.format.value = state.format;
    ui.select.value = state.select;
    ui.ignore.value = state.ignore;
    ui.warningsAsErrors.checked = state.warningsAsErrors;
    fillDialects();
    ui.rule.value = state.rule;
    ui.input.value = state.input;
    ui.input.setSelectionRange(0, 0);
    loadGrammar();
  }

  ui.format.addEventListener('change', () => {
    state.format = ui.format.value;
    state.dialect = '';
    state.rule = '';
    state.grammar = null;
    state.input = EXAMPLES[state.format];
    showState();
    later(0);
  });
  ui.dialect.addEventListener('change', () => {
    state.dialect = ui.dialect.value;
    ui.rule.placeholder = kifu.defaultRule(state.format, state.dialect);
    later(0);
  });
  ui.rule.addEventListener('input', () => {
    state.rule = ui.rule.value.trim();
    later(250);
  });
  for (const key of ['select', 'ignore']) {
    ui[key].addEventListener('input', () => {
      state[key] = ui[key].value.trim();
      later(250);
    });
  }
  ui.warningsAsErrors.addEventListener('change', () => {
    state.warningsAsErrors = ui.warningsAsErrors.checked;
    later(0);
  });
  ui.input.addEventListener('input', () => {
    state.input = ui.input.value;
    later(120);
  });
  ui.grammar.addEventListener('input', () => {
    state.grammar = ui.grammar.value === shipped.text ? null : ui.grammar.value;
    $('grammar-edited').hidden = state.grammar === null;
    later(300);
  });
  for (const textarea of [ui.input, ui.grammar]) {
    textarea.addEventListener('scroll', () => syncScroll(textarea));
  }
  for (const event of ['click', 'keyup', 'select']) ui.input.addEventListener(event, () => showBoard());
  $('reset-grammar').addEventListener('click', () => {
    state.grammar = null;
    loadGrammar();
    later(0);
  });
  $('share').addEventListener('click', async () => {
    await saveState();
    try {
      await navigator.clipboard.writeText(location.href);
      status.textContent = 'link copied';
    } catch (e) {
      status.textContent = 'the link is the page’s address';
    }
  });
  window.addEventListener('hashchange', async () => {
    await loadState();
    showState();
    run();
  });

  await loadState();
  showState();
  if (sessionStorage.getItem('kifu-stopped') === location.hash) {
    sessionStorage.removeItem('kifu-stopped');
    status.textContent = 'kifu stopped on this grammar and input (a fault only running the grammar finds, such as a POP on an empty stack): edit them to run again';
    status.className = 'bad';
    mark(ui.input, []);
    mark(ui.grammar, []);
  } else {
    run();
  }
  document.body.dataset.ready = 'true';
})();
