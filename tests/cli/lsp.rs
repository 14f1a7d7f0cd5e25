//! `kifu lsp` spoken to as an editor speaks to it: JSON-RPC over its standard input and output.

use crate::common::bin;

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::{json, Value};

/// A running `kifu lsp` and what it has said.
struct Server {
    child: Child,
    stdin: ChildStdin,
    said: mpsc::Receiver<Value>,
    next_id: i64,
    /// Notifications read while waiting for something else.
    notes: Vec<Value>,
}

fn read_message(out: &mut BufReader<ChildStdout>) -> Option<Value> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if out.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(n) = line.strip_prefix("Content-Length: ") {
            length = n.parse().ok();
        }
    }
    let mut body = vec![0; length?];
    out.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

impl Server {
    fn start() -> Self {
        let mut child = bin::kifu()
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("kifu lsp starts");
        let stdin = child.stdin.take().expect("stdin");
        let mut out = BufReader::new(child.stdout.take().expect("stdout"));
        let (send, said) = mpsc::channel();
        std::thread::spawn(move || {
            while let Some(message) = read_message(&mut out) {
                if send.send(message).is_err() {
                    break;
                }
            }
        });
        Self { child, stdin, said, next_id: 1, notes: Vec::new() }
    }

    fn send_raw(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).expect("write to kifu lsp");
        self.stdin.flush().expect("flush");
    }

    fn send(&mut self, message: &Value) {
        let body = message.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).expect("write to kifu lsp");
        self.stdin.flush().expect("flush");
    }

    fn next(&mut self) -> Value {
        self.said.recv_timeout(Duration::from_secs(30)).expect("kifu lsp answers within 30 s")
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let message = self.next();
            if message["id"] == json!(id) {
                assert!(message.get("error").is_none(), "{method}: {message}");
                return message["result"].clone();
            }
            self.notes.push(message);
        }
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// The next diagnostics published for `uri`.
    fn diagnostics(&mut self, uri: &str) -> Vec<Value> {
        loop {
            let message = match self.notes.iter().position(|n| n["params"]["uri"] == uri) {
                Some(i) => self.notes.remove(i),
                None => self.next(),
            };
            if message["method"] == "textDocument/publishDiagnostics" && message["params"]["uri"] == uri {
                return message["params"]["diagnostics"].as_array().cloned().unwrap_or_default();
            }
            if message.get("id").is_some() {
                continue;
            }
            self.notes.push(message);
        }
    }

    fn initialize(&mut self, encodings: &[&str]) -> Value {
        let result = self.request(
            "initialize",
            json!({"processId": null, "rootUri": null, "capabilities": {"general": {"positionEncodings": encodings}}}),
        );
        self.notify("initialized", json!({}));
        result
    }

    fn open(&mut self, uri: &str, language: &str, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": language, "version": 1, "text": text}}),
        );
    }

    fn stop(mut self) {
        let result = self.request("shutdown", Value::Null);
        assert_eq!(result, Value::Null);
        self.notify("exit", Value::Null);
        let status = self.child.wait().expect("kifu lsp exits");
        assert!(status.success(), "{status}");
    }
}

/// `exit` without `shutdown` before it: status 1, as the protocol says; after it, 0 (see
/// [`Server::stop`]).
#[test]
fn exit_without_shutdown_is_status_1() {
    let mut server = Server::start();
    server.initialize(&["utf-16"]);
    server.notify("exit", Value::Null);
    let status = server.child.wait().expect("kifu lsp exits");
    assert_eq!(status.code(), Some(1));
}

/// A document with a finding on each of its 5,000 lines gets the first 1,000 and one more that
/// says how many were left out.
#[test]
fn the_findings_sent_are_bounded() {
    let mut server = Server::start();
    server.initialize(&["utf-16"]);
    let junk = format!("{SHORT}\n").repeat(5000);
    server.open(SFEN, "sfen", &junk);
    let found = server.diagnostics(SFEN);
    assert_eq!(found.len(), 1001);
    let last = &found[1000];
    assert_eq!(last["code"], "input::too-many-findings");
    assert!(last["message"].as_str().is_some_and(|m| m.starts_with("4000 more findings")), "{last}");
    // Still serving: a hover on the first line.
    let hover = server
        .request("textDocument/hover", json!({"textDocument": {"uri": SFEN}, "position": {"line": 0, "character": 1}}));
    assert!(hover.is_object() || hover.is_null(), "{hover}");
    server.stop();
}

