//! kifu for WebAssembly: what `kifu check`, `kifu tree`, `kifu grammar diff` and `kifu board`
//! give on the command line, for a text held in memory, as JSON.
//!
//! The functions answer with the same JSON objects the command line prints (`kifu check
//! --message-format json`, `kifu tree --json`, `kifu grammar diff --json`), with `file` set to
//! the name given; `kifu.js` parses them and gives JavaScript its API. Every check is the
//! library's: this crate only reads the arguments and writes the answers.

use std::cell::RefCell;
use std::collections::HashMap;

use kifu::diagnostic::select::Selection;
use kifu::diagnostic::JsonDiagnostic;
use kifu::diagnostic::LineIndex;
use kifu::format::{Dialect, Format};
use kifu::playground::{diff, records, tree, Grammar, GrammarDiagnostic, RunBudget, Source, RUN_TIME_BUDGET};
use kifu::views::Names;
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// The format named `format` (`sfen`, `fen`, `epd`, `psn`, `kif`, `csa`, `jkf`, `json`) in
/// `dialect` (`auto`, `usi`, `sfen2007`, `standard`, `chess960`; none or empty for the
/// format's default).
fn format_of(format: &str, dialect: Option<String>) -> Result<Format, JsError> {
    let base: Format = format.parse().map_err(|e: String| JsError::new(&e))?;
    match dialect.as_deref() {
        None | Some("") => Ok(base),
        Some(d) => {
            let d: Dialect = d.parse().map_err(|e: String| JsError::new(&e))?;
            base.with_dialect(d).map_err(|e| JsError::new(&e))
        }
    }
}

/// Each finding of `diagnostics`, spans into `text`, as the JSON messages of `file`. A
/// byte-order mark is not a column of line 1, as `kifu check` reads the file without it.
fn messages(file: &str, text: &str, diagnostics: &[kifu::Diagnostic]) -> Vec<JsonDiagnostic> {
    let index = LineIndex::new(text);
    let bom = kifu::document::bom(text);
    diagnostics
        .iter()
        .map(|d| {
            d.to_json_with(file, |at| {
                let (line, column) = index.place(text, at);
                let column = if line == 0 && bom > 0 && at >= bom { column - 1 } else { column };
                (line + 1, column)
            })
        })
        .collect()
}

fn json(value: &impl Serialize) -> String {
    // Serializing kifu's own types to a string cannot fail.
    serde_json::to_string(value).unwrap_or_default()
}

/// Every finding of `text` read in `format`, as `kifu check --message-format json` gives them
/// for a file named `file` holding it: a JSON array of its `diagnostic` objects. `select`,
/// `extend_select` and `ignore` (codes, groups or `ALL`, separated by commas) and
/// `warnings_as_errors` choose the findings as `kifu check`'s flags of those names do; an
/// unknown code is an error that names it.
#[wasm_bindgen]
#[allow(clippy::too_many_arguments)]
pub fn check(
    text: &str,
    format: &str,
    dialect: Option<String>,
    file: &str,
    select: Option<String>,
    extend_select: Option<String>,
    ignore: Option<String>,
    warnings_as_errors: bool,
) -> Result<String, JsError> {
    let format = format_of(format, dialect)?;
    let lists = [select.as_slice(), extend_select.as_slice(), ignore.as_slice()];
    let selection = Selection::of_lists(lists, warnings_as_errors, |key| {
        // As JavaScript's options name them.
        match key {
            "extend-select" => "extendSelect".to_owned(),
            other => other.to_owned(),
        }
    })
    .map_err(|e| JsError::new(&e))?;
    let mut found = kifu::document::check(format, text, &|| false).unwrap_or_default();
    selection.apply(&mut found);
    Ok(json(&messages(file, text, &found)))
}

/// The `.pest` text of kifu's grammar for `format`, and the name reports give it: a JSON
/// object `{"name", "text"}`, or `null` for JSON positions and JKF (which have no grammar).
#[wasm_bindgen(js_name = grammarSource)]
pub fn grammar_source(format: &str) -> Result<String, JsError> {
    let format = format_of(format, None)?;
    Ok(match tree::source(format) {
        Some((name, text)) => json(&serde_json::json!({ "name": name, "text": text })),
        None => "null".to_owned(),
    })
}

