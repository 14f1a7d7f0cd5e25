//! `kifu check --fix`, `--diff` and `--unsafe-fixes`: the findings' repairs applied to the files.
//!
//! The fixes are applied as [`crate::document::fix`] applies them; a file in another encoding
//! than UTF-8 is written back in its own, or left unchanged with a warning that says why. `--fix` writes the file under a temporary name beside it, with the file's
//! permissions, owner and extended attributes, and renames it over the file (a file whose owner
//! or attributes the new one cannot take is left as it was); `--diff` prints a unified diff and
//! changes nothing.

use std::io::Write as _;
use std::path::Path;

use crate::diagnostic::select::Selection;
use crate::document::fix::Fixed;
use crate::format::Format;

use crate::cli::output::AtomicFile;

/// The largest file `--fix` and `--diff` read (whole, to write it again).
pub(crate) const MAX_FIX_BYTES: usize = 64 << 20;

/// `--fix`, `--diff`, `--unsafe-fixes`.
#[derive(clap::Args, Clone, Copy, Debug, Default)]
pub(crate) struct FixArgs {
    /// Apply the safe fixes to the files (each written anew under a temporary name beside it,
    /// with the old one's permissions, owner and extended attributes, then renamed over it),
    /// then check and report what remains.
    #[arg(long, conflicts_with = "diff", group = "fixing")]
    pub(crate) fix: bool,
    /// Print the fixes as a unified diff, and change nothing.
    #[arg(long, group = "fixing")]
    pub(crate) diff: bool,
    /// With `--fix` or `--diff`: apply the likeliest repair of every finding, the unsafe ones
    /// too (several repairs, or one that may change what the record says).
    #[arg(long, requires = "fixing")]
    pub(crate) unsafe_fixes: bool,
}

impl FixArgs {
    /// True when the files are to be fixed or diffed.
    pub(crate) fn any(self) -> bool {
        self.fix || self.diff
    }
}

/// The last line of `--diff`: how many fixes `--fix` would apply (and the files it would not
/// fix, from `totals`).
pub(crate) fn would(fixed: Fixed, totals: &crate::cli::report::Totals, json: bool) -> String {
    if json {
        let summary = serde_json::json!({
            "type": "summary", "fixable": fixed.applied, "skipped": fixed.skipped, "unfixed": totals.unfixed.count,
        });
        return summary.to_string();
    }
    let fixes = if fixed.applied == 1 { "fix" } else { "fixes" };
    let unfixed = totals.unfixed.words("not fixed");
    match fixed.skipped {
        0 => format!("{} {fixes} to apply (`--fix` applies them){unfixed}", fixed.applied),
        n => format!("{} {fixes} to apply (`--fix` applies them), {n} more once those are in{unfixed}", fixed.applied),
    }
}

/// Why a file was not fixed: `Left`, a warning (its findings are checked and reported as
/// ever), or `Failed`, an error (the file could not be read or written).
pub(crate) enum NotFixed {
    Left(String),
    Failed(String),
}

/// Fixes the file at `path` (`--fix`) or prints its diff (`--diff`): what was (or would be)
/// applied, or why the file was not fixed. A file in another encoding than UTF-8 is written
/// back in its own ([`crate::document::fix::fix_file`]).
pub(crate) fn fix_file(path: &str, format: Format, args: FixArgs, selection: &Selection) -> Result<Fixed, NotFixed> {
    use NotFixed::Failed;
    if path == "-" {
        return Err(Failed("`--fix` and `--diff` work on files, not on standard input".to_owned()));
    }
    let bytes = crate::cli::playground::read_capped(path, MAX_FIX_BYTES, "the file").map_err(Failed)?;
    let mut fixed = Fixed::default();
    let fix =
        crate::document::fix::fix_file(format, &bytes, args.unsafe_fixes, selection, &mut fixed).map_err(|why| {
            let verb = if args.diff { "shows no fix of" } else { "leaves" };
            NotFixed::Left(format!("kifu {verb} `{path}` unchanged: {why}"))
        })?;
    if fix.new == fix.old {
        return Ok(fixed);
    }
    if args.diff {
        let mut out = crate::cli::output::Stdout;
        // A write error is kept and reported by `output::exit`.
        let _ = out.write_all(&fix.diff(path));
        return Ok(fixed);
    }
    // The fixed file is written anew and renamed over the old one: a file with other names
    // (hard links) would be parted from them.
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt as _;
        let links = std::fs::metadata(path).map_err(|e| Failed(format!("cannot read `{path}`: {e}")))?.nlink();
        if links > 1 {
            return Err(Failed(format!(
                "`{path}` has {links} names (hard links), which `--fix` would part: fix a copy, or apply `--diff` with `patch`"
            )));
        }
    }
    let cannot_write = |e: std::io::Error| Failed(format!("cannot write `{path}`: {e}"));
    let mut file = AtomicFile::create(Path::new(path)).map_err(cannot_write)?;
    file.keep_permissions_of(Path::new(path))
        .and_then(|()| file.keep_owner_of(Path::new(path)))
        .and_then(|()| file.keep_xattrs_of(Path::new(path)))
        .and_then(|()| file.write_all(&fix.bytes))
        .map_err(cannot_write)?;
    // A file that changed while it was fixed (a line appended) keeps its new text: nothing is
    // written over it.
    let now = crate::cli::playground::read_capped(path, MAX_FIX_BYTES, "the file").map_err(Failed)?;
    if now != bytes {
        return Err(Failed(format!("`{path}` changed while kifu fixed it: nothing was written; run again")));
    }
    file.commit().map_err(cannot_write)?;
    Ok(fixed)
}
