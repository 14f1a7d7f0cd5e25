//! The shogi test vectors gathered from other libraries (`../shared/corpus/positions/vectors/`,
//! described in its `README.md` and in `../ANCHORS.md`), run through `kifu::sfen::check`.
//!
//! Every record must get the verdict its file expects, or be listed, with the reason, in
//! `tests/fixtures/sfen/vector-disagreements.tsv`. A listed row that no longer disagrees, or
//! whose kifu verdict has changed, fails the test too, so the table stays honest.
//!
//! The vectors are third-party test data and are not copied into this repository (only the
//! few records of the disagreement table are). Where `../shared` is absent the test prints a
//! note and passes.
//!
//! Run with `cargo test --test formats sfen_vectors:: -- --nocapture` to see the per-file counts.

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};

use common::vectors::{self, lines, read, unescape, Row, Spec, Tried, Verdict};
use kifu::sfen::{self, build::START, DialectChoice};

/// The table of deliberate disagreements, checked in.
fn table_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/sfen/vector-disagreements.tsv")
}

/// How the records of one file are handed to kifu. A record is fed exactly as written unless
/// the anchor's own API takes a wrapper around the SFEN as its input convention; only then is
/// the wrapper removed. kifu reports every such wrapper (`sfen::usi-command`,
/// `sfen::startpos`, `sfen::extra-field`) as an error, so nothing is stripped on a guess.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Feed {
    /// The record as written.
    AsIs,
    /// A leading `sfen ` is removed: the anchor's parser is called as `from_usi("sfen " + …)`.
    SfenPrefix,
    /// A trailing ` moves …` list is removed: the anchor's parser reads `<sfen> moves <usi>…`
    /// and plays the moves; kifu checks the position before them.
    MovesTail,
    /// A USI command wrapper is removed (`position `, then `sfen `), and `startpos` becomes the
    /// start position written out: the suites' positions are what engines receive through
    /// `position sfen <sfen>` / `position startpos`.
    UsiPosition,
}

impl Feed {
    fn apply(self, record: &str) -> String {
        match self {
            Self::AsIs => record.to_owned(),
            Self::SfenPrefix => record.strip_prefix("sfen ").unwrap_or(record).to_owned(),
            Self::MovesTail => match record.find(" moves") {
                Some(i) if record[i + 6..].is_empty() || record[i + 6..].starts_with(' ') => record[..i].to_owned(),
                _ => record.to_owned(),
            },
            Self::UsiPosition => {
                let rest = record.strip_prefix("position ").unwrap_or(record);
                if rest == "startpos" {
                    START.to_owned()
                } else {
                    rest.strip_prefix("sfen ").unwrap_or(rest).to_owned()
                }
            }
        }
    }
}

/// The per-source verdict files: `record`, `verdict`, `error_kind_or_note`, `source_path`.
///
/// None of these records carries `sfen `, `position` or `startpos` in the current files (the
/// gatherer already took the `sfen ` prefix and `moves` tail off shogi_usi_parser's doc-tests);
/// one shogi-rs record ends in ` moves 7g7f`.
const VERDICT_FILES: [(&str, Feed); 10] = [
    // parseSfen(board [side [hand [move]]]): no prefix; `startpos` is an alias there, but no
    // record uses it, and a bare `startpos` should show up here if one ever does.
    ("shogiops.tsv", Feed::AsIs),
    // Position.newBySFEN tolerates an optional leading `sfen`, but does not need it; no record has one.
    ("tsshogi.tsv", Feed::AsIs),
    // Board(sfen): the bare record.
    ("python-shogi.tsv", Feed::AsIs),
    // Position::set_sfen reads `<sfen> [moves <usi>…]`: the moves list is part of its input.
    ("shogi-rs.tsv", Feed::MovesTail),
    // PartialPosition::from_usi needs `sfen <record>`: the prefix is its input convention.
    ("shogi_usi_parser.tsv", Feed::SfenPrefix),
    // Board::from_sfen / Board::tsume: the bare record.
    ("haitaka.tsv", Feed::AsIs),
    // Position::set(sfen): the bare record (`position sfen` is the USI layer above it).
    ("yaneuraou.tsv", Feed::AsIs),
    // Sfen(…).toSituation: the bare record (it turns `_` into spaces itself; no record has one).
    ("scalashogi.tsv", Feed::AsIs),
    // The specs' own examples, as printed.
    ("sfen-spec-2007.tsv", Feed::AsIs),
    ("usi-spec.tsv", Feed::AsIs),
];

