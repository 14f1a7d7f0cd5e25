//! One snapshot per PSN fixture: every game's model (headers, setup, moves with their parts,
//! comments, variations, end) and its rendered diagnostics. Beyond the snapshots: `ok/` games
//! have no errors and survive a write-and-read round trip through the 1998-spec writer, `err/`
//! files have at least one error, every diagnostic is complete, and every span lies inside its
//! game's text.

use crate::common;

use std::fmt::Write as _;
use std::path::Path;

use kifu::diagnostic::excerpt::{excerpt, LineIndex};
use kifu::diagnostic::RecordSource;
use kifu::psn::{self, CheckedGame};
use kifu::psn::{Comment, MoveNode};
use kifu::shogi::Origin;
use miette::{GraphicalReportHandler, GraphicalTheme};

fn comments(out: &mut String, indent: &str, what: &str, list: &[Comment]) {
    for c in list {
        let _ = writeln!(out, "{indent}{what} {:?} comment @ {:?}: {:?}", c.kind, c.span, c.text);
    }
}

fn moves(out: &mut String, indent: &str, line: &[MoveNode]) {
    for m in line {
        comments(out, indent, "before:", m.comments_before());
        let number =
            m.number.map_or(String::new(), |n| format!("{}{} ", n.value, if n.ellipsis { "..." } else { "." }));
        let v = &m.mv;
        let from = match v.from {
            Origin::None => "-".to_owned(),
            Origin::Square(s) => s.to_string(),
            Origin::File(f) => format!("file {f}"),
            Origin::Rank(r) => format!("rank {r}"),
        };
        let mut marks = String::new();
        if let Some(&(letter, span)) = v.promotes_to.as_deref() {
            let _ = write!(marks, " to {letter} @ {span:?}");
        }
        if v.gold_mover {
            marks.push_str(" (G: a gold or a piece promoted to move like one)");
        }
        if let Some(mark) = v.mark.as_deref() {
            let _ = write!(marks, " {} @ {:?}", if mark.mate { "mate" } else { "check" }, mark.span);
        }
        if v.form == kifu::psn::MoveForm::Unreadable {
            let _ = writeln!(out, "{indent}{number}{} @ {:?} [Unreadable] counted as a ply", v.text, v.span);
        } else {
            let _ = writeln!(
                out,
                "{indent}{number}{} @ {:?} [{:?}] {}{} from {from} to {}{}{}{}{marks}",
                v.text,
                v.span,
                v.form,
                if v.promoted { "+" } else { "" },
                v.piece.map_or('?', |p| p.letter()),
                v.to,
                if v.drop { " drop" } else { "" },
                if v.capture { " capture" } else { "" },
                v.promotion.map_or(String::new(), |p| format!(" {p:?}")),
            );
        }
        for a in m.annotations() {
            let _ = writeln!(out, "{indent}  annotation {:?} @ {:?}", a.text, a.span);
        }
        for c in m.clocks() {
            let _ = writeln!(out, "{indent}  clock {:?} @ {:?}", c.text, c.span);
        }
        comments(out, &format!("{indent}  "), "after:", m.comments_after());
        for var in m.variations() {
            let _ = writeln!(out, "{indent}  variation @ {:?}", var.span);
            comments(out, &format!("{indent}    "), "first:", &var.comments);
            moves(out, &format!("{indent}    "), &var.moves);
        }
    }
}

/// The model of a game, one line per part.
fn describe(g: &CheckedGame) -> String {
    let game = &g.game;
    let mut out = String::new();
    let _ = writeln!(out, "game at line {} ({:?}), dialect {}", game.line, game.span, game.dialect);
    for h in &game.headers {
        let _ = writeln!(out, "  header {:?} = {:?} @ {:?}", h.key, h.value, h.span);
    }
    if let Some(s) = &game.setup {
        let _ = writeln!(out, "  setup from {} @ {:?}: {}", s.source, s.span, s.sfen);
    }
    comments(&mut out, "  ", "game", &game.comments);
    moves(&mut out, "  ", &game.moves);
    if let Some(e) = &game.end {
        let _ = writeln!(out, "  end {} {:?} @ {:?}", e.kind, e.text, e.span);
        for c in &e.clocks {
            let _ = writeln!(out, "    clock {:?} @ {:?}", c.text, c.span);
        }
    }
    out
}

fn render(file: &str, g: &CheckedGame, text: &str) -> String {
    let handler = GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor()).with_width(80);
    let own = g.text(text);
    let index = LineIndex::new(own);
    let mut out = String::new();
    for d in &g.diagnostics {
        let e = excerpt(own, &index, d);
        let source = RecordSource { name: file, text: &e.text, line: g.game.line + e.first_line, columns: &e.columns };
        let _ = handler.render_report(&mut out, &e.diagnostic.report(&source));
        out.push('\n');
    }
    out
}

/// The moves as played (USI), main line and variations, for the round trip.
fn played(g: &CheckedGame) -> (String, usize) {
    let r = g.replay.as_ref().expect("replayed");
    (g.to_game().expect("replayed").to_usi(), r.played.len())
}

