//! The JSON position model, JSON input, and board diagrams (text, SVG, HTML): snapshots, the
//! SVG parsed as XML, the round trip SFEN → JSON → SFEN as a property, and the commands through
//! the built binary.

use crate::common;

use std::path::Path;
use std::process::{Command, Output, Stdio};

use insta::assert_snapshot;
use insta_cmd::get_cargo_bin;
use kifu::diagnostic::Diagnostic;
use kifu::fen;
use kifu::json::{read_stream, Style};
use kifu::sfen::{self, DialectChoice, Position};
use kifu::shogi::{Color, Piece, Square};
use kifu::views::{self, html, svg, text, Diagram, Names};
use kifu::Span;
use proptest::prelude::*;

fn settings() -> insta::Settings {
    let mut s = insta::Settings::clone_current();
    s.set_snapshot_path(concat!(env!("CARGO_MANIFEST_DIR"), "/snapshots/views"));
    s.set_prepend_module_to_snapshot(false);
    s.set_omit_expression(true);
    s
}

fn fixture(name: &str) -> String {
    std::fs::read_to_string(Path::new("tests/fixtures/views").join(name)).expect("fixture")
}

fn sfen_positions() -> Vec<Position> {
    fixture("positions.sfen")
        .lines()
        .map(|l| sfen::check(l, DialectChoice::Auto).position.expect("a valid fixture"))
        .collect()
}

fn fen_positions() -> Vec<fen::Position> {
    fixture("positions.fen").lines().map(|l| l.parse().expect("a valid fixture")).collect()
}

#[test]
fn json_model_snapshots() {
    let mut out = String::new();
    for p in sfen_positions() {
        out.push_str(&format!(
            "{p}\n  seed:  {}\n  keyed: {}\n",
            kifu::json::shogi::write(&p, Style::Counts),
            kifu::json::shogi::write(&p, Style::Keyed)
        ));
    }
    for p in fen_positions() {
        out.push_str(&format!("{p}\n  {}\n", kifu::json::chess::write(&p)));
    }
    settings().bind(|| assert_snapshot!("json_model", out));
}