/// Position suites (perft and mate data): every position is expected to be valid. Each file has
/// a header naming its columns; the position is the `sfen` column, whatever the others are
/// (`depth nodes source_path`, `depth nodes note source_path`, `note source_path`,
/// `source_path`). The current files hold bare records (YaneuraOu's `BenchSfen[]`, for one, is
/// a list of bare SFEN strings that the engine wraps in a `position` command), so
/// [`Feed::UsiPosition`] changes nothing today; the summary counts the rows it rewrites.
const SUITE_FILES: [&str; 2] = ["suites/shogiops-perft-standard.tsv", "suites/python-shogi-perft.tsv"];

/// Suites found by name: `suites/yaneuraou-*.tsv`.
const SUITE_PREFIX: &str = "yaneuraou-";

fn load_suite(dir: &Path, name: &str, rows: &mut Vec<Row<Feed>>, problems: &mut Vec<String>) {
    let Some(text) = read(&dir.join(name), problems) else { return };
    let mut it = lines(&text);
    let Some(column) = it.next().and_then(|(_, header)| header.split('\t').position(|c| c == "sfen")) else {
        problems.push(format!("{name}: no `sfen` column in the header"));
        return;
    };
    for (line, l) in it {
        match l.split('\t').nth(column) {
            Some(record) => rows.push(Row {
                file: name.to_owned(),
                line,
                record: unescape(record),
                expected: Verdict::Valid,
                how: Feed::UsiPosition,
            }),
            None => problems.push(format!("{name}:{line}: no `sfen` column in {l:?}")),
        }
    }
}

/// Every shogi vector row, in file order.
fn load_vectors(dir: &Path, problems: &mut Vec<String>) -> Vec<Row<Feed>> {
    let mut rows = Vec::new();
    for (name, feed) in VERDICT_FILES {
        vectors::load_verdict_file(dir, name, |_| Ok(feed), &mut rows, problems);
    }
    let mut suites: Vec<String> = SUITE_FILES.iter().map(|s| (*s).to_owned()).collect();
    let mut yaneuraou: Vec<String> = fs::read_dir(dir.join("suites"))
        .map(|entries| {
            entries
                .filter_map(|e| e.ok()?.file_name().into_string().ok())
                .filter(|n| n.starts_with(SUITE_PREFIX) && n.ends_with(".tsv"))
                .map(|n| format!("suites/{n}"))
                .collect()
        })
        .unwrap_or_default();
    if yaneuraou.is_empty() {
        problems.push(format!("no suites/{SUITE_PREFIX}*.tsv in {}", dir.display()));
    }
    yaneuraou.sort();
    suites.extend(yaneuraou);
    for name in &suites {
        load_suite(dir, name, &mut rows, problems);
    }
    rows
}

/// Hands a record to kifu as its [`Feed`] says; the summary counts the records it rewrites.
fn try_row(row: &Row<Feed>) -> Tried<sfen::Checked, 1> {
    let fed = row.how.apply(&row.record);
    let outcome = vectors::run(|| sfen::check(&fed, DialectChoice::Auto));
    let rewritten = fed != row.record;
    Tried { outcome, how: rewritten.then(|| format!("    fed as:   {fed:?} ({:?})", row.how)), counted: [rewritten] }
}

#[test]
fn shogi_vectors_agree_or_are_listed() {
    let spec = Spec {
        game: "shogi",
        table: table_path(),
        reason_needs_group: false,
        disagrees: "disagrees with the vector",
        file_width: 48,
        columns: [("rewritten", 9)],
        rows: 939,
    };
    vectors::check_vectors(&spec, |dir, problems| (load_vectors(dir, problems), Vec::new()), try_row);
}