/// The rule the records of `format` are read with in `dialect`.
#[wasm_bindgen(js_name = defaultRule)]
pub fn default_rule(format: &str, dialect: Option<String>) -> Result<String, JsError> {
    Ok(tree::default_rule(format_of(format, dialect)?).to_owned())
}

thread_local! {
    /// kifu's grammars, loaded once.
    static SHIPPED: RefCell<HashMap<&'static str, std::rc::Rc<Grammar>>> = RefCell::new(HashMap::new());
    /// The last edited grammar loaded, by its base and text: typing in the input runs it again.
    static EDITED: RefCell<Option<(String, String, std::rc::Rc<Grammar>)>> = const { RefCell::new(None) };
}

/// kifu's grammar of `format`, loaded once.
fn shipped(format: Format) -> Result<std::rc::Rc<Grammar>, JsError> {
    let Some((name, _)) = tree::source(format) else {
        return Err(JsError::new(
            "JSON positions and JKF records have no grammar: choose SFEN, FEN, EPD, PSN, KIF or CSA",
        ));
    };
    if let Some(g) = SHIPPED.with(|s| s.borrow().get(name).cloned()) {
        return Ok(g);
    }
    let loaded = match tree::shipped(format) {
        Some(Ok(g)) => std::rc::Rc::new(g),
        // kifu's own grammars load: the library's tests say so.
        _ => return Err(JsError::new("kifu's grammar does not load")),
    };
    SHIPPED.with(|s| s.borrow_mut().insert(name, loaded.clone()));
    Ok(loaded)
}

/// What loading a grammar gave: the grammar, or its findings as JSON messages.
enum Loaded {
    Grammar(std::rc::Rc<Grammar>),
    Faults(Vec<JsonDiagnostic>),
}

/// The grammar `edited` (the text of kifu's grammar of `format` as edited, with
/// `grammar/common.pest` joined after it as `kifu tree --grammar` joins it), or kifu's own when
/// `edited` is `None`.
fn load_grammar(format: Format, edited: Option<String>) -> Result<Loaded, JsError> {
    let base = shipped(format)?;
    let Some(text) = edited else { return Ok(Loaded::Grammar(base)) };
    let (name, own) = tree::source(format).unwrap_or_default();
    if text == own {
        return Ok(Loaded::Grammar(base));
    }
    let cached =
        EDITED.with(|e| e.borrow().as_ref().filter(|(n, t, _)| n == name && *t == text).map(|(_, _, g)| g.clone()));
    if let Some(g) = cached {
        return Ok(Loaded::Grammar(g));
    }
    match Grammar::load(&[Source::new(name, text.clone())], true, Some(&base)) {
        Ok(g) => {
            let g = std::rc::Rc::new(g);
            EDITED.with(|e| *e.borrow_mut() = Some((name.to_owned(), text, g.clone())));
            Ok(Loaded::Grammar(g))
        }
        Err(faults) => Ok(Loaded::Faults(grammar_messages(&faults))),
    }
}

/// A grammar's findings as JSON messages, each of the file it is in (the edited grammar, or
/// `grammar/common.pest`).
fn grammar_messages(faults: &[GrammarDiagnostic]) -> Vec<JsonDiagnostic> {
    faults.iter().flat_map(|f| messages(&f.source.name, &f.source.text, std::slice::from_ref(&f.diagnostic))).collect()
}

/// The rule to read records with: `rule`, or the format's; a grammar without it is a finding.
fn rule_of(format: Format, rule: Option<String>, g: &Grammar, name: &str) -> Result<String, Vec<JsonDiagnostic>> {
    let rule = rule.filter(|r| !r.is_empty()).unwrap_or_else(|| tree::default_rule(format).to_owned());
    match tree::unknown_rule(g, &rule, &format!("`{name}`"), None) {
        None => Ok(rule),
        Some(d) => Err(messages("<rule>", &format!("--rule {rule}"), &[d])),
    }
}