/// A header line that never ends (`/dev/zero` as input), or a `Content-Length` of a terabyte,
/// ends the server with an error, status 2, before anything is held.
#[test]
fn a_message_too_large_ends_the_server() {
    let mut server = Server::start();
    server.initialize(&["utf-16"]);
    server.send_raw(b"Content-Length: 1000000000000\r\n\r\n{}");
    let status = server.child.wait().expect("kifu lsp ends");
    assert_eq!(status.code(), Some(2));
    let out = bin::kifu()
        .arg("lsp")
        .stdin(std::fs::File::open("/dev/zero").expect("/dev/zero"))
        .stdout(Stdio::null())
        .output()
        .expect("kifu lsp runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("does not end with CR LF within 1024 bytes"), "{err}");
}

const SFEN: &str = "file:///work/positions.sfen";
const START: &str = bin::START;
const SHORT: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN b - 1";

#[test]
fn findings_hovers_fixes_and_formatting_over_json_rpc() {
    let mut server = Server::start();
    let init = server.initialize(&["utf-16"]);
    let caps = &init["capabilities"];
    assert_eq!(caps["positionEncoding"], "utf-16");
    assert_eq!(caps["textDocumentSync"]["change"], 2, "incremental changes");
    assert_eq!(init["serverInfo"]["name"], "kifu");

    server.open(SFEN, "sfen", &format!("{START}\n\n{SHORT}\n"));
    let found = server.diagnostics(SFEN);
    assert_eq!(found.len(), 1, "{found:?}");
    let d = &found[0];
    assert_eq!(d["code"], "sfen::rank-width");
    assert_eq!(d["source"], "kifu");
    assert_eq!(d["severity"], 1);
    assert_eq!(d["range"], json!({"start": {"line": 2, "character": 48}, "end": {"line": 2, "character": 56}}));
    let message = d["message"].as_str().unwrap_or_default();
    assert!(message.starts_with("rank i covers 8 squares; a rank has 9\nhelp: did you mean"), "{message}");
    let related: Vec<&str> =
        d["relatedInformation"].as_array().into_iter().flatten().filter_map(|r| r["message"].as_str()).collect();
    assert_eq!(related, ["8 squares, 1 short", "insert `L`"]);

    // The fixes, as code actions on the finding's characters.
    let actions = server.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": SFEN}, "range": d["range"], "context": {"diagnostics": [d]}}),
    );
    let titles: Vec<&str> = actions.as_array().into_iter().flatten().filter_map(|a| a["title"].as_str()).collect();
    assert_eq!(titles, ["Insert `L` after `N`", "Insert `L` after `S`", "Insert `L` after `G`"]);
    let edit = &actions[0]["edit"]["changes"][SFEN][0];
    assert_eq!(edit["range"]["start"], json!({"line": 2, "character": 56}));
    assert_eq!(edit["newText"], "L");
    assert_eq!(actions[0]["isPreferred"], false, "one of three repairs: none is sure");

    // An edit in the middle of the line, as an editor sends it: the finding goes.
    server.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": SFEN, "version": 2}, "contentChanges": [
            {"range": {"start": {"line": 2, "character": 48}, "end": {"line": 2, "character": 48}}, "text": "L"}
        ]}),
    );
    assert_eq!(server.diagnostics(SFEN), Vec::<Value>::new());

    // A hover shows the position.
    let hover = server
        .request("textDocument/hover", json!({"textDocument": {"uri": SFEN}, "position": {"line": 0, "character": 3}}));
    let shown = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(shown.contains("│ l  n  s  g  k  g  s  n  l │ a"), "{shown}");
    assert!(shown.contains("Black to move"), "{shown}");
    assert_eq!(hover["range"]["start"], json!({"line": 0, "character": 0}));

    // Formatting writes valid records in their canonical form, and leaves the others.
    let options = json!({"tabSize": 4, "insertSpaces": true});
    let edits = server.request("textDocument/formatting", json!({"textDocument": {"uri": SFEN}, "options": options}));
    assert_eq!(edits, json!([]), "the records are canonical already");
    let uri = "file:///work/hands.sfen";
    server.open(uri, "sfen", "4k4/9/9/9/9/9/9/9/4K4 b pP 1\nx\n");
    let found = server.diagnostics(uri);
    assert_eq!(found[0]["code"], "sfen::hand-order");
    let edits = server.request("textDocument/formatting", json!({"textDocument": {"uri": uri}, "options": options}));
    assert_eq!(
        edits,
        json!([{"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 28}}, "newText": "4k4/9/9/9/9/9/9/9/4K4 b Pp 1"}])
    );
    server.stop();
}

#[test]
fn psn_games_are_symbols_and_a_move_hovers_with_the_position_after_it() {
    let uri = "file:///work/games.psn";
    let text =
        "[Sente \"Habu\"]\n[Gote \"Moriuchi\"]\n1. P7f P3d 2. P2f P7f\n\n[Sente \"A\"]\n[Gote \"B\"]\n1. P2f P8d\n";
    let mut server = Server::start();
    server.initialize(&["utf-8", "utf-16"]);
    server.open(uri, "psn", text);
    let found = server.diagnostics(uri);
    let errors: Vec<&Value> = found.iter().filter(|d| d["severity"] == 1).collect();
    assert_eq!(errors.len(), 1, "{found:?}");
    assert_eq!(errors[0]["range"]["start"], json!({"line": 2, "character": 18}), "the second P7f");

    let symbols = server.request("textDocument/documentSymbol", json!({"textDocument": {"uri": uri}}));
    let names: Vec<&str> = symbols.as_array().into_iter().flatten().filter_map(|s| s["name"].as_str()).collect();
    assert_eq!(names, ["Habu – Moriuchi", "A – B"]);
    assert_eq!(symbols[0]["children"][1]["name"], "Gote");
    assert_eq!(symbols[0]["children"][1]["detail"], "Moriuchi");
    assert_eq!(symbols[1]["range"]["start"]["line"], 4);

    // P3d, White's first move: the position after it.
    let hover = server
        .request("textDocument/hover", json!({"textDocument": {"uri": uri}, "position": {"line": 2, "character": 8}}));
    let shown = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(shown.contains("│ p  p  p  p  p  p  ·  p  p │ c"), "{shown}");
    assert!(shown.contains("│ ·  ·  ·  ·  ·  ·  p  ·  · │ d"), "{shown}");
    assert_eq!(hover["range"], json!({"start": {"line": 2, "character": 7}, "end": {"line": 2, "character": 10}}));
    server.stop();
}

#[test]
fn a_kif_move_hovers_with_the_position_after_it_in_any_line() {
    let uri = "file:///work/game.kifu";
    let text = "手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ７五歩(77)\n\n変化：2手\n   2 ８四歩(83)\n";
    let mut server = Server::start();
    server.initialize(&["utf-16"]);
    server.open(uri, "kif", text);
    let found = server.diagnostics(uri);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0]["code"], "kif::illegal-move");
    assert_eq!(found[0]["range"]["start"], json!({"line": 3, "character": 5}));
    // ３四歩, White's first move in the main line.
    let mut hover = |line: u32| {
        server.request(
            "textDocument/hover",
            json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": 7}}),
        )
    };
    let main = hover(2);
    let shown = main["contents"]["value"].as_str().unwrap_or_default();
    assert!(shown.contains("│ ·  ·  ·  ·  ·  ·  p  ·  · │ d"), "{shown}");
    assert!(shown.contains("Black to move"), "{shown}");
    assert_eq!(main["range"], json!({"start": {"line": 2, "character": 5}, "end": {"line": 2, "character": 12}}));
    // ８四歩, the variation's move, played instead of ３四歩.
    let variation = hover(6);
    let shown = variation["contents"]["value"].as_str().unwrap_or_default();
    assert!(shown.contains("│ p  ·  p  p  p  p  p  p  p │ c"), "{shown}");
    assert!(shown.contains("│ ·  p  ·  ·  ·  ·  ·  ·  · │ d"), "{shown}");
    server.stop();
}

