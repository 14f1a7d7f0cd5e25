//! A document's fixes applied, as `kifu check --fix` applies them to a file, and shown as a
//! unified diff, as `--diff` prints them.
//!
//! A line format (SFEN, FEN, EPD) is fixed record by record, a PSN or JSON text whole, with the
//! fixes of the same check `kifu check` reports. The safe fix of each finding is applied (or,
//! when asked, the likeliest repair of every finding); a fix that overlaps one already taken is
//! skipped and counted. Line ends (LF, CRLF, CR, each line its own), a byte-order mark and blank
//! lines are kept, and no line is fixed into a blank one.

use crate::diagnostic::select::Selection;
use crate::diagnostic::{Applicability, Diagnostic, Edit, Fix};
use crate::format::Format;
use crate::input::Encoding;

/// What fixing a text came to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Fixed {
    /// Findings whose fix was applied.
    pub applied: u64,
    /// Findings whose fix overlapped another and was left out.
    pub skipped: u64,
}

impl Fixed {
    /// Adds another text's counts.
    pub fn add(&mut self, other: Self) {
        self.applied += other.applied;
        self.skipped += other.skipped;
    }
}

/// The fix to take of `d`: its safe one, or with `unsafe_fixes` its likeliest.
fn chosen(d: &Diagnostic, unsafe_fixes: bool) -> Option<&Fix> {
    if unsafe_fixes {
        d.fixes.first()
    } else {
        d.safe_fix()
    }
}

/// `text` with the chosen fixes of `diagnostics` applied, in the order of the text, each fix
/// whole or not at all: one that overlaps a fix already taken is skipped.
fn apply(text: &str, diagnostics: &[Diagnostic], unsafe_fixes: bool, fixed: &mut Fixed) -> String {
    let mut fixes: Vec<&Fix> = diagnostics.iter().filter_map(|d| chosen(d, unsafe_fixes)).collect();
    fixes.sort_by_key(|f| f.edits.first().map(|e| (e.span.start, e.span.end)));
    let mut taken: Vec<Edit> = Vec::new();
    for fix in fixes {
        let overlaps = fix.edits.iter().any(|e| {
            taken.iter().any(|t| {
                e.span.start < t.span.end && t.span.start < e.span.end
                    || e.span.start == t.span.start && (e.span.is_empty() || t.span.is_empty())
            })
        });
        if overlaps {
            fixed.skipped += 1;
        } else {
            taken.extend(fix.edits.iter().cloned());
            fixed.applied += 1;
        }
    }
    taken.sort_by_key(|e| (e.span.start, e.span.end));
    let all = Fix { edits: taken, applicability: Applicability::Safe };
    all.apply(text).unwrap_or_else(|| text.to_owned())
}

/// The lines of `text`, each with its end of line (LF, CRLF or CR; none for a last line without).
fn lines_with_ends(text: &str) -> impl Iterator<Item = (&str, &str)> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let at = rest.find(['\n', '\r']).unwrap_or(rest.len());
        let end = match &rest.as_bytes()[at..] {
            [b'\r', b'\n', ..] => at + 2,
            [_, ..] => at + 1,
            [] => at,
        };
        let line = (&rest[..at], &rest[at..end]);
        rest = &rest[end..];
        Some(line)
    })
}

/// A file's `text` read in `encoding`, fixed as `format` reads it (a line format line by line,
/// the others whole) with the fixes of the findings `selection` reports, and those of what its
/// text says of its encoding.
fn fix_read(
    format: Format,
    (text, encoding): (&str, Encoding),
    unsafe_fixes: bool,
    selection: &Selection,
    fixed: &mut Fixed,
) -> String {
    let check = |text: &str| {
        let (mut diagnostics, _) = format.check_text(text);
        diagnostics.extend(format.notation().encoding_finding(text, encoding));
        selection.apply(&mut diagnostics);
        diagnostics
    };
    let (bom, body) = match text.strip_prefix('\u{FEFF}') {
        Some(body) => ("\u{FEFF}", body),
        None => ("", text),
    };
    if !format.is_lines() {
        return format!("{bom}{}", apply(body, &check(body), unsafe_fixes, fixed));
    }
    let mut out = String::with_capacity(text.len());
    out.push_str(bom);
    for (line, end) in lines_with_ends(body) {
        if line.trim().is_empty() {
            out.push_str(line);
            out.push_str(end);
            continue;
        }
        let mut here = Fixed::default();
        let new = apply(line, &check(line), unsafe_fixes, &mut here);
        if new.trim().is_empty() {
            // Fixes that each remove a character of the form (the `0`s of `00`) would together
            // leave nothing of the line: it is kept as written, and its fixes counted as left out.
            out.push_str(line);
            fixed.skipped += here.applied + here.skipped;
        } else {
            out.push_str(&new);
            fixed.add(here);
        }
        out.push_str(end);
    }
    out
}

