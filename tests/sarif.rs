//! The SARIF log kifu writes holds only what the SARIF 2.1.0 schema defines: read back with
//! types generated from the schema and written again, it is the same JSON (a field the schema
//! does not know, or of another type, would be lost or refused on the way).

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
