//! `kifu` through the built binary: output, exit codes, and every kind of awkward input.

use insta_cmd::assert_cmd_snapshot;

use crate::common::bin;

use bin::{json_lines, kifu, run, run_with_stdin, stdout, text, write, START};

/// Snapshots of `kifu` run with each list of arguments, by name.
fn snapshots(runs: &[(&str, &[&str])]) {
    bin::settings("cli").bind(|| {
        for (name, args) in runs {
            assert_cmd_snapshot!(*name, kifu().args(*args));
        }
    });
}

#[test]
fn help() {
    bin::settings("cli").bind(|| {
        assert_cmd_snapshot!("help", kifu().arg("--help"));
        assert_cmd_snapshot!("check_help", kifu().args(["check", "--help"]));
    });
}

#[test]
fn the_readme_example() {
    snapshots(&[
        ("tour_human", &["check", "examples/tour.sfen"]),
        ("tour_json", &["check", "--message-format", "json", "examples/tour.sfen"]),
    ]);
}

#[test]
fn json_messages_have_the_documented_fields() {
    let lines = bin::invalid_json_findings("examples/tour.sfen");
    let first = &lines[0];
    for key in
        ["type", "file", "line", "column", "end_line", "end_column", "severity", "code", "message", "help", "labels"]
    {
        assert!(first.get(key).is_some(), "missing {key} in {first}");
    }
    let label = &first["labels"][0];
    for key in ["line", "column", "end_line", "end_column", "message", "primary"] {
        assert!(label.get(key).is_some(), "missing labels[].{key}");
    }
    let summary = lines.last().expect("summary");
    assert_eq!(summary["type"], "summary");
    assert_eq!(
        (summary["records"].as_u64(), summary["valid"].as_u64(), summary["invalid"].as_u64()),
        (Some(11), Some(5), Some(6))
    );
    // The top-level position is the primary label's.
    for d in lines.iter().filter(|l| l["type"] == "diagnostic") {
        let primary: Vec<_> = d["labels"].as_array().expect("labels").iter().filter(|l| l["primary"] == true).collect();
        assert_eq!(primary.len(), 1);
        assert_eq!(
            (&d["line"], &d["column"], &d["end_column"]),
            (&primary[0]["line"], &primary[0]["column"], &primary[0]["end_column"])
        );
    }
}

#[test]
fn columns_count_characters_and_points_are_empty() {
    // `ｂ` is three bytes but one column; the missing hand is a point.
    let out = run_with_stdin(
        {
            let mut c = kifu();
            c.args(["check", "--format", "sfen", "--message-format", "json"]);
            c
        },
        "lnsgkgsnl/1r5b1/ｐpppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b\n".as_bytes(),
    );
    let lines = json_lines(&out);
    assert_eq!(
        (lines[0]["code"].as_str(), lines[0]["column"].as_u64(), lines[0]["end_column"].as_u64()),
        (Some("sfen::lookalike"), Some(17), Some(18))
    );
    assert_eq!(lines[1]["code"], "sfen::missing-field");
    assert_eq!(lines[1]["column"], lines[1]["end_column"]);
    assert_eq!(lines[1]["column"].as_u64(), Some(60));
    assert_eq!(lines[0]["file"], "<stdin>");
}

#[test]
fn exit_codes() {
    let dir = tempfile::tempdir().expect("tempdir");
    let good = write(dir.path(), "good.sfen", format!("{START}\n").as_bytes());
    let warn = write(dir.path(), "warn.sfen", b"7r1/6B1p/6Bsk/9/7P1/9/9/9/9 B 2S\n");
    let bad = write(dir.path(), "bad.sfen", b"9/9 b - 1\n");
    let txt = write(dir.path(), "positions.txt", format!("{START}\n").as_bytes());
    let code = |args: &[&str]| kifu().arg("check").args(args).output().expect("runs").status.code();
    assert_eq!(code(&[&good]), Some(0));
    assert_eq!(code(&[&warn]), Some(0), "warnings alone keep exit 0");
    assert_eq!(code(&[&good, &bad]), Some(1));
    assert_eq!(code(&[&txt]), Some(2), "unknown extension");
    assert_eq!(code(&["--format", "sfen", &txt]), Some(0));
    assert_eq!(code(&["/nonexistent/x.sfen"]), Some(2));
    assert_eq!(code(&["--dialect", "nope", &good]), Some(2));
    assert_eq!(code(&["--dialect", "sfen2007", &good]), Some(1));
    let out = run_with_stdin(
        {
            let mut c = kifu();
            c.arg("check");
            c
        },
        START.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(2), "standard input needs --format");
}

#[test]
fn usage_errors() {
    bin::settings("cli").bind(|| {
        assert_cmd_snapshot!("missing_file", kifu().args(["check", "/nonexistent/x.sfen"]));
        assert_cmd_snapshot!("unknown_extension", kifu().args(["check", "Cargo.toml"]));
    });
    // `--unsafe-fixes` says how `--fix` and `--diff` fix: alone, it is a usage error.
    let alone = run(&["check", "--unsafe-fixes", "examples/tour.sfen"]);
    assert_eq!(alone.status.code(), Some(2));
    assert!(text(&alone.stderr).contains("<--fix|--diff>"), "{}", text(&alone.stderr));
}

#[test]
fn every_line_ending_and_blank_lines() {
    let input = format!("{START}\r\n\r\n9/9 b - 1\r{START}\n\n9/9/9 b - 1");
    let out = run_with_stdin(
        {
            let mut c = kifu();
            c.args(["check", "--format", "sfen", "--message-format", "json"]);
            c
        },
        input.as_bytes(),
    );
    let lines = json_lines(&out);
    let at: Vec<(u64, &str)> = lines
        .iter()
        .filter(|l| l["type"] == "diagnostic")
        .map(|l| (l["line"].as_u64().unwrap_or(0), l["code"].as_str().unwrap_or("")))
        .collect();
    assert_eq!(at, vec![(3, "sfen::rank-count"), (6, "sfen::rank-count")]);
    let summary = lines.last().expect("summary");
    assert_eq!((summary["records"].as_u64(), summary["invalid"].as_u64()), (Some(4), Some(2)));
}

