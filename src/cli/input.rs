//! The inputs of a command: paths, `-` for standard input, folders walked and quoted globs
//! expanded (as ripgrep does), and the name reports give each.

use std::path::{Component, Path, PathBuf};

use crate::format::{Format, Unread};
use globset::{GlobBuilder, GlobMatcher};

use crate::cli::output;

/// The name reports give standard input.
pub const STDIN: &str = "<stdin>";

/// The name reports give the input at `path`: [`STDIN`] for `-`.
pub fn name(path: &str) -> &str {
    if path == "-" {
        STDIN
    } else {
        path
    }
}

/// The paths to read: `paths`, or standard input when there are none.
pub fn paths(paths: &[String]) -> Vec<String> {
    if paths.is_empty() {
        vec!["-".to_owned()]
    } else {
        paths.to_vec()
    }
}

/// How folders and globs are read, for every command that reads records.
#[derive(clap::Args, Clone, Copy, Debug, Default)]
pub(crate) struct WalkArgs {
    /// In folders and globs, also read the files that `.gitignore`, `.ignore` and
    /// `.git/info/exclude` leave out.
    #[arg(long)]
    pub(crate) no_ignore: bool,
    /// Name on standard error each file of a folder or glob that is skipped, because no format
    /// kifu reads has its extension.
    #[arg(short, long)]
    pub(crate) verbose: bool,
}

/// A file to read: one named on the command line (or `-`), or one found in a folder or by a
/// glob.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Input {
    pub(crate) path: String,
    /// Found in a folder or by a glob, not named.
    pub(crate) found: bool,
}

/// An argument that gives nothing to read: a glob that matches no file, or a folder that cannot
/// be read. `name` is the argument or the file at fault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Unreadable {
    pub(crate) name: String,
    pub(crate) message: String,
}

/// The files `paths` name, in order: standard input when there are none; a folder's files,
/// walked recursively in the order of their names (hidden files and those `.gitignore` leaves
/// out skipped, unless `walk.no_ignore`, those of the folders above included, as git and
/// ripgrep read them; a named folder they leave every file of out is named, and its files
/// counted); the files a glob that is not itself a file's name
/// matches. Symbolic links inside folders are not followed, so no folder is walked twice. A
/// file found in a folder whose extension names no format kifu knows is skipped (named on
/// standard error with `walk.verbose`), unless `forced` (`--format`) says how to read it.
pub(crate) fn expand(paths: &[String], walk: WalkArgs, forced: bool) -> Inputs {
    Inputs { args: self::paths(paths).into_iter(), walk, forced, current: None, ignored: 0 }
}

/// The iterator of [`expand`]: a folder or glob is walked as its files are read, so memory
/// does not grow with the number of files.
pub(crate) struct Inputs {
    args: std::vec::IntoIter<String>,
    walk: WalkArgs,
    forced: bool,
    current: Option<Walking>,
    /// Files of a format kifu reads left out by ignore files, in named folders that gave no
    /// other file to read.
    pub(crate) ignored: u64,
}

/// A folder (or a glob's folder) being walked.
struct Walking {
    walk: ignore::Walk,
    /// The argument: a folder's path or a glob.
    arg: String,
    /// The glob's matcher; `None` for a folder.
    glob: Option<GlobMatcher>,
    /// How many files the walk has given (or the glob matched).
    found: usize,
    /// The walk starts at `.` for a glob with no folder before it: `./` is left out of names.
    strip_dot: bool,
}

impl Iterator for Inputs {
    type Item = Result<Input, Unreadable>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(walking) = &mut self.current {
                if let Some(found) = walking.next(self.walk, self.forced) {
                    return Some(found);
                }
                match self.current.take() {
                    Some(Walking { arg, glob: Some(_), found: 0, .. }) => {
                        let message = format!(
                            "no file matches `{arg}`: check the pattern (`*` stays in one folder, `**` goes into folders below)"
                        );
                        return Some(Err(Unreadable { name: arg, message }));
                    }
                    // An empty folder is no error, but worth a word: and when ignore files left out
                    // every file it holds, they are counted and named.
                    Some(Walking { arg, glob: None, found: 0, .. }) => match self.left_out(&arg) {
                        0 => output::message(format_args!(
                            "`{arg}` holds no file of a format kifu reads (`-v` names the files skipped)"
                        )),
                        n => {
                            self.ignored += n;
                            let files = if n == 1 { "file" } else { "files" };
                            let are = if n == 1 { "is" } else { "are" };
                            output::message(format_args!(
                                "`{arg}`: its {n} {files} of a format kifu reads {are} left out by ignore files (`.gitignore`, `.ignore`, `.git/info/exclude`); `--no-ignore` reads them"
                            ));
                        }
                    },
                    _ => {}
                }
                continue;
            }
            let arg = self.args.next()?;
            match self.start(&arg) {
                Ok(Some(walking)) => self.current = Some(walking),
                Ok(None) => return Some(Ok(Input { path: arg, found: false })),
                Err(message) => return Some(Err(Unreadable { name: arg, message })),
            }
        }
    }
}

