// The JavaScript API of kifu over its WebAssembly glue, written once for the two ways it is
// loaded: `kifu.js` (an ES module, for Node and bundlers) and the playground page (classic
// scripts, so that it opens from the built folder with no server). `glue` is what wasm-bindgen
// generated: the module's namespace, or the page's `wasm_bindgen`.
//
// The answers are the objects the command line prints as JSON (`kifu check --message-format
// json`, `kifu tree --json`, `kifu grammar diff --json`). Places in them are 1-based lines and
// character columns, as on the command line; `offsetOf` turns one into an index into the
// JavaScript string, and `toSvg`'s `at` is one.

/* exported kifuApi */
function kifuApi(glue) {
  'use strict';

  /** kifu stopped on this input (an edited grammar's fault that only running it finds); it
   *  is ready again for the next call. */
  class KifuStopped extends Error {
    constructor(cause) {
      super('kifu stopped on this input: the edited grammar hit a fault only running it finds (a POP or PEEK on an empty stack?)', { cause });
      this.name = 'KifuStopped';
    }
  }

  let stopped = false;

  /** A call into kifu. A WebAssembly trap throws `KifuStopped`, and kifu starts again in a
   *  fresh instance where the glue can (`__wbg_reset_state`); elsewhere later calls throw
   *  `KifuStopped` too, and the page loads kifu again. */
  function call(f) {
    if (stopped) throw new KifuStopped(null);
    try {
      return f();
    } catch (e) {
      if (e instanceof WebAssembly.RuntimeError) {
        if (typeof glue.__wbg_reset_state === 'function') glue.__wbg_reset_state();
        else stopped = true;
        throw new KifuStopped(e);
      }
      throw e;
    }
  }

  const opt = (v) => (v === undefined || v === null || v === '' ? undefined : v);

  /** Codes, groups or `ALL`: a list, or one string of them separated by commas. */
  const codes = (v) => opt(Array.isArray(v) ? v.join(',') : v);

  /** Every finding of `text` (a file's worth of records: a line each, PSN games, JSON
   *  positions), as `kifu check --message-format json` gives them; `select`, `extendSelect`,
   *  `ignore` (codes such as `sfen::missing-king`, groups such as `sfen`, or `ALL`) and
   *  `warningsAsErrors` choose them as `kifu check`'s flags do. */
  function check(text, { format = 'sfen', dialect, file = '<input>', select, extendSelect, ignore, warningsAsErrors = false } = {}) {
    const chosen = [codes(select), codes(extendSelect), codes(ignore), Boolean(warningsAsErrors)];
    return JSON.parse(call(() => glue.check(text, format, opt(dialect), file, ...chosen)));
  }

  /** The parse trees of the records of `text` by `rule` of `grammar` (a `.pest` text; kifu's
   *  own for the format when left out): `{ grammar: [findings of the grammar], records: [the
   *  objects of kifu tree --json] }`. */
  function parse(text, { format = 'sfen', dialect, grammar, rule, file = '<input>' } = {}) {
    return JSON.parse(call(() => glue.tree(text, format, opt(dialect), opt(grammar), opt(rule), file)));
  }

  /** The records of `text` through kifu's grammar for the format and through `grammar` (an
   *  edited `.pest` text): `{ grammar: [findings], report: kifu grammar diff --json's report }`. */
  function grammarDiff(text, { format = 'sfen', dialect, grammar, rule, file = '<input>' } = {}) {
    return JSON.parse(call(() => glue.grammarDiff(text, format, opt(dialect), grammar, opt(rule), file)));
  }

  /** The board of the record at index `at` of `text` (the first record by default; in a PSN
   *  game the position after the move at `at`, else the game's last position) as SVG, or
   *  `null` where there is no position. */
  function toSvg(text, { format = 'sfen', dialect, at, kanji = false } = {}) {
    const byte = at === undefined || at === null ? undefined : utf8Length(text.slice(0, at));
    return call(() => glue.toSvg(text, format, opt(dialect), byte, kanji)) ?? null;
  }

  /** kifu's grammar for `format`: `{ name, text }`, or `null` for JSON positions. */
  function grammarSource(format) {
    return JSON.parse(call(() => glue.grammarSource(format)));
  }

  /** The rule records of `format` are read with in `dialect`. */
  function defaultRule(format, dialect) {
    return call(() => glue.defaultRule(format, opt(dialect)));
  }

  const encoder = new TextEncoder();
  function utf8Length(s) {
    return encoder.encode(s).length;
  }

  /** The index in `text` of 1-based `line` and character `column`, as answers give places
   *  (lines end at LF, CRLF or CR; a column counts characters, not UTF-16 units; line 1's
   *  columns start after a byte-order mark, as kifu reads a file). */
  function offsetOf(text, line, column) {
    let i = text.startsWith('\u{feff}') ? 1 : 0;
    for (let l = 1; l < line && i < text.length; ) {
      const c = text[i++];
      if (c === '\n' || (c === '\r' && text[i] !== '\n')) l += 1;
    }
    for (let col = 1; col < column && i < text.length; col += 1) {
      i += text.codePointAt(i) > 0xffff ? 2 : 1;
    }
    return Math.min(i, text.length);
  }

  return { check, parse, grammarDiff, toSvg, grammarSource, defaultRule, offsetOf, KifuStopped, stopped: () => stopped };
}