/// Spec note "JSON note 1": `pieces` is an object from square to piece code, in SFEN order,
/// empty squares left out; hands are arrays of seven counts P L N S G B R.
#[test]
fn the_pieces_shape_of_the_spec_note() {
    let p: Position = "7r1/6B1p/6Bsk/9/7P1/9/9/9/9 B 2S".parse().expect("the seed's tsume");
    let value: serde_json::Value = serde_json::from_str(&kifu::json::shogi::write(&p, Style::Counts)).expect("JSON");
    let keys: Vec<&str> = value.as_object().expect("object").keys().map(String::as_str).collect();
    let mut sorted = keys.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, ["blackHand", "pieces", "sideOnMove", "whiteHand"]);
    assert_eq!(value["sideOnMove"], "black");
    assert_eq!(value["blackHand"], serde_json::json!([0, 0, 0, 2, 0, 0, 0]));
    let text = kifu::json::shogi::write(&p, Style::Counts);
    let pieces_at = text.find("\"pieces\":{").expect("pieces");
    assert!(text[pieces_at..]
        .starts_with(r#""pieces":{"2a":"wR","3b":"bB","1b":"wP","3c":"bB","2c":"wS","1c":"wK","2e":"bP"}"#));
    // With the serde feature, the derive-free impl writes the same object.
    assert_eq!(serde_json::to_string(&p).expect("serialize"), text);
    let back: Position = serde_json::from_str(&text).expect("deserialize");
    assert_eq!(back, p);
}

#[test]
fn text_diagram_snapshots() {
    let mut out = String::new();
    for p in sfen_positions() {
        for style in [text::Style::Unicode, text::Style::Ascii, text::Style::Kanji] {
            out.push_str(&format!("## {p} ({style:?})\n{}\n", text::shogi(&p, style)));
        }
    }
    settings().bind(|| assert_snapshot!("text_diagrams", out));
}

#[test]
fn json_input_findings_point_into_the_json() {
    let text = fixture("faults.json");
    let (nodes, syntax) = read_stream(&text);
    let mut out = String::new();
    let mut show = |d: &kifu::Diagnostic| {
        let labels: Vec<String> =
            d.labels.iter().map(|l| format!("`{}`{}", l.span.slice(&text), if l.primary { "*" } else { "" })).collect();
        out.push_str(&format!(
            "{} {}: {} | help: {}\n",
            d.code,
            labels.join(" "),
            d.message,
            d.help.as_deref().unwrap_or("")
        ));
    };
    for node in &nodes {
        let diagnostics = if node.get("castling").is_some() {
            kifu::json::chess::read(node).diagnostics
        } else {
            kifu::json::shogi::read(node).diagnostics
        };
        diagnostics.iter().for_each(&mut show);
    }
    syntax.iter().for_each(&mut show);
    for d in nodes.iter().flat_map(|n| kifu::json::shogi::read(n).diagnostics).chain(syntax.clone()) {
        assert!(d.help.is_some(), "{} has help", d.code);
        assert_eq!(d.labels.iter().filter(|l| l.primary).count(), 1, "{} has one primary label", d.code);
        assert!(!d.span().is_empty() || d.code == "json::syntax", "{} points at characters", d.code);
    }
    settings().bind(|| assert_snapshot!("json_findings", out));
}

// --- SVG ---------------------------------------------------------------------------------

fn class_of<'a>(n: &roxmltree::Node<'a, 'a>) -> &'a str {
    n.attribute("class").unwrap_or("")
}

#[test]
fn shogi_svg_is_xml_with_one_element_per_piece() {
    for p in sfen_positions() {
        let last: Vec<Square> = views::shogi_move_squares("7g7f").expect("a move");
        let svg = svg::shogi(&p, Names::Letters, &last);
        let doc = roxmltree::Document::parse(&svg).expect("the SVG is XML");
        let root = doc.root_element();
        assert_eq!(root.tag_name().name(), "svg");
        assert_eq!(root.tag_name().namespace(), Some("http://www.w3.org/2000/svg"));
        assert_eq!(root.attribute("version"), Some("1.1"));
        let pieces: Vec<_> =
            doc.descendants().filter(|n| n.has_tag_name("g") && class_of(n).starts_with("piece ")).collect();
        assert_eq!(pieces.len(), p.board.pieces().count(), "{p}");
        for (g, (_, piece)) in pieces.iter().zip(p.board.pieces()) {
            let turned = g.attribute("transform").is_some_and(|t| t.contains("rotate(180)"));
            assert_eq!(turned, piece.color == Color::White, "White's pieces are turned: {p}");
            let fill = g.descendants().find(|n| n.has_tag_name("text")).and_then(|t| t.attribute("fill"));
            assert_eq!(fill == Some("#c00000"), piece.promoted, "promoted pieces are red: {p}");
        }
        let hands = doc.descendants().filter(|n| n.has_tag_name("g") && class_of(n).starts_with("hand ")).count();
        assert_eq!(hands, 2);
        let held = views::hand_entries(&p, Color::Black).len() + views::hand_entries(&p, Color::White).len();
        assert_eq!(doc.descendants().filter(|n| class_of(n) == "hand-piece").count(), held);
        assert_eq!(doc.descendants().filter(|n| class_of(n) == "last-move").count(), 2);
        assert_eq!(doc.descendants().filter(|n| class_of(n) == "mark to-move").count(), 1);
        // ▲ is always Black's and △ White's, whoever is to move.
        for (hand, mark) in [("hand black", "▲"), ("hand white", "△")] {
            let g = doc.descendants().find(|n| class_of(n) == hand).expect("a hand");
            let text = g.descendants().find(|n| class_of(n).starts_with("mark ")).and_then(|t| t.text());
            assert_eq!(text, Some(mark), "{p}");
        }
        assert_eq!(doc.descendants().filter(|n| class_of(n) == "coord").count(), 18);
        // Nothing from outside: no links, images, fonts or URLs.
        for bad in ["href", "<image", "@font-face", "url("] {
            assert!(!svg.contains(bad), "{bad} in the SVG");
        }
    }
}

#[test]
fn kanji_svg_names_pieces_in_kanji() {
    let p = &sfen_positions()[2];
    let svg = svg::shogi(p, Names::Kanji, &[]);
    let doc = roxmltree::Document::parse(&svg).expect("XML");
    let names: String = doc
        .descendants()
        .filter(|n| n.has_tag_name("g") && class_of(n).starts_with("piece "))
        .filter_map(|g| g.descendants().find(|n| n.has_tag_name("text")).and_then(|t| t.text()))
        .collect();
    assert!(names.contains('龍') && names.contains('と') && names.contains('玉'), "{names}");
    assert_eq!(doc.descendants().filter(|n| class_of(n) == "last-move").count(), 0);
}

#[test]
fn chess_svg_is_xml_with_one_glyph_per_piece() {
    for p in fen_positions() {
        let svg = svg::chess(&p, &views::chess_move_squares("e2e4").expect("a move"));
        let doc = roxmltree::Document::parse(&svg).expect("XML");
        assert_eq!(doc.root_element().attribute("version"), Some("1.1"));
        let pieces: Vec<_> = doc.descendants().filter(|n| class_of(n).starts_with("piece ")).collect();
        assert_eq!(pieces.len(), p.board.pieces().count());
        assert!(pieces.iter().all(|n| n
            .children()
            .rfind(|c| c.is_text())
            .and_then(|c| c.text())
            .is_some_and(|t| ('\u{2654}'..='\u{265F}').contains(&t.chars().next().unwrap_or(' ')))));
        assert_eq!(doc.descendants().filter(|n| class_of(n).starts_with("square")).count(), 64);
        assert_eq!(doc.descendants().filter(|n| class_of(n) == "square last-move").count(), 2);
    }
}

#[test]
fn last_move_squares_read_usi_as_the_rules_do() {
    use kifu::shogi::Move;
    let sq = |s: &str| Square::parse(s).expect("a square");
    assert_eq!(views::shogi_move_squares("7g7f"), Some(vec![sq("7g"), sq("7f")]));
    assert_eq!(views::shogi_move_squares("8h2b+"), Some(vec![sq("8h"), sq("2b")]));
    assert_eq!(views::shogi_move_squares("P*5e"), Some(vec![sq("5e")]));
    // USI drops are written with the uppercase letter, and a king is never dropped.
    for bad in ["k*5e", "p*5e", "K*5e", "7g7f++", "P*5e+", "7g7", "", "7", "*", "7g７f"] {
        assert_eq!(views::shogi_move_squares(bad), None, "{bad:?}");
    }
    for text in ["7g7f", "7g7f+", "7g7f=", "P*5e", "p*5e", "G*1a", "N*1c", "K*5e", "1a9i+", "0a1a", "9j1a", "R*"] {
        assert_eq!(views::shogi_move_squares(text).is_some(), Move::from_usi(text).is_some(), "{text}");
    }
}

// --- HTML --------------------------------------------------------------------------------

/// A game as the PSN replay will hand it over: the start position, then the positions after
/// each move, each with its move's label.
fn sample_game() -> Vec<(Option<String>, Position)> {
    let moves = ["7g7f", "3c3d", "8h2b+"];
    let mut sequence = vec![(None, Position::startpos())];
    for m in moves {
        let mut p = sequence.last().map(|(_, p)| p.clone()).expect("a position");
        let sq = views::shogi_move_squares(m).expect("a move");
        let piece = p.board.get(sq[0]).expect("a piece to move");
        if let Some(taken) = p.board.get(sq[1]) {
            p.hands[piece.color.index()].add(taken.kind, 1);
        }
        p.board.set(sq[0], None);
        p.board.set(sq[1], Some(Piece { promoted: piece.promoted || m.ends_with('+'), ..piece }));
        p.side = p.side.opponent();
        p.move_number = p.move_number.map(|n| n + 1);
        sequence.push((Some(m.to_owned()), p));
    }
    sequence
}

#[test]
fn an_html_page_is_self_contained() {
    let frames = views::frames(&sample_game());
    assert_eq!(frames[1].last_move.len(), 2, "a move's two squares are found");
    let no = Diagnostic::error(kifu::diagnostic::Code::JsonPiece, Span::new(6, 12), "<no> is not a piece")
        .label("a <piece>?")
        .help("write `\"wK\"` & the like");
    let records = [
        html::Section {
            title: "a game".into(),
            notation: None,
            diagram: Some(Diagram::Shogi(frames.clone())),
            findings: vec![],
            notes: vec![],
        },
        html::Section {
            title: "positions.fen:1".into(),
            notation: Some("…".into()),
            diagram: Some(Diagram::Chess(fen_positions()[0].clone(), vec![])),
            findings: vec![],
            notes: vec![],
        },
        html::Section {
            title: "x<y & z".into(),
            notation: None,
            diagram: None,
            findings: vec![html::Finding::new("{\"5a\":\"<no>\"}", 1, &no)],
            notes: vec!["a <note>".into()],
        },
    ];
    let page = html::page("kifu", &records, Names::Letters);
    assert!(page.starts_with("<!DOCTYPE html>"));
    assert_eq!(page.matches("<svg ").count(), frames.len() + 1);
    assert_eq!(page.matches("class=\"frame\"").count(), frames.len());
    assert_eq!(page.matches(" hidden>").count(), frames.len() - 1, "only the last frame shows");
    assert!(page.contains("x&lt;y &amp; z") && page.contains("a &lt;note&gt;"));
    // The finding: its code, message, the characters at fault marked, the label and the help.
    assert!(page.contains("<code>json::piece</code> (line 1): &lt;no&gt; is not a piece"), "{page}");
    assert!(page.contains("{&quot;5a&quot;:<mark class=\"primary\" data-label=\"1\" title=\"a &lt;piece&gt;?\">&quot;&lt;no&gt;&quot;</mark>}"), "{page}");
    assert!(page.contains("<li class=\"primary\">a &lt;piece&gt;?</li>"));
    assert!(page.contains("help: write `&quot;wK&quot;` &amp; the like"));
    assert!(page.contains("ArrowRight") && page.contains("<script>"));
    for bad in [" src=", "href", "@import", "url(", "fetch(", "XMLHttpRequest"] {
        assert!(!page.contains(bad), "{bad} in the page");
    }
    let links = page.matches("http").count();
    assert_eq!(links, page.matches("http://www.w3.org/2000/svg").count(), "only the SVG namespace");
    // The buttons' labels are characters stock fonts draw: ASCII, arrows and geometric shapes
    // (not the media symbols of U+23xx, which render as empty boxes in many).
    for label in page.split("<button type=\"button\" data-step=").skip(1) {
        let text = label.split('>').nth(1).and_then(|t| t.split('<').next()).expect("a label");
        assert!(
            !text.is_empty()
                && text.chars().all(|c| c.is_ascii_graphic()
                    || ('\u{2190}'..='\u{21FF}').contains(&c)
                    || ('\u{25A0}'..='\u{25FF}').contains(&c)),
            "{text:?}"
        );
    }
}

// --- SFEN → JSON → SFEN --------------------------------------------------------------------

proptest! {
    /// Any position, legal or not: its SFEN, written as JSON (either style) and read back, is
    /// the same SFEN.
    #[test]
    fn sfen_json_sfen_is_the_identity(p in common::strategies::shogi_position(), keyed in any::<bool>()) {
        let sfen_text = p.to_string();
        let reread: Position = sfen_text.parse().expect("Display writes SFEN");
        let style = if keyed { Style::Keyed } else { Style::Counts };
        let text = kifu::json::shogi::write(&reread, style);
        let (nodes, syntax) = read_stream(&text);
        prop_assert!(syntax.is_empty());
        prop_assert_eq!(nodes.len(), 1);
        let checked = kifu::json::shogi::read(&nodes[0]);
        prop_assert!(checked.diagnostics.iter().all(|d| !d.code.starts_with("json::")), "{:?}", checked.diagnostics);
        prop_assert_eq!(checked.record.as_deref(), Some(sfen_text.as_str()));
        prop_assert_eq!(checked.position.as_ref(), Some(&p));
    }

    /// No bytes make the JSON reader panic, and every finding's spans lie inside the text.
    #[test]
    fn any_text_is_read_without_panic(text in "[\\[\\]{}\":,0-9a-z+ \\n-]{0,80}") {
        let (nodes, syntax) = read_stream(&text);
        for d in &syntax {
            prop_assert!(d.span().end <= text.len());
        }
        for n in &nodes {
            for d in kifu::json::shogi::read(n).diagnostics.iter().chain(kifu::json::chess::read(n).diagnostics.iter()) {
                prop_assert!(d.labels.iter().all(|l| l.span.end <= text.len() && text.is_char_boundary(l.span.start)));
            }
        }
    }
}

// --- Through the binary ------------------------------------------------------------------

fn kifu() -> Command {
    let mut cmd = Command::new(get_cargo_bin("kifu"));
    cmd.env("NO_COLOR", "1").env_remove("COLUMNS").current_dir(env!("CARGO_MANIFEST_DIR"));
    cmd
}

fn run(args: &[&str], stdin: &[u8]) -> Output {
    use std::io::Write as _;
    let mut child = kifu()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn kifu");
    let _ = child.stdin.take().expect("stdin").write_all(stdin);
    child.wait_with_output().expect("kifu runs")
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn kifu_json_and_convert_round_trip() {
    let sfen_text = fixture("positions.sfen");
    for style in ["seed", "keyed"] {
        let json_out = run(&["json", "--json-style", style, "tests/fixtures/views/positions.sfen"], b"");
        assert_eq!(json_out.status.code(), Some(0), "{}", err(&json_out));
        assert_eq!(out(&json_out).lines().count(), 4, "JSON Lines: one object per record");
        let back = run(&["convert", "--to", "sfen", "--format", "json"], &json_out.stdout);
        assert_eq!(back.status.code(), Some(0), "{}", err(&back));
        let expected: Vec<String> =
            sfen_text.lines().map(|l| l.parse::<Position>().expect("sfen").to_string()).collect();
        assert_eq!(out(&back).lines().collect::<Vec<_>>(), expected);
    }
    let chess = run(&["json", "tests/fixtures/views/positions.fen"], b"");
    assert_eq!(chess.status.code(), Some(0));
    assert!(out(&chess).starts_with(r#"{"sideOnMove":"black","castling":["K","Q","k","q"],"enPassant":"e3""#));
    // A chess position has no SFEN.
    let no = run(&["convert", "--to", "sfen", "--format", "json"], &chess.stdout);
    assert_eq!(no.status.code(), Some(1));
    assert!(err(&no).contains("a chess position has no SFEN"));
    // PSN stays PSN: standard input without --format is still a PSN game.
    let psn = run(&["json"], b"[Event \"x\"]\n1.P7g-7f\n");
    assert!(out(&psn).contains("\"type\":\"game\""), "{}", out(&psn));
}

#[test]
fn kifu_check_reads_json_files() {
    let o = run(&["check", "tests/fixtures/views/faults.json"], b"");
    assert_eq!(o.status.code(), Some(1));
    settings().bind(|| assert_snapshot!("check_faults_json", out(&o)));
    let j = run(&["check", "--message-format", "json", "tests/fixtures/views/faults.json"], b"");
    let first: serde_json::Value = serde_json::from_str(out(&j).lines().next().expect("a line")).expect("JSON");
    assert_eq!(first["code"], "json::side");
    let line1 = fixture("faults.json").lines().next().map(str::to_owned).unwrap_or_default();
    let column = line1.find("\"Black\"").map(|c| c as u64 + 1);
    assert_eq!(
        (first["line"].as_u64(), first["column"].as_u64(), first["end_column"].as_u64()),
        (Some(1), column, column.map(|c| c + 7))
    );
}

#[test]
fn kifu_board_draws_sfen_svg_and_html() {
    let text = run(&["board", "tests/fixtures/views/positions.sfen"], b"");
    assert_eq!(text.status.code(), Some(0), "{}", err(&text));
    let expected: Vec<String> =
        sfen_positions().iter().map(|p| text::shogi(p, text::Style::Unicode)).collect::<Vec<_>>();
    assert_eq!(out(&text), expected.join("\n"));
    let kanji = run(&["board", "--kanji", "--format", "sfen", "-"], sfen_positions()[0].to_string().as_bytes());
    assert!(out(&kanji).contains("v香v桂v銀v金v玉"), "{}", out(&kanji));
    let ascii = run(&["board", "--ascii", "tests/fixtures/views/positions.sfen"], b"");
    assert!(out(&ascii).is_ascii());

    let dir = tempfile::tempdir().expect("temp dir");
    let d = dir.path().to_string_lossy().into_owned();
    let svg = run(&["board", "--svg", "--last-move", "7g7f", "-o", &d, "tests/fixtures/views/positions.sfen"], b"");
    assert_eq!(svg.status.code(), Some(0), "{}", err(&svg));
    let mut files: Vec<String> = std::fs::read_dir(dir.path())
        .expect("dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(files, ["positions-1.svg", "positions-2.svg", "positions-3.svg", "positions-4.svg"]);
    for f in &files {
        roxmltree::Document::parse(&std::fs::read_to_string(dir.path().join(f)).expect("svg")).expect("XML");
    }
    let lines = run(&["board", "--svg", "tests/fixtures/views/positions.fen"], b"");
    assert_eq!(out(&lines).lines().filter(|l| l.starts_with("<svg ")).count(), 2, "one SVG document per line");

    let page_path = dir.path().join("page.html");
    let page = run(
        &[
            "board",
            "--html",
            "-o",
            &page_path.to_string_lossy(),
            "tests/fixtures/views/positions.sfen",
            "tests/fixtures/views/faults.json",
        ],
        b"",
    );
    assert_eq!(page.status.code(), Some(1), "faults.json holds invalid records");
    let html = std::fs::read_to_string(&page_path).expect("page");
    assert_eq!(html.matches("<svg ").count(), 4);
    assert!(html.contains("json::unpromotable"));
    let bad = run(&["board", "--last-move", "zz", "tests/fixtures/views/positions.sfen"], b"");
    assert_eq!(bad.status.code(), Some(2));
    // A lowercase drop letter is not USI.
    let bad = run(&["board", "--last-move", "k*5e", "tests/fixtures/views/positions.sfen"], b"");
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("`--last-move k*5e` is not a move"));
    let good = run(&["board", "--last-move", "P*5e", "tests/fixtures/views/positions.sfen"], b"");
    assert_eq!(good.status.code(), Some(0), "{}", String::from_utf8_lossy(&good.stderr));
}

/// The section of record `n` (1-based) of a page.
fn section_of(page: &str, n: usize) -> &str {
    let start = page.find(&format!("<section class=\"record\" id=\"record-{n}\">")).expect("the section");
    let end = start + page[start..].find("</section>").expect("its end");
    &page[start..end]
}

#[test]
fn kifu_board_html_shows_invalid_records_where_they_are() {
    let start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
    let short = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN b - 1";
    let input = format!("{start}\n{short}\n4k4/9/9/9/9/9/9/9/<i>& b - 1\n{start}\n");
    let page = run(&["board", "--html", "--format", "sfen", "-"], input.as_bytes());
    assert_eq!(page.status.code(), Some(1), "two records are invalid");
    let page = out(&page);
    assert_eq!(page.matches("<svg ").count(), 2, "the valid records' boards");
    assert_eq!(page.matches("<section class=\"record\"").count(), 4, "every record has its section");
    // In input order: the invalid ones between the valid ones, each with its findings.
    assert!(section_of(&page, 1).contains("<svg ") && section_of(&page, 4).contains("<svg "));
    let short_rank = section_of(&page, 2);
    assert!(!short_rank.contains("<svg "));
    assert!(short_rank.contains("<h2>&lt;stdin&gt;:2</h2>"), "{short_rank}");
    assert!(
        short_rank.contains("<code>sfen::rank-width</code> (line 2): rank i covers 8 squares; a rank has 9"),
        "{short_rank}"
    );
    // The characters at fault, marked in the record's text (as `kifu check` labels them): the
    // rank, and after it the point where the likeliest repair inserts the lost `L`.
    assert!(
        short_rank.contains(
            "/1B5R1/<mark class=\"primary\" data-label=\"1\" title=\"8 squares, 1 short\">LNSGKGSN</mark>\
             <mark class=\"point secondary\" data-label=\"2\" title=\"insert `L`\"></mark> b - 1"
        ),
        "{short_rank}"
    );
    assert!(short_rank.contains("Add the 1 missing square"), "{short_rank}");
    // The record's own characters are escaped wherever they show.
    let markup = section_of(&page, 3);
    assert!(markup.contains("&lt;i&gt;&amp;") && markup.contains("<pre class=\"excerpt\">"), "{markup}");
    assert!(!page.contains("<i>"), "the record's `<i>` is text, not markup");

    // A JSON value that cannot be read is shown too, at its place.
    let json = run(&["board", "--html", "tests/fixtures/views/faults.json"], b"");
    let json = out(&json);
    assert_eq!(json.matches("<section class=\"record\"").count(), 5, "faults.json's five records");
    let cut = section_of(&json, 5);
    assert!(cut.contains("<h2>tests/fixtures/views/faults.json:6</h2>"), "{cut}");
    assert!(
        cut.contains("<code>json::syntax</code> (line 6): expected a JSON value, found the end of the text"),
        "{cut}"
    );
    // A label on no character (the end of the text) is a mark of no width there.
    assert!(cut.contains("[1, 2,<mark class=\"point primary\" data-label=\"1\""), "{cut}");
}

#[test]
fn kifu_board_on_fen_keeps_seed_001() {
    let o = run(&["board", "examples/boards.fen"], b"");
    let seed = std::fs::read_to_string("examples/boards.fen").expect("the seed's sample");
    let boards: Vec<String> = seed.lines().map(|l| l.parse::<fen::Position>().expect("fen").diagram()).collect();
    assert_eq!(out(&o), boards.join("\n"));
}

// --- In a real browser ---------------------------------------------------------------------

/// The browser: `KIFU_CHROMIUM`, or Debian's `chromium`.
fn chromium() -> String {
    std::env::var("KIFU_CHROMIUM").unwrap_or_else(|_| "chromium".to_owned())
}

fn browser(args: &[&str], profile: &Path) -> Output {
    Command::new(chromium())
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run"])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(["--virtual-time-budget=3000", "--window-size=1000,1000"])
        .args(args)
        .output()
        .expect("chromium runs (apt-get install chromium; .ci/run installs it)")
}

/// The pixels of a PNG as RGB.
fn rgb(path: &Path) -> (usize, usize, Vec<[u8; 3]>) {
    let bytes = std::fs::read(path).expect("a screenshot");
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let mut reader = decoder.read_info().expect("a PNG");
    let mut buf = vec![0; reader.output_buffer_size().expect("a size")];
    let info = reader.next_frame(&mut buf).expect("a frame");
    let step = info.color_type.samples();
    let pixels = buf[..info.buffer_size()].chunks(step).map(|c| [c[0], c[1 % step], c[2 % step]]).collect();
    (info.width as usize, info.height as usize, pixels)
}

fn screenshot(page: &Path, png_path: &Path, profile: &Path) -> (usize, usize, Vec<[u8; 3]>) {
    let o = browser(&[&format!("--screenshot={}", png_path.display()), &format!("file://{}", page.display())], profile);
    assert!(png_path.exists(), "no screenshot: {}", err(&o));
    rgb(png_path)
}

/// The smallest box holding the pixels of the board's colour, `(left, top, right, bottom)`.
fn board_box(width: usize, pixels: &[[u8; 3]]) -> Option<(usize, usize, usize, usize)> {
    let board = [0xe8, 0xc4, 0x7c];
    let near = |p: &[u8; 3]| p.iter().zip(board).all(|(a, b)| a.abs_diff(b) <= 10);
    let mut found: Option<(usize, usize, usize, usize)> = None;
    for (i, p) in pixels.iter().enumerate() {
        if near(p) {
            let (x, y) = (i % width, i / width);
            found = Some(match found {
                None => (x, y, x, y),
                Some((l, t, r, b)) => (l.min(x), t.min(y), r.max(x), b.max(y)),
            });
        }
    }
    found
}

/// Renders a game's page in headless Chromium: the screenshot is not blank, the board stands
/// where the layout puts it, and the left arrow key shows the position before.
#[test]
#[ignore = "needs Debian's chromium: .ci/run installs it and runs this test"]
fn the_page_in_a_real_browser() {
    let dir = tempfile::tempdir().expect("temp dir");
    let profile = dir.path().join("profile");
    // A real PSN game, as `kifu board --html` writes it: the start and its eight moves.
    let written = std::process::Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(["board", "--html", "tests/fixtures/psn/ok/spec_pairs.psn"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("kifu runs");
    assert!(written.status.success());
    let page = String::from_utf8(written.stdout).expect("UTF-8");
    let last = 8;
    assert!(page.contains(&format!("data-frame=\"{last}\"")));
    let page_path = dir.path().join("game.html");
    std::fs::write(&page_path, &page).expect("write the page");

    let (w, h, pixels) = screenshot(&page_path, &dir.path().join("before.png"), &profile);
    let white = pixels.iter().filter(|p| p.iter().all(|c| *c >= 250)).count();
    assert!(white < pixels.len() * 95 / 100, "the page is blank: {white} of {} pixels white", pixels.len());
    let (l, t, r, b) = board_box(w, &pixels).expect("the board's colour is on the screen");
    let side = svg::SQUARE as usize * 9;
    assert!((r - l + 1).abs_diff(side) <= 4 && (b - t + 1).abs_diff(side) <= 4, "board {l},{t}..{r},{b} in {w}x{h}");
    assert!(l < 80 && (60..300).contains(&t), "the board is at the top left, under the heading: {l},{t}");

    // The left arrow key: the viewer shows the frame before the last.
    let pressed = page.replace(
        "</body>",
        "<script>document.dispatchEvent(new KeyboardEvent('keydown',{key:'ArrowLeft',bubbles:true}));</script></body>",
    );
    let pressed_path = dir.path().join("pressed.html");
    std::fs::write(&pressed_path, &pressed).expect("write the page");
    let dom = browser(&["--dump-dom", &format!("file://{}", pressed_path.display())], &profile);
    let dom = out(&dom);
    assert!(dom.contains(&format!("data-frame=\"{}\"", last - 1)), "the arrow key moved back one frame");
    assert!(dom.contains(&format!("data-index=\"{}\">", last - 1)), "the frame before shows");
    assert!(dom.contains(&format!("data-index=\"{last}\" hidden")), "the last frame hides");
    let (_, _, after) = screenshot(&pressed_path, &dir.path().join("after.png"), &profile);
    let changed = pixels.iter().zip(&after).filter(|(a, b)| a != b).count();
    assert!(changed > 500, "the position shown changed ({changed} pixels)");
}

/// `docs/board.md` shows what `kifu board` prints and the PNG of what `--svg` draws.
#[test]
fn the_docs_show_real_diagrams() {
    let readme = std::fs::read_to_string("docs/board.md").expect("docs/board.md");
    let diagram = text::shogi(&sfen_positions()[2], text::Style::Unicode);
    assert!(readme.contains(&diagram), "the diagram of docs/board.md is kifu's:\n{diagram}");
    assert!(readme.contains("(board-diagram.png)"));
    let png = std::fs::read("docs/board-diagram.png").expect("the PNG");
    assert!(png.starts_with(b"\x89PNG") && png.len() < 64 * 1024, "a small PNG");
}
