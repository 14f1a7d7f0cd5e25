//! PSN read as a stream: game by game, each game in its own encoding, whatever the pieces the
//! work is cut into; a game left inside a comment or a variation hides no game after it; a game
//! too long to read, and input that is no text at all, get one report each.

use std::io::{BufReader, Read, Write as _};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use kifu::psn::stream::{check_parallel, MAX_GAME_BYTES};
use kifu::psn::Options;

fn kifu() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_kifu"));
    cmd.env("NO_COLOR", "1").env_remove("COLUMNS").current_dir(env!("CARGO_MANIFEST_DIR"));
    cmd
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("write a temp file");
    path.to_string_lossy().into_owned()
}

fn json_lines(out: &Output) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(&out.stdout).lines().map(|l| serde_json::from_str(l).expect("each line is JSON")).collect()
}

/// Every PSN fixture, one after the other, and texts that test the cuts between games.
fn sample() -> Vec<u8> {
    let mut bytes = Vec::new();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/psn");
    let mut paths = Vec::new();
    for sub in ["ok", "err"] {
        for e in std::fs::read_dir(dir.join(sub)).expect("fixtures").flatten() {
            if e.path().extension().is_some_and(|x| x == "psn") {
                paths.push(e.path());
            }
        }
    }
    paths.sort();
    for p in paths {
        bytes.extend(std::fs::read(p).expect("a fixture"));
        bytes.extend(b"\n");
    }
    bytes.extend("[Sente \"羽生\"]\r\n1. P7f {a comment\nover lines} P3d\r\n\n".as_bytes());
    bytes.extend(b"1. P7f (P3d\n\n1. P2f P8d 1-0\n1. P7f {open\n\n1. P2f Resigns 1. P7f\n");
    bytes.extend(b"[Sente \"S\xf6lter\"]\n1. P7f P3d\n[Sente \"\x82\xed\x82\xbd\"]\n1. P7f\n");
    bytes
}

/// What the CLI's check writes for a stream, cut into pieces of `piece` bytes, on `workers`
/// threads, read through a buffer of `buffer` bytes.
fn reports(bytes: &[u8], piece: usize, workers: usize, buffer: usize) -> Vec<String> {
    let mut out = Vec::new();
    let input = BufReader::with_capacity(buffer, bytes);
    let result = check_parallel(
        input,
        Options::default(),
        piece,
        workers,
        |g| {
            let mut s = format!("{} {} {:?} {}\n", g.checked.game.line, g.checked.game.dialect, g.encoding, g.text);
            for d in &g.checked.diagnostics {
                s.push_str(&format!("  {} {:?} {d}\n", d.code, d.span()));
            }
            s
        },
        |s| {
            out.push(s);
            Ok(())
        },
    );
    assert!(result.is_ok());
    out
}

#[test]
fn the_verdict_does_not_depend_on_the_pieces() {
    let bytes = sample();
    let whole = reports(&bytes, usize::MAX, 1, 1 << 16);
    assert!(whole.len() > 100, "{} games", whole.len());
    for (piece, workers, buffer) in [(1, 1, 1), (1, 3, 7), (100, 2, 3), (4096, 4, 64), (256 * 1024, 2, 1 << 16)] {
        assert_eq!(reports(&bytes, piece, workers, buffer), whole, "pieces of {piece}, {workers} workers");
    }
    // The library's whole-file reader agrees.
    let file = kifu::psn::check_bytes(&bytes, Options::default());
    assert_eq!(file.games.len(), whole.len());
}

#[test]
fn a_stray_byte_touches_only_its_game() {
    let dir = tempfile::tempdir().expect("temp dir");
    // One byte 0xFF, alone, in the second game of a UTF-8 file.
    let mut bytes = "[Sente \"羽生\"]\n1. P7f P3d\n\n[Sente \"A".as_bytes().to_vec();
    bytes.push(0xff);
    bytes.extend("\"]\n1. P7f P3d\n\n[Sente \"森内\"]\n1. P7f\n".as_bytes());
    let path = write(dir.path(), "stray.psn", &bytes);
    let out = kifu().args(["json", &path]).output().expect("runs");
    let games = json_lines(&out);
    assert_eq!(games.len(), 3);
    assert_eq!(games[0]["game"]["headers"][0]["value"], "羽生");
    assert_eq!(games[0]["encoding"], "utf8");
    assert_eq!(games[1]["game"]["headers"][0]["value"], "Aÿ");
    assert_eq!(games[1]["encoding"], "latin1");
    assert_eq!(games[2]["game"]["headers"][0]["value"], "森内");
    assert_eq!(games[2]["encoding"], "utf8");
    // The game with the stray byte says so, where it is; the others say nothing of it.
    let out = kifu().args(["check", "--message-format", "json", &path]).output().expect("runs");
    let lines = json_lines(&out);
    let encoding: Vec<_> = lines.iter().filter(|l| l["code"] == "psn::encoding").collect();
    assert_eq!(encoding.len(), 1, "{lines:?}");
    assert_eq!((encoding[0]["line"].as_u64(), encoding[0]["column"].as_u64()), (Some(4), Some(10)));
}

