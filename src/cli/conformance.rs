//! `kifu conformance`: the conformance suite's cases through another validator, scored.

use crate::diagnostic::codes;
use std::io::{self, Read, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use crate::diagnostic::Diagnostic;
use crate::playground::conformance::{self, Case, Verdict};
use crate::span::Span;

use crate::cli::args::FormatArg;
use crate::cli::playground::*;
use crate::cli::pool;

/// `kifu conformance`.
#[derive(clap::Args, Debug)]
pub struct ConformanceArgs {
    /// The validator to score: a shell command in which `{file}` is the case's input, `{format}`
    /// its format (sfen, fen, epd, psn) and `{dialect}` its dialect. Each stands for a variable
    /// (`KIFU_CASE_FILE`, `KIFU_CASE_FORMAT`, `KIFU_CASE_DIALECT`) quoted for where it is, so no
    /// text of a suite is ever run as a command.
    /// Exit status 0 means valid, 1 invalid; anything else, or no answer in time, is a failure.
    /// Without it, kifu scores itself (`kifu check --format {format} --dialect {dialect} {file}`).
    #[arg(long)]
    cmd: Option<String>,
    /// The suite's folder (by default, the suite built into kifu).
    #[arg(long)]
    suite: Option<String>,
    /// Run only the cases of this format.
    #[arg(long, value_enum)]
    format: Option<FormatArg>,
    /// Print one JSON object instead of a report.
    #[arg(long)]
    json: bool,
    /// Seconds a case may take (at most 3600); then the validator and all it started are ended.
    #[arg(long, default_value_t = 10.0)]
    timeout: f64,
    /// How many disagreements to show.
    #[arg(long, default_value_t = 5)]
    show: usize,
    /// Cases run at once (default: one per core).
    #[arg(long, short = 'j')]
    jobs: Option<usize>,
}

/// What the validator did with a case.
struct Outcome {
    verdict: Verdict,
    status: String,
    stderr: String,
}

/// The most bytes of a validator's standard error kept for the report; the rest is read and
/// dropped, with a note.
pub const MAX_VALIDATOR_OUTPUT: usize = 1 << 20;

/// The longest `--timeout` a case may be given, in seconds (an hour).
pub const MAX_CASE_TIMEOUT_SECS: f64 = 3600.0;

/// Runs `command` under `sh` in a process group of its own, and on timeout kills the whole
/// group (a validator's own children too), so no process it started keeps kifu waiting.
fn run_case(command: &str, environment: &[(&str, &str)], timeout: Duration) -> Outcome {
    let mut sh = std::process::Command::new("sh");
    sh.arg("-c")
        .arg(command)
        .envs(environment.iter().copied())
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped());
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut sh, 0);
    let mut child = match sh.spawn() {
        Ok(c) => c,
        Err(e) => {
            return Outcome {
                verdict: Verdict::Failed,
                status: format!("cannot start `sh`: {e}"),
                stderr: String::new(),
            }
        }
    };
    // Standard error is read on a thread of its own (a full pipe would stall the validator),
    // keeping the first MAX_VALIDATOR_OUTPUT bytes.
    let (send, words) = std::sync::mpsc::channel();
    if let Some(mut err) = child.stderr.take() {
        std::thread::spawn(move || {
            let mut kept = Vec::new();
            let mut buffer = [0u8; 8192];
            let mut cut = false;
            loop {
                match err.read(&mut buffer) {
                    Ok(0) => break,
                    Ok(n) => {
                        let room = MAX_VALIDATOR_OUTPUT - kept.len();
                        cut |= n > room;
                        kept.extend_from_slice(&buffer[..n.min(room)]);
                    }
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(_) => break,
                }
            }
            let mut text = String::from_utf8_lossy(&kept).into_owned();
            if cut {
                text.push_str(&format!("\n[kifu kept the first {} MiB of this output]", MAX_VALIDATOR_OUTPUT >> 20));
            }
            let _ = send.send(text);
        });
    }
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if start.elapsed() < timeout => std::thread::sleep(Duration::from_millis(2)),
            _ => {
                kill_group(&mut child);
                break None;
            }
        }
    };
    // Once `sh` has ended, what it started may still hold the pipe: wait a moment for the
    // words, then go on without them (and end the group, which should have ended with it).
    let stderr = match words.recv_timeout(Duration::from_millis(500)) {
        Ok(text) => text,
        Err(_) => {
            kill_group(&mut child);
            words.recv_timeout(Duration::from_millis(500)).unwrap_or_default()
        }
    };
    match status.and_then(|s| s.code()) {
        Some(0) => Outcome { verdict: Verdict::Valid, status: "exit status 0".into(), stderr },
        Some(1) => Outcome { verdict: Verdict::Invalid, status: "exit status 1".into(), stderr },
        Some(n) => Outcome { verdict: Verdict::Failed, status: format!("exit status {n}"), stderr },
        None if status.is_some() => Outcome { verdict: Verdict::Failed, status: "killed by a signal".into(), stderr },
        None => {
            Outcome { verdict: Verdict::Failed, status: format!("no answer in {} s", timeout.as_secs_f64()), stderr }
        }
    }
}

