//! Files of line records in other encodings than UTF-8, through the built binary: each is read
//! in its encoding with one warning that names it, and reports point at the characters of the
//! decoded text.

use insta_cmd::assert_cmd_snapshot;

use crate::common::bin;
#[path = "../../src/rng.rs"]
#[allow(dead_code)]
mod rng;

use bin::{json_lines, kifu, stdout, write, START};

/// The start position with its side to move written in full-width `ｂ`.
fn wide_side() -> String {
    START.replace(" b ", " ｂ ")
}

/// The 1-based character column of the side to move in [`START`].
fn side_column() -> u64 {
    START.find(" b ").map_or(0, |at| at as u64 + 2)
}

fn shift_jis(text: &str) -> Vec<u8> {
    let (bytes, _, unmappable) = encoding_rs::SHIFT_JIS.encode(text);
    assert!(!unmappable, "{text} is Shift_JIS");
    bytes.into_owned()
}

fn utf16(text: &str, little: bool) -> Vec<u8> {
    let mut bytes = if little { vec![0xFF, 0xFE] } else { vec![0xFE, 0xFF] };
    for unit in text.encode_utf16() {
        bytes.extend_from_slice(&if little { unit.to_le_bytes() } else { unit.to_be_bytes() });
    }
    bytes
}

/// `(line, column, code)` of each finding of `kifu check --message-format json path`, and
/// the summary.
fn findings(path: &str) -> (Vec<(u64, u64, String)>, serde_json::Value) {
    let out = kifu().args(["check", "--message-format", "json", path]).output().expect("runs");
    let mut lines = json_lines(&out);
    let summary = lines.pop().expect("a summary");
    let found = lines
        .iter()
        .map(|l| {
            let n = |k: &str| l[k].as_u64().unwrap_or(0);
            (n("line"), n("column"), l["code"].as_str().unwrap_or("").to_owned())
        })
        .collect();
    (found, summary)
}

fn count(found: &[(u64, u64, String)], code: &str) -> usize {
    found.iter().filter(|f| f.2 == code).count()
}

#[test]
fn a_shift_jis_sfen_file_gets_one_warning_and_columns_of_its_text() {
    let dir = tempfile::tempdir().expect("tempdir");
    // Line 3: nine full-width letters, eighteen bytes that are not UTF-8.
    let text = format!("{START}\n{}\n{}\n", wide_side(), START.replacen("lnsgkgsnl", "ｌｎｓｇｋｇｓｎｌ", 1));
    let path = write(dir.path(), "wide.sfen", &shift_jis(&text));
    let (found, summary) = findings(&path);
    assert_eq!(count(&found, "input::encoding"), 1, "{found:?}");
    assert_eq!(count(&found, "input::not-utf8"), 0, "{found:?}");
    assert!(found.contains(&(2, side_column(), "input::encoding".to_owned())), "{found:?}");
    // The look-alikes are where they are in the decoded text: a character is one column.
    assert!(found.contains(&(2, side_column(), "sfen::lookalike".to_owned())), "{found:?}");
    assert!(found.contains(&(3, 1, "sfen::lookalike".to_owned())), "{found:?}");
    assert_eq!((summary["records"].as_u64(), summary["invalid"].as_u64()), (Some(3), Some(2)));

    let mut cmd = kifu();
    cmd.current_dir(dir.path()).args(["check", "wide.sfen"]);
    bin::settings("encodings").bind(|| assert_cmd_snapshot!("shift_jis_sfen", cmd));
}

#[test]
fn a_shift_jis_fen_file_is_read_as_such() {
    let dir = tempfile::tempdir().expect("tempdir");
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let wide = fen.replace(" w ", " ｗ ");
    let path = write(dir.path(), "wide.fen", &shift_jis(&format!("{fen}\n{wide}\n")));
    let (found, summary) = findings(&path);
    let column = fen.find(" w ").map_or(0, |at| at as u64 + 2);
    assert_eq!(count(&found, "input::encoding"), 1, "{found:?}");
    assert!(found.contains(&(2, column, "input::encoding".to_owned())), "{found:?}");
    assert!(found.iter().any(|f| f.0 == 2 && f.1 == column && f.2.starts_with("fen::")), "{found:?}");
    assert_eq!((summary["records"].as_u64(), summary["valid"].as_u64()), (Some(2), Some(1)));
    let out = kifu().args(["check", &path]).output().expect("runs");
    assert!(stdout(&out).contains("this file is not in UTF-8: it was read as Shift_JIS"), "{}", stdout(&out));
}