#[test]
fn a_shift_jis_game_keeps_its_encoding_for_a_lone_kanji() {
    // 羽生 in a header, then a comment of one kanji (林, which alone does not read as Japanese).
    let bytes = b"[Sente \"\x89\x48\x90\xb6\"]\n1. P7f {\x97\xd1}\n";
    let file = kifu::psn::check_bytes(bytes, Options::default());
    assert_eq!(file.encoding, kifu::psn::Encoding::ShiftJis);
    assert!(file.text.contains("羽生") && file.text.contains("{林}"), "{}", file.text);
}

#[test]
fn an_unclosed_variation_or_comment_hides_no_game() {
    let dir = tempfile::tempdir().expect("temp dir");
    for (open, code) in [("(", "psn::variation-unclosed"), ("{", "psn::comment-unclosed")] {
        let text = format!("1. P7f P3d {open}P8d 2. P2f\n\n1. P2f P8d 2. P2e 1-0\n\n1. P7f P3d 0-1\n");
        let path = write(dir.path(), "open.psn", text.as_bytes());
        let out = kifu().args(["check", "--message-format", "json", &path]).output().expect("runs");
        let lines = json_lines(&out);
        let errors: Vec<_> = lines.iter().filter(|l| l["severity"] == "error").collect();
        assert_eq!(errors.len(), 1, "{open}: {lines:?}");
        assert_eq!(errors[0]["code"], code);
        assert_eq!((errors[0]["line"].as_u64(), errors[0]["column"].as_u64()), (Some(1), Some(12)));
        let summary = lines.last().expect("a summary");
        assert_eq!((summary["records"].as_u64(), summary["valid"].as_u64()), (Some(3), Some(2)), "{open}");
    }
}

#[test]
fn a_game_too_long_is_reported_once_and_the_next_is_read() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut text = String::from("[Sente \"A\"]\n1. P7f P3d\n\n[Sente \"B\"]\n");
    while text.len() < MAX_GAME_BYTES + 1000 {
        text.push_str("R2h-3h R8b-7b R3h-2h R7b-8b\n");
    }
    text.push_str("\n[Sente \"C\"]\n1. P7f P3d\n");
    // The same as one line of 1 MB.
    let one_line = text.replace("R7b-8b\nR2h", "R7b-8b R2h");
    for (name, text) in [("lines.psn", text), ("line.psn", one_line)] {
        let path = write(dir.path(), name, text.as_bytes());
        let out = kifu().args(["check", "--message-format", "json", &path]).output().expect("runs");
        assert_eq!(out.status.code(), Some(1), "{name}");
        let lines = json_lines(&out);
        let errors: Vec<_> = lines.iter().filter(|l| l["severity"] == "error").collect();
        assert_eq!(errors.len(), 1, "{name}: {errors:?}");
        assert_eq!((errors[0]["code"].as_str(), errors[0]["line"].as_u64()), (Some("psn::game-too-long"), Some(4)));
        let summary = lines.last().expect("a summary");
        assert_eq!((summary["records"].as_u64(), summary["valid"].as_u64()), (Some(3), Some(2)), "{name}");
        let out = kifu().args(["json", &path]).output().expect("runs");
        let games = json_lines(&out);
        assert_eq!(games[2]["game"]["headers"][0]["value"], "C", "{name}");
    }
}

/// Feeds `kifu check` NUL bytes without end on standard input, as `/dev/zero` does.
#[test]
fn endless_zero_bytes_end_in_one_report() {
    let mut child = kifu()
        .args(["check", "--format", "psn", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn kifu");
    let mut stdin = child.stdin.take().expect("stdin");
    let feeder = std::thread::spawn(move || {
        let zeros = vec![0u8; 1 << 16];
        // Until kifu stops reading (a broken pipe), or far past where it should have.
        for _ in 0..(1 << 14) {
            if stdin.write_all(&zeros).is_err() {
                return true;
            }
        }
        false
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        assert!(start.elapsed() < Duration::from_secs(120), "kifu does not stop reading");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(feeder.join().expect("the feeder"), "kifu read 1 GiB of zeros");
    let mut out = String::new();
    child.stdout.take().expect("stdout").read_to_string(&mut out).expect("read");
    assert_eq!(status.code(), Some(1), "{out}");
    assert_eq!(out.matches("psn::").count(), 1, "{out}");
    assert!(out.contains("psn::line-too-long"), "{out}");
    assert!(out.len() < 4000, "{out}");
}