/// The parse trees of the records of `text` (a line each; for PSN a game each, or the whole
/// text for the rule `file`) by `rule` (the format's record rule when `None`) of the grammar
/// `grammar` (kifu's when `None`): a JSON object `{"grammar": [findings], "records": [...]}`,
/// each record the object `kifu tree --json` prints for it in a file named `file`. A grammar
/// with faults gives its findings and no records.
#[wasm_bindgen]
pub fn tree(
    text: &str,
    format: &str,
    dialect: Option<String>,
    grammar: Option<String>,
    rule: Option<String>,
    file: &str,
) -> Result<String, JsError> {
    let format = format_of(format, dialect)?;
    let g = match load_grammar(format, grammar)? {
        Loaded::Grammar(g) => g,
        Loaded::Faults(faults) => return Ok(answer(&faults, "records", "[]")),
    };
    let name = tree::source(format).map_or("", |(n, _)| n);
    let rule = match rule_of(format, rule, &g, name) {
        Ok(r) => r,
        Err(faults) => return Ok(answer(&faults, "records", "[]")),
    };
    let layout = tree::layout(Some(format), &rule);
    let mut records = String::from("[");
    for (i, r) in records::split(text.as_bytes(), layout).iter().enumerate() {
        let (tree, finding) = tree::read(&g, &rule, layout, r);
        if i > 0 {
            records.push(',');
        }
        records.push_str(tree::record_json(file, r, &tree, finding.as_ref()).trim_end());
    }
    records.push(']');
    Ok(answer(&[], "records", &records))
}

/// `{"grammar": faults, key: value}`, `value` being JSON already.
fn answer(faults: &[JsonDiagnostic], key: &str, value: &str) -> String {
    format!("{{\"grammar\":{},\"{key}\":{value}}}", json(&faults))
}

/// The records of `text` through kifu's grammar of `format` and through `grammar` (its text
/// as edited), by `rule`: a JSON object `{"grammar": [findings], "report": {...}}`, the report
/// being what `kifu grammar diff --json` prints for a corpus file named `file` (every changed
/// record an example). A grammar with faults gives its findings and a `null` report.
#[wasm_bindgen(js_name = grammarDiff)]
pub fn grammar_diff(
    text: &str,
    format: &str,
    dialect: Option<String>,
    grammar: String,
    rule: Option<String>,
    file: &str,
) -> Result<String, JsError> {
    let format = format_of(format, dialect)?;
    let old = shipped(format)?;
    let new = match load_grammar(format, Some(grammar))? {
        Loaded::Grammar(g) => g,
        Loaded::Faults(faults) => return Ok(answer(&faults, "report", "null")),
    };
    let name = tree::source(format).map_or("", |(n, _)| n);
    let rule = match rule_of(format, rule.clone(), &old, name).and_then(|_| rule_of(format, rule, &new, name)) {
        Ok(r) => r,
        Err(faults) => return Ok(answer(&faults, "report", "null")),
    };
    let samples = records::split(text.as_bytes(), tree::layout(Some(format), &rule));
    let budget = RunBudget::start(RUN_TIME_BUDGET);
    let mut report = diff::diff(&old, &new, &rule, file, &samples, usize::MAX, &budget);
    report.sort_examples();
    Ok(answer(&[], "report", &json(&report)))
}