#[test]
fn utf16_files_with_a_byte_order_mark_are_read() {
    let dir = tempfile::tempdir().expect("tempdir");
    // The README's short rank: `sfen::rank-width` at column 49.
    let short = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN b - 1";
    for (little, name) in [(true, "UTF-16 (little-endian)"), (false, "UTF-16 (big-endian)")] {
        let path = write(dir.path(), "wide.sfen", &utf16(&format!("{START}\r\n{short}\r\n"), little));
        let (found, summary) = findings(&path);
        assert_eq!(found, [(1, 1, "input::encoding".to_owned()), (2, 49, "sfen::rank-width".to_owned())], "{name}");
        assert_eq!((summary["records"].as_u64(), summary["valid"].as_u64()), (Some(2), Some(1)));
        let out = kifu().args(["check", &path]).output().expect("runs");
        assert!(stdout(&out).contains(&format!("it was read as {name}")), "{}", stdout(&out));
        // Every command reads it: the board of the valid record.
        let board = kifu().args(["board", "--ascii", &path]).output().expect("runs");
        assert!(stdout(&board).contains("Black to move"), "{}", stdout(&board));
    }
}

#[test]
fn a_utf8_byte_order_mark_is_one_warning() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = write(dir.path(), "bom.sfen", format!("\u{FEFF}{START}\n{START}\n").as_bytes());
    let (found, summary) = findings(&path);
    assert_eq!(found, [(1, 1, "input::bom".to_owned())]);
    assert_eq!(summary["valid"].as_u64(), Some(2));
}

#[test]
fn a_damaged_line_of_a_utf8_file_is_an_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    // Line 1 is UTF-8 beyond ASCII (a look-alike); line 2 has eighteen bytes of nothing.
    let mut bytes = format!("{}\n", START.replace('p', "ｐ")).into_bytes();
    bytes.extend_from_slice(&[0x82; 18]);
    bytes.extend_from_slice(b"\n");
    let path = write(dir.path(), "damaged.sfen", &bytes);
    let out = kifu().args(["check", "--message-format", "json", &path]).output().expect("runs");
    let lines = json_lines(&out);
    let damaged: Vec<&serde_json::Value> = lines.iter().filter(|l| l["code"] == "input::not-utf8").collect();
    assert_eq!(damaged.len(), 1);
    // One label over the eighteen bytes side by side, not one a byte.
    let labels = damaged[0]["labels"].as_array().expect("labels");
    assert_eq!(labels.len(), 1, "{labels:?}");
    assert_eq!((labels[0]["column"].as_u64(), labels[0]["end_column"].as_u64()), (Some(1), Some(19)));
    assert!(!lines.iter().any(|l| l["code"] == "input::encoding"));
}

#[test]
fn random_bytes_get_one_bounded_report() {
    let dir = tempfile::tempdir().expect("tempdir");
    // A megabyte of noise (xorshift).
    let mut rng = rng::XorShift(0x9E37_79B9_7F4A_7C15);
    let noise: Vec<u8> = (0..1 << 20).map(|_| (rng.next_u64() >> 24) as u8).collect();
    let path = write(dir.path(), "noise.sfen", &noise);
    let (found, summary) = findings(&path);
    assert_eq!(count(&found, "input::not-text"), 1, "{found:?}");
    assert_eq!(found.last().map(|f| f.2.as_str()), Some("input::not-text"));
    assert!(found.len() <= 3, "{found:?}");
    assert_eq!(
        summary["invalid"].as_u64(),
        Some(found.iter().map(|f| f.0).collect::<std::collections::BTreeSet<_>>().len() as u64)
    );
    let out = kifu().args(["check", &path]).output().expect("runs");
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.len() < 4096, "{}", stdout(&out));
}