/// A file's text with its fixes applied, and the bytes to write it back in the file's own
/// encoding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileFix {
    /// The file's text, as kifu read it.
    pub old: String,
    /// The text with the fixes applied.
    pub new: String,
    /// The encoding the file was read in, which the fixed file is written in.
    pub encoding: Encoding,
    /// The fixed file: `new` in `encoding`.
    pub bytes: Vec<u8>,
}

impl FileFix {
    /// A unified diff of the fix (see [`unified_diff`]), in the file's encoding when that writes
    /// ASCII as ASCII, so that `patch` finds the lines it changes; in UTF-8 for a UTF-16 file,
    /// whose diff `patch` cannot apply anyway.
    pub fn diff(&self, path: &str) -> Vec<u8> {
        let diff = unified_diff(path, &self.old, &self.new);
        if self.encoding.is_legacy() {
            self.encoding.encode(&diff).unwrap_or_else(|| diff.into_bytes())
        } else {
            diff.into_bytes()
        }
    }
}

/// Why the fixes of a file are not written back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unfixable {
    /// The file is not text (more than one byte in sixteen a control code).
    NotText,
    /// The file's text, written in the encoding it was read in, does not give its bytes back:
    /// its lines are in different encodings, or some of its bytes are not valid in it.
    Mixed(Encoding),
    /// A fix puts in a character the file's encoding has no bytes for, or makes the file read
    /// as another encoding than it was (a fix of the line that told it).
    Unwritable(Encoding),
}

impl std::fmt::Display for Unfixable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::NotText => f.write_str("it is not text"),
            Self::Mixed(Encoding::Utf8 | Encoding::Utf8Bom) => f.write_str(
                "some of its bytes are not valid UTF-8, so writing it back would change them as well as the fixes; write them as text to fix it",
            ),
            Self::Mixed(e) => write!(
                f,
                "it was read as {}, but not all of it is in that encoding (lines in another one, or bytes that are not valid in it), so writing it back would change more than the fixes; save it as UTF-8 to fix it",
                e.name()
            ),
            Self::Unwritable(e) => write!(
                f,
                "once fixed, it would not read back as the fixed text in {}; save the file as UTF-8 to fix it",
                e.name()
            ),
        }
    }
}

/// Fixes a file's `bytes`: a UTF-8 file as it is; a file in
/// another encoding read as `kifu check` reads it, fixed, and written back in that encoding,
/// when the text it was read as gives back every byte of it in that encoding (so that nothing
/// but the fixes changes).
pub fn fix_file(
    format: Format,
    bytes: &[u8],
    unsafe_fixes: bool,
    selection: &Selection,
    fixed: &mut Fixed,
) -> Result<FileFix, Unfixable> {
    if let Ok(text) = std::str::from_utf8(bytes) {
        let new = fix_read(format, (text, Encoding::Utf8), unsafe_fixes, selection, fixed);
        let bytes = new.as_bytes().to_vec();
        return Ok(FileFix { old: text.to_owned(), new, encoding: Encoding::Utf8, bytes });
    }
    let utf16 = bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]);
    if !utf16 && !crate::input::decode::is_text(bytes) {
        return Err(Unfixable::NotText);
    }
    let decode = |bytes: &[u8]| format.notation().decode(bytes);
    let decoded = decode(bytes);
    let encoding = decoded.encoding;
    if encoding.encode(&decoded.text).as_deref() != Some(bytes) {
        return Err(Unfixable::Mixed(encoding));
    }
    let mut counted = Fixed::default();
    let new = fix_read(format, (&decoded.text, encoding), unsafe_fixes, selection, &mut counted);
    let bytes = encoding.encode(&new).filter(|b| decode(b).text == new).ok_or(Unfixable::Unwritable(encoding))?;
    fixed.add(counted);
    Ok(FileFix { old: decoded.text, new, encoding, bytes })
}

/// A file name as a diff header writes it, quoted as git quotes it when it holds a character
/// that would end or change the header (`"`, `\\`, a control character, a byte outside ASCII):
/// in double quotes, with C escapes (`\\n`, `\\t`, `\\"`, `\\\\`) and octal for the other
/// bytes. `patch` and `git apply` read it back as the name it is, and no name can start a line
/// of the diff.
fn diff_name(path: &str) -> String {
    let plain = |b: u8| (b' '..=b'~').contains(&b) && b != b'"' && b != b'\\';
    if path.bytes().all(plain) {
        return path.to_owned();
    }
    let mut out = String::from("\"");
    for b in path.bytes() {
        match b {
            b'\x07' => out.push_str("\\a"),
            b'\x08' => out.push_str("\\b"),
            b'\t' => out.push_str("\\t"),
            b'\n' => out.push_str("\\n"),
            b'\x0B' => out.push_str("\\v"),
            b'\x0C' => out.push_str("\\f"),
            b'\r' => out.push_str("\\r"),
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b if plain(b) => out.push(char::from(b)),
            b => out.push_str(&format!("\\{b:03o}")),
        }
    }
    out.push('"');
    out
}