#[test]
fn awkward_bytes() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut bytes = b"\xEF\xBB\xBF".to_vec();
    bytes.extend_from_slice(START.as_bytes());
    bytes.extend_from_slice(
        b"\n9/9/9/9/9/9/9/9/9 b \xFF\xFE 1\nlnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKG\0NL b - 1\n",
    );
    bytes.extend(std::iter::repeat_n(b'9', 10 * 1024 * 1024));
    bytes.extend_from_slice(format!("\n{START}").as_bytes());
    let path = write(dir.path(), "awkward.sfen", &bytes);
    bin::settings("cli").bind(|| {
        assert_cmd_snapshot!("awkward_bytes", kifu().current_dir(dir.path()).args(["check", "awkward.sfen"]));
    });
    let out = kifu().args(["check", "--message-format", "json", &path]).output().expect("runs");
    let codes: Vec<(u64, String)> = json_lines(&out)
        .iter()
        .filter(|l| l["type"] == "diagnostic")
        .map(|l| (l["line"].as_u64().unwrap_or(0), l["code"].as_str().unwrap_or("").to_owned()))
        .collect();
    assert_eq!(
        codes,
        vec![
            (1, "input::bom".to_owned()),
            (2, "input::not-utf8".to_owned()),
            (2, "sfen::missing-king".to_owned()),
            (3, "sfen::unknown-piece".to_owned()),
            (4, "input::line-too-long".to_owned())
        ]
    );
}

#[test]
fn an_empty_file_has_no_records() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = write(dir.path(), "empty.sfen", b"");
    let out = kifu().args(["check", &path]).output().expect("runs");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout(&out), "0 records: 0 valid, 0 invalid, 0 warnings\n");
}

#[test]
fn findings_come_in_input_order_from_every_worker() {
    // Large enough to span many batches on several threads.
    let mut input = String::new();
    for i in 1..=60_000 {
        input.push_str(if i % 1000 == 0 { "9/9 b - 1\n" } else { START });
        if i % 1000 != 0 {
            input.push('\n');
        }
    }
    let out = run_with_stdin(
        {
            let mut c = kifu();
            c.args(["check", "-j", "4", "--format", "sfen", "--message-format", "json"]);
            c
        },
        input.as_bytes(),
    );
    let lines = json_lines(&out);
    let at: Vec<u64> = lines.iter().filter(|l| l["type"] == "diagnostic").filter_map(|l| l["line"].as_u64()).collect();
    let want: Vec<u64> = (1..=60).map(|k| k * 1000).collect();
    assert_eq!(at, want);
    let summary = lines.last().expect("summary");
    assert_eq!((summary["records"].as_u64(), summary["invalid"].as_u64()), (Some(60_000), Some(60)));
}

/// Seed 001's sample input, one record per line, and its expected output, byte for byte.
const SEED_INPUT: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1
rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2
rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2
";

const SEED_OUTPUT: &str = "rnbqkbnr\npppppppp\n........\n........\n........\n........\nPPPPPPPP\nRNBQKBNR\n\n\
rnbqkbnr\npppppppp\n........\n........\n....P...\n........\nPPPP.PPP\nRNBQKBNR\n\n\
rnbqkbnr\npp.ppppp\n........\n..p.....\n....P...\n........\nPPPP.PPP\nRNBQKBNR\n\n\
rnbqkbnr\npp.ppppp\n........\n..p.....\n....P...\n.....N..\nPPPP.PPP\nRNBQKB.R\n";

#[test]
fn board_prints_the_seed_sample_byte_for_byte() {
    let out = run_with_stdin(
        {
            let mut c = kifu();
            c.arg("board");
            c
        },
        SEED_INPUT.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout(&out), SEED_OUTPUT);
    assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
    // The same records as a file, with CRLF line ends.
    let dir = tempfile::tempdir().expect("tempdir");
    let path = write(dir.path(), "seed.fen", SEED_INPUT.replace('\n', "\r\n").as_bytes());
    let out = kifu().args(["board", &path]).output().expect("runs");
    assert_eq!(stdout(&out), SEED_OUTPUT);
}

#[test]
fn board_skips_an_invalid_record_and_says_why() {
    let input = SEED_INPUT.replacen("rnbqkbnr/pp1ppppp/8/2p5/4P3/8/", "rnbqkbnr/pp1ppppp/8/2p5/4P3/9/", 1);
    let out = run_with_stdin(
        {
            let mut c = kifu();
            c.arg("board");
            c
        },
        input.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(1));
    let boards: Vec<&str> = SEED_OUTPUT.split("\n\n").collect();
    assert_eq!(stdout(&out), format!("{}\n\n{}\n\n{}", boards[0], boards[1], boards[3]));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("fen::rank-width") && stderr.contains("<stdin>:3:"), "{stderr}");
}

#[test]
fn check_reads_fen_and_epd() {
    let dir = tempfile::tempdir().expect("tempdir");
    let fen = write(dir.path(), "seed.fen", SEED_INPUT.as_bytes());
    let epd = write(dir.path(), "one.epd", b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e4; id \"x\";\n");
    let out = kifu().args(["check", "--message-format", "json", &fen, &epd]).output().expect("runs");
    assert_eq!(out.status.code(), Some(0));
    let lines = json_lines(&out);
    let summary = lines.last().expect("summary");
    assert_eq!((summary["records"].as_u64(), summary["valid"].as_u64()), (Some(5), Some(5)));
    assert_eq!((summary["dialects"]["fen"].as_u64(), summary["dialects"]["epd"].as_u64()), (Some(4), Some(1)));
    let code = |args: &[&str]| kifu().arg("check").args(args).output().expect("runs").status.code();
    assert_eq!(code(&["--dialect", "usi", &fen]), Some(2), "a SFEN dialect for a FEN file");
    assert_eq!(code(&["--dialect", "chess960", &fen]), Some(0));
}

#[test]
fn psn_games() {
    snapshots(&[
        ("psn_tour_human", &["check", "examples/tour.psn"]),
        ("psn_tour_convert", &["convert", "--to", "psn", "examples/tour.psn"]),
        ("psn_tour_convert_kifu", &["convert", "--to", "kifu", "examples/tour.psn"]),
        ("psn_timed_convert_kifu", &["convert", "--to", "kifu", "tests/fixtures/psn/ok/dialect_shogidokoro.psn"]),
        ("psn_tsume_convert_kifu", &["convert", "--to", "kifu", "tests/fixtures/psn/ok/spec_fen_example.psn"]),
    ]);
}

