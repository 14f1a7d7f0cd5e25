//! `kifu check --fix`, `--diff` and `--unsafe-fixes`: the findings' repairs applied to the files.
//!
//! A line format (SFEN, FEN, EPD) is fixed record by record, a PSN or JSON file as one text, with
//! the fixes of the same check `kifu check` reports. The safe fix of each finding is applied
//! (with `--unsafe-fixes`, the likeliest repair of every finding); a fix that overlaps one already
//! taken is skipped and counted. Line ends (LF, CRLF, CR, each line its own), a byte-order mark
//! and blank lines are kept; a file that is not UTF-8 is never changed. `--fix` writes the file
//! under a temporary name beside it, with the file's permissions, owner and extended attributes,
//! and renames it over the file (a file whose owner or attributes the new one cannot take is left
//! as it was); `--diff` prints a unified diff and changes nothing.

use std::io::Write as _;
use std::path::Path;

use kifu::diagnostic::{Edit, Fix};
use kifu::format::Format;
use kifu::Diagnostic;

use crate::output::AtomicFile;

/// The largest file `--fix` and `--diff` read (whole, to write it again).
pub(crate) const MAX_FIX_BYTES: usize = 64 << 20;

/// `--fix`, `--diff`, `--unsafe-fixes`.
#[derive(clap::Args, Clone, Copy, Debug, Default)]
pub(crate) struct FixArgs {
    /// Apply the safe fixes to the files (each written anew under a temporary name beside it,
    /// with the old one's permissions, owner and extended attributes, then renamed over it),
    /// then check and report what remains.
    #[arg(long, conflicts_with = "diff")]
    pub(crate) fix: bool,
    /// Print the fixes as a unified diff, and change nothing.
    #[arg(long)]
    pub(crate) diff: bool,
    /// With `--fix` or `--diff`: apply the likeliest repair of every finding, the unsafe ones
    /// too (several repairs, or one that may change what the record says).
    #[arg(long)]
    pub(crate) unsafe_fixes: bool,
}

impl FixArgs {
    /// True when the files are to be fixed or diffed.
    pub(crate) fn any(self) -> bool {
        self.fix || self.diff
    }
}

/// What fixing a file came to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Fixed {
    /// Findings whose fix was applied.
    pub(crate) applied: u64,
    /// Findings whose fix overlapped another and was left out.
    pub(crate) skipped: u64,
}

impl Fixed {
    /// Adds another file's counts.
    pub(crate) fn add(&mut self, other: Self) {
        self.applied += other.applied;
        self.skipped += other.skipped;
    }

    /// The last line of `--diff`: how many fixes `--fix` would apply.
    pub(crate) fn would(self, json: bool) -> String {
        if json {
            let summary = serde_json::json!({ "type": "summary", "fixable": self.applied, "skipped": self.skipped });
            return summary.to_string();
        }
        let fixes = if self.applied == 1 { "fix" } else { "fixes" };
        match self.skipped {
            0 => format!("{} {fixes} to apply (`--fix` applies them)", self.applied),
            n => format!("{} {fixes} to apply (`--fix` applies them), {n} more once those are in", self.applied),
        }
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
    let all = Fix { edits: taken, applicability: kifu::Applicability::Safe };
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

/// `text` fixed as `format` reads it: a line format line by line, PSN and JSON whole.
pub(crate) fn fix_text(format: Format, text: &str, unsafe_fixes: bool, fixed: &mut Fixed) -> String {
    let (bom, body) = match text.strip_prefix('\u{FEFF}') {
        Some(body) => ("\u{FEFF}", body),
        None => ("", text),
    };
    if !format.is_lines() {
        let (diagnostics, _) = format.check_text(body);
        return format!("{bom}{}", apply(body, &diagnostics, unsafe_fixes, fixed));
    }
    let mut out = String::with_capacity(text.len());
    out.push_str(bom);
    for (line, end) in lines_with_ends(body) {
        if line.trim().is_empty() {
            out.push_str(line);
        } else {
            let (diagnostics, _) = format.check_text(line);
            out.push_str(&apply(line, &diagnostics, unsafe_fixes, fixed));
        }
        out.push_str(end);
    }
    out
}

/// Fixes the file at `path` (`--fix`) or prints its diff (`--diff`): what was (or would be)
/// applied, or why the file cannot be fixed.
pub(crate) fn fix_file(path: &str, format: Format, args: FixArgs) -> Result<Fixed, String> {
    if path == "-" {
        return Err("`--fix` and `--diff` work on files, not on standard input".to_owned());
    }
    let bytes = crate::playground::read_capped(path, MAX_FIX_BYTES, "the file")?;
    let Ok(text) = std::str::from_utf8(&bytes) else {
        return Err(format!("`{path}` is not UTF-8 text: kifu fixes only UTF-8 files (convert it first)"));
    };
    let mut fixed = Fixed::default();
    let new = fix_text(format, text, args.unsafe_fixes, &mut fixed);
    if new == text {
        return Ok(fixed);
    }
    if args.diff {
        let mut out = crate::output::Stdout;
        // A write error is kept and reported by `output::exit`.
        let _ = out.write_all(unified_diff(path, text, &new).as_bytes());
        return Ok(fixed);
    }
    // The fixed file is written anew and renamed over the old one: a file with other names
    // (hard links) would be parted from them.
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt as _;
        let links = std::fs::metadata(path).map_err(|e| format!("cannot read `{path}`: {e}"))?.nlink();
        if links > 1 {
            return Err(format!(
                "`{path}` has {links} names (hard links), which `--fix` would part: fix a copy, or apply `--diff` with `patch`"
            ));
        }
    }
    let mut file = AtomicFile::create(Path::new(path)).map_err(|e| format!("cannot write `{path}`: {e}"))?;
    file.keep_permissions_of(Path::new(path))
        .and_then(|()| file.keep_owner_of(Path::new(path)))
        .and_then(|()| file.keep_xattrs_of(Path::new(path)))
        .and_then(|()| file.write_all(new.as_bytes()))
        .map_err(|e| format!("cannot write `{path}`: {e}"))?;
    // A file that changed while it was fixed (a line appended) keeps its new text: nothing is
    // written over it.
    let now = crate::playground::read_capped(path, MAX_FIX_BYTES, "the file")?;
    if now != bytes {
        return Err(format!("`{path}` changed while kifu fixed it: nothing was written; run again"));
    }
    file.commit().map_err(|e| format!("cannot write `{path}`: {e}"))?;
    Ok(fixed)
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
fn unified_diff(path: &str, old: &str, new: &str) -> String {
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
