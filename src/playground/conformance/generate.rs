//! The suite's files generated from kifu's fixtures (a test keeps `conformance/` equal to them).

use std::path::Path;

use serde_json::{json, Value};

use super::INDEX_HEADER;
use crate::diagnostic::excerpt::LineIndex;
use crate::diagnostic::Diagnostic;
use crate::format::{Format, Position};

/// The generated files of the suite, `(path relative to the suite, contents)`, in order.
pub fn generate(fixtures: &Path) -> std::io::Result<Vec<(String, Vec<u8>)>> {
    let mut files = Vec::new();
    let mut index = format!("{INDEX_HEADER}\n");
    for format in ["sfen", "fen", "psn"] {
        for kind in ["ok", "err"] {
            let dir = fixtures.join(format).join(kind);
            let mut names: Vec<String> = std::fs::read_dir(&dir)?
                .filter_map(Result::ok)
                .filter_map(|e| e.file_name().to_str().map(str::to_owned))
                .filter(|n| n.ends_with(".sfen") || n.ends_with(".fen") || n.ends_with(".epd") || n.ends_with(".psn"))
                .collect();
            names.sort();
            for name in names {
                let bytes = std::fs::read(dir.join(&name))?;
                // A file of blank lines holds no record to judge: a validator that reads files
                // finds nothing to fault in it, so it is no case of the suite.
                if bytes.iter().all(u8::is_ascii_whitespace) {
                    continue;
                }
                let (case_format, dialect, expected) = expect(&name, &bytes);
                let path = format!("{format}/{kind}/{name}");
                let verdict = expected["verdict"].as_str().unwrap_or("invalid").to_owned();
                index.push_str(&format!("{case_format}\t{dialect}\t{verdict}\t{path}\n"));
                let json = layout(&expected);
                files.push((path.clone(), bytes));
                files.push((format!("{path}.json"), json.into_bytes()));
            }
        }
    }
    // KIF and KI2 records: each fixture a case, under `ok/` or `err/` by kifu's verdict.
    let dir = fixtures.join("kif");
    let mut names: Vec<String> = std::fs::read_dir(&dir)?
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .filter_map(|e| e.file_name().to_str().map(str::to_owned))
        .filter(|n| Format::from_path(n) == Some(Format::Kif))
        .collect();
    names.sort();
    for name in names {
        let bytes = std::fs::read(dir.join(&name))?;
        let expected = expect_kif(&name, &bytes);
        let verdict = expected["verdict"].as_str().unwrap_or("invalid").to_owned();
        let path = format!("kif/{}/{name}", if verdict == "valid" { "ok" } else { "err" });
        index.push_str(&format!("kif\tauto\t{verdict}\t{path}\n"));
        files.push((path.clone(), bytes));
        files.push((format!("{path}.json"), layout(&expected).into_bytes()));
    }
    // CSA files (one record or more) and JKF records: each fixture a case, as KIF's are.
    for (format, expect) in [(Format::Csa, expect_csa as fn(&[u8]) -> Value), (Format::Jkf, expect_jkf)] {
        let name = format.name();
        let dir = fixtures.join(name);
        let mut names: Vec<String> = std::fs::read_dir(&dir)?
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
            .filter_map(|e| e.file_name().to_str().map(str::to_owned))
            .filter(|n| Format::from_path(n) == Some(format))
            .collect();
        names.sort();
        for file in names {
            let bytes = std::fs::read(dir.join(&file))?;
            let expected = expect(&bytes);
            let verdict = expected["verdict"].as_str().unwrap_or("invalid").to_owned();
            let path = format!("{name}/{}/{file}", if verdict == "valid" { "ok" } else { "err" });
            index.push_str(&format!("{name}\tauto\t{verdict}\t{path}\n"));
            files.push((path.clone(), bytes));
            files.push((format!("{path}.json"), layout(&expected).into_bytes()));
        }
    }
    files.push(("cases.tsv".to_owned(), index.into_bytes()));
    files.push(("codes.tsv".to_owned(), crate::diagnostic::codes::tsv().into_bytes()));
    Ok(files)
}

/// Where each finding is, by line and column, its lines counted from `first_line`.
fn places(diagnostics: &[Diagnostic], text: &str, first_line: usize) -> Vec<Value> {
    let index = LineIndex::new(text);
    diagnostics
        .iter()
        .map(|d| {
            let (l1, c1) = index.place(text, d.span().start);
            let (l2, c2) = index.place(text, d.span().end);
            json!({
                "code": d.code, "severity": d.severity.as_str(),
                "line": first_line + l1, "column": c1, "end_line": first_line + l2, "end_column": c2,
            })
        })
        .collect()
}

/// The format, dialect and expectations of one fixture.
fn expect(name: &str, bytes: &[u8]) -> (&'static str, &'static str, Value) {
    let text = String::from_utf8_lossy(bytes);
    let record = text.strip_suffix('\n').unwrap_or(&text);
    let record = record.strip_suffix('\r').unwrap_or(record);
    // A fixture names its dialect as `dialect_{name}_…`, its format by its extension.
    let named = Format::from_path(name).unwrap_or(Format::Psn);
    let dialect = name.strip_prefix("dialect_").and_then(|r| r.split('_').next()).and_then(|d| d.parse().ok());
    let case = dialect.and_then(|d| named.with_dialect(d).ok()).unwrap_or(named);
    let dialect = case.dialect().name();
    match case.record(record) {
        Some(r) => {
            // An EPD record's position is not all it says: it has no canonical text nor model.
            let position = r.position.as_ref().filter(|_| r.valid && r.operations.is_none());
            let canonical = position.map(|p| match p {
                Position::Shogi(p) => p.to_string(),
                Position::Chess(p) => p.to_string(),
            });
            let model = position.map(|p| {
                model(&match p {
                    Position::Shogi(p) => crate::json::shogi::write(p, crate::json::Style::Counts),
                    Position::Chess(p) => crate::json::chess::write(p),
                })
            });
            let name = case.name();
            let diagnostics = places(&r.diagnostics, record, 1);
            (name, dialect, line_value(name, dialect, r.valid, diagnostics, canonical, model))
        }
        None => ("psn", "auto", expect_psn(bytes)),
    }
}