/// Kills the validator's process group (`sh` leads it), then reaps `sh`.
fn kill_group(child: &mut std::process::Child) {
    #[cfg(unix)]
    {
        let _ =
            rustix::process::kill_process_group(rustix::process::Pid::from_child(child), rustix::process::Signal::KILL);
    }
    let _ = child.kill();
    let _ = child.wait();
}

#[derive(Default, serde::Serialize)]
struct Score {
    cases: usize,
    agree: usize,
    accepted_invalid: usize,
    rejected_valid: usize,
    failed: usize,
}

impl Score {
    fn add(&mut self, case: &Case, verdict: Verdict) {
        self.cases += 1;
        match (case.valid, verdict) {
            (_, Verdict::Failed) => self.failed += 1,
            (true, Verdict::Valid) | (false, Verdict::Invalid) => self.agree += 1,
            (false, Verdict::Valid) => self.accepted_invalid += 1,
            (true, Verdict::Invalid) => self.rejected_valid += 1,
        }
    }

    fn line(&self) -> String {
        format!(
            "{} cases: {} agree, {} accepted though invalid, {} rejected though valid, {} failed",
            self.cases, self.agree, self.accepted_invalid, self.rejected_valid, self.failed
        )
    }
}

/// The diagnostic that shows a disagreement on a case's input: on the suite's first expected
/// error when the case is invalid, else on the first line.
fn disagreement(suite: &std::path::Path, case: &Case, outcome: &Outcome) -> (String, usize, Diagnostic) {
    let bytes = read_capped(&suite.join(&case.file).to_string_lossy(), MAX_INPUT_BYTES, "the case").unwrap_or_default();
    let text = if case.format == "psn" {
        crate::psn::decode::decode(&bytes).text
    } else {
        String::from_utf8_lossy(&bytes).into_owned()
    };
    let text = text.trim_end_matches(['\n', '\r']).to_owned();
    let index = crate::diagnostic::excerpt::LineIndex::new(&text);
    let expected: serde_json::Value =
        read_capped(&suite.join(format!("{}.json", case.file)).to_string_lossy(), MAX_INPUT_BYTES, "the expectation")
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
            .unwrap_or_default();
    let at = |line: u64, column: u64| -> usize {
        let span = index.line_span(&text, (line.max(1) - 1) as usize);
        let content = span.slice(&text);
        span.start + content.char_indices().nth((column.max(1) - 1) as usize).map_or(content.len(), |(i, _)| i)
    };
    let first_error =
        expected["diagnostics"].as_array().and_then(|ds| ds.iter().find(|d| d["severity"] == "error")).cloned();
    let whole_line = index.line_span(&text, 0);
    let (code, message, span, label, help) = match (outcome.verdict, first_error) {
        (Verdict::Failed, _) => (
            codes::conformance::FAILED,
            format!("the validator failed on this case ({})", outcome.status),
            whole_line,
            outcome
                .stderr
                .lines()
                .next()
                .map_or_else(|| "no verdict".to_owned(), |l| format!("it said: {}", conformance::shown_words(l, 200))),
            "a validator answers with exit status 0 (valid) or 1 (invalid); wrap it in `sh -c` if it uses others"
                .to_owned(),
        ),
        (_, Some(e)) if !case.valid => {
            let start = at(e["line"].as_u64().unwrap_or(1), e["column"].as_u64().unwrap_or(1));
            let end = at(e["end_line"].as_u64().unwrap_or(1), e["end_column"].as_u64().unwrap_or(1)).max(start);
            let code = e["code"].as_str().unwrap_or("?").to_owned();
            (
                codes::conformance::ACCEPTED_INVALID,
                "the validator accepts a case the suite expects invalid".to_owned(),
                Span::new(start, end),
                format!("the suite expects `{code}` here"),
                format!("see {}.json for every expected finding", case.file),
            )
        }
        _ => (
            codes::conformance::REJECTED_VALID,
            "the validator rejects a case the suite expects valid".to_owned(),
            whole_line,
            "valid by the suite".to_owned(),
            format!("see {}.json for the canonical form kifu reads it as", case.file),
        ),
    };
    let d = Diagnostic::error(code, span, message).label(label).help(help);
    (text, 1, d)
}

/// The command that scores kifu itself: this program's `check`.
fn own_command() -> Result<String, ExitCode> {
    let exe = std::env::current_exe()
        .map_err(|e| usage(&format!("cannot find kifu's own program to score it (give `--cmd`): {e}")))?;
    Ok(format!(
        "{} check --format {{format}} --dialect {{dialect}} {{file}}",
        conformance::shell_quote(&exe.to_string_lossy())
    ))
}

/// The built-in suite written to a folder of its own, for the validator to read.
fn builtin_suite() -> Result<tempfile::TempDir, ExitCode> {
    tempfile::tempdir()
        .and_then(|d| conformance::write_builtin(d.path()).map(|()| d))
        .map_err(|e| usage(&format!("cannot write the built-in suite to a temporary folder: {e}")))
}