#[test]
fn the_encoding_is_decided_once_for_the_whole_stream() {
    // Far more than a batch of ASCII records, then Shift_JIS ones in later batches, on two workers.
    let mut text = format!("{START}\n").repeat(5000);
    for _ in 0..3000 {
        text.push_str(&wide_side());
        text.push('\n');
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let path = write(dir.path(), "late.sfen", &shift_jis(&text));
    let out = kifu().args(["check", "-j", "2", "--message-format", "json", &path]).output().expect("runs");
    let lines = json_lines(&out);
    let notes: Vec<u64> =
        lines.iter().filter(|l| l["code"] == "input::encoding").filter_map(|l| l["line"].as_u64()).collect();
    assert_eq!(notes, [5001]);
    assert_eq!(lines.iter().filter(|l| l["code"] == "sfen::lookalike").count(), 3000);
}

/// A line in Japanese (not a record: reported, never changed).
const JAPANESE: &str = "# 日本の棋譜";

/// A record with a trailing space, the start position, and a rank one square short.
fn fixable() -> (String, String) {
    let short = START.replacen("LNSGKGSNL", "LNSGKGSN", 1);
    (format!("{START} \n{START}\n{short}\n"), format!("{START}\n{START}\n{short}\n"))
}

/// `--fix` on a Shift_JIS file reports what it cannot fix (exit 1) and writes the file back in
/// Shift_JIS, with nothing changed but the fixes: its Japanese text is the same bytes.
#[test]
fn fix_writes_a_shift_jis_file_back_in_shift_jis() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (before, after) = fixable();
    let bytes = shift_jis(&format!("{JAPANESE}\n{}\n{before}", wide_side()));
    let path = write(dir.path(), "wide.sfen", &bytes);
    let out = kifu().args(["check", "--fix", &path]).output().expect("runs");
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let shown = stdout(&out);
    assert!(shown.contains("sfen::rank-width") && shown.contains("input::encoding"), "{shown}");
    assert!(!shown.contains("sfen::trailing-whitespace") && !shown.contains("sfen::lookalike"), "{shown}");
    assert!(shown.ends_with("; 2 fixed\n"), "{shown}");
    // The full-width side becomes `b`, the trailing space goes; the rest is the same bytes.
    assert_eq!(std::fs::read(&path).expect("the file"), shift_jis(&format!("{JAPANESE}\n{START}\n{after}")));
}

/// `--diff` on a Shift_JIS file is in Shift_JIS, as the file is, so that `patch` finds its lines.
#[test]
fn diff_of_a_shift_jis_file_is_in_its_encoding() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (before, _) = fixable();
    let bytes = shift_jis(&format!("{JAPANESE}\n{before}"));
    let path = write(dir.path(), "wide.sfen", &bytes);
    let out = kifu().args(["check", "--diff", &path]).output().expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let context = shift_jis(&format!(" {JAPANESE}\n-{START} \n+{START}\n"));
    assert!(out.stdout.windows(context.len()).any(|w| w == context), "{}", String::from_utf8_lossy(&out.stdout));
    assert_eq!(std::fs::read(&path).expect("the file"), bytes, "--diff changes nothing");
}

/// A UTF-16 file is written back in UTF-16, with its byte-order mark, both byte orders.
#[test]
fn fix_writes_a_utf16_file_back_in_utf16() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (before, after) = fixable();
    for little in [true, false] {
        let path = write(dir.path(), "wide.sfen", &utf16(&format!("# caf\u{e9}\n{before}"), little));
        let out = kifu().args(["check", "--fix", &path]).output().expect("runs");
        assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(std::fs::read(&path).expect("the file"), utf16(&format!("# caf\u{e9}\n{after}"), little));
    }
}

