//! The SARIF log kifu writes holds only what the SARIF 2.1.0 schema defines: read back with
//! types generated from the schema and written again, it is the same JSON (a field the schema
//! does not know, or of another type, would be lost or refused on the way).

use crate::common::bin;

use kifu::diagnostic::sarif::SarifWriter;
use kifu::format::Format;
use serde_json::Value;

/// Drops nulls and empty arrays and objects, which the schema's types may leave out.
fn pruned(v: Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.into_iter()
                .map(|(k, v)| (k, pruned(v)))
                .filter(|(_, v)| !v.is_null() && v != &Value::Array(vec![]) && v != &Value::Object(Default::default()))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.into_iter().map(pruned).collect()),
        other => other,
    }
}

#[test]
fn the_sarif_log_is_what_the_schema_defines() {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/tour.sfen")).expect("the example");
    let mut writer = SarifWriter::new(Vec::new(), env!("CARGO_PKG_VERSION")).expect("a Vec takes it");
    let mut findings = 0;
    for (i, line) in text.lines().enumerate() {
        let (diagnostics, _) = Format::Sfen(kifu::sfen::DialectChoice::Auto).check_text(line);
        for d in &diagnostics {
            findings += 1;
            writer.add("examples/tour.sfen", d, |at| (i + 1, kifu::Span::point(at).columns(line).0)).expect("written");
        }
    }
    assert!(findings > 5);
    let bytes = writer.finish().expect("closed");
    let written: Value = serde_json::from_slice(&bytes).expect("one JSON document");
    let typed: serde_sarif::sarif::Sarif = serde_json::from_slice(&bytes).expect("a SARIF 2.1.0 log");
    let again = serde_json::to_value(&typed).expect("written again");
    assert_eq!(pruned(again), pruned(written.clone()));
    assert_eq!(written["runs"][0]["results"].as_array().map(Vec::len), Some(findings));
}

#[test]
fn a_field_the_schema_does_not_define_is_caught() {
    let log = serde_json::json!({"version":"2.1.0","runs":[{"tool":{"driver":{"name":"kifu"}},"results":[
        {"message":{"text":"m"},"ruleId":"x","level":"error","bogus":1}]}]});
    let typed: serde_sarif::sarif::Sarif = serde_json::from_value(log.clone()).expect("read");
    assert_ne!(pruned(serde_json::to_value(&typed).expect("written")), pruned(log), "an unknown field is lost");
    let wrong_type = serde_json::json!({"version":"2.1.0","runs":[{"tool":{"driver":{"name":"kifu"}},"results":[
        {"message":{"text":"m"},"level":"fatal"}]}]});
    assert!(
        serde_json::from_value::<serde_sarif::sarif::Sarif>(wrong_type).is_err(),
        "a level the schema does not list"
    );
}

/// `kifu check --output-format sarif` writes one log of every finding of every file (a PSN game's
/// too), the schema's; `github` writes one workflow command a finding.
#[test]
fn kifu_check_writes_sarif_and_github_annotations() {
    let out = bin::kifu()
        .args(["check", "--output-format", "sarif", "examples/tour.sfen", "examples/tour.psn"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let log: serde_sarif::sarif::Sarif = serde_json::from_slice(&out.stdout).expect("a SARIF 2.1.0 log");
    let written: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(pruned(serde_json::to_value(&log).expect("written again")), pruned(written.clone()));
    let json = bin::kifu()
        .args(["check", "--message-format", "json", "examples/tour.sfen", "examples/tour.psn"])
        .output()
        .expect("runs");
    let findings = String::from_utf8_lossy(&json.stdout).lines().filter(|l| l.contains("\"diagnostic\"")).count();
    let results = written["runs"][0]["results"].as_array().expect("results");
    assert_eq!(results.len(), findings, "every finding, as --message-format json has them");
    assert!(results
        .iter()
        .any(|r| r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "examples/tour.psn"));
    let github = bin::kifu().args(["check", "--output-format", "github", "examples/tour.sfen"]).output().expect("runs");
    let text = String::from_utf8_lossy(&github.stdout).into_owned();
    let annotations: Vec<&str> = text.lines().filter(|l| l.starts_with("::")).collect();
    assert!(
        !annotations.is_empty()
            && annotations.iter().all(|l| l.starts_with("::error file=examples/tour.sfen,line=")
                || l.starts_with("::warning file=examples/tour.sfen,line=")),
        "{text}"
    );
    let refused =
        bin::kifu().args(["board", "--output-format", "sarif", "examples/boards.fen"]).output().expect("runs");
    assert_eq!(refused.status.code(), Some(2), "SARIF is one log of kifu check's findings");
}
