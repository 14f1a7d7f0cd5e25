//! `--select`, `--extend-select`, `--ignore`, `--warnings-as-errors`, `--config` and
//! `--isolated`: which findings `kifu check` reports ([`crate::diagnostic::select`]), from the
//! flags and from the configuration file nearest each input ([`crate::diagnostic::config`]).

use std::path::PathBuf;

use crate::diagnostic::config::{Selector, Source};
use crate::diagnostic::select::Selection;

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

/// The selector of `args`, or the words that say which of its codes are unknown.
pub(crate) fn selector(args: &SelectArgs) -> Result<Selector, String> {
    let lists = [&args.select[..], &args.extend_select, &args.ignore];
    let flags = Selection::of_lists(lists, args.warnings_as_errors, |key| format!("--{key}"))?;
    let source = match (&args.config, args.isolated) {
        (_, true) => Source::Isolated,
        (Some(file), false) => Source::File(file.clone()),
        (None, false) => Source::Nearest,
    };
    Ok(Selector::new(flags, source))
}
