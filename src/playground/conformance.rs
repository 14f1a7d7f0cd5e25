//! The conformance suite: kifu's fixtures as cases another implementation can run.
//!
//! [`generate`] turns `tests/fixtures/{sfen,fen,psn}/{ok,err}/*` and the KIF and KI2, CSA and
//! JKF records of `tests/fixtures/{kif,csa,jkf}/` into the files of `conformance/`: each input as it is, beside it
//! `NAME.json` with what kifu expects of it (the verdict, each diagnostic's code, severity and
//! primary place, and for a valid case its canonical form and its JSON model), and `cases.tsv`,
//! the index a runner reads.
//! A test fails when the folder is stale.

use std::path::Path;

#[cfg(feature = "internals")]
mod generate;
#[cfg(feature = "internals")]
pub use generate::generate;

mod builtin {
    include!(concat!(env!("OUT_DIR"), "/suite.rs"));
}

/// The suite as it was when kifu was built (`conformance/`): each file's path in the suite and
/// its bytes. `kifu conformance` runs it when no `--suite` folder is given.
pub fn builtin() -> &'static [(&'static str, &'static [u8])] {
    builtin::SUITE
}

/// Writes the built-in suite into `dir` (which must exist), as `conformance/` holds it.
pub fn write_builtin(dir: &Path) -> std::io::Result<()> {
    for (name, bytes) in builtin() {
        let path = dir.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(path, bytes)?;
    }
    Ok(())
}

/// The header line of `cases.tsv`.
pub(crate) const INDEX_HEADER: &str = "format\tdialect\tverdict\tfile";

/// One case of the suite, as `cases.tsv` lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    /// `sfen`, `fen`, `epd`, `psn`, `kif` (KIF and KI2), `csa` or `jkf`.
    pub format: String,
    /// The dialect to read it in: `auto`, `usi`, `sfen2007`, `standard` or `chess960`.
    pub dialect: String,
    /// True when the case is valid.
    pub valid: bool,
    /// The input, relative to the suite's folder.
    pub file: String,
}

/// True for a case's file that names a file inside the suite's folder: a relative path without
/// `..`.
fn inside(file: &str) -> bool {
    use std::path::Component;
    !file.is_empty()
        && std::path::Path::new(file).components().all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
}

/// Reads `cases.tsv`; `Err` names the first line that is not a case (a case's file must be
/// inside the suite's folder).
pub fn read_index(text: &str) -> Result<Vec<Case>, (usize, String)> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if i == 0 && line == INDEX_HEADER || line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        match fields.as_slice() {
            [format, dialect, verdict @ ("valid" | "invalid"), file] if inside(file) => out.push(Case {
                format: (*format).to_owned(),
                dialect: (*dialect).to_owned(),
                valid: *verdict == "valid",
                file: (*file).to_owned(),
            }),
            _ => return Err((i + 1, line.to_owned())),
        }
    }
    Ok(out)
}

/// What an external validator said of a case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Exit status 0.
    Valid,
    /// Exit status 1.
    Invalid,
    /// Any other status, a signal, or no answer in time.
    Failed,
}

/// The environment variables a validator's command reads a case's values from: the input
/// (`{file}`), its format and its dialect.
pub const CASE_VARIABLES: [(&str, &str); 3] =
    [("{file}", "KIFU_CASE_FILE"), ("{format}", "KIFU_CASE_FORMAT"), ("{dialect}", "KIFU_CASE_DIALECT")];

/// The values of [`CASE_VARIABLES`] for `case`, whose input is at `file`.
pub fn case_environment<'a>(case: &'a Case, file: &'a str) -> [(&'static str, &'a str); 3] {
    [
        (CASE_VARIABLES[0].1, file),
        (CASE_VARIABLES[1].1, case.format.as_str()),
        (CASE_VARIABLES[2].1, case.dialect.as_str()),
    ]
}

