//! `--select`, `--extend-select`, `--ignore`, `--warnings-as-errors`, `--config` and
//! `--isolated`: which findings `kifu check` reports ([`kifu::diagnostic::select`]), from the
//! flags and from the configuration file nearest each input.
//!
//! The configuration is a `kifu.toml`, or the `[tool.kifu]` table of a `pyproject.toml`, found
//! in the input's folder or the nearest folder above it (for standard input, from the current
//! folder); in one folder, `kifu.toml` comes first. Its keys are the flags' names: `select`,
//! `extend-select`, `ignore` (lists of codes, groups or `ALL`) and `warnings-as-errors`. The
//! flags then change it: `--select` replaces its `select`, `--extend-select` and `--ignore` add
//! to its lists, `--warnings-as-errors` turns that on.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use kifu::diagnostic::select::{patterns, Selection};

/// The flags of the selection.
#[derive(clap::Args, Clone, Debug, Default)]
#[command(next_help_heading = "Which findings are reported")]
pub(crate) struct SelectArgs {
    /// Report only these codes: codes (`sfen::missing-king`), groups (`sfen`) or `ALL`,
    /// separated by commas. Replaces the configuration's `select`.
    #[arg(long, value_name = "CODES")]
    select: Vec<String>,
    /// Report these codes or groups too, besides those selected.
    #[arg(long, value_name = "CODES")]
    extend_select: Vec<String>,
    /// Leave out these codes or groups (the most precise of `--select` and `--ignore` decides:
    /// `--select sfen --ignore sfen::missing-king`).
    #[arg(long, value_name = "CODES")]
    ignore: Vec<String>,
    /// Count every warning reported as an error: a record that has one is invalid.
    #[arg(long)]
    warnings_as_errors: bool,
    /// Read the selection from this file (a `kifu.toml`, or a `pyproject.toml` with a
    /// `[tool.kifu]` table) instead of the one nearest each input.
    #[arg(long, value_name = "FILE", conflicts_with = "isolated")]
    config: Option<PathBuf>,
    /// Read no configuration file: only the flags select.
    #[arg(long)]
    isolated: bool,
}

/// A configuration file's keys.
#[derive(serde::Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct Config {
    select: Option<Vec<String>>,
    extend_select: Option<Vec<String>>,
    ignore: Option<Vec<String>>,
    warnings_as_errors: Option<bool>,
}

/// The selection of each input: the flags over the configuration nearest it, each file and
/// each folder looked at once.
pub(crate) struct Selector {
    /// The flags' patterns, read once.
    flags: Selection,
    config: Option<PathBuf>,
    isolated: bool,
    /// The selection of each configuration file looked at (`None`: no such file).
    files: HashMap<PathBuf, Option<Result<Selection, String>>>,
    /// The selection of the inputs of each folder.
    folders: HashMap<PathBuf, Result<Selection, String>>,
}

impl Selector {
    /// The selector of `args`, or the words that say which of its codes are unknown.
    pub(crate) fn new(args: &SelectArgs) -> Result<Self, String> {
        let flag = |texts: &[String], name: &str| patterns(texts).map_err(|e| format!("`--{name}`: {e}"));
        let flags = Selection {
            select: flag(&args.select, "select")?,
            extend_select: flag(&args.extend_select, "extend-select")?,
            ignore: flag(&args.ignore, "ignore")?,
            warnings_as_errors: args.warnings_as_errors,
        };
        let (config, isolated) = (args.config.clone(), args.isolated);
        Ok(Self { flags, config, isolated, files: HashMap::new(), folders: HashMap::new() })
    }