/// The lines of `text` as `diff`, `patch` and git see them, each with its end: ended by LF (a
/// CR before it, or a CR alone, is part of the line); no end for a last line without one.
fn lf_lines(text: &str) -> Vec<(&str, &str)> {
    text.split_inclusive('\n').map(|l| l.strip_suffix('\n').map_or((l, ""), |t| (t, "\n"))).collect()
}

/// A unified diff (3 lines of context) of two texts with the same number of lines, each line
/// as it is (a CRLF line keeps its CR), and git's `\\ No newline at end of file` after a last
/// line without an LF.
pub fn unified_diff(path: &str, old: &str, new: &str) -> String {
    let (a, b) = (lf_lines(old), lf_lines(new));
    let changed: Vec<usize> = (0..a.len().max(b.len())).filter(|&i| a.get(i) != b.get(i)).collect();
    let name = diff_name(path);
    let mut out = format!("--- {name}\n+++ {name}\n");
    let line = |out: &mut String, mark: char, (text, end): (&str, &str)| {
        out.push(mark);
        out.push_str(text);
        match end {
            "" => out.push_str("\n\\ No newline at end of file\n"),
            end => out.push_str(end),
        }
    };
    let mut i = 0;
    while i < changed.len() {
        // A hunk: changes less than seven lines apart, with three lines of context around.
        let mut j = i;
        while j + 1 < changed.len() && changed[j + 1] - changed[j] <= 6 {
            j += 1;
        }
        let (from, to) = (changed[i].saturating_sub(3), (changed[j] + 4).min(a.len().max(b.len())));
        let count = |lines: &[(&str, &str)]| to.min(lines.len()).saturating_sub(from);
        out.push_str(&format!("@@ -{},{} +{},{} @@\n", from + 1, count(&a), from + 1, count(&b)));
        for k in from..to {
            match (a.get(k), b.get(k)) {
                (Some(&x), Some(&y)) if x == y => line(&mut out, ' ', x),
                (x, y) => {
                    if let Some(&x) = x {
                        line(&mut out, '-', x);
                    }
                    if let Some(&y) = y {
                        line(&mut out, '+', y);
                    }
                }
            }
        }
        i = j + 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_diff_keeps_line_ends_and_quotes_names_as_git_does() {
        let diff = unified_diff("a b.sfen", "x\r\ny\r\nz", "x\r\nY\r\nz");
        assert_eq!(
            diff,
            "--- a b.sfen\n+++ a b.sfen\n@@ -1,3 +1,3 @@\n x\r\n-y\r\n+Y\r\n z\n\\ No newline at end of file\n"
        );
        let hostile = "x\n+++ victim.sfen\n@@ -1 +1 @@\n-a\n+PWNED\n\"é\\.sfen";
        let diff = unified_diff(hostile, "a\n", "b\n");
        assert_eq!(
            diff.lines().next(),
            Some(r#"--- "x\n+++ victim.sfen\n@@ -1 +1 @@\n-a\n+PWNED\n\"\303\251\\.sfen""#)
        );
        assert_eq!(diff.lines().count(), 5, "{diff}");
    }

    #[test]
    fn no_line_is_fixed_into_a_blank_one() {
        // Each `0` counts no square and its safe fix removes it: both would leave nothing.
        let fen = Format::Fen(crate::fen::Dialect::Standard);
        let mut fixed = Fixed::default();
        assert_eq!(fix_read(fen, ("00\n", Encoding::Utf8), false, &Selection::default(), &mut fixed), "00\n");
        assert_eq!(fixed, Fixed { applied: 0, skipped: 2 });
    }

    #[test]
    fn lines_keep_their_own_ends() {
        let lines: Vec<_> = lines_with_ends("a\r\nb\rc\n\nd").collect();
        assert_eq!(lines, [("a", "\r\n"), ("b", "\r"), ("c", "\n"), ("", "\n"), ("d", "")]);
    }

    #[test]
    fn a_diff_shows_each_changed_line_in_its_context() {
        let old = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n";
        let new = "1\n2\nthree\n4\n5\n6\n7\n8\n9\n10\n11\ntwelve\n";
        assert_eq!(
            unified_diff("f", old, new),
            "--- f\n+++ f\n@@ -1,6 +1,6 @@\n 1\n 2\n-3\n+three\n 4\n 5\n 6\n@@ -9,4 +9,4 @@\n 9\n 10\n 11\n-12\n+twelve\n"
        );
    }
}