/// How deep a glob may nest `{…}` groups.
const MAX_GLOB_NESTING: usize = 16;

/// True when `arg` holds a character that makes it a glob.
fn is_glob(arg: &str) -> bool {
    arg.contains(['*', '?', '[', '{'])
}

impl Inputs {
    /// How to read `arg`: a walk for a folder or a glob, `None` for a file (or `-`, or a path
    /// that names nothing: reading it says so).
    fn start(&self, arg: &str) -> Result<Option<Walking>, String> {
        if arg == "-" {
            return Ok(None);
        }
        match std::fs::metadata(arg) {
            Ok(m) if m.is_dir() => {
                let obey = !self.walk.no_ignore;
                let walk = self.walker(Path::new(arg), None, obey, obey);
                Ok(Some(Walking { walk, arg: arg.to_owned(), glob: None, found: 0, strip_dot: false }))
            }
            Ok(_) => Ok(None),
            Err(_) if is_glob(arg) => self.glob(arg).map(Some),
            Err(_) => Ok(None),
        }
    }

    /// The walk of the files `pattern` matches: from the folder its first components name
    /// (those without glob characters), only as deep as it reaches unless it holds `**`.
    fn glob(&self, pattern: &str) -> Result<Walking, String> {
        // globset refuses (by a panic) groups nested past its own limit: kifu says so first.
        let mut depth = 0usize;
        let deepest = pattern.chars().fold(0, |deepest, c| {
            match c {
                '{' => depth += 1,
                '}' => depth = depth.saturating_sub(1),
                _ => {}
            }
            deepest.max(depth)
        });
        if deepest > MAX_GLOB_NESTING {
            return Err(format!("`{pattern}` nests `{{…}}` groups {deepest} deep: kifu reads globs that nest them {MAX_GLOB_NESTING} deep at most"));
        }
        let matcher = GlobBuilder::new(pattern)
            .literal_separator(true)
            .build()
            .map_err(|e| format!("`{pattern}` is not a glob kifu can read: {}", e.kind()))?
            .compile_matcher();
        let mut base = PathBuf::new();
        let mut rest = Path::new(pattern).components();
        let mut depth = 0usize;
        let mut deep = false;
        for component in rest.by_ref() {
            let text = component.as_os_str().to_string_lossy();
            if matches!(component, Component::Normal(_)) && is_glob(&text) {
                depth = 1;
                deep = text.contains("**");
                break;
            }
            base.push(component);
        }
        for component in rest {
            depth += 1;
            deep |= component.as_os_str().to_string_lossy().contains("**");
        }
        let strip_dot = base.as_os_str().is_empty();
        if strip_dot {
            base.push(".");
        }
        let obey = !self.walk.no_ignore;
        let walk = self.walker(&base, (!deep).then_some(depth), obey, obey);
        Ok(Walking { walk, arg: pattern.to_owned(), glob: Some(matcher), found: 0, strip_dot })
    }

    /// How many files of a format kifu reads the folder `root`, whose walk gave none, holds
    /// that ignore files left out (0 with `--no-ignore`, which leaves out none).
    fn left_out(&self, root: &str) -> u64 {
        if self.walk.no_ignore {
            return 0;
        }
        let readable = |e: &ignore::DirEntry| {
            let path = e.path().to_string_lossy();
            e.file_type().is_some_and(|t| t.is_file())
                && (self.forced || Format::from_path(&path).is_some() || Unread::from_path(&path).is_some())
        };
        self.walker(Path::new(root), None, false, false).flatten().filter(readable).count() as u64
    }

    /// A walk from `root`, sorted by name, `max_depth` deep at most, that `obey`s ignore files
    /// (those of the folders above `root` too with `parents`).
    fn walker(&self, root: &Path, max_depth: Option<usize>, obey: bool, parents: bool) -> ignore::Walk {
        ignore::WalkBuilder::new(root)
            .hidden(true)
            .ignore(obey)
            .git_ignore(obey)
            .git_global(obey)
            .git_exclude(obey)
            .parents(parents)
            .require_git(false)
            .follow_links(false)
            .max_depth(max_depth)
            .sort_by_file_name(std::cmp::Ord::cmp)
            .build()
    }
}