    /// The selection for the input at `path` (`-`: standard input), or why it cannot be made (a
    /// configuration file that cannot be read, or names an unknown code).
    pub(crate) fn for_path(&mut self, path: &str) -> Result<Selection, String> {
        if self.isolated {
            return Ok(self.over(Selection::default()));
        }
        if let Some(file) = self.config.clone() {
            let base = self.read_once(&file, true)?.unwrap_or_default();
            return Ok(self.over(base));
        }
        let parent = if path == "-" { None } else { Path::new(path).parent() };
        let start = parent.filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
        let start = std::path::absolute(start).map_err(|e| format!("cannot find the folder of `{path}`: {e}"))?;
        if let Some(found) = self.folders.get(&start) {
            return found.clone();
        }
        let found = self.nearest(start.clone());
        self.folders.insert(start, found.clone());
        found
    }

    /// The selection of the configuration nearest `folder`, in it or above it.
    fn nearest(&mut self, mut folder: PathBuf) -> Result<Selection, String> {
        loop {
            for name in ["kifu.toml", "pyproject.toml"] {
                if let Some(base) = self.read_once(&folder.join(name), false)? {
                    return Ok(self.over(base));
                }
            }
            if !folder.pop() {
                return Ok(self.over(Selection::default()));
            }
        }
    }

    /// The selection of the configuration file at `file`, read once: `None` when there is no
    /// such file (or, unless `asked`, a `pyproject.toml` without `[tool.kifu]`).
    fn read_once(&mut self, file: &Path, asked: bool) -> Result<Option<Selection>, String> {
        let found = self.files.entry(file.to_path_buf()).or_insert_with(|| read(file, asked)).clone();
        found.transpose()
    }

    /// `base`, a configuration's selection, changed by the flags.
    fn over(&self, mut base: Selection) -> Selection {
        if !self.flags.select.is_empty() {
            base.select.clone_from(&self.flags.select);
        }
        base.extend_select.extend(self.flags.extend_select.iter().cloned());
        base.ignore.extend(self.flags.ignore.iter().cloned());
        base.warnings_as_errors |= self.flags.warnings_as_errors;
        base
    }
}

/// The selection a configuration file holds; `None` when there is no file at `file`, or (unless
/// `asked`) it is a `pyproject.toml` without a `[tool.kifu]` table.
fn read(file: &Path, asked: bool) -> Option<Result<Selection, String>> {
    let shown = file.display();
    let text = match std::fs::read_to_string(file) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && !asked => return None,
        Err(e) => return Some(Err(format!("cannot read the configuration `{shown}`: {e}"))),
    };
    let in_pyproject = file.file_name().is_some_and(|n| n == "pyproject.toml");
    let config: Result<Config, String> = if in_pyproject {
        let table: toml::Table = match toml::from_str(&text) {
            Ok(table) => table,
            Err(e) => return Some(Err(format!("`{shown}` is not TOML: {}", words(&e, &text)))),
        };
        match table.get("tool").and_then(|t| t.get("kifu")) {
            Some(kifu) => kifu
                .clone()
                .try_into()
                .map_err(|e: toml::de::Error| format!("`{shown}`, `[tool.kifu]`: {}", e.message())),
            None if asked => Err(format!("`{shown}` has no `[tool.kifu]` table")),
            None => return None,
        }
    } else {
        toml::from_str(&text).map_err(|e| format!("`{shown}`: {}", words(&e, &text)))
    };
    Some(config.and_then(|c| selection(c).map_err(|e| format!("`{shown}`: {e}"))))
}

/// A TOML error in one line: its message, and the line of `text` it is on.
fn words(e: &toml::de::Error, text: &str) -> String {
    match e.span() {
        Some(span) => format!("{} (line {})", e.message(), text[..span.start.min(text.len())].lines().count().max(1)),
        None => e.message().to_owned(),
    }
}

/// The selection of a configuration's keys, or which of its codes are unknown.
fn selection(config: Config) -> Result<Selection, String> {
    let list = |texts: Option<Vec<String>>, key: &str| {
        patterns(&texts.unwrap_or_default()).map_err(|e| format!("`{key}`: {e}"))
    };
    Ok(Selection {
        select: list(config.select, "select")?,
        extend_select: list(config.extend_select, "extend-select")?,
        ignore: list(config.ignore, "ignore")?,
        warnings_as_errors: config.warnings_as_errors.unwrap_or(false),
    })
}