fn check_file(path: &Path) -> String {
    let file = path.file_name().and_then(|n| n.to_str()).unwrap_or("?").to_owned();
    let bytes = std::fs::read(path).expect("fixture");
    let read = psn::check_bytes(&bytes, Default::default());
    let ok = path.parent().is_some_and(|p| p.ends_with("ok"));
    let mut out = format!("encoding: {}\n", read.encoding.name());
    assert!(!read.games.is_empty(), "{file}: no game");
    for g in &read.games {
        let text = g.text(&read.text);
        for d in &g.diagnostics {
            common::assert_complete(d, text, &file, &["psn::", "sfen::"]);
        }
        for m in g.game.all_moves() {
            assert!(m.mv.span.end <= text.len() && m.mv.span.slice(text) == m.mv.text, "{file}: move span");
        }
        for h in &g.game.headers {
            assert!(h.span.contains(h.key_span) && h.span.contains(h.value_span), "{file}: header spans");
            assert_eq!(h.key_span.slice(text), h.key, "{file}: key span");
        }
        if ok {
            assert!(g.is_valid(), "{file}: errors in an ok fixture:\n{}", render(&file, g, &read.text));
            // Write it in the spec's form, read it again: the same moves.
            let written = g.to_psn();
            let again = psn::check_bytes(written.as_bytes(), Default::default());
            assert_eq!(again.games.len(), 1, "{file}: the written game reads as one game:\n{written}");
            assert!(again.games[0].is_valid(), "{file}: the written game has errors:\n{written}");
            assert_eq!(played(&again.games[0]), played(g), "{file}: round trip of\n{written}");
            out.push_str("── written in the 1998 spec's form\n");
            out.push_str(&written);
        }
        out.push_str("── model\n");
        out.push_str(&describe(g));
        out.push_str("── diagnostics\n");
        out.push_str(&render(&file, g, &read.text));
    }
    if !ok {
        assert!(read.games.iter().any(|g| !g.is_valid()), "{file}: no error in an err fixture");
    }
    out
}

#[test]
fn fixtures() {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(concat!(env!("CARGO_MANIFEST_DIR"), "/snapshots/psn"));
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| {
        insta::glob!("..", "fixtures/psn/*/*.psn", |path| {
            insta::assert_snapshot!(check_file(path));
        });
    });
}

/// The final position of each game of a fixture, as an SFEN.
fn final_sfens(path: &str) -> Vec<String> {
    let bytes = std::fs::read(path).expect("fixture");
    let read = psn::check_bytes(&bytes, Default::default());
    read.games.iter().map(|g| g.replay.as_ref().expect("replayed").end.to_position().to_string()).collect()
}

#[test]
fn pychess_marks_are_not_promotions() {
    let sfens = final_sfens("tests/fixtures/psn/ok/dialect_pychess_marks.psn");
    assert_eq!(
        sfens,
        [
            // `Bxg7+` takes on 3c with check and stays a bishop; White's bishop takes it back.
            "lnsgkgsnl/1r7/p1ppppbpp/1p7/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL b Pb 5",
            // `Bxh8=H` promotes; `B@e5` drops; `Hxi9`, the horse, takes the lance on 1a.
            "lnsgkg1n+B/1r7/1ppppp1pp/6p2/p8/2P6/PP1PPPPPP/7R1/LNSGKGSNL w SLb 10",
            // `Pf7=G` promotes to a tokin; `S@d7+` drops a silver with check.
            "9/9/3k1+P3/9/9/9/9/9/4K4 b s 5",
            // `Gfg8` moves the tokin (the gold on 2c could go too: `f` tells them apart); `Dh8#`,
            // the dragon, mates.
            "8k/6+P+R1/7G1/p8/9/9/9/9/4K4 w - 4",
        ]
    );
}

#[test]
fn a_bad_game_never_hides_the_next() {
    let bytes = std::fs::read("tests/fixtures/psn/err/bad_game_then_good.psn").expect("fixture");
    let read = psn::check_bytes(&bytes, Default::default());
    assert_eq!(read.games.len(), 2);
    assert!(!read.games[0].is_valid());
    assert!(read.games[1].is_valid());
    assert_eq!(read.games[1].game.moves.len(), 3);
    let bytes = std::fs::read("tests/fixtures/psn/err/comment_unclosed.psn").expect("fixture");
    let read = psn::check_bytes(&bytes, Default::default());
    assert_eq!(read.games.len(), 2, "the unclosed comment stops at the next game's headers");
    assert_eq!(read.games[1].game.moves.len(), 2);
}

#[test]
fn strict_makes_every_departure_an_error() {
    let text = "[Sente \"A\"]\n1.P7g-7f\n2.P3c-3d\n";
    let lenient = psn::check_bytes(text.as_bytes(), Default::default());
    assert!(lenient.games[0].is_valid());
    let strict = psn::check_bytes(text.as_bytes(), psn::Options { strict: true, replay: true });
    assert!(!strict.games[0].is_valid());
    assert_eq!(lenient.games[0].diagnostics.len(), strict.games[0].diagnostics.len());
    let spec = psn::check_bytes(b"[Sente \"A\"]\n1. P7f P3d\n", psn::Options { strict: true, replay: true });
    assert!(spec.games[0].is_valid() && spec.games[0].diagnostics.is_empty());
}

#[test]
fn nothing_to_read_is_no_game() {
    for text in ["", "\n\n", "  \r\n\t\r"] {
        assert!(psn::check_bytes(text.as_bytes(), Default::default()).games.is_empty(), "{text:?}");
    }
}
