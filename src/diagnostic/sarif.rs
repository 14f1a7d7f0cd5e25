//! Findings in the forms code-scanning services and CI read: a SARIF 2.1.0 log (GitHub code
//! scanning, IDEs), written as it goes so that memory stays flat whatever the input, and GitHub
//! Actions workflow commands (`::error file=…,line=…::…`).
//!
//! Both take a finding's places as 1-based lines and character columns, given by the caller
//! (a record's line, or a [`LineIndex`](super::excerpt::LineIndex) over a game), as the JSON
//! messages do.

use std::io::{self, Write};

use serde_json::{json, Value};

use super::{codes, Diagnostic, Severity};

/// The SARIF schema a log names.
pub const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// A SARIF 2.1.0 log written to `out` as findings come: the run, its tool with every code of
/// the registry as a rule, then one result per finding. [`SarifWriter::finish`] closes it.
pub struct SarifWriter<W: Write> {
    out: W,
    results: usize,
}

impl<W: Write> SarifWriter<W> {
    /// Starts the log: `version` is kifu's.
    pub fn new(mut out: W, version: &str) -> io::Result<Self> {
        out.write_all(head(version).as_bytes())?;
        Ok(Self { out, results: 0 })
    }

    /// Adds `diagnostic`, found in `file`; `place` gives the 1-based line and character column
    /// of a byte offset of the text its spans are in.
    pub fn add(
        &mut self,
        file: &str,
        diagnostic: &Diagnostic,
        place: impl Fn(usize) -> (usize, usize),
    ) -> io::Result<()> {
        if self.results > 0 {
            self.out.write_all(b",")?;
        }
        self.results += 1;
        self.out.write_all(result(file, diagnostic, place).as_bytes())
    }

    /// Closes the log (a successful run, without notifications) and gives the writer back.
    pub fn finish(mut self) -> io::Result<W> {
        self.out.write_all(tail(&[], true).as_bytes())?;
        Ok(self.out)
    }
}

/// What closes a log after its results: the run's invocation, `successful` or not (a file
/// named could not be read), with its `notifications` ([`notification`]).
pub fn tail(notifications: &[Value], successful: bool) -> String {
    let invocation = json!({ "executionSuccessful": successful, "toolExecutionNotifications": notifications });
    format!("],\"invocations\":[{invocation}]}}]}}\n")
}

/// A word on a whole file that is not a finding in it (a file kifu does not read, or whose
/// fixes it did not write), as a SARIF tool execution notification on the file; the message's
/// control and bidirectional characters (of a file name in it) written as their escapes.
pub fn notification(level: Severity, file: &str, message: &str) -> Value {
    json!({
        "level": level.as_str(),
        "message": { "text": super::escape_unsafe(message) },
        "locations": [{ "physicalLocation": { "artifactLocation": artifact_location(file) } }],
    })
}

/// A word on a whole file as a GitHub Actions workflow command on the file (see
/// [`notification`]).
pub fn github_notice(level: Severity, file: &str, message: &str) -> String {
    let shown = super::escape_unsafe;
    format!("::{} file={}::{}", level.as_str(), escape_property(&shown(file)), escape_data(&shown(message)))
}

