//! Standard output and standard error, every write checked.
//!
//! The commands write through this module: [`Stdout`] (buffered) and [`err`] (standard error,
//! after what standard output holds so far, so the two stay in order on one terminal). The
//! first write error is kept and later writes are skipped; loops stop at [`failed`], and
//! [`exit`], the last thing `main` does, turns the error into the exit status:
//!
//! - a broken pipe (the reader went away, as in `kifu check big.sfen | head`) ends quietly,
//!   with the status of what was read until then (1 when an invalid record was seen, so that a
//!   pipeline under `set -o pipefail` fails on invalid data);
//! - any other write error (a full disk) is reported on standard error, with status 2.
//!
//! Files written with `-o` go through [`AtomicFile`]: a temporary file in the same directory,
//! renamed over the target only when everything was written.

use std::fmt;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{LazyLock, Mutex, MutexGuard, PoisonError};

struct State {
    out: io::BufWriter<io::Stdout>,
    /// The first write error, standard output's or standard error's.
    error: Option<io::Error>,
}

static STATE: LazyLock<Mutex<State>> =
    LazyLock::new(|| Mutex::new(State { out: io::BufWriter::with_capacity(1 << 16, io::stdout()), error: None }));

fn state() -> MutexGuard<'static, State> {
    STATE.lock().unwrap_or_else(PoisonError::into_inner)
}

/// An error that stands for the first one, already kept.
fn earlier(e: &io::Error) -> io::Error {
    io::Error::new(e.kind(), e.to_string())
}

impl State {
    /// Keeps the first error of `result`, and hands back an error that stands for it.
    fn keep<T>(&mut self, result: io::Result<T>) -> io::Result<T> {
        result.map_err(|e| {
            let copy = earlier(&e);
            self.error.get_or_insert(e);
            copy
        })
    }
}

/// Standard output, buffered; every write checked (see the module's documentation).
#[derive(Clone, Copy, Debug, Default)]
pub struct Stdout;

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut s = state();
        if let Some(e) = &s.error {
            return Err(earlier(e));
        }
        let written = s.out.write(buf);
        s.keep(written)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        let mut s = state();
        if let Some(e) = &s.error {
            return Err(earlier(e));
        }
        let written = s.out.write_all(buf);
        s.keep(written)
    }

    fn flush(&mut self) -> io::Result<()> {
        let mut s = state();
        if let Some(e) = &s.error {
            return Err(earlier(e));
        }
        let flushed = s.out.flush();
        s.keep(flushed)
    }
}

/// Writes `text` on standard error, after flushing standard output. Nothing is written after
/// a write error (see [`exit`]).
pub fn err(text: impl fmt::Display) {
    let mut s = state();
    if s.error.is_some() {
        return;
    }
    let flushed = s.out.flush();
    if s.keep(flushed).is_err() {
        return;
    }
    let written = io::stderr().lock().write_fmt(format_args!("{text}"));
    let _ = s.keep(written);
}

/// Writes `kifu: {message}` and a line end on standard error, with every control and
/// bidirectional character of the message written as its escape (`\u{a}`): a file name that
/// holds a line end or an escape sequence can neither start a line of its own (a CI runner
/// reads commands from the lines of standard error) nor command the terminal.
pub fn message(message: impl fmt::Display) {
    let text = message.to_string();
    err(format_args!("kifu: {}\n", crate::diagnostic::escape_unsafe(&text)));
}

/// The worst status of what was read so far: 1 once an invalid record was seen, 2 once an
/// input could not be read. A run that a closed pipe ends early exits with it.
static SEEN: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);

/// Notes that an invalid record was read.
pub fn note_invalid() {
    SEEN.fetch_max(1, std::sync::atomic::Ordering::Relaxed);
}

/// Notes that an input could not be read, unless what failed was a write (the run then stops
/// with the status of what it read).
pub fn note_unread() {
    if !failed() {
        SEEN.fetch_max(2, std::sync::atomic::Ordering::Relaxed);
    }
}

/// True once a write has failed: the command should stop.
pub fn failed() -> bool {
    state().error.is_some()
}

/// The exit status of a command that ended with `code`: `code` itself when every write went
/// through; after a broken pipe (the reader went away), the status of what was read until then
/// ([`note_invalid`], [`note_unread`]); 2 (with a message) after any other write error.
pub fn exit(code: ExitCode) -> ExitCode {
    let mut s = state();
    if s.error.is_none() {
        let flushed = s.out.flush();
        let _ = s.keep(flushed);
    }
    match s.error.take() {
        None => code,
        Some(e) if e.kind() == io::ErrorKind::BrokenPipe => {
            ExitCode::from(SEEN.load(std::sync::atomic::Ordering::Relaxed))
        }
        Some(e) => {
            // Standard error may be what failed: nothing more can be said then.
            let _ = writeln!(io::stderr(), "kifu: cannot write: {e}");
            ExitCode::from(2)
        }
    }
}

/// A file written under a temporary name in its directory and renamed over `path` by
/// [`AtomicFile::commit`]: readers of `path` never see half a file, and a run that fails
/// leaves `path` as it was. A symbolic link at `path` is refused rather than followed or
/// replaced.
#[derive(Debug)]
pub struct AtomicFile {
    path: PathBuf,
    file: io::BufWriter<tempfile::NamedTempFile>,
}

