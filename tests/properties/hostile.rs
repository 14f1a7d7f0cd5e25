//! Hostile input on the stable toolchain: the stand-in for the fuzz targets in `fuzz/`
//! (cargo-fuzz needs nightly), through the same entry points with the same promises
//! (`tests/common/entry.rs`: no panic, labels within their text, one primary label each, bytes
//! that are not UTF-8 never valid, round trips stable).
//!
//! Inputs: arbitrary bytes; the repository's own fixtures and examples with bytes inserted,
//! deleted or replaced (control characters, bidi controls, stray UTF-8 bytes, NUL); and built
//! attacks: deep nesting, long lines, huge repetition counts and numbers.

use crate::common::edits;
use crate::common::entry;

use std::path::Path;
use std::sync::OnceLock;

use proptest::prelude::*;
use proptest::sample::Index;

/// An entry point, by the name of its fuzz target.
type Entry = (&'static str, fn(&[u8]));

/// Every entry point.
const ENTRIES: [Entry; 14] = [
    ("sfen_check", entry::sfen_check),
    ("fen_check", entry::fen_check),
    ("epd_check", entry::epd_check),
    ("psn_check", entry::psn_check),
    ("kif_check", entry::kif_check),
    ("csa_check", entry::csa_check),
    ("jkf_check", entry::jkf_check),
    ("json_check", entry::json_check),
    ("psn_convert", entry::psn_convert),
    ("position_convert", entry::position_convert),
    ("grammar_load", entry::grammar_load),
    ("lsp_session", entry::lsp_session),
    ("file_names", entry::file_names),
    ("fix", entry::fix),
];

/// The entry points that read a file with this extension.
fn entries_for(ext: &str) -> Vec<Entry> {
    let names: &[&str] = match ext {
        "sfen" => &["sfen_check", "position_convert"],
        "fen" => &["fen_check", "position_convert"],
        "epd" => &["epd_check"],
        "psn" => &["psn_check", "psn_convert"],
        "kif" | "kifu" => &["kif_check"],
        "csa" => &["csa_check"],
        "jkf" => &["jkf_check"],
        "json" => &["json_check"],
        "pest" => &["grammar_load"],
        "lsp" => &["lsp_session"],
        _ => &[],
    };
    ENTRIES.into_iter().filter(|(name, _)| names.contains(name)).collect()
}

/// Runs `bytes` through the entry points.
fn run(entries: &[Entry], bytes: &[u8]) {
    for (_, entry) in entries {
        entry(bytes);
    }
}

/// Runs a file with this extension through `--fix` and the language server, as their entry
/// points take it (the format named by the first byte; the document after a NUL).
fn as_file(ext: &str, bytes: &[u8]) {
    let letter = match ext {
        "sfen" => b's',
        "fen" => b'f',
        "epd" => b'e',
        "psn" => b'p',
        "json" => b'j',
        _ => return,
    };
    entry::fix(&[&[letter], bytes].concat());
    entry::fix(&[&[letter.to_ascii_uppercase()], bytes].concat());
    // Every thing the script can do, on the first lines: hovers, actions, edits, junk, shutdown.
    let script =
        [0, 0, 0, 1, 1, 0, 0, 5, 2, 3, 4, 0, 1, 1, 2, 2, b'x', b'\n', 0, 2, 1, 5, 6, 3, b'{', b'}', b'x', 3, 7, 0];
    entry::lsp_session(&[ext.as_bytes(), b"\0", bytes, b"\0", &script].concat());
}

/// The repository's own examples and fixtures: (extension, bytes). Line formats are cut into
/// their lines, as the line entry points take one line.
fn seeds() -> &'static [(String, Vec<u8>)] {
    static SEEDS: OnceLock<Vec<(String, Vec<u8>)>> = OnceLock::new();
    SEEDS.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut files = Vec::new();
        let mut dirs = vec![root.join("examples"), root.join("tests/fixtures")];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).expect("a fixture folder").flatten() {
                let path = entry.path();
                if path.is_dir() {
                    dirs.push(path);
                } else {
                    files.push(path);
                }
            }
        }
        files.sort();
        let mut out = Vec::new();
        for path in files {
            let ext = path.extension().and_then(|e| e.to_str()).unwrap_or_default().to_owned();
            let bytes = std::fs::read(&path).expect("a fixture");
            match ext.as_str() {
                "sfen" | "fen" | "epd" => {
                    for line in bytes.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
                        out.push((ext.clone(), line.strip_suffix(b"\r").unwrap_or(line).to_vec()));
                    }
                }
                "psn" | "json" | "pest" | "kif" | "kifu" => out.push((ext, bytes)),
                _ => {}
            }
        }
        // A grammar with a record to parse, as the grammar target takes them.
        out.push((
            "pest".to_owned(),
            format!(
                "{}\0lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
                kifu::notation::grammar::SFEN
            )
            .into_bytes(),
        ));
        out
    })
}