#[test]
fn a_csa_or_jkf_move_hovers_with_the_position_after_it() {
    let csa = "file:///work/game.csa";
    let text = "V2.2\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n";
    let mut server = Server::start();
    server.initialize(&["utf-16"]);
    server.open(csa, "csa", text);
    assert_eq!(server.diagnostics(csa).len(), 0);
    let hover = server
        .request("textDocument/hover", json!({"textDocument": {"uri": csa}, "position": {"line": 4, "character": 2}}));
    let shown = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(shown.contains("│ ·  ·  ·  ·  ·  ·  p  ·  · │ d"), "{shown}");
    assert!(shown.contains("Black to move"), "{shown}");
    assert_eq!(hover["range"], json!({"start": {"line": 4, "character": 0}, "end": {"line": 4, "character": 7}}));
    let jkf = "file:///work/game.jkf";
    let text = "{\"header\": {}, \"moves\": [{},\n{\"move\": {\"color\": 0, \"from\": {\"x\": 7, \"y\": 7}, \"to\": {\"x\": 7, \"y\": 6}, \"piece\": \"FU\"}}\n]}\n";
    server.open(jkf, "jkf", text);
    assert_eq!(server.diagnostics(jkf).len(), 0);
    let hover = server
        .request("textDocument/hover", json!({"textDocument": {"uri": jkf}, "position": {"line": 1, "character": 3}}));
    let shown = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(shown.contains("│ ·  ·  P  ·  ·  ·  ·  ·  · │ f"), "{shown}");
    assert!(shown.contains("White to move"), "{shown}");
    assert_eq!(hover["range"]["start"], json!({"line": 1, "character": 0}));
    server.stop();
}