/// The suite's cases (of `--format`'s format only, when given).
fn cases_of(suite: &std::path::Path, args: &ConformanceArgs) -> Result<Vec<Case>, ExitCode> {
    let index = read_capped(&suite.join("cases.tsv").to_string_lossy(), MAX_INPUT_BYTES, "the suite's index")
        .map_err(|e| usage(&e))?;
    let cases = conformance::read_index(&String::from_utf8_lossy(&index))
        .map_err(|(line, text)| {
            usage(&format!(
                "line {line} of cases.tsv is not a case: `{text}` (format, dialect, `valid` or `invalid`, and a file inside the suite's folder, separated by tabs)"
            ))
        })?;
    let only = args.format.map(|f| f.format().name());
    Ok(cases.into_iter().filter(|c| only.is_none_or(|f| c.format == f)).collect())
}

/// `kifu conformance --cmd '…'`: the suite's cases through another validator, scored.
pub fn run(args: &ConformanceArgs) -> ExitCode {
    let builtin = match args.suite.is_none().then(builtin_suite).transpose() {
        Ok(b) => b,
        Err(code) => return code,
    };
    let suite = match (&args.suite, &builtin) {
        (Some(s), _) => std::path::Path::new(s),
        (None, Some(d)) => d.path(),
        (None, None) => return usage("no suite"),
    };
    let cmd = match args.cmd.clone().map_or_else(own_command, Ok) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let cmd = cmd.as_str();
    let cases = match cases_of(suite, args) {
        Ok(c) => c,
        Err(code) => return code,
    };
    if !cmd.contains("{file}") {
        return usage("the command must name the case's input as `{file}`");
    }
    if !(args.timeout > 0.0 && args.timeout <= MAX_CASE_TIMEOUT_SECS) {
        return usage(&format!("`--timeout` takes a number of seconds above 0 and at most {MAX_CASE_TIMEOUT_SECS}"));
    }
    let timeout = Duration::from_secs_f64(args.timeout);
    // The command is the same for every case: each case's values reach it as variables.
    let command = conformance::command_for(cmd);
    let results = pool::map(&cases, pool::workers(args.jobs), |case| {
        let file = suite.join(&case.file).to_string_lossy().into_owned();
        run_case(&command, &conformance::case_environment(case, &file), timeout)
    });
    let mut total = Score::default();
    let mut formats: std::collections::BTreeMap<String, Score> = std::collections::BTreeMap::new();
    let mut shown = String::new();
    let mut disagreements = Vec::new();
    for (case, slot) in cases.iter().zip(results) {
        let outcome =
            slot.unwrap_or(Outcome { verdict: Verdict::Failed, status: "not run".into(), stderr: String::new() });
        total.add(case, outcome.verdict);
        formats.entry(case.format.clone()).or_default().add(case, outcome.verdict);
        let agrees = matches!((case.valid, outcome.verdict), (true, Verdict::Valid) | (false, Verdict::Invalid));
        if agrees {
            continue;
        }
        let got = match outcome.verdict {
            Verdict::Valid => "valid",
            Verdict::Invalid => "invalid",
            Verdict::Failed => "failed",
        };
        disagreements.push(serde_json::json!({
            "file": case.file, "expected": if case.valid { "valid" } else { "invalid" }, "got": got, "status": outcome.status,
        }));
        if disagreements.len() <= args.show && !args.json {
            let (text, line, d) = disagreement(suite, case, &outcome);
            // The built-in suite is named as the repository's folder, not as where it was written.
            let name = match &args.suite {
                Some(_) => suite.join(&case.file).to_string_lossy().into_owned(),
                None => format!("conformance/{}", case.file),
            };
            shown.push_str(&render(&name, &text, line, &d));
        }
    }
    print_scores(args, &total, &formats, &shown, &disagreements);
    crate::cli::report::exit_code(false, !(total.cases > 0 && total.agree == total.cases))
}

/// The scores, by format and in total, after the disagreements shown: as words, or one JSON
/// object.
fn print_scores(
    args: &ConformanceArgs,
    total: &Score,
    formats: &std::collections::BTreeMap<String, Score>,
    shown: &str,
    disagreements: &[serde_json::Value],
) {
    let mut out = crate::cli::output::Stdout;
    if args.json {
        let object = serde_json::json!({
            "cases": total.cases, "agree": total.agree, "accepted_invalid": total.accepted_invalid,
            "rejected_valid": total.rejected_valid, "failed": total.failed, "formats": formats,
            "disagreements": disagreements,
        });
        let _ = writeln!(out, "{object}");
    } else {
        let _ = write!(out, "{shown}");
        if disagreements.len() > args.show {
            let _ =
                writeln!(out, "… and {} more disagreements (`--show N` shows more)\n", disagreements.len() - args.show);
        }
        for (format, score) in formats {
            let _ = writeln!(out, "{format:<5} {}", score.line());
        }
        let _ = writeln!(out, "total {}", total.line());
    }
    let _ = out.flush();
}