/// What edits insert: control characters (ESC sequences, BEL, NUL, DEL, C1), bidi controls,
/// look-alikes, bytes that are not UTF-8 on their own, and the formats' own punctuation.
const INSERTS: &[&[u8]] = &[
    b"\x1b[2J",
    b"\x1b]0;title\x07",
    b"\x07",
    b"\0",
    b"\x7f",
    "\u{9b}".as_bytes(),
    "\u{202E}".as_bytes(),
    "\u{2066}".as_bytes(),
    "\u{FEFF}".as_bytes(),
    "\u{3000}".as_bytes(),
    "ｐ".as_bytes(),
    "歩".as_bytes(),
    b"\xFF",
    b"\xC3",
    b"\x80",
    b"\xE2\x80",
    b"\xEF\xBB\xBF",
    b"\xED\xA0\x80",
    b"\r",
    b"\n",
    b"\r\n",
    b"\t",
    b" ",
    b"(",
    b")",
    b"{",
    b"}",
    b"[",
    b"]",
    b"\"",
    b"\\",
    b";",
    b"/",
    b"+",
    b"*",
    b"-",
    b"0",
    b"99999999999999999999",
];

fn insertion() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        3 => prop::sample::select(INSERTS).prop_map(<[u8]>::to_vec),
        1 => prop::collection::vec(any::<u8>(), 1..4),
    ]
}

/// A seed and edits of it.
fn mutated_seed() -> impl Strategy<Value = (String, Vec<u8>)> {
    (any::<Index>(), prop::collection::vec(edits::edit(insertion, 7), 1..6)).prop_map(|(which, edits)| {
        let (ext, bytes) = which.get(seeds());
        let mut bytes = bytes.clone();
        edits::apply_bytes(&mut bytes, &edits);
        (ext.clone(), bytes)
    })
}

/// `unit` repeated `n` times between `before` and `after`.
fn repeat(before: &str, unit: &str, n: usize, after: &str) -> Vec<u8> {
    let mut s = String::with_capacity(before.len() + unit.len() * n + after.len());
    s.push_str(before);
    for _ in 0..n {
        s.push_str(unit);
    }
    s.push_str(after);
    s.into_bytes()
}

const START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
const CHESS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Deepest nesting the attacks build: far past every depth limit (PSN variations, a grammar's
/// parentheses), so the limits' reports are reached, and deep enough that recursion on the
/// depth would overflow a worker's stack.
const DEEP: usize = 20_000;

/// Control characters, and bytes that start a two-byte UTF-8 sequence.
fn controls() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(prop::sample::select(vec![0u8, 7, 8, 9, 10, 13, 27, b'[', 127, 0x9b, 0xc2]), 0..300)
}