/// A log up to its results, which follow as [`result`]s separated by commas, then [`tail`]:
/// the run, and its tool with every code of the registry as a rule. `version` is kifu's.
pub fn head(version: &str) -> String {
    let rules: Vec<Value> = codes::all()
        .map(|e| {
            json!({
                "id": e.code.to_string(),
                "shortDescription": { "text": e.meaning },
                "helpUri": "https://docs.rs/kifu/latest/kifu/diagnostic/codes/index.html",
            })
        })
        .collect();
    let driver = json!({
        "name": "kifu",
        "version": version,
        "informationUri": "https://docs.rs/kifu",
        "rules": rules,
    });
    let schema = json!(SCHEMA);
    let head = format!(r#"{{"$schema":{schema},"version":"2.1.0","runs":[{{"tool":{{"driver":{driver}}},"#);
    head + r#""columnKind":"unicodeCodePoints","results":["#
}

/// A SARIF region: the places of `start..end`.
fn region(place: &impl Fn(usize) -> (usize, usize), start: usize, end: usize) -> Value {
    let ((line, column), (end_line, end_column)) = (place(start), place(end));
    json!({ "startLine": line, "startColumn": column, "endLine": end_line, "endColumn": end_column })
}

/// A finding as a SARIF result, one line of JSON: its code as the rule, its message with the help
/// after it, the primary label as the location, the others as related locations, and its fixes.
/// `place` gives the 1-based line and character column of a byte offset of the text its spans
/// are in.
pub fn result(file: &str, d: &Diagnostic, place: impl Fn(usize) -> (usize, usize)) -> String {
    result_value(file, d, &place).to_string()
}

/// Where a file is, as SARIF says it: an RFC 3986 URI, relative to the `%SRCROOT%` base (the
/// folder kifu ran in) for a relative path, a `file://` URI for an absolute one; every byte but
/// the unreserved characters and `/` percent-encoded, so that `a%20b`, `a#b` or `a?b` name
/// the file they are.
pub fn artifact_location(file: &str) -> Value {
    let mut uri = String::with_capacity(file.len());
    for &b in file.as_bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/') {
            uri.push(char::from(b));
        } else {
            uri.push_str(&format!("%{b:02X}"));
        }
    }
    if file.starts_with('/') {
        json!({ "uri": format!("file://{uri}") })
    } else {
        json!({ "uri": uri, "uriBaseId": "%SRCROOT%" })
    }
}

fn result_value(file: &str, d: &Diagnostic, place: &impl Fn(usize) -> (usize, usize)) -> Value {
    let artifact = artifact_location(file);
    let location = |start: usize, end: usize, message: &str| {
        let mut physical = json!({ "artifactLocation": artifact, "region": region(place, start, end) });
        if !message.is_empty() {
            physical["region"]["message"] = json!({ "text": message });
        }
        json!({ "physicalLocation": physical })
    };
    let primary = d.labels.iter().find(|l| l.primary);
    let text = match &d.help {
        Some(help) => format!("{} ({help})", d.message),
        None => d.message.clone(),
    };
    let mut out = json!({
        "ruleId": d.code.to_string(),
        "ruleIndex": codes::all().position(|e| e.code == d.code),
        "level": match d.severity { Severity::Error => "error", Severity::Warning => "warning" },
        "message": { "text": text },
        "locations": [location(d.span().start, d.span().end, primary.map_or("", |l| l.message.as_str()))],
    });
    let related: Vec<Value> = d
        .labels
        .iter()
        .filter(|l| !l.primary)
        .enumerate()
        .map(|(i, l)| {
            let mut r = location(l.span.start, l.span.end, &l.message);
            r["id"] = json!(i);
            r
        })
        .collect();
    if !related.is_empty() {
        out["relatedLocations"] = json!(related);
    }
    let fixes: Vec<Value> = d
        .fixes
        .iter()
        .map(|fix| {
            let replacements: Vec<Value> = fix
                .edits
                .iter()
                .map(|e| {
                    json!({
                        "deletedRegion": region(place, e.span.start, e.span.end),
                        "insertedContent": { "text": e.replacement },
                    })
                })
                .collect();
            json!({ "artifactChanges": [{ "artifactLocation": artifact, "replacements": replacements }] })
        })
        .collect();
    if !fixes.is_empty() {
        out["fixes"] = json!(fixes);
    }
    out
}

/// A finding as a GitHub Actions workflow command, one line: `::error file=a.sfen,line=3,col=5,
/// endLine=3,endColumn=9,title=sfen::rank-width::rank i covers 8 squares; …`, which a workflow
/// run shows on the line of the file.
pub fn github_annotation(file: &str, d: &Diagnostic, place: impl Fn(usize) -> (usize, usize)) -> String {
    let ((line, column), (end_line, end_column)) = (place(d.span().start), place(d.span().end));
    let level = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    // What the input wrote reaches the annotation with its control characters made visible.
    let shown = super::escape_unsafe;
    let message = match &d.help {
        Some(help) => format!("{}\n{}", shown(&d.message), shown(help)),
        None => shown(&d.message).into_owned(),
    };
    format!(
        "::{level} file={},line={line},col={column},endLine={end_line},endColumn={end_column},title={}::{}",
        escape_property(&shown(file)),
        escape_property(d.code.as_str()),
        escape_data(&message)
    )
}