#[test]
fn positions_count_utf16_units_or_bytes_as_negotiated() {
    // `é` is 2 bytes and 1 UTF-16 unit, `😀` 4 bytes and 2 units: the record ends after 4 units,
    // or 7 bytes.
    let text = "é\u{1F600}x";
    for (encodings, end) in [(&["utf-16"][..], 4), (&["utf-8", "utf-16"][..], 7)] {
        let mut server = Server::start();
        let init = server.initialize(encodings);
        assert_eq!(init["capabilities"]["positionEncoding"], encodings[0]);
        server.open(SFEN, "sfen", text);
        let found = server.diagnostics(SFEN);
        let code = |c: &str| found.iter().find(|d| d["code"] == c).unwrap_or_else(|| panic!("{c}: {found:?}")).clone();
        // No slip of a record: one report, on the whole line.
        let range = &code("sfen::not-a-record")["range"];
        assert_eq!(
            (&range["start"], &range["end"]),
            (&json!({"line": 0, "character": 0}), &json!({"line": 0, "character": end}))
        );
        // A change given in the same units lands where it should: `9` for the three characters.
        server.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": SFEN, "version": 2}, "contentChanges": [
                {"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": end}}, "text": "4k4/9/9/9/9/9/9/9/4K4 b - 1"}
            ]}),
        );
        assert_eq!(server.diagnostics(SFEN), Vec::<Value>::new(), "{encodings:?}");
        server.stop();
    }
}

#[test]
fn a_burst_of_changes_is_checked_for_the_last_text() {
    let mut server = Server::start();
    server.initialize(&[]);
    server.open(SFEN, "sfen", START);
    assert_eq!(server.diagnostics(SFEN), Vec::<Value>::new());
    for version in 2..40 {
        let text = if version % 2 == 0 { SHORT } else { START };
        server.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": SFEN, "version": version}, "contentChanges": [{"text": text}]}),
        );
    }
    // Version 39 is the start position: whatever was published on the way, the last word is
    // about it.
    let mut last = server.diagnostics(SFEN);
    while let Ok(more) = server.said.recv_timeout(Duration::from_millis(500)) {
        if more["method"] == "textDocument/publishDiagnostics" {
            assert!(more["params"]["version"].as_i64().unwrap_or(0) <= 39);
            last = more["params"]["diagnostics"].as_array().cloned().unwrap_or_default();
        }
    }
    assert_eq!(last, Vec::<Value>::new());
    server.stop();
}