/// The expectations of a record of a line format.
fn line_value(
    format: &str,
    dialect: &str,
    valid: bool,
    diagnostics: Vec<Value>,
    canonical: Option<String>,
    model: Option<Value>,
) -> Value {
    json!({
        "format": format, "dialect": dialect, "verdict": verdict(valid),
        "diagnostics": diagnostics, "canonical": canonical, "model": model,
    })
}

/// The expectations of a PSN file.
fn expect_psn(bytes: &[u8]) -> Value {
    let file = crate::psn::check_bytes(bytes, Default::default());
    let valid = !file.games.is_empty() && file.games.iter().all(crate::psn::CheckedGame::is_valid);
    let mut diagnostics = Vec::new();
    for g in &file.games {
        diagnostics.extend(places(&g.diagnostics, g.text(&file.text), g.game.line));
    }
    let canonical = valid.then(|| file.games.iter().map(|g| g.to_psn()).collect::<Vec<_>>().join("\n"));
    let model = if valid {
        Value::Array(file.games.iter().map(|g| serde_json::to_value(&g.game).unwrap_or(Value::Null)).collect())
    } else {
        Value::Null
    };
    json!({
        "format": "psn", "dialect": "auto", "verdict": verdict(valid), "encoding": file.encoding,
        "games": file.games.len(), "diagnostics": diagnostics, "canonical": canonical, "model": model,
    })
}

/// The expectations of a KIF or KI2 record, the file `name` (its extension tells the encoding
/// it should be in): the canonical form is the record as kifu writes it, KIF or KI2 as it is, in
/// UTF-8.
fn expect_kif(name: &str, bytes: &[u8]) -> Value {
    let extension = Path::new(name).extension().and_then(|e| e.to_str());
    let read = crate::kif::check_bytes(bytes, extension);
    let valid = read.is_valid();
    let diagnostics = places(&read.diagnostics, &read.text, 1);
    let game = read.game.as_ref().filter(|_| valid);
    let ki2 = extension.is_some_and(|e| e.eq_ignore_ascii_case("ki2") || e.eq_ignore_ascii_case("ki2u"));
    let canonical =
        game.map(|g| if ki2 { crate::kif::write_ki2(g).text } else { crate::kif::write(g, "UTF-8").text });
    let model = game.map(|g| serde_json::to_value(g).unwrap_or(Value::Null));
    json!({
        "format": "kif", "dialect": "auto", "verdict": verdict(valid), "encoding": read.encoding,
        "diagnostics": diagnostics, "canonical": canonical, "model": model,
    })
}

/// The expectations of a CSA file: valid when it has no error; the canonical
/// form is its records as kifu writes them, in version 3.0, and the model each record's game
/// as `kifu json` prints it.
fn expect_csa(bytes: &[u8]) -> Value {
    let read = crate::csa::check_bytes(bytes);
    let valid = read.is_valid();
    let diagnostics = places(&read.diagnostics, &read.text, 1);
    let canonical = valid.then(|| {
        let records: Vec<String> =
            read.games.iter().map(|g| crate::csa::write(g, crate::csa::Version::V30).text).collect();
        records.join("/\n")
    });
    let model = valid.then(|| Value::Array(read.games.iter().map(|g| serde_json::to_value(g).unwrap_or(Value::Null)).collect()));
    json!({
        "format": "csa", "dialect": "auto", "verdict": verdict(valid), "encoding": read.encoding,
        "games": read.games.len(), "diagnostics": diagnostics, "canonical": canonical, "model": model,
    })
}

/// The expectations of a JKF record: the canonical form is the record as kifu writes it, and
/// the model its game as `kifu json` prints it.
fn expect_jkf(bytes: &[u8]) -> Value {
    let read = crate::jkf::check_bytes(bytes);
    let valid = read.is_valid();
    let diagnostics = places(&read.diagnostics, &read.text, 1);
    let game = read.game.as_ref().filter(|_| valid);
    let canonical = game.map(|g| crate::jkf::write(g).text);
    let model = game.map(|g| serde_json::to_value(g).unwrap_or(Value::Null));
    json!({
        "format": "jkf", "dialect": "auto", "verdict": verdict(valid), "encoding": crate::jkf::ENCODING,
        "diagnostics": diagnostics, "canonical": canonical, "model": model,
    })
}

/// An expectation as text: one top-level field per line, one diagnostic per line, the rest
/// compact (a PSN model is thousands of nodes).
fn layout(value: &Value) -> String {
    let Value::Object(map) = value else { return format!("{value}\n") };
    let mut fields = Vec::new();
    for (key, v) in map {
        let text = match v {
            Value::Array(items) if key == "diagnostics" && !items.is_empty() => {
                let items: Vec<String> = items.iter().map(|i| format!("    {i}")).collect();
                format!("[\n{}\n  ]", items.join(",\n"))
            }
            v => v.to_string(),
        };
        fields.push(format!("  {}: {text}", Value::String(key.clone())));
    }
    format!("{{\n{}\n}}\n", fields.join(",\n"))
}

/// A JSON model as a value (`null` if kifu's writer ever wrote something that is not JSON).
fn model(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or(Value::Null)
}

fn verdict(valid: bool) -> &'static str {
    if valid {
        "valid"
    } else {
        "invalid"
    }
}