/// A workflow command's message: `%`, CR and LF escaped.
fn escape_data(text: &str) -> String {
    text.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

/// A workflow command's property: as a message, and `:` and `,` too.
fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::{Applicability, Fix};
    use crate::span::Span;

    fn finding() -> Diagnostic {
        Diagnostic::error(codes::sfen::RANK_WIDTH, Span::new(2, 4), "rank a covers 8 squares, 50% of…")
            .label("8 squares")
            .with(Span::new(0, 1), "this rank")
            .help("add a square")
            .fix(Fix::replace(Span::new(3, 3), "1", Applicability::Safe))
    }

    #[test]
    fn a_sarif_log_names_every_code_as_a_rule_and_each_finding_as_a_result() {
        let mut w = SarifWriter::new(Vec::new(), "1.2.3").expect("a Vec takes it");
        w.add("a.sfen", &finding(), |at| (7, at + 1)).expect("written");
        w.add("b,c.sfen", &finding(), |at| (1, at + 1)).expect("written");
        let log: Value = serde_json::from_slice(&w.finish().expect("closed")).expect("one JSON document");
        assert_eq!(log["version"], "2.1.0");
        let run = &log["runs"][0];
        assert_eq!(run["tool"]["driver"]["rules"].as_array().map(Vec::len), Some(codes::all().count()));
        let result = &run["results"][0];
        let index = result["ruleIndex"].as_u64().expect("an index") as usize;
        assert_eq!(run["tool"]["driver"]["rules"][index]["id"].as_str(), Some(codes::sfen::RANK_WIDTH.as_str()));
        assert_eq!(result["level"], "error");
        let region = &result["locations"][0]["physicalLocation"]["region"];
        assert_eq!((region["startLine"].as_u64(), region["startColumn"].as_u64()), (Some(7), Some(3)));
        assert_eq!(region["endColumn"], 5);
        assert_eq!(result["relatedLocations"][0]["physicalLocation"]["region"]["startColumn"], 1);
        let replacement = &result["fixes"][0]["artifactChanges"][0]["replacements"][0];
        assert_eq!(replacement["insertedContent"]["text"], "1");
        assert_eq!(run["results"].as_array().map(Vec::len), Some(2));
    }

    #[test]
    fn a_github_annotation_is_one_escaped_line() {
        let line = github_annotation("dir/a,b.sfen", &finding(), |at| (3, at + 1));
        assert_eq!(
            line,
            "::error file=dir/a%2Cb.sfen,line=3,col=3,endLine=3,endColumn=5,title=sfen%3A%3Arank-width::rank a covers 8 squares, 50%25 of…%0Aadd a square"
        );
    }

    #[test]
    fn names_and_quoted_input_are_escaped_for_annotations_and_uris() {
        let d = Diagnostic::error(codes::sfen::SIDE, Span::new(0, 1), "`\u{1b}[2J` is not a side\n::error::x")
            .help("write `b`\u{202e}");
        let line = github_annotation("a\n::warning file=b,line=1::c%\u{7}.sfen", &d, |at| (1, at + 1));
        assert_eq!(line.lines().count(), 1, "{line}");
        assert!(!line.contains(['\u{1b}', '\u{7}', '\u{202e}']), "{line}");
        assert!(
            line.starts_with("::error file=a\\u{a}%3A%3Awarning file=b%2Cline=1%3A%3Ac%25\\u{7}.sfen,line=1,"),
            "{line}"
        );
        assert!(line.ends_with("::`\\u{1b}[2J` is not a side\\u{a}::error::x%0Awrite `b`\\u{202e}"), "{line}");
        assert_eq!(
            artifact_location("dir/a b#c?.sfen"),
            json!({"uri": "dir/a%20b%23c%3F.sfen", "uriBaseId": "%SRCROOT%"})
        );
        assert_eq!(artifact_location("/abs/é.sfen"), json!({"uri": "file:///abs/%C3%A9.sfen"}));
        assert_eq!(artifact_location("a%20b.sfen")["uri"], "a%2520b.sfen");
    }
}