/// KIF records are read in the encoding their content tells, checked, and converted: the same
/// game in UTF-8, Shift_JIS with CRLF, and EUC-JP converts to the same text, and converting
/// twice changes nothing.
#[test]
fn kif_records_are_read_in_any_encoding_and_converted() {
    let out = run(&["check", "tests/fixtures/kif"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let report = stdout(&out);
    assert!(report.ends_with("14 records in 14 files: 10 valid, 4 invalid, 1 warning (read as 14 KIF)\n"), "{report}");
    assert_eq!(report.matches("\n  × ").count(), 4, "one error in each invalid record: {report}");
    assert!(report.contains("kif::encoding"), "UTF-8 in a `.kif` file: {report}");
    let convert = |path: &str, to: &str| {
        let out = run(&["convert", "--to", to, path]);
        assert_eq!(out.status.code(), Some(0), "{path}: {}", text(&out.stderr));
        out.stdout
    };
    let utf8 = convert("tests/fixtures/kif/variations.kifu", "kifu");
    assert_eq!(convert("tests/fixtures/kif/variations.kif", "kifu"), utf8, "Shift_JIS and CRLF read as UTF-8");
    assert_eq!(
        convert("tests/fixtures/kif/handicap_eucjp.kif", "usi"),
        convert("tests/fixtures/kif/handicap.kifu", "usi"),
        "EUC-JP"
    );
    let dir = tempfile::tempdir().expect("temp dir");
    // The same game in KI2, in UTF-8 and in Shift_JIS with CRLF: the same moves, comments,
    // bookmark, variations and ending, without the times KI2 does not write.
    let ki2 = convert("tests/fixtures/kif/variations.ki2u", "kifu");
    assert_eq!(convert("tests/fixtures/kif/variations.ki2", "kifu"), ki2, "Shift_JIS and CRLF");
    // The KIF game without its times (`( 0:12/00:00:12)`), keeping the `+` after them.
    let untimed: String = text(&utf8)
        .lines()
        .map(|l| match l.find("( ") {
            Some(i) => format!("{}{}\n", l[..i].trim_end(), if l.ends_with('+') { "+" } else { "" }),
            None => format!("{l}\n"),
        })
        .collect();
    assert_eq!(text(&ki2), untimed, "KI2 reads as the KIF game");
    // Written as KI2, the KIF game is the KI2 fixture (without its first line, a note), in
    // UTF-8 or Shift_JIS; and converting the KI2 again changes nothing.
    let fixture = std::fs::read_to_string("tests/fixtures/kif/variations.ki2u").expect("fixture");
    let fixture = fixture.split_once('\n').expect("lines").1;
    let ki2u = convert("tests/fixtures/kif/variations.kifu", "ki2u");
    assert_eq!(text(&ki2u), fixture);
    let sjis = encoding_rs::SHIFT_JIS.decode(&convert("tests/fixtures/kif/variations.kifu", "ki2")).0.into_owned();
    assert_eq!(sjis, fixture);
    let again = write(dir.path(), "again.ki2u", &ki2u);
    assert_eq!(convert(&again, "ki2u"), ki2u, "converting KI2 twice changes nothing");
    assert_eq!(
        text(&convert("tests/fixtures/kif/relative.ki2u", "usi")),
        "sfen 4k4/9/9/9/9/9/9/3G5/3G1G3 b - 1 moves 6i5h 5a5b 5h4h 5b5a 4h5h 5a5b\n",
        "左上, 寄, 右寄"
    );
    let usi = text(&convert("tests/fixtures/kif/handicap.kifu", "usi"));
    assert_eq!(usi, "sfen lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1 moves 9a9b 7g7f\n");
    let again = write(dir.path(), "again.kifu", &utf8);
    assert_eq!(convert(&again, "kifu"), utf8, "converting twice changes nothing");
    let text_of = String::from_utf8(utf8).expect("UTF-8");
    for kept in ["*角道を開ける", "&角交換", "変化：2手", "( 1:02/00:01:14)", "まで5手で先手の勝ち"]
    {
        assert!(text_of.contains(kept), "{kept} is kept: {text_of}");
    }
    // A fault stops its game's conversion, with the first error named.
    let bad = write(dir.path(), "bad.kifu", "手合割：平手\n   1 ７五歩(77)\n".as_bytes());
    let out = run(&["convert", "--to", "usi", &bad]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("game not converted: error[kif::illegal-move]"), "{}", text(&out.stderr));
}

/// `kifu json` prints a KIF or KI2 game as played, and `kifu board` draws its positions.
#[test]
fn kif_records_as_json_and_boards() {
    // `kifu json`: the game as played, the same for KIF and KI2 but for the times.
    let json = run(&["json", "tests/fixtures/kif/variations.kifu", "tests/fixtures/kif/variations.ki2"]);
    assert_eq!(json.status.code(), Some(0), "{}", text(&json.stderr));
    let games = json_lines(&json);
    assert_eq!(games.len(), 2);
    let (kif, ki2) = (&games[0], &games[1]);
    assert_eq!(
        (kif["type"].as_str(), kif["format"].as_str(), kif["valid"].as_bool()),
        (Some("game"), Some("kif"), Some(true))
    );
    assert_eq!(ki2["encoding"], "shift-jis");
    let game = &kif["game"];
    assert_eq!(game["start"], START);
    assert_eq!(game["headers"][1], serde_json::json!({"key": "棋戦", "value": "練習対局"}));
    assert_eq!(game["comments"][0], "対局前のコメント");
    assert_eq!(game["moves"][2]["move"], "8h2b+");
    assert_eq!(game["moves"][2]["time"], serde_json::json!({"spent_ms": 62_000, "total_ms": 74_000}));
    assert_eq!(game["moves"][2]["bookmarks"][0], "角交換");
    assert_eq!(game["moves"][1]["variations"][1]["moves"][0]["move"], "7a6b", "the second variation of move 2");
    assert_eq!(game["ending"], serde_json::json!({"reason": "resignation", "result": "black"}));
    let moves = |g: &serde_json::Value| {
        g["game"]["moves"].as_array().map(|m| m.iter().map(|m| m["move"].clone()).collect::<Vec<_>>())
    };
    assert_eq!(moves(kif), moves(ki2));
    assert!(ki2["game"]["moves"][0]["time"].is_null(), "KI2 has no times");
    // `kifu board`: the position after the main line; `--each`, every position.
    let board = run(&["board", "--ascii", "tests/fixtures/kif/variations.ki2u"]);
    assert_eq!(board.status.code(), Some(0), "{}", text(&board.stderr));
    let usi = run(&["convert", "--to", "sfen", "tests/fixtures/kif/variations.ki2u"]);
    let last = text(&usi.stdout).lines().last().map(str::to_owned).expect("positions");
    let mut sfen_board = kifu();
    sfen_board.args(["board", "--ascii", "--format", "sfen", "-"]);
    let from_sfen = run_with_stdin(sfen_board, format!("{last}\n").as_bytes());
    assert_eq!(text(&board.stdout), text(&from_sfen.stdout));
    let each = run(&["board", "--each", "--ascii", "tests/fixtures/kif/variations.ki2u"]);
    assert_eq!(text(&each.stdout).matches("to move").count(), 6, "the start and five moves");
    let html = run(&["board", "--html", "tests/fixtures/kif/variations.ki2u"]);
    assert!(text(&html.stdout).contains("▲２二角成"), "each position named by its move");
    let bad_board = run(&["board", "tests/fixtures/kif/err_illegal_move.kifu"]);
    assert_eq!(bad_board.status.code(), Some(1));
    assert!(text(&bad_board.stderr).contains("kif::illegal-move"));
}

#[test]
fn kif_is_written_in_shift_jis_or_utf8_and_names_what_it_leaves_out() {
    let timed = "tests/fixtures/psn/ok/dialect_shogidokoro.psn";
    let kif = kifu().args(["convert", "--to", "kif", timed]).output().expect("runs");
    let kifu_out = kifu().args(["convert", "--to", "kifu", timed]).output().expect("runs");
    assert_eq!((kif.status.code(), kifu_out.status.code()), (Some(0), Some(0)));
    let (decoded, _, lossy) = encoding_rs::SHIFT_JIS.decode(&kif.stdout);
    assert!(!lossy && decoded.starts_with("#KIF version=2.0 encoding=Shift_JIS\n"), "{decoded}");
    let utf8 = String::from_utf8(kifu_out.stdout).expect("UTF-8");
    assert_eq!(decoded.replace("encoding=Shift_JIS", "encoding=UTF-8"), utf8);
    assert!(utf8.contains("先手：わたし\n"), "{utf8}");

    let dir = tempfile::tempdir().expect("tempdir");
    let emoji = write(dir.path(), "emoji.psn", "[Sente \"A 😀\"]\n1.P7g-7f\n".as_bytes());
    let out = kifu().args(["convert", "--to", "kif", &emoji]).output().expect("runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        out.stdout.is_empty() && stderr.contains("Shift_JIS has no `😀`") && stderr.contains("--to kifu"),
        "{stderr}"
    );

    let numbered =
        kifu().args(["convert", "--to", "kifu", "tests/fixtures/psn/ok/dialect_fen_sfen.psn"]).output().expect("runs");
    let stderr = String::from_utf8_lossy(&numbered.stderr);
    assert_eq!(numbered.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("warning: KIF cannot hold the start's move number: left out"), "{stderr}");
}

/// A KIF record as PSN: the headers under PSN's keywords, each time and the ending in the
/// comments the PSN reader reads them back from, one warning naming the bookmarks left out;
/// and written back as KIF, the record again but for its bookmark.
#[test]
fn kif_converts_to_psn_and_back() {
    let kif = "tests/fixtures/kif/variations.kifu";
    let out = kifu().args(["convert", "--to", "psn", kif]).output().expect("runs");
    let (psn, stderr) = (String::from_utf8(out.stdout).expect("UTF-8"), String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(psn.starts_with("[Date \"2024/01/05 10:00:00\"]\n[Event \"練習対局\"]\n[Sente \"先手の人\"]\n"), "{psn}");
    assert!(psn.contains("{対局前のコメント} 1. P7f {(00:12 / 00:00:12)} 1... P3d"), "{psn}");
    assert!(psn.contains("3. B*4e {(00:30 / 00:01:44)}\n{Resigns} ( 3. S8h"), "{psn}");
    assert!(psn.ends_with(" ) 1-0\n"), "{psn}");
    assert_eq!(stderr, format!("kifu: {kif}:1: warning: PSN cannot hold bookmarks: left out\n"));

    let dir = tempfile::tempdir().expect("tempdir");
    let written = write(dir.path(), "game.psn", psn.as_bytes());
    let back = kifu().args(["convert", "--to", "kifu", &written]).output().expect("runs");
    let direct = kifu().args(["convert", "--to", "kifu", kif]).output().expect("runs");
    let direct = String::from_utf8(direct.stdout).expect("UTF-8");
    let without_bookmark: String = direct.lines().filter(|l| !l.starts_with('&')).map(|l| format!("{l}\n")).collect();
    assert_eq!(String::from_utf8(back.stdout).expect("UTF-8"), without_bookmark);
    let again = kifu().args(["convert", "--to", "psn", &written]).output().expect("runs");
    assert_eq!(String::from_utf8(again.stdout).expect("UTF-8"), psn, "converting twice changes nothing");

    // A game longer than a PSN game may be is not converted: kifu would not read it back.
    let long = format!("手合割：平手\n   1 ７六歩(77)\n{}", "*あいうえおかきくけこ\n".repeat(10_000));
    let long = write(dir.path(), "long.kifu", long.as_bytes());
    let out = kifu().args(["convert", "--to", "psn", &long]).output().expect("runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!((out.status.code(), out.stdout.is_empty()), (Some(1), true), "{stderr}");
    assert!(stderr.contains("game not converted: as PSN it would take 323 KiB, more than the 256 KiB"), "{stderr}");
}

/// A CSA file of two records: written as CSA again, the same text; as USI, one line a game.
/// Its first record through KIF, KI2 and PSN and back to CSA is the same record but for what
/// each form cannot hold (a fraction of a second, KI2's times), named in one warning.
#[test]
fn csa_converts_to_every_game_format_and_back() {
    let csa = "tests/fixtures/csa/two-records.csa";
    let fixture = std::fs::read_to_string(csa).expect("the fixture");
    let out = run(&["convert", "--to", "csa", csa]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), fixture, "a CSA file converted to CSA is the same");
    let usi = run(&["convert", "--to", "usi", csa]);
    assert_eq!(
        text(&usi.stdout),
        format!(
            "sfen {START} moves 7g7f 3c3d 8h2b+ 3a2b\nsfen 4k4/9/4P4/9/9/9/9/9/4K4 b G2r2b3g4s4n4l17p 1 moves G*5b\n"
        )
    );
    let dir = tempfile::tempdir().expect("tempdir");
    let first_text = fixture.split("/\n").next().expect("a record");
    let first = write(dir.path(), "first.csa", first_text.as_bytes());
    let whole = first_text.replace("T12.500\n", "T12\n");
    let untimed: String = first_text.lines().filter(|l| !l.starts_with('T')).map(|l| format!("{l}\n")).collect();
    for (to, lost, back) in [
        ("kifu", "KIF cannot hold the fractions of a second of a move's time", &whole),
        ("ki2u", "KI2 cannot hold the moves' times", &untimed),
        ("psn", "PSN cannot hold the fractions of a second of a move's time", &whole),
    ] {
        let out = run(&["convert", "--to", to, &first]);
        assert_eq!(out.status.code(), Some(0), "{to}: {}", text(&out.stderr));
        assert_eq!(text(&out.stderr), format!("kifu: {first}:1: warning: {lost}: left out\n"));
        let written = write(dir.path(), &format!("game.{to}"), &out.stdout);
        let again = run(&["convert", "--to", "csa", &written]);
        assert_eq!(again.status.code(), Some(0), "{to}: {}", text(&again.stderr));
        assert_eq!(&text(&again.stdout), back, "{to} and back");
    }
    // Version 2.2 is Shift_JIS, in whole seconds.
    let v22 = run(&["convert", "--to", "csa-2.2", &first]);
    let (decoded, _, lossy) = encoding_rs::SHIFT_JIS.decode(&v22.stdout);
    assert!(!lossy && decoded.starts_with("V2.2\nN+先手の人\n") && decoded.contains("+7776FU\nT12\n"), "{decoded}");
}

/// A CSA file whose second record has an illegal move: its other records are converted, the
/// bad one is named by its line, and `kifu json` and `kifu board` give each record.
#[test]
fn csa_records_are_converted_one_by_one() {
    let dir = tempfile::tempdir().expect("tempdir");
    let three = "PI\n+\n+7776FU\n/\nPI\n+\n+7775FU\n/\nPI\n-\n-3334FU\n%CHUDAN\n";
    let path = write(dir.path(), "three.csa", three.as_bytes());
    let out = run(&["convert", "--to", "usi", &path]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stdout),
        format!("sfen {START} moves 7g7f\nsfen {} moves 3c3d\n", START.replace(" b ", " w "))
    );
    let stderr = text(&out.stderr);
    assert!(stderr.starts_with(&format!("kifu: {path}:5: game not converted: error[csa::illegal-move]")), "{stderr}");
    let json = run(&["json", &path]);
    let games = json_lines(&json);
    let valid: Vec<_> = games.iter().map(|g| (g["format"].as_str(), g["valid"].as_bool())).collect();
    assert_eq!(valid, [(Some("csa"), Some(true)), (Some("csa"), Some(false)), (Some("csa"), Some(true))]);
    assert_eq!(games[2]["game"]["ending"]["reason"], "interrupted");
    let board = run(&["board", "--ascii", &path]);
    assert_eq!(board.status.code(), Some(1));
    assert_eq!(text(&board.stdout).matches("to move").count(), 3, "a board a record");
    assert!(text(&board.stderr).contains("csa::illegal-move"));
    // `kifu check` counts the records of a CSA file, and which are valid as the codes selected say.
    let check = run(&["check", &path]);
    assert!(
        stdout(&check).ends_with("3 records: 2 valid, 1 invalid, 0 warnings (read as 3 CSA)\n"),
        "{}",
        stdout(&check)
    );
    let ignored = run(&["check", "--ignore", "csa::illegal-move", &path]);
    assert!(stdout(&ignored).contains("3 records: 3 valid, 0 invalid"), "{}", stdout(&ignored));
    // A CSA file larger than a KIF file may be is read to its end.
    let long = format!("PI\n+\n'{}\n+7776FU\n", "x".repeat(9 << 20));
    let path = write(dir.path(), "long.csa", long.as_bytes());
    let out = run(&["convert", "--to", "usi", &path]);
    assert_eq!(text(&out.stdout), format!("sfen {START} moves 7g7f\n"), "{}", text(&out.stderr));
}

/// A KIF, KI2 or JKF file holds one game: several go to files of their own in `--output-dir`
/// (numbered by their place in their input; a game with an error leaves its number unused),
/// each the bytes the game alone converts to; on standard output a second game is refused
/// and nothing is written. A form that holds several games gets a file an input. No file is
/// written over, and two inputs that would share a file are both named.
#[test]
fn convert_writes_a_game_a_file_for_the_forms_that_hold_one() {
    let dir = tempfile::tempdir().expect("tempdir");
    let records = ["PI\n+\n+7776FU\n-3334FU\n%TORYO\n", "PI\n+\n+7775FU\n", "PI\n+\n+2726FU\n%CHUDAN\n"];
    let three = write(dir.path(), "three.csa", records.join("/\n").as_bytes());
    let one = write(dir.path(), "one.csa", records[0].as_bytes());
    let alone = |record: &str, to: &str| {
        let path = write(dir.path(), "alone.csa", record.as_bytes());
        let out = run(&["convert", "--to", to, &path]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        out.stdout
    };
    for to in ["kif", "kifu", "ki2", "ki2u", "jkf"] {
        let out_dir = dir.path().join(format!("out-{to}"));
        let out_dir = out_dir.to_str().expect("a UTF-8 path");
        let out = run(&["convert", "--to", to, "--output-dir", out_dir, &three, &one]);
        assert_eq!(out.status.code(), Some(1), "{to}: the second record is not converted");
        assert_eq!(text(&out.stdout), "", "{to}");
        assert!(
            text(&out.stderr).contains(":7: game not converted: error[csa::illegal-move]"),
            "{}",
            text(&out.stderr)
        );
        let mut files: Vec<_> = std::fs::read_dir(out_dir)
            .expect("the folder")
            .map(|e| e.expect("an entry").file_name().to_string_lossy().into_owned())
            .collect();
        files.sort();
        assert_eq!(files, [format!("one.{to}"), format!("three-1.{to}"), format!("three-3.{to}")]);
        let read = |name: &str| std::fs::read(std::path::Path::new(out_dir).join(name)).expect(name);
        assert_eq!(read(&format!("three-1.{to}")), alone(records[0], to), "{to}");
        assert_eq!(read(&format!("three-3.{to}")), alone(records[2], to), "{to}");
        assert_eq!(read(&format!("one.{to}")), alone(records[0], to), "{to}");
        // Again: every file exists, and none is written over.
        let again = run(&["convert", "--to", to, "--output-dir", out_dir, &one]);
        assert_eq!(again.status.code(), Some(2), "{to}");
        assert!(
            text(&again.stderr).contains("it exists, and kifu writes no file over another"),
            "{}",
            text(&again.stderr)
        );
        assert_eq!(read(&format!("one.{to}")), alone(records[0], to), "{to}");
        // On standard output: refused, nothing written.
        let out = run(&["convert", "--to", to, &three]);
        assert_eq!(out.status.code(), Some(2), "{to}");
        assert_eq!(text(&out.stdout), "", "{to}");
        assert!(text(&out.stderr).contains("--output-dir DIR"), "{}", text(&out.stderr));
        // One game is written as ever.
        assert_eq!(run(&["convert", "--to", to, &one]).stdout, alone(records[0], to), "{to}");
    }
    // CSA holds several games: a file an input, the same bytes as on standard output.
    let out_dir = dir.path().join("out-csa");
    let out_dir = out_dir.to_str().expect("a UTF-8 path");
    let out = run(&["convert", "--to", "csa", "--output-dir", out_dir, &three]);
    assert_eq!(out.status.code(), Some(1));
    let file = std::fs::read(std::path::Path::new(out_dir).join("three.csa")).expect("three.csa");
    assert_eq!(file, run(&["convert", "--to", "csa", &three]).stdout);
    // Two inputs of the same name in two folders would share a file: the second is not written.
    std::fs::create_dir(dir.path().join("b")).expect("a folder");
    let other = write(&dir.path().join("b"), "one.csa", records[2].as_bytes());
    let out_dir = dir.path().join("out-same");
    let out_dir = out_dir.to_str().expect("a UTF-8 path");
    let out = run(&["convert", "--to", "jkf", "--output-dir", out_dir, &one, &other]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains(&format!("it holds a game of `{one}`")), "{}", text(&out.stderr));
    let kept = std::fs::read(std::path::Path::new(out_dir).join("one.jkf")).expect("one.jkf");
    assert_eq!(kept, alone(records[0], "jkf"));
}

#[test]
fn psn_json_places_are_lines_of_the_file() {
    let lines = bin::invalid_json_findings("examples/tour.psn");
    let bad = lines.iter().find(|l| l["code"] == "psn::bad-square").expect("the bad square of game 3");
    assert_eq!(
        (bad["line"].as_u64(), bad["column"].as_u64(), bad["end_column"].as_u64()),
        (Some(25), Some(7), Some(9))
    );
    let unclosed = lines.iter().find(|l| l["code"] == "psn::comment-unclosed").expect("the unclosed comment");
    assert_eq!((unclosed["line"].as_u64(), unclosed["column"].as_u64()), (Some(31), Some(10)));
    assert_eq!(unclosed["labels"][1]["line"].as_u64(), Some(32), "the game's end is the secondary label");
    let summary = lines.last().expect("summary");
    assert_eq!(
        (summary["records"].as_u64(), summary["valid"].as_u64(), summary["invalid"].as_u64()),
        (Some(4), Some(2), Some(2))
    );
    assert_eq!(summary["dialects"]["gsdb"].as_u64(), Some(1));
}

#[test]
fn psn_strict_and_stdin() {
    let departures = b"[Sente \"A\"]\n1.P7g-7f\n2.P3c-3d\n";
    let mut lenient = kifu();
    lenient.args(["check", "--format", "psn", "-"]);
    let out = run_with_stdin(lenient, departures);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(
        stdout(&out).ends_with("1 game: 1 valid, 0 invalid, 2 warnings (read as 1 PSN with departures)\n"),
        "{}",
        stdout(&out)
    );
    let mut strict = kifu();
    strict.args(["check", "--strict", "--format", "psn", "-"]);
    let out = run_with_stdin(strict, departures);
    assert_eq!(out.status.code(), Some(1));
    let mut dialect = kifu();
    dialect.args(["check", "--format", "psn", "--dialect", "usi", "-"]);
    assert_eq!(run_with_stdin(dialect, departures).status.code(), Some(2));
}

#[test]
fn psn_json_models() {
    let out = kifu().args(["json", "examples/tour.psn"]).output().expect("runs");
    assert_eq!(out.status.code(), Some(1), "two games of the tour have errors");
    let games = json_lines(&out);
    assert_eq!(games.len(), 4);
    let first = &games[0]["game"];
    assert_eq!(first["headers"][0]["key"], "Sente");
    assert_eq!(first["moves"][0]["move"]["to"], "7f");
    assert_eq!(first["moves"][0]["number"]["value"], 1);
    assert_eq!(first["moves"][2]["comments_after"][0]["text"], "Ibisha");
    assert_eq!(first["end"]["text"], "1-0");
    let gsdb = &games[1]["game"];
    assert_eq!(gsdb["dialect"], "gsdb");
    assert_eq!(gsdb["moves"][3]["variations"][0]["moves"][0]["move"]["from"]["value"], "4a");
    assert_eq!(games[3]["game"]["setup"]["sfen"], "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1");
}

#[test]
fn psn_awkward_bytes() {
    let dir = tempfile::tempdir().expect("temp dir");
    let cases: &[(&str, &[u8])] = &[
        ("empty.psn", b""),
        ("nul.psn", b"[Sente \"\0\"]\n1. P7f\0 P3d\n"),
        ("latin1.psn", b"[Sente \"S\xf6lter\"]\r\n1. P7f P3d\r\n"),
        ("not-text.psn", &[0xff, 0xfe, 0x00, 0x9f, 0x80, b'\n', b'[', 0xc3]),
        ("cr.psn", b"[Sente \"A\"]\r1. P7f\r[Sente \"B\"]\r1. P2f\r"),
    ];
    for (name, bytes) in cases {
        let path = write(dir.path(), name, bytes);
        let out = kifu().args(["check", &path]).output().expect("runs");
        assert!(matches!(out.status.code(), Some(0 | 1)), "{name}: {:?}", out.status);
        assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"), "{name}");
    }
    // 28,000 plies of rooks going back and forth: a 196 kB line (under the longest game kifu
    // reads), and sennichite.
    let long = format!("[Sente \"A\"]\n{}\n", "R2h-3h R8b-7b R3h-2h R7b-8b ".repeat(7_000));
    let path = write(dir.path(), "long.psn", long.as_bytes());
    let out = kifu().args(["check", &path]).output().expect("runs");
    assert_eq!(out.status.code(), Some(0));
    assert!(
        stdout(&out).ends_with("1 game: 1 valid, 0 invalid, 3 warnings (read as 1 GSDB archive)\n"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn psn_game_boards() {
    bin::settings("cli").bind(|| {
        assert_cmd_snapshot!("psn_board_final", kifu().args(["board", "tests/fixtures/psn/ok/spec_handicap.psn"]));
    });
    // `--each`: the start position and one board after each of the three moves.
    let out =
        kifu().args(["board", "--each", "--ascii", "tests/fixtures/psn/ok/spec_handicap.psn"]).output().expect("runs");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout(&out).matches("to move").count(), 4, "{}", stdout(&out));
    // The page steps through the game: one frame per position.
    let out = kifu().args(["board", "--html", "tests/fixtures/psn/ok/spec_pairs.psn"]).output().expect("runs");
    assert_eq!(out.status.code(), Some(0));
    let page = stdout(&out);
    assert_eq!(page.matches("class=\"frame\"").count(), 1 + 8, "the start and eight moves");
    assert!(page.contains("data-frame=\"8\""), "the page opens on the final position");
}

/// Game records kifu does not read (PGN) get one report naming their format, by extension or
/// by their first lines, and no wall of syntax errors; checking goes on with the next file, and
/// the EPD dialects are those of FEN.
#[test]
fn formats_kifu_does_not_read_get_one_report() {
    let dir = tempfile::tempdir().expect("temp dir");
    let pgn = write(dir.path(), "game.pgn", b"[Event \"x\"]\n1. e4 e5\n");
    let epd = write(dir.path(), "x960.epd", b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - id \"x\";\n");
    let out = kifu().args(["check", "--dialect", "chess960", &pgn, &epd]).output().expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let text = stdout(&out) + &String::from_utf8_lossy(&out.stderr);
    assert_eq!(text.matches("game record: kifu does not read").count(), 1, "{text}");
    assert!(text.contains("is a PGN game record"), "{text}");
    assert!(text.contains("1 record: 1 valid, 0 invalid"), "the EPD file is still checked, as Chess960: {text}");
    assert!(!text.contains("syntax"), "{text}");
}

/// A file of chess FENs read as SFEN, or of words, gets one report for its first line, which
/// names what the lines are and the flag to use; the other lines like it are counted, not shown,
/// and any line that is a record is still checked and reported as one.
#[test]
fn a_file_of_another_format_gets_one_report() {
    let dir = tempfile::tempdir().expect("temp dir");
    let chess = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1\n8/8/4k3/8/8/4K3/8/8 w - - 0 1\n";
    let text = format!("\n{}{START} x\n{chess}", chess.repeat(20));
    let fens = write(dir.path(), "fens.sfen", text.as_bytes());
    let out = kifu().args(["check", "--output-format", "json", &fens]).output().expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let lines = json_lines(&out);
    let reports: Vec<_> = lines.iter().filter(|l| l["type"] == "diagnostic").collect();
    assert_eq!(reports.len(), 2, "{lines:#?}");
    assert_eq!(reports[0]["code"], "sfen::not-a-record");
    assert_eq!(reports[0]["line"], 2, "the first line of the file that is not blank");
    let message = reports[0]["message"].as_str().unwrap_or_default();
    assert!(message.contains("each of its first 5 lines looks like a chess FEN"), "{message}");
    assert!(reports[0]["help"].as_str().is_some_and(|h| h.contains("`--format fen`")));
    assert_eq!(reports[1]["line"], 42, "the record among them is checked: {:?}", reports[1]);
    let summary = lines.last().expect("a summary");
    assert_eq!((summary["records"].as_u64(), summary["hidden"].as_u64()), (Some(43), Some(41)), "{summary}");

    // Lines of words: one report too; a file whose lines differ gets one report a line.
    let words = write(dir.path(), "notes.fen", "these are my notes\non chess positions\nto study\n".as_bytes());
    let mixed = write(
        dir.path(),
        "mixed.fen",
        "these are my notes\nlnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n".as_bytes(),
    );
    let out = kifu().args(["check", &words, &mixed]).output().expect("runs");
    let text = stdout(&out);
    assert_eq!(text.matches("fen::not-a-record").count(), 3, "{text}");
    assert!(text.contains("none of its first 3 lines is one"), "{text}");
    assert!(text.contains("this line is not a FEN record: it looks like an SFEN record"), "{text}");
    assert!(text.contains("2 lines that are not records not shown"), "{text}");
}

/// Shell completions and the manual page come from the same definitions as `--help`: every
/// command is in them, and bash reads the script without a syntax error.
#[test]
fn completions_and_the_manual_page_name_every_command() {
    let commands = ["check", "board", "json", "convert", "tree", "grammar", "conformance", "completions", "man"];
    let bash = kifu().args(["completions", "bash"]).output().expect("runs");
    assert_eq!(bash.status.code(), Some(0));
    let script = stdout(&bash);
    for c in commands {
        assert!(script.contains(c), "{c} in the bash completions");
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let path = write(dir.path(), "kifu.bash", script.as_bytes());
    let syntax = std::process::Command::new("bash").args(["-n", &path]).status().expect("bash runs");
    assert!(syntax.success(), "bash -n on the completion script");
    for shell in ["zsh", "fish", "powershell", "elvish"] {
        let out = kifu().args(["completions", shell]).output().expect("runs");
        assert!(out.status.success() && out.stdout.len() > 500, "{shell}");
    }
    assert_eq!(kifu().args(["completions", "tcsh"]).output().expect("runs").status.code(), Some(2));
    let man = stdout(&kifu().arg("man").output().expect("runs"));
    assert!(man.contains(".TH kifu 1"), "a roff page: {}", &man[..man.len().min(200)]);
    for c in commands {
        assert!(man.contains(&format!("kifu\\-{c}")) || man.contains(c), "{c} in the manual page");
    } // Each command's own page, with its options and exit status.
    let check = stdout(&kifu().args(["man", "check"]).output().expect("runs"));
    assert!(check.contains(".TH kifu-check 1"), "{}", &check[..check.len().min(200)]);
    assert!(check.contains("\\-\\-unsafe\\-fixes") && check.contains("Exit status"), "{check}");
    assert_eq!(kifu().args(["man", "nope"]).output().expect("runs").status.code(), Some(2));
}

/// Every command takes `--message-format` and `--color`, before or after its name; the
/// commands whose standard output is data (`board`, `json`, `convert`, `tree`) write findings
/// on standard error, in the chosen form.
#[test]
fn every_command_reports_findings_the_same_way() {
    let dir = tempfile::tempdir().expect("temp dir");
    let fen = write(dir.path(), "two.fen", b"8/8/8/8/8/8/8/K6k w - - 0 1\n8/8/8/8/8/8/8/K6 w - - 0 1\n");
    for (args, data) in [
        (vec!["board", "--message-format", "json", &fen], "K......k"),
        (vec!["--message-format", "json", "json", &fen], "\"pieces\""),
        (vec!["tree", "--ast", "--message-format", "json", &fen], "Record {"),
    ] {
        let out = kifu().args(&args).output().expect("runs");
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(stdout(&out).contains(data), "{args:?}: the valid record's data on standard output");
        let err = String::from_utf8_lossy(&out.stderr);
        let findings: Vec<serde_json::Value> =
            err.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{args:?}: {l}: {e}"))).collect();
        assert!(!findings.is_empty(), "{args:?}");
        assert!(findings.iter().all(|f| f["type"] == "diagnostic" && f["line"] == 2), "{args:?}: {err}");
    }
    let coloured = kifu().args(["board", "--color", "always", &fen]).output().expect("runs");
    assert!(String::from_utf8_lossy(&coloured.stderr).contains('\u{1b}'), "colour on standard error");
    let plain = kifu().args(["board", "--color", "never", &fen]).output().expect("runs");
    assert!(!String::from_utf8_lossy(&plain.stderr).contains('\u{1b}'));
}

/// A record shown in a report ends where the record does, so that it can be copied as it is: a
/// space follows it only in a report whose label points past its end (a missing field).
#[test]
fn a_shown_record_has_no_trailing_space_unless_a_label_points_past_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let short = START.replacen("LNSGKGSNL", "LNSGKGSN", 1);
    let cut = START.strip_suffix(" - 1").expect("hands and a move number");
    let path = write(dir.path(), "a.sfen", format!("{short}\n{cut}\n").as_bytes());
    let out = kifu().args(["check", "--color", "never", &path]).output().expect("runs");
    let shown = stdout(&out);
    let lines: Vec<&str> = shown.lines().filter(|l| l.contains(" │ lnsg")).collect();
    assert_eq!(lines.len(), 2, "{shown}");
    assert!(lines[0].ends_with(&short), "{shown}");
    // The hands are missing: the label points at the place after the record.
    assert!(lines[1].ends_with(&format!("{cut} ")), "{shown}");
}

/// A JKF record (kifu's own test game: comments, times and forks within forks) is valid; written
/// as JKF it is the same, through KIF it comes back the same, and through CSA, KI2 and PSN its
/// main line comes back, what the form cannot hold named once.
#[test]
fn jkf_converts_to_every_game_format_and_back() {
    let jkf = "tests/fixtures/jkf/variations.jkf";
    let fixture = std::fs::read_to_string(jkf).expect("the fixture");
    let check = run(&["check", jkf]);
    assert_eq!(text(&check.stdout), "1 record: 1 valid, 0 invalid, 0 warnings (read as 1 JKF)\n");
    let out = run(&["convert", "--to", "jkf", jkf]);
    assert_eq!((out.status.code(), text(&out.stderr)), (Some(0), String::new()));
    assert_eq!(text(&out.stdout), fixture, "a JKF record converted to JKF is the same");
    let usi = text(&run(&["convert", "--to", "usi", jkf]).stdout);
    assert_eq!(usi, format!("sfen {START} moves 7g7f 3c3d 8h2b+ 3a2b B*4e\n"));
    let dir = tempfile::tempdir().expect("tempdir");
    for (to, lost) in [
        ("kifu", None),
        ("csa", Some("CSA cannot hold variations")),
        ("ki2u", Some("KI2 cannot hold the moves' times")),
        ("psn", None),
    ] {
        let out = run(&["convert", "--to", to, jkf]);
        assert_eq!(out.status.code(), Some(0), "{to}: {}", text(&out.stderr));
        match lost {
            None => assert_eq!(text(&out.stderr), ""),
            Some(lost) => assert!(text(&out.stderr).contains(lost), "{to}: {}", text(&out.stderr)),
        }
        let written = write(dir.path(), &format!("game.{to}"), &out.stdout);
        let again = run(&["convert", "--to", "jkf", &written]);
        assert_eq!(again.status.code(), Some(0), "{to}: {}", text(&again.stderr));
        if to == "kifu" {
            assert_eq!(text(&again.stdout), fixture, "through KIF");
        }
        let back = write(dir.path(), "back.jkf", &again.stdout);
        assert_eq!(text(&run(&["convert", "--to", "usi", &back]).stdout), usi, "through {to}");
    }
    let json = run(&["json", jkf]);
    let line: serde_json::Value = serde_json::from_slice(&json.stdout).expect("a JSON line");
    assert_eq!((line["format"].as_str(), line["valid"].as_bool()), (Some("jkf"), Some(true)), "{line}");
}

/// A JKF record with a fault: one error at the value, with its path; not converted.
#[test]
fn a_jkf_fault_is_reported_at_its_value_and_the_game_is_not_converted() {
    let dir = tempfile::tempdir().expect("tempdir");
    let fixture = std::fs::read_to_string("tests/fixtures/jkf/variations.jkf").expect("the fixture");
    let bad = fixture.replacen(
        "\"piece\":\"KA\",\"promote\":true,\"capture\":\"KA\"",
        "\"piece\":\"KA\",\"promote\":true,\"capture\":\"HI\"",
        1,
    );
    assert_ne!(bad, fixture);
    let path = write(dir.path(), "bad.jkf", bad.as_bytes());
    let out = run(&["check", &path]);
    assert_eq!(out.status.code(), Some(1));
    let report = text(&out.stdout) + &text(&out.stderr);
    assert_eq!(report.matches("jkf::contradicts").count(), 1, "{report}");
    assert!(report.contains("`capture` says HI, but the piece on 22 is KA"), "{report}");
    let out = run(&["convert", "--to", "usi", &path]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("game not converted"), "{}", text(&out.stderr));
}
