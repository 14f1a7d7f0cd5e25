//! `kifu explain CODE`: what a diagnostic code means, an input that gets it, what `kifu check`
//! reports on that input and what `--fix` makes of it, as a Markdown page (as `ruff rule` and
//! `rustc --explain` print theirs). The pages of `docs/codes/` are its output.

use std::io::{self, Cursor, Write};
use std::process::ExitCode;

use crate::diagnostic::codes::{self, Entry};
use crate::diagnostic::select::Selection;
use crate::document::fix::{fix_file, Fixed};
use crate::explain::{self, Example};
use crate::format::Cut;

use crate::cli::check::check_psn;
use crate::cli::output;
use crate::cli::report::{Renderer, Volume};

/// `kifu explain`.
#[derive(clap::Args, Debug)]
pub(crate) struct ExplainArgs {
    /// The code, as a report names it (`sfen::rank-width`), or its name alone when one format
    /// has it (`nifu`). Without it, every code is listed with what it means.
    code: Option<String>,
}

/// Prints the page of `args.code`, or the list of every code.
pub(crate) fn run(args: &ExplainArgs) -> ExitCode {
    let Some(query) = &args.code else {
        let _ = output::Stdout.write_all(list().as_bytes());
        return ExitCode::SUCCESS;
    };
    match explain::lookup(query).as_slice() {
        [entry] => {
            let _ = output::Stdout.write_all(page(entry).as_bytes());
            ExitCode::SUCCESS
        }
        [] => {
            let near = explain::nearest(query, 5);
            let hint = match near.as_slice() {
                [] => "`kifu explain` lists every code".to_owned(),
                [one] => format!("did you mean `{}`?", one.code),
                _ => format!("did you mean {}?", codes_in_words(&near)),
            };
            output::message(format_args!("no code is named `{}`: {hint}", query.trim()));
            ExitCode::from(2)
        }
        several => {
            output::message(format_args!(
                "`{}` is a code of more than one format: {}",
                query.trim(),
                codes_in_words(several)
            ));
            ExitCode::from(2)
        }
    }
}