/// Inputs built to hurt, each with the entry point it goes through.
fn attack() -> impl Strategy<Value = (&'static str, Vec<u8>)> {
    let n = |max: usize| 0..=max;
    prop_oneof![
        // Deep nesting.
        n(DEEP).prop_map(|n| ("json", repeat("", "[", n, ""))),
        n(DEEP).prop_map(|n| ("json", repeat("", "{\"pieces\":", n, "1"))),
        n(DEEP).prop_map(|n| ("psn", repeat("P7f ", "{", n, ""))),
        n(DEEP).prop_map(|n| ("psn", repeat("1. P7f ", "(P3d ", n, ""))),
        n(DEEP).prop_map(|n| ("psn", repeat("1. P7f P3d ", "(1... P8d ", n, &")".repeat(n)))),
        n(DEEP).prop_map(|n| ("pest", repeat("a = { ", "(", n, &format!("\"x\"{} }}\0x", ")".repeat(n))))),
        // Long lines, around the longest line parsed and far beyond.
        (4000usize..4200).prop_map(|n| ("sfen", repeat("", "p", n, " b - 1"))),
        (4000usize..4200).prop_map(|n| ("fen", repeat("", "8/", n / 2, " w - - 0 1"))),
        (4000usize..4200).prop_map(|n| ("epd", repeat(CHESS, " id \"x\";", n / 8, ""))),
        n(200_000).prop_map(|n| ("psn", repeat("[Event \"", "x", n, "\"]\n1. P7f\n"))),
        n(20_000).prop_map(|n| ("psn", repeat("", "P7f P3d P2f P8d ", n, ""))),
        n(100_000).prop_map(|n| ("json", repeat("{\"sideOnMove\":\"", "x", n, "\"}"))),
        // Huge counts and numbers.
        "[0-9]{1,40}".prop_map(|n| ("sfen", format!("4k4/9/9/9/9/9/9/9/4K4 b {n}p {n}").into_bytes())),
        "[0-9]{1,40}".prop_map(|n| ("fen", format!("4k3/8/8/8/8/8/8/4K3 w - - {n} {n}").into_bytes())),
        "[0-9]{1,40}".prop_map(|n| ("psn", format!("{n}. P7f P3d {n}... P2f\n").into_bytes())),
        "[0-9]{1,40}".prop_map(|n| ("json", format!("{{\"sideOnMove\":\"black\",\"blackHand\":[{n},0,0,0,0,0,0],\"whiteHand\":[0,0,0,0,0,0,0],\"pieces\":{{\"5a\":\"wK\",\"5i\":\"bK\"}},\"moveNumber\":{n}}}").into_bytes())),
        "[0-9]{1,3}".prop_map(|n| ("pest", format!("a = {{ \"x\"{{{n}}} }}\0xxxx").into_bytes())),
        // What crashed the grammar loader: huge repetition counts and stack indices, characters
        // past U+10FFFF, and the stack's operations on an empty stack.
        "[0-9]{4,12}".prop_map(|n| ("pest", format!("a = {{ \"x\"{{{n}}} }}\0x").into_bytes())),
        "[0-9]{4,12}".prop_map(|n| ("pest", format!("a = {{ PEEK[{n}..] }}\0x").into_bytes())),
        "[0-9a-fA-F]{6,8}".prop_map(|n| ("pest", format!("a = {{ \"\\u{{{n}}}\" }}\0x").into_bytes())),
        prop::sample::select(vec!["POP", "PEEK", "DROP", "PEEK_ALL", "POP_ALL"])
            .prop_map(|op| ("pest", format!("a = {{ {op} }}\0x\n").into_bytes())),
        // Many records and findings.
        // A document of junk lines or of many games, its outline, then code actions from its
        // start to far below its end (`\u{ff}` is the bytes C3 BF: a line byte with the high bit).
        (900usize..1400).prop_map(|n| ("lsp", repeat("sfen\0", "x\n", n, "\0\u{3}\u{1}\u{0}\u{0}\u{ff}\u{7f}"))),
        (1900usize..2300).prop_map(|n| ("lsp", repeat("psn\0", "[Event \"x\"]\n1. P7f\n", n, "\0\u{3}\u{1}\u{0}\u{0}\u{ff}\u{7f}"))),
        n(5_000).prop_map(|n| ("json", repeat("[", "1,", n, "1]"))),
        n(5_000).prop_map(|n| ("psn", repeat("", "[A \"b\"]\n1. x\n\n", n, ""))),
        n(2_000).prop_map(|n| ("pest", repeat("", "a = { \"x\" }\n", n, "\0x"))),
        n(20_000).prop_map(|n| ("kif", repeat("手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n", "\n変化：2手\n   2 ８四歩(83)\n   3 ２六歩(27)\n", n, ""))),
        n(20_000).prop_map(|n| ("kif", repeat("", "   1 ７六歩(77)\n*", n, ""))),
        n(100_000).prop_map(|n| ("kif", repeat("*", "x", n, "\n   1 ７六歩(77)\n"))),
        "[0-9]{1,40}".prop_map(|n| ("kif", format!("   {n} ７六歩(77)   ({n}:{n}/{n}:{n}:{n})\n変化：{n}手\n").into_bytes())),
        // Control characters everywhere.
        controls().prop_map(|b| ("sfen", [START.as_bytes(), &b].concat())),
        controls().prop_map(|b| ("psn", [b"[Event \"".as_slice(), &b, b"\"]\n1. P7f {", &b, b"} P3d\n"].concat())),
        controls().prop_map(|b| ("json", [b"{\"sideOnMove\":\"".as_slice(), &b, b"\"}"].concat())),
    ]
}