/// A file whose lines are in two encodings cannot be written back with only the fixes changed:
/// it is left as it was, with a warning that says why, and its findings are reported.
#[test]
fn fix_leaves_a_file_of_mixed_encodings_alone_and_says_why() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (before, _) = fixable();
    let mut bytes = shift_jis(&format!("{}\n", wide_side()));
    bytes.extend_from_slice(format!("# caf\u{e9}\n{before}").as_bytes());
    let path = write(dir.path(), "mixed.sfen", &bytes);
    let out = kifu().args(["check", "--fix", &path]).output().expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("warning: kifu leaves") && err.contains("read as Shift_JIS"), "{err}");
    let shown = stdout(&out);
    assert!(shown.contains("sfen::trailing-whitespace") && shown.contains("sfen::rank-width"), "{shown}");
    assert!(shown.trim_end().ends_with(&format!("; 0 fixed; 1 file not fixed: `{path}`")), "{shown}");
    assert_eq!(std::fs::read(&path).expect("the file"), bytes);
}

#[test]
fn a_utf16_psn_file_is_read_as_its_utf8_twin() {
    let dir = tempfile::tempdir().expect("tempdir");
    let text = std::fs::read_to_string("tests/fixtures/psn/ok/spec_pairs.psn").expect("a PSN game");
    let twin = format!("{text}\n{text}");
    let utf8 = write(dir.path(), "twin.psn", twin.as_bytes());
    let wide = write(dir.path(), "wide.psn", &utf16(&twin, true));
    let (plain, plain_summary) = findings(&utf8);
    let (found, summary) = findings(&wide);
    // One warning a game, at its first character; nothing else changes.
    let notes: Vec<&(u64, u64, String)> = found.iter().filter(|f| f.2 == "psn::encoding").collect();
    assert_eq!(notes.len(), 2, "{found:?}");
    assert!(notes.iter().all(|n| n.1 == 1), "{notes:?}");
    let others: Vec<&(u64, u64, String)> = found.iter().filter(|f| f.2 != "psn::encoding").collect();
    assert_eq!(others, plain.iter().collect::<Vec<_>>());
    assert_eq!((summary["records"].as_u64(), summary["valid"].as_u64()), (Some(2), plain_summary["valid"].as_u64()));
    let out = kifu().args(["check", &wide]).output().expect("runs");
    assert!(
        stdout(&out).contains("this game is not in UTF-8: it was read as UTF-16 (little-endian)"),
        "{}",
        stdout(&out)
    );
}

/// The start position in the board viewer's JSON model, as `kifu json` writes it.
fn start_json() -> String {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = write(dir.path(), "start.sfen", format!("{START}\n").as_bytes());
    let out = kifu().args(["json", &path]).output().expect("runs");
    let json = stdout(&out).trim_end().to_owned();
    assert!(json.starts_with("{\"sideOnMove\":\"black\""), "{json}");
    json
}

#[test]
fn a_shift_jis_json_file_gets_one_warning_and_columns_of_its_text() {
    let dir = tempfile::tempdir().expect("tempdir");
    let good = start_json();
    let wide = good.replacen("\"black\"", "\"ｂlack\"", 1);
    let text = format!("{good}\n{wide}\n{wide}\n");
    let path = write(dir.path(), "wide.json", &shift_jis(&text));
    let (found, summary) = findings(&path);
    // One warning for the file, on the first character read as Shift_JIS (line 2, in the
    // side's quotes), and no byte reported as not UTF-8.
    assert_eq!(count(&found, "input::encoding"), 1, "{found:?}");
    assert_eq!(count(&found, "input::not-utf8"), 0, "{found:?}");
    let column = wide.find('ｂ').map_or(0, |at| at as u64 + 1);
    assert!(found.contains(&(2, column, "input::encoding".to_owned())), "{found:?}");
    // The side is reported on its decoded text: the quotes before `ｂ` are one column each.
    assert!(found.contains(&(2, column - 1, "json::side".to_owned())), "{found:?}");
    assert!(found.contains(&(3, column - 1, "json::side".to_owned())), "{found:?}");
    assert_eq!((summary["records"].as_u64(), summary["valid"].as_u64()), (Some(3), Some(1)));
    assert_eq!(summary["warnings"].as_u64(), Some(1));

    let out = kifu().args(["check", &path]).output().expect("runs");
    let human = bin::text(&out.stderr) + &stdout(&out);
    assert!(human.contains("read as Shift_JIS") && human.contains("ｂlack"), "{human}");
    assert!(!human.contains('\u{FFFD}'), "{human}");
    // The lines are cut around the labels, and the headings still give the file's columns.
    assert!(human.contains(&format!(":2:{column}]")), "{human}");
    assert!(human.contains(&format!(":3:{}]", column - 1)), "{human}");
}