/// The command line `sh` runs for every case: each placeholder (`{file}`, `{format}`,
/// `{dialect}`) becomes the expansion of its variable ([`CASE_VARIABLES`]), quoted for where it
/// stands in `template` — `"${KIFU_CASE_FILE}"` outside quotes, `${KIFU_CASE_FILE}` inside double
/// quotes, `'"${KIFU_CASE_FILE}"'` inside single quotes. No text of a suite's `cases.tsv` is
/// ever read by the shell as a command, whatever the quoting around a placeholder: `sh` expands
/// a variable's value, and never runs what it holds.
pub fn command_for(template: &str) -> String {
    #[derive(Clone, Copy, PartialEq)]
    enum Quote {
        None,
        Single,
        Double,
    }
    let mut out = String::with_capacity(template.len() + 32);
    let mut quote = Quote::None;
    let mut rest = template;
    while let Some(c) = rest.chars().next() {
        if let Some((name, var)) = CASE_VARIABLES.iter().find(|(name, _)| rest.starts_with(name)) {
            match quote {
                Quote::None => out.push_str(&format!("\"${{{var}}}\"")),
                Quote::Double => out.push_str(&format!("${{{var}}}")),
                Quote::Single => out.push_str(&format!("'\"${{{var}}}\"'")),
            }
            rest = &rest[name.len()..];
            continue;
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
        match (quote, c) {
            (Quote::None, '\'') => quote = Quote::Single,
            (Quote::None, '"') => quote = Quote::Double,
            (Quote::Single, '\'') | (Quote::Double, '"') => quote = Quote::None,
            // A backslash outside single quotes takes the next character as it is.
            (Quote::None | Quote::Double, '\\') => {
                if let Some(next) = rest.chars().next() {
                    out.push(next);
                    rest = &rest[next.len_utf8()..];
                }
            }
            _ => {}
        }
    }
    out
}

/// `text` as one `sh` word: in single quotes, each `'` written `'\''`.
pub fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// A validator's words as a report may show them: control and bidirectional-override
/// characters written as `\u{…}` escapes (so its output cannot move the cursor, retitle the
/// terminal or reorder the line), at most `max` characters of it.
pub fn shown_words(text: &str, max: usize) -> String {
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == max {
            out.push('…');
            break;
        }
        if crate::diagnostic::is_unsafe(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_round_trip_and_faults() {
        let text =
            format!("{INDEX_HEADER}\nsfen\tauto\tvalid\tsfen/ok/a.sfen\n\nfen\tstandard\tinvalid\tfen/err/b.fen\n");
        let cases = read_index(&text).expect("reads");
        assert_eq!(cases.len(), 2);
        assert!(cases[0].valid && !cases[1].valid);
        assert_eq!(read_index("sfen\tauto\tmaybe\tx"), Err((1, "sfen\tauto\tmaybe\tx".to_owned())));
        for outside in ["../../../../etc/passwd", "/etc/passwd", "sfen/../../x"] {
            let line = format!("sfen\tauto\tvalid\t{outside}");
            assert_eq!(read_index(&line), Err((1, line.clone())), "{outside}");
        }
        assert_eq!(command_for("v --d {dialect} {file}"), r#"v --d "${KIFU_CASE_DIALECT}" "${KIFU_CASE_FILE}""#);
    }

    #[test]
    fn placeholders_are_variables_quoted_for_where_they_stand() {
        assert_eq!(
            command_for(r#"v {format} "{dialect}" '{file}' "a\"{file}" \"{file} {other}"#),
            r#"v "${KIFU_CASE_FORMAT}" "${KIFU_CASE_DIALECT}" ''"${KIFU_CASE_FILE}"'' "a\"${KIFU_CASE_FILE}" \""${KIFU_CASE_FILE}" {other}"#
        );
        assert_eq!(shown_words("a\x1b]0;title\x07\u{202E}b", 100), r"a\u{1b}]0;title\u{7}\u{202e}b");
        assert_eq!(shown_words("abc", 2), "ab…");
    }
}