impl AtomicFile {
    /// Starts writing `path`.
    pub fn create(path: &Path) -> io::Result<Self> {
        if fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "it is a symbolic link, which kifu does not write through: give the file it points to",
            ));
        }
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let mut builder = tempfile::Builder::new();
        builder.prefix(".kifu-").suffix(".tmp");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            // As a plain new file would be: read-write for all, less the umask.
            builder.permissions(fs::Permissions::from_mode(0o666));
        }
        let file = builder.tempfile_in(dir)?;
        Ok(Self { path: path.to_owned(), file: io::BufWriter::new(file) })
    }

    /// Gives the file, when renamed, the permissions of the file at `like` (for a file written
    /// anew in place of one).
    pub fn keep_permissions_of(&self, like: &Path) -> io::Result<()> {
        fs::set_permissions(self.file.get_ref().path(), fs::metadata(like)?.permissions())
    }

    /// Gives the file, when renamed, the owner and group of the file at `like`, or says why it
    /// cannot (a file of another user, when kifu does not run as root): the new file would
    /// be the writer's.
    pub fn keep_owner_of(&self, like: &Path) -> io::Result<()> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt as _;
            let old = fs::metadata(like)?;
            let new = self.file.get_ref().as_file().metadata()?;
            if (old.uid(), old.gid()) != (new.uid(), new.gid()) {
                std::os::unix::fs::fchown(self.file.get_ref().as_file(), Some(old.uid()), Some(old.gid())).map_err(
                    |e| {
                        io::Error::new(
                            e.kind(),
                            format!("it belongs to another user or group, which the new file could not keep ({e})"),
                        )
                    },
                )?;
            }
        }
        #[cfg(not(unix))]
        let _ = like;
        Ok(())
    }

    /// Gives the file, when renamed, the extended attributes of the file at `like`
    /// (`user.comment`, `security.selinux`, an ACL), or says which one it cannot keep: renamed
    /// without them, the file would lose them. A file system or platform without extended
    /// attributes has none to keep.
    pub fn keep_xattrs_of(&self, like: &Path) -> io::Result<()> {
        set_xattrs(self.file.get_ref().as_file(), &xattrs_of(like)?)
    }

    /// Renames the finished file over its path.
    pub fn commit(self) -> io::Result<()> {
        let file = self.file.into_inner().map_err(io::IntoInnerError::into_error)?;
        file.as_file().sync_all()?;
        file.persist(&self.path).map_err(|e| e.error)?;
        Ok(())
    }

    /// Renames the file to its path, which must not exist yet (the error says so when it
    /// does). A new file has nothing to lose in a crash, so it is not synced first.
    pub fn commit_new(self) -> io::Result<()> {
        let file = self.file.into_inner().map_err(io::IntoInnerError::into_error)?;
        file.persist_noclobber(&self.path).map_err(|e| e.error)?;
        Ok(())
    }

    /// The path this file will take.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// The extended attributes of the file at `path`, names and values: none where its file system
/// or the platform has none.
fn xattrs_of(path: &Path) -> io::Result<Vec<(std::ffi::OsString, Vec<u8>)>> {
    #[cfg(unix)]
    {
        let names = match xattr::list(path) {
            Ok(names) => names,
            Err(e) if e.kind() == io::ErrorKind::Unsupported => return Ok(Vec::new()),
            Err(e) => return Err(io::Error::new(e.kind(), format!("its extended attributes cannot be read ({e})"))),
        };
        let mut attrs = Vec::new();
        for name in names {
            let value = xattr::get(path, &name).map_err(|e| {
                let shown = name.to_string_lossy();
                io::Error::new(e.kind(), format!("its extended attribute `{shown}` cannot be read ({e})"))
            })?;
            // An attribute removed since it was listed has nothing to keep.
            if let Some(value) = value {
                attrs.push((name, value));
            }
        }
        Ok(attrs)
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        Ok(Vec::new())
    }
}

/// Sets `attrs` on `file`, or says which one could not be set. One the file already holds with
/// the same value (a security label the new file was given) is left as it is.
fn set_xattrs(file: &fs::File, attrs: &[(std::ffi::OsString, Vec<u8>)]) -> io::Result<()> {
    #[cfg(unix)]
    {
        use xattr::FileExt as _;
        for (name, value) in attrs {
            if file.get_xattr(name).ok().flatten().as_ref() == Some(value) {
                continue;
            }
            file.set_xattr(name, value).map_err(|e| {
                let shown = name.to_string_lossy();
                io::Error::new(
                    e.kind(),
                    format!("it has the extended attribute `{shown}`, which the new file could not keep ({e})"),
                )
            })?;
        }
    }
    #[cfg(not(unix))]
    let _ = (file, attrs);
    Ok(())
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.file.write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.file.write_all(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_atomic_file_appears_only_when_committed() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("out.html");
        std::fs::write(&path, "old").expect("write");
        let mut f = AtomicFile::create(&path).expect("create");
        f.write_all(b"new").expect("write");
        assert_eq!(std::fs::read_to_string(&path).expect("read"), "old");
        drop(f);
        assert_eq!(std::fs::read_to_string(&path).expect("read"), "old", "dropped: nothing replaced");
        let mut f = AtomicFile::create(&path).expect("create");
        f.write_all(b"new").expect("write");
        f.commit().expect("commit");
        assert_eq!(std::fs::read_to_string(&path).expect("read"), "new");
        let left: Vec<_> = std::fs::read_dir(dir.path()).expect("list").collect();
        assert_eq!(left.len(), 1, "no temporary file left");
    }

    /// Where the new file cannot take an attribute (here a file of `/proc`, which holds none),
    /// the error names it.
    #[cfg(target_os = "linux")]
    #[test]
    fn an_attribute_the_new_file_cannot_take_is_named() {
        let file = fs::File::open("/proc/self/stat").expect("a file of /proc");
        let attrs = [(std::ffi::OsString::from("user.comment"), b"kept".to_vec())];
        let e = set_xattrs(&file, &attrs).expect_err("/proc holds no extended attributes");
        assert!(
            e.to_string()
                .starts_with("it has the extended attribute `user.comment`, which the new file could not keep ("),
            "{e}"
        );
    }
}
