//! Running a command again each time one of its files is saved (`kifu grammar diff --watch`).
//!
//! Editors save a file in place or by writing a new one and renaming it over the old, so the
//! folders that hold the files are watched, and only the events on the files' own names count.
//! The events of one save (often several: truncate, write, rename) are taken together: a run
//! starts once the folders have been quiet for a moment. The loop ends when standard output is
//! closed (the reader went away) or the watch fails; Ctrl-C ends the process as usual, and
//! there is nothing to put back.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use notify::{EventKind, RecursiveMode, Watcher as _};

/// How long the folders must be quiet after a change before the command runs again.
const QUIET: Duration = Duration::from_millis(200);

/// The longest wait for quiet: a folder written without a pause does not hold a run back.
const MAX_SETTLE: Duration = Duration::from_secs(2);

/// How often standard output is looked at while waiting.
const TICK: Duration = Duration::from_millis(250);

type Events = Receiver<notify::Result<notify::Event>>;

/// Runs `once`, then again after each save of one of `paths`, until standard output is closed.
/// Each run after the first starts with a line that names the file that changed.
pub(crate) fn run(paths: &[String], mut once: impl FnMut()) -> ExitCode {
    if paths.iter().any(|p| p == "-") {
        return crate::cli::playground::usage(
            "`--watch` reads its files again on each save: standard input cannot be read twice, give a file",
        );
    }
    let targets: Vec<PathBuf> = paths.iter().filter_map(|p| canonical(Path::new(p))).collect();
    let (tx, rx) = mpsc::channel();
    let watcher = notify::recommended_watcher(move |e| {
        let _ = tx.send(e);
    });
    let mut watcher = match watcher {
        Ok(w) => w,
        Err(e) => return crate::cli::playground::usage(&format!("cannot watch files for changes: {e}")),
    };
    let mut folders: Vec<&Path> = targets.iter().filter_map(|p| p.parent()).collect();
    folders.sort();
    folders.dedup();
    for folder in folders {
        if let Err(e) = watcher.watch(folder, RecursiveMode::NonRecursive) {
            let shown = folder.display();
            return crate::cli::playground::usage(&format!("cannot watch `{shown}` for changes: {e}"));
        }
    }
    let mut out = crate::cli::output::Stdout;
    let mut changed: Option<String> = None;
    loop {
        if let Some(name) = &changed {
            let _ = writeln!(out, "\n──── `{name}` changed: running again ────\n");
        }
        once();
        let _ = out.flush();
        if crate::cli::output::failed() {
            break;
        }
        crate::cli::output::message(format_args!(
            "watching {} files: save one to run again (Ctrl-C ends)",
            targets.len()
        ));
        match wait(&rx, &targets, paths) {
            Some(name) => changed = Some(name),
            None => break,
        }
    }
    ExitCode::SUCCESS
}

/// `path` in its folder's canonical name (the name events give), the file itself maybe not
/// yet there.
fn canonical(path: &Path) -> Option<PathBuf> {
    let path = std::path::absolute(path).ok()?;
    let folder = path.parent().and_then(|f| std::fs::canonicalize(f).ok());
    Some(match (folder, path.file_name()) {
        (Some(folder), Some(name)) => folder.join(name),
        _ => path,
    })
}

/// Waits for a save of one of `targets`, then for quiet: the name (as given) of the file
/// saved, or `None` when standard output was closed or the watch ended.
fn wait(rx: &Events, targets: &[PathBuf], names: &[String]) -> Option<String> {
    loop {
        // Looked at before each wait: files of the watched folders read without a pause (an
        // `Access` event each) would keep a wait from ever timing out.
        if stdout_closed() {
            return None;
        }
        match rx.recv_timeout(TICK) {
            Ok(Ok(event)) => {
                if matches!(event.kind, EventKind::Access(_)) {
                    continue;
                }
                let Some(i) = targets.iter().position(|t| event.paths.contains(t)) else { continue };
                settle(rx);
                return names.get(i).cloned();
            }
            // A missed event (an overflowing queue): run again, to be safe.
            Ok(Err(_)) => {
                settle(rx);
                return names.first().cloned();
            }
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => return None,
        }
    }
}

/// Takes the events that follow at once (the rest of one save).
fn settle(rx: &Events) {
    let start = Instant::now();
    while start.elapsed() < MAX_SETTLE && rx.recv_timeout(QUIET).is_ok() {}
}

/// True when standard output is a pipe whose reader has gone away.
#[cfg(unix)]
fn stdout_closed() -> bool {
    use rustix::event::{poll, PollFd, PollFlags};
    let stdout = std::io::stdout();
    let mut fds = [PollFd::new(&stdout, PollFlags::empty())];
    let zero = rustix::event::Timespec { tv_sec: 0, tv_nsec: 0 };
    poll(&mut fds, Some(&zero)).is_ok() && fds[0].revents().intersects(PollFlags::ERR | PollFlags::HUP)
}

#[cfg(not(unix))]
fn stdout_closed() -> bool {
    false
}