impl Walking {
    /// The next file of the walk to read, or an entry that cannot be read; `None` at its end.
    fn next(&mut self, options: WalkArgs, forced: bool) -> Option<Result<Input, Unreadable>> {
        for entry in self.walk.by_ref() {
            let entry = match entry {
                Ok(entry) => entry,
                Err(e) => {
                    let name = walk_error_path(&e).unwrap_or_else(|| self.arg.clone());
                    return Some(Err(Unreadable { message: format!("cannot read `{name}`: {}", io_words(&e)), name }));
                }
            };
            if entry.file_type().is_some_and(|t| t.is_dir()) {
                continue;
            }
            let path = entry.path();
            let path = if self.strip_dot { path.strip_prefix(".").unwrap_or(path) } else { path };
            let Some(text) = path.to_str() else {
                let name = path.to_string_lossy().into_owned();
                let message = format!("cannot read `{name}`: kifu reads files whose names are UTF-8");
                return Some(Err(Unreadable { name, message }));
            };
            if self.glob.as_ref().is_some_and(|glob| !glob.is_match(text)) {
                continue;
            }
            if self.glob.is_some() {
                self.found += 1;
            }
            if entry.path_is_symlink() {
                skipped(options, text, "a symbolic link in a folder is not followed");
            } else if entry.file_type().is_some_and(|t| !t.is_file()) {
                // A FIFO, a socket or a device would block the walk or never end: named on the
                // command line it is read, found in a folder it is said and left.
                output::message(format_args!(
                    "skipped `{text}`: not a regular file (a FIFO, a socket or a device); name it to read it"
                ));
            } else if forced || Format::from_path(text).is_some() || Unread::from_path(text).is_some() {
                if self.glob.is_none() {
                    self.found += 1;
                }
                return Some(Ok(Input { path: text.to_owned(), found: true }));
            } else {
                skipped(options, text, "no format kifu reads has its extension");
            }
        }
        None
    }
}

/// Names a file of a folder or glob left out, and `why`, with `--verbose`.
pub(crate) fn skipped(walk: WalkArgs, path: &str, why: &str) {
    if walk.verbose {
        output::message(format_args!("skipped `{path}`: {why}"));
    }
}

/// The path an error of a walk is about.
fn walk_error_path(e: &ignore::Error) -> Option<String> {
    match e {
        ignore::Error::WithPath { path, .. } => Some(path.display().to_string()),
        ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => walk_error_path(err),
        ignore::Error::Loop { child, .. } => Some(child.display().to_string()),
        _ => None,
    }
}

/// An error of a walk in words, without the path it is about.
fn io_words(e: &ignore::Error) -> String {
    match e {
        ignore::Error::WithPath { err, .. }
        | ignore::Error::WithDepth { err, .. }
        | ignore::Error::WithLineNumber { err, .. } => io_words(err),
        ignore::Error::Io(e) => e.to_string(),
        e => e.to_string(),
    }
}

/// Bytes per batch of input handed to a worker: the lines' bytes and their places
/// ([`crate::input::LineReader::next_batch`] counts both).
pub(crate) const BATCH_BYTES: usize = 128 * 1024;

/// The most bytes per batch when batches go to worker threads ([`batch_sizes`]). Each batch
/// costs a few thread wake-ups (the reader's, a worker's, the writer's), so larger batches
/// cost less per record, up to the point where the wake-ups no longer show; past this size
/// they only hold more memory.
pub(crate) const MAX_BATCH_BYTES: usize = 512 * 1024;

/// About how many bytes of batches may be held at once by the workers and the queue before
/// them (two batches a worker): many workers get smaller batches, down to [`BATCH_BYTES`], so
/// that memory does not grow with their number faster than it did with batches of that size.
const HELD_BATCH_BYTES: usize = 2 * 1024 * 1024;

/// The sizes of the batches a file is cut into for `workers` threads: small at first, so that
/// a file of a few batches still keeps every worker busy and its first reports come soon, then
/// doubling up to [`MAX_BATCH_BYTES`], or less for many workers ([`HELD_BATCH_BYTES`]).
pub(crate) fn batch_sizes(workers: usize) -> impl Iterator<Item = usize> {
    let largest = (HELD_BATCH_BYTES / (2 * workers.max(1))).clamp(BATCH_BYTES, MAX_BATCH_BYTES);
    std::iter::successors(Some(BATCH_BYTES / 4), move |&n| Some((n * 2).min(largest)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batches_grow_from_small_to_the_largest_and_stay_there() {
        for (workers, largest) in
            [(1, MAX_BATCH_BYTES), (2, MAX_BATCH_BYTES), (4, 256 * 1024), (8, BATCH_BYTES), (64, BATCH_BYTES)]
        {
            let sizes: Vec<usize> = batch_sizes(workers).take(8).collect();
            assert_eq!(sizes[0], 32 * 1024);
            assert!(sizes.windows(2).all(|w| w[1] == (w[0] * 2).min(largest)), "{workers}: {sizes:?}");
            assert_eq!(sizes[7], largest, "{workers}: {sizes:?}");
        }
    }
}
