//! The selection of findings a configuration file holds, and the file that holds it for an
//! input: a `kifu.toml`, or the `[tool.kifu]` table of a `pyproject.toml`, in the input's folder
//! or the nearest folder above it; in one folder, `kifu.toml` comes first.
//!
//! Its keys are the command line's flags' names: `select`, `extend-select`, `ignore` (lists of
//! codes, groups or `ALL`: [`super::select::patterns`]) and `warnings-as-errors`. An unknown key
//! or code is an error that names it. `kifu check` reads the file nearest each input, and
//! `kifu lsp` the one nearest each document it opens.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::select::Selection;

/// A configuration file's keys.
#[derive(serde::Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct Config {
    select: Option<Vec<String>>,
    extend_select: Option<Vec<String>>,
    ignore: Option<Vec<String>>,
    warnings_as_errors: Option<bool>,
}

/// Which configuration file a [`Selector`] reads.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Source {
    /// The one nearest each input, in its folder or above it.
    #[default]
    Nearest,
    /// This one, for every input (`--config`).
    File(PathBuf),
    /// None (`--isolated`).
    Isolated,
}

/// The selection of each input: `flags` (what a command line says) over the configuration
/// that [`Source`] names, each file and each folder looked at once.
#[derive(Debug, Default)]
pub struct Selector {
    flags: Selection,
    source: Source,
    /// The selection of each configuration file looked at (`None`: no such file).
    files: HashMap<PathBuf, Option<Result<Selection, String>>>,
    /// The selection of the inputs of each folder.
    folders: HashMap<PathBuf, Result<Selection, String>>,
}

impl Selector {
    /// The selector of `flags` over the configuration `source` names.
    pub fn new(flags: Selection, source: Source) -> Self {
        Self { flags, source, files: HashMap::new(), folders: HashMap::new() }
    }

    /// The selection for the input at `path` (`-`: standard input, whose folder is the current
    /// one), or why it cannot be made (a configuration file that cannot be read, or that names
    /// an unknown code or key).
    pub fn for_path(&mut self, path: &str) -> Result<Selection, String> {
        match self.source.clone() {
            Source::Isolated => return Ok(self.over(Selection::default())),
            Source::File(file) => {
                let base = self.read_once(&file, true)?.unwrap_or_default();
                return Ok(self.over(base));
            }
            Source::Nearest => {}
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

    /// `base`, a configuration's selection, changed by the flags: their `select` replaces its
    /// own, their `extend-select` and `ignore` add to its lists, their `warnings-as-errors`
    /// turns it on.
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
pub fn read(file: &Path, asked: bool) -> Option<Result<Selection, String>> {
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
    let lists = [&config.select, &config.extend_select, &config.ignore].map(|l| l.as_deref().unwrap_or_default());
    Selection::of_lists(lists, config.warnings_as_errors.unwrap_or(false), str::to_owned)
}