/// The board at byte `at` of `text` (the record there; in a PSN game or a KIF, CSA or JKF
/// record, the position after the move there, else the game's last position; the first record when `at` is `None`) as an SVG
/// image, pieces named by `kanji` or letters; `None` where there is no position.
#[wasm_bindgen(js_name = toSvg)]
pub fn to_svg(
    text: &str,
    format: &str,
    dialect: Option<String>,
    at: Option<usize>,
    kanji: bool,
) -> Result<Option<String>, JsError> {
    let format = format_of(format, dialect)?;
    let at = at.unwrap_or_else(|| text.len() - text.trim_start().len()).min(text.len());
    let names = if kanji { Names::Kanji } else { Names::Letters };
    Ok(kifu::document::diagram_at(format, text, at).and_then(|(_, d)| d.svg(names)))
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

    #[test]
    fn a_valid_record_has_no_finding_and_a_board() {
        assert_eq!(check(START, "sfen", None, "<input>", None, None, None, false).ok().as_deref(), Some("[]"));
        let svg = to_svg(START, "sfen", None, None, false).ok().flatten().unwrap_or_default();
        assert!(svg.starts_with("<svg"), "{svg}");
    }

    #[test]
    fn csa_and_jkf_records_are_checked_and_drawn() {
        let csa = "V2.2\nPI\n+\n+7776FU\n-3334FU\n+7775FU\n";
        let answer = check(csa, "csa", None, "<input>", None, None, None, false).ok().unwrap_or_default();
        let found: serde_json::Value = serde_json::from_str(&answer).unwrap_or_default();
        assert_eq!(found[0]["code"], "csa::illegal-move", "{answer}");
        assert_eq!(found[0]["line"], 6, "{answer}");
        let jkf = r#"{"header": {}, "moves": [{}, {"move": {"color": 0, "from": {"x": 7, "y": 7}, "to": {"x": 7, "y": 6}, "piece": "FU"}}]}"#;
        assert_eq!(check(jkf, "jkf", None, "<input>", None, None, None, false).ok().as_deref(), Some("[]"));
        for (text, format) in [(csa, "csa"), (jkf, "jkf")] {
            let svg = to_svg(text, format, None, Some(text.len() / 2), false).ok().flatten().unwrap_or_default();
            assert!(svg.starts_with("<svg"), "{format}: {svg}");
        }
        assert!(grammar_source("csa").is_ok_and(|g| g.contains("csa.pest")));
        assert_eq!(grammar_source("jkf").ok().as_deref(), Some("null"));
    }

    #[test]
    fn the_codes_chosen_are_the_codes_reported() {
        // No Black king (a warning) and two Black pawns on file 5 (an error).
        let record = "4k4/9/9/9/4P4/4P4/9/9/9 b - 1";
        let found = |select: Option<&str>, ignore: Option<&str>, strict: bool| {
            let answer =
                check(record, "sfen", None, "<input>", select.map(Into::into), None, ignore.map(Into::into), strict);
            let answer: serde_json::Value = serde_json::from_str(&answer.ok().unwrap_or_default()).unwrap_or_default();
            let codes: Option<Vec<String>> =
                answer.as_array().map(|a| a.iter().map(|d| format!("{} {}", d["code"], d["severity"])).collect());
            codes.unwrap_or_default()
        };
        assert_eq!(found(None, None, false).len(), 2);
        assert_eq!(found(None, Some("sfen::nifu"), true), [r#""sfen::missing-king" "error""#]);
        assert_eq!(
            found(Some("sfen::nifu,sfen::missing-king"), Some("sfen::missing-king"), false),
            [r#""sfen::nifu" "error""#]
        );
    }

    #[test]
    fn an_edited_grammar_is_read_once_and_changes_the_verdict() {
        let source = tree::source(Format::Sfen(Default::default())).unwrap_or_default().1;
        let edited = source.replace(r#"usi_side = @{ "b" | "w" }"#, r#"usi_side = @{ ^"b" | ^"w" }"#);
        assert_ne!(edited, source);
        let record = START.replace(" b ", " B ").replace(" 1", " 100");
        let verdict = |grammar: Option<String>| {
            let answer = tree(&record, "sfen", None, grammar, None, "<input>").ok().unwrap_or_default();
            let answer: serde_json::Value = serde_json::from_str(&answer).unwrap_or_default();
            answer["records"][0]["accepted"].as_bool()
        };
        assert_eq!(verdict(None), Some(false));
        assert_eq!(verdict(Some(edited.clone())), Some(true));
        assert_eq!(verdict(Some(edited)), Some(true), "from the cache");
    }
}