/// How many cases each property runs: enough to reach the entry points' corners, few enough
/// for the whole file to run in seconds in a debug build.
const CASES: u32 = 300;

proptest! {
    #![proptest_config(ProptestConfig { cases: CASES, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        run(&ENTRIES, &bytes);
    }

    #[test]
    fn mutated_fixtures((ext, bytes) in mutated_seed()) {
        run(&entries_for(&ext), &bytes);
        as_file(&ext, &bytes);
    }

    #[test]
    fn attacks((ext, bytes) in attack()) {
        run(&entries_for(ext), &bytes);
    }
}

/// Names that would act where they are written: line ends that start a workflow command or a
/// diff hunk, `::`, `%`, `#`, `?`, ESC, BEL, C1 and bidirectional controls, quotes and
/// backslashes, an absolute path; each with a record that has a fix and one that has none.
#[test]
fn hostile_names() {
    let names = [
        "a\n::error file=README.md,line=1::INJECTED\n::stop-commands::x\n.sfen",
        "x\n+++ victim.sfen\n@@ -1 +1 @@\n-a\n+PWNED\n.sfen",
        "a%20b#c?d.sfen",
        "a,b:c=d%0A.sfen",
        "\u{1b}]0;title\u{7}\u{1b}[2J.sfen",
        "\u{9b}31m\u{85}.sfen",
        "evil\u{202e}nfs.exe\u{2066}\u{200f}.sfen",
        "\"quoted\\back\tslash\".sfen",
        "/abs/päth with space.sfen",
        "",
    ];
    let records: [&[u8]; 3] = [
        b"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 01",
        b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 \x1b[31m",
        b"\xe2\x80\xae9/9 b - 1",
    ];
    for name in names {
        for record in records {
            entry::file_names(&[name.as_bytes(), b"\0", record].concat());
        }
        entry::file_names(name.as_bytes());
    }
}

/// The seeds themselves hold, unchanged.
#[test]
fn fixtures_as_they_are() {
    for (ext, bytes) in seeds() {
        for (_, entry) in entries_for(ext) {
            entry(bytes);
        }
        as_file(ext, bytes);
    }
}

/// Replays inputs a fuzzer saved (a crash, a slow unit) on the stable toolchain:
/// `KIFU_REPLAY=fuzz/artifacts/psn_check/crash-… cargo test --test properties hostile::replay -- --ignored`
/// runs the file through the entry point its folder names, or through every entry point.
#[test]
#[ignore = "replays the file KIFU_REPLAY names (.ci/run replays a regression)"]
fn replay() {
    let path = std::env::var_os("KIFU_REPLAY").expect("KIFU_REPLAY names the file to replay");
    let path = Path::new(&path);
    let bytes = std::fs::read(path).expect("the file KIFU_REPLAY names");
    let folder = path.parent().and_then(Path::file_name).and_then(|n| n.to_str()).unwrap_or_default();
    let chosen: Vec<_> = ENTRIES.iter().filter(|(name, _)| *name == folder).collect();
    for (name, entry) in if chosen.is_empty() { ENTRIES.iter().collect() } else { chosen } {
        eprintln!("{name}");
        entry(&bytes);
    }
}

/// What the fuzzers found, kept in `fuzz/regressions/<target>/` once fixed: each file goes
/// through the entry point its folder names, on every `cargo test`.
#[test]
fn fuzz_regressions() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/regressions");
    let mut ran = 0;
    for (name, entry) in ENTRIES {
        let Ok(files) = std::fs::read_dir(root.join(name)) else { continue };
        for file in files {
            let path = file.expect("a regression file").path();
            eprintln!("{name}: {}", path.display());
            entry(&std::fs::read(&path).expect("a regression file"));
            ran += 1;
        }
    }
    assert!(ran > 0, "no regression file under {}", root.display());
}

#[test]
fn every_target_has_an_entry() {
    let manifest = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/Cargo.toml"))
        .expect("fuzz/Cargo.toml");
    for (name, _) in ENTRIES {
        assert!(manifest.contains(&format!("name = \"{name}\"")), "no fuzz target `{name}`");
    }
}