#[test]
fn a_byte_order_mark_moves_nothing() {
    let uri = "file:///work/bom.psn";
    let game = "[Sente \"Habu\"]\n[Gote \"Moriuchi\"]\n1. P7f P3d 2. P2f P8d\n";
    let mut server = Server::start();
    server.initialize(&["utf-16"]);
    server.open(uri, "psn", &format!("\u{feff}{game}"));
    let warnings = server.diagnostics(uri);
    assert!(warnings.iter().all(|d| d["severity"] != 1), "{warnings:?}");
    let hover = server
        .request("textDocument/hover", json!({"textDocument": {"uri": uri}, "position": {"line": 2, "character": 8}}));
    assert_eq!(hover["range"], json!({"start": {"line": 2, "character": 7}, "end": {"line": 2, "character": 10}}));
    let symbols = server.request("textDocument/documentSymbol", json!({"textDocument": {"uri": uri}}));
    assert_eq!(
        symbols[0]["children"][1]["range"],
        json!({"start": {"line": 1, "character": 0}, "end": {"line": 1, "character": 17}})
    );
    assert_eq!(symbols[0]["range"]["end"], json!({"line": 2, "character": 21}));
    let edits = server.request(
        "textDocument/formatting",
        json!({"textDocument": {"uri": uri}, "options": {"tabSize": 4, "insertSpaces": true}}),
    );
    for edit in edits.as_array().into_iter().flatten() {
        assert_eq!(edit["range"]["start"], json!({"line": 0, "character": 1}), "after the mark: {edit}");
        assert_eq!(edit["range"]["end"], json!({"line": 2, "character": 21}), "the whole game: {edit}");
    }
    let sfen = "file:///work/bom.sfen";
    server.open(sfen, "sfen", &format!("\u{feff}{START}\n"));
    let found = server.diagnostics(sfen);
    assert!(found.iter().all(|d| d["severity"] != 1), "{found:?}");
    let hover = server
        .request("textDocument/hover", json!({"textDocument": {"uri": sfen}, "position": {"line": 0, "character": 3}}));
    assert_eq!(hover["range"]["start"], json!({"line": 0, "character": 1}));
    server.stop();
}

/// A document's findings are those the configuration nearest its file selects, as `kifu check`
/// reports them: a `kifu.toml` in a folder with a space in its name (percent-encoded in the
/// URI) leaves out the code it ignores and makes warnings errors; an unknown code in it is said
/// in a message, and every finding is sent.
#[test]
fn the_configuration_nearest_a_document_selects_its_findings() {
    let dir = tempfile::tempdir().expect("temp dir");
    let folder = dir.path().join("tsume files");
    std::fs::create_dir(&folder).expect("a folder");
    std::fs::write(folder.join("kifu.toml"), "ignore = [\"sfen::missing-king\"]\nwarnings-as-errors = true\n")
        .expect("written");
    // No Black king (left out), and hands out of USI's order (a warning, made an error).
    let record = "4k4/9/9/9/9/9/9/9/9 b PR 1\n";
    let uri = format!("file://{}/a.sfen", folder.to_string_lossy().replace(' ', "%20"));
    let mut server = Server::start();
    server.initialize(&["utf-16"]);
    server.open(&uri, "sfen", record);
    let found = server.diagnostics(&uri);
    let codes: Vec<(&str, i64)> =
        found.iter().map(|d| (d["code"].as_str().unwrap_or(""), d["severity"].as_i64().unwrap_or(0))).collect();
    assert_eq!(codes, [("sfen::hand-order", 1)], "{found:?}");
    // Elsewhere, the same record has both findings, as they are.
    let elsewhere = format!("file://{}/b.sfen", dir.path().to_string_lossy());
    server.open(&elsewhere, "sfen", record);
    let mut codes: Vec<String> =
        server.diagnostics(&elsewhere).iter().map(|d| d["code"].as_str().unwrap_or("").to_owned()).collect();
    codes.sort();
    assert_eq!(codes, ["sfen::hand-order", "sfen::missing-king"]);
    std::fs::write(folder.join("kifu.toml"), "ignore = [\"sfen::no-such-code\"]\n").expect("written");
    let again = format!("file://{}/c.sfen", folder.to_string_lossy().replace(' ', "%20"));
    server.open(&again, "sfen", record);
    assert_eq!(server.diagnostics(&again).len(), 2);
    let message = server.notes.iter().find(|n| n["method"] == "window/showMessage").cloned().unwrap_or_default();
    assert!(message["params"]["message"].as_str().is_some_and(|m| m.contains("sfen::no-such-code")), "{message}");
    server.stop();
}