/// `a`, `a` or `b`, `a`, `b` or `c`: the codes quoted.
fn codes_in_words(entries: &[&Entry]) -> String {
    let quoted: Vec<String> = entries.iter().map(|e| format!("`{}`", e.code)).collect();
    match quoted.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// Every code, group by group, with what it means.
fn list() -> String {
    let mut out = String::new();
    for group in codes::GROUPS {
        out.push_str(&format!("{}: {}\n", group.title, group.about));
        for e in group.codes {
            out.push_str(&format!("  {:<28} {}\n", e.code.as_str(), e.meaning));
        }
        out.push('\n');
    }
    out.push_str("`kifu explain CODE` explains one, with an example.\n");
    out
}

/// The page of `entry`: what it means, where it comes from, and its example.
pub(crate) fn page(entry: &Entry) -> String {
    let mut out = format!("# {}\n\n{}\n\n", entry.code, entry.meaning);
    let Some(example) = explain::example(entry.code) else {
        let group = codes::group(entry.code.group());
        out.push_str(group.map_or("", |g| g.about));
        if group.is_some_and(|g| g.codes.iter().any(|e| explain::example(e.code).is_some())) {
            out.push_str(
                " No example is shown: kifu gives this code only to inputs too large or too deep to show here, \
                 or where its more precise codes fall short.",
            );
        }
        out.push('\n');
        return out;
    };
    let reports = reports(example);
    let severity = severity(example);
    out.push_str(match severity {
        Some(crate::Severity::Error) => "An error: a record or game that has it is invalid.\n\n",
        Some(crate::Severity::Warning) => "A warning: a record or game whose findings are all warnings is valid.\n\n",
        None => "",
    });
    let flags = example.flags().join(" ");
    out.push_str(&format!("## Example\n\n`kifu check {flags}` on this input:\n\n"));
    block(&mut out, &shown(example.input));
    out.push_str("reports:\n\n");
    block(&mut out, &reports);
    out.push_str(&fix_section(example, &flags));
    out
}

/// What `--fix` makes of the example: its safe fixes, else its likeliest repairs.
fn fix_section(example: &Example, flags: &str) -> String {
    for (unsafe_fixes, how, words) in [
        (false, "--fix", "applies its safe fix: it changes only how the input is written"),
        (
            true,
            "--fix --unsafe-fixes",
            "applies its likeliest repair, which changes what the input says: check that it is what was meant",
        ),
    ] {
        let mut fixed = Fixed::default();
        let file = match fix_file(example.format, example.input, unsafe_fixes, &Selection::default(), &mut fixed) {
            Ok(file) => file,
            Err(why) => return format!("## Fix\n\n`kifu check --fix` leaves this file as it is: {why}.\n"),
        };
        if fixed.applied > 0 && file.bytes != example.input {
            let mut out = format!("## Fix\n\n`kifu check {flags} {how}` {words}:\n\n");
            block(&mut out, &shown(&file.bytes));
            return out;
        }
    }
    "## Fix\n\nNo fix is applied by itself: the report's help says what to write.\n".to_owned()
}

/// `text` indented as a Markdown code block, followed by a blank line.
fn block(out: &mut String, text: &str) {
    for line in text.trim_end_matches('\n').split('\n') {
        if line.is_empty() {
            out.push('\n');
        } else {
            out.push_str("    ");
            out.push_str(line);
            out.push('\n');
        }
    }
    out.push('\n');
}

/// An input as a reader sees it: UTF-8 as it is, a byte that is not as `\xFF`, a control
/// character other than the line end as its escape (`\u{0}`), a tab as `\t`.
fn shown(input: &[u8]) -> String {
    let mut out = String::new();
    for chunk in input.utf8_chunks() {
        for c in chunk.valid().chars() {
            if c.is_control() && c != '\n' || c == '\u{feff}' {
                out.extend(c.escape_default());
            } else {
                out.push(c);
            }
        }
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02X}"));
        }
    }
    out
}

/// What `kifu check` reports on the example, as it reports on a file named
/// `example.<format>`.
fn reports(example: &Example) -> String {
    let name = format!("example.{}", example.format.name());
    let mut out = Vec::new();
    let _ = run_check(example, &name, &Renderer::for_check(Volume::All), &mut out);
    String::from_utf8_lossy(&out).into_owned()
}

/// `kifu check` on the example's bytes, its reports written to `out`.
fn run_check(example: &Example, name: &str, renderer: &Renderer, out: &mut Vec<u8>) -> io::Result<()> {
    let input = Cursor::new(example.input);
    let every = &Selection::default();
    match example.format.cut() {
        Cut::Values => crate::cli::positions::check_json(input, (name, every), renderer, out).map(drop),
        Cut::Games => {
            let options = crate::psn::Options { strict: false, replay: example.replay };
            check_psn(Box::new(input), (name, every), options, renderer, 1, out)
                .map(drop)
                .map_err(|_| io::Error::other("the example could not be checked"))
        }
        Cut::Lines => {
            crate::cli::check::check_stream(input, None, (name, example.format, every), renderer, 1, out).map(drop)
        }
        Cut::Record => {
            // Read as standard input is: no file name says which encoding it should be in.
            crate::cli::check::check_record(example.format, example.input, "-", (name, every), renderer, out);
            Ok(())
        }
    }
}

/// Whether the example's finding of its code is an error or a warning, as `kifu check
/// --output-format json` says.
fn severity(example: &Example) -> Option<crate::Severity> {
    let mut out = Vec::new();
    run_check(example, "example", &Renderer::json_lines(), &mut out).ok()?;
    let finding = String::from_utf8_lossy(&out).lines().find_map(|line| {
        let v: serde_json::Value = serde_json::from_str(line).ok()?;
        (v["code"] == example.code.as_str()).then(|| v["severity"] == "error")
    })?;
    Some(if finding { crate::Severity::Error } else { crate::Severity::Warning })
}