#[test]
fn json_files_in_utf16_or_with_a_byte_order_mark_are_read() {
    let dir = tempfile::tempdir().expect("tempdir");
    let good = start_json();
    // JSON Lines, and the same records as one pretty document.
    let lines = format!("{good}\r\n{good}\r\n");
    let document = format!("[\n  {good},\n  {good}\n]\n");
    for (n, text) in [lines, document].iter().enumerate() {
        for little in [true, false] {
            let path = write(dir.path(), &format!("wide-{n}-{little}.json"), &utf16(text, little));
            let (found, summary) = findings(&path);
            let endian = if little { "little" } else { "big" };
            assert_eq!(found, vec![(1, 1, "input::encoding".to_owned())], "{endian}-endian: {found:?}");
            assert_eq!((summary["records"].as_u64(), summary["valid"].as_u64()), (Some(2), Some(2)), "{summary}");
        }
        let path = write(dir.path(), &format!("bom-{n}.json"), format!("\u{FEFF}{text}").as_bytes());
        let (found, summary) = findings(&path);
        assert_eq!(found, vec![(1, 1, "input::bom".to_owned())], "{found:?}");
        assert_eq!((summary["records"].as_u64(), summary["valid"].as_u64()), (Some(2), Some(2)), "{summary}");
    }
}

/// A PSN game in ISO-8859-1 (a GSDB archive's) is fixed and written back in ISO-8859-1.
#[test]
fn fix_writes_a_latin1_psn_game_back_in_latin1() {
    let dir = tempfile::tempdir().expect("tempdir");
    let game = |mv: &str| {
        let mut bytes = b"[Sente \"S\xf6lter\"]\n".to_vec();
        bytes.extend_from_slice(format!("1. P7f P3d 2. P2f {mv} 3. P2e P8e\n").as_bytes());
        bytes
    };
    let path = write(dir.path(), "game.psn", &game("Q8d"));
    let out = kifu().args(["check", "--fix", "--unsafe-fixes", &path]).output().expect("runs");
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert_eq!(std::fs::read(&path).expect("the file"), game("P8d"));
}

/// A KIF or CSA file whose first line names another encoding than the one it is in gets one
/// warning, and `--fix` names the right one, in a Shift_JIS file written back in Shift_JIS.
#[test]
fn fix_names_the_encoding_a_kif_or_csa_file_is_in() {
    let dir = tempfile::tempdir().expect("tempdir");
    let kif = "#KIF version=2.0 encoding=UTF-8\n先手：羽生\n手数----指手---------消費時間--\n   1 ７六歩(77)\n";
    let csa = "'CSA encoding=UTF-8\nV3.0\nN+羽生\nPI\n+\n+7776FU\n";
    let cases = [
        ("game.kif", shift_jis(kif), shift_jis(&kif.replace("=UTF-8", "=Shift_JIS"))),
        ("game.csa", shift_jis(csa), shift_jis(&csa.replace("=UTF-8", "=SHIFT_JIS"))),
        ("game.kifu", kif.replace("=UTF-8", "=Shift_JIS").into_bytes(), kif.as_bytes().to_vec()),
        ("game.csa", csa.replace("=UTF-8", "=SHIFT_JIS").into_bytes(), csa.as_bytes().to_vec()),
    ];
    for (name, before, after) in cases {
        let path = write(dir.path(), name, &before);
        let code = if name.ends_with(".csa") { "csa::encoding" } else { "kif::encoding" };
        let (found, _) = findings(&path);
        assert_eq!(count(&found, code), 1, "{name}: {found:?}");
        assert_eq!(found.len(), 1, "{name}: {found:?}");
        let out = kifu().args(["check", "--fix", &path]).output().expect("runs");
        assert_eq!(out.status.code(), Some(0), "{name}: {}", stdout(&out));
        assert_eq!(std::fs::read(&path).expect("the file"), after, "{name}");
        let (found, _) = findings(&path);
        assert_eq!(found, [], "{name} after the fix");
    }
}
