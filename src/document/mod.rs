//! A whole document of records, as an editor or a page holds it: its findings as `kifu check`
//! finds them in a file holding that text, the position at a place in it, and its records
//! written in their canonical form. `kifu lsp` and the browser playground are built on it.
//!
//! Spans are byte offsets into the document's text, byte-order mark included.
//!
//! ```
//! use kifu::format::Format;
//! use kifu::sfen::DialectChoice;
//!
//! let text = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n\nlnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSL b - 1\n";
//! let findings = kifu::document::check(Format::Sfen(DialectChoice::Auto), text, &|| false).unwrap();
//! assert_eq!(findings.len(), 1);
//! assert_eq!(findings[0].span().slice(text), "LNSGKGSL");
//! ```

machinery! { mod fix; }

use crate::diagnostic::excerpt::LineIndex;
use crate::diagnostic::Diagnostic;
use crate::format::{Cut, Format, Position, Record};
use crate::psn;
use crate::span::Span;

/// The bytes of a byte-order mark at the start of `text`: 3 or 0. The library reads a text
/// without it, and its spans start after it.
pub fn bom(text: &str) -> usize {
    if text.starts_with('\u{feff}') {
        3
    } else {
        0
    }
}

/// The games of a PSN document, read and checked, each with where its text starts in the
/// document (the library's spans are in the text without a byte-order mark).
pub fn games(text: &str, options: psn::Options) -> Vec<(usize, psn::CheckedGame)> {
    let shift = bom(text);
    let file = psn::check_bytes(text.as_bytes(), options);
    // A game whose text is not where the stream found it (after a game too long to read) is
    // added at the end of the library's text, past the document's.
    file.games
        .into_iter()
        .filter(|g| g.game.span.end + shift <= text.len())
        .map(|g| (g.game.span.start + shift, g))
        .collect()
}

/// Where line `line` (1-based) of `text` starts, after a byte-order mark.
pub fn line_start(text: &str, index: &LineIndex, line: usize) -> usize {
    let start = index.line_span(text, line.saturating_sub(1)).start;
    if line <= 1 {
        start + bom(text)
    } else {
        start
    }
}

/// The records of a line format in `text`: each line's 0-based number and span (the first
/// without a byte-order mark), without blank lines (as `kifu check` skips them).
pub fn lines<'a>(text: &'a str, index: &'a LineIndex) -> impl Iterator<Item = (usize, Span)> + 'a {
    let first = Span::new(bom(text), index.line_span(text, 0).end.max(bom(text)));
    (0..index.lines())
        .map(move |i| (i, if i == 0 { first } else { index.line_span(text, i) }))
        .filter(move |(_, span)| !crate::input::is_blank(span.slice(text).as_bytes(), span.len()))
}

/// Every finding of a document in `format`, with spans into its text, as `kifu check` finds
/// them in a file holding it; `None` when `stop` says to stop before the check is done (it is
/// asked before each record or game).
pub fn check(format: Format, text: &str, stop: &dyn Fn() -> bool) -> Option<Vec<Diagnostic>> {
    let mut out = Vec::new();
    let index = LineIndex::new(text);
    match format.cut() {
        Cut::Games => {
            // Game by game, as `kifu check` reads them; each game's findings are in its own
            // text, which starts where the stream found it (a game too long to read: at its
            // first line), in the text without its byte-order mark.
            for item in psn::stream::Games::new(text.as_bytes()) {
                if stop() {
                    return None;
                }
                // Reading a text in memory cannot fail.
                let Ok(item) = item else { break };
                let first_line = match &item {
                    psn::stream::Item::TooLong { line, .. } => Some(line_start(text, &index, *line)),
                    psn::stream::Item::Game { .. } => None,
                };
                let game = item.check(psn::Options::default());
                let start = first_line.unwrap_or(game.offset + bom(text));
                out.extend(game.checked.diagnostics.into_iter().map(|d| d.shifted(start)));
            }
        }
        Cut::Values => {
            // Reading a text in memory fails only when the check is stopped.
            let read = crate::json::each_record(text.as_bytes(), &mut |at, record, notes| {
                if stop() {
                    return Err(std::io::Error::other("stopped"));
                }
                let start = line_start(text, &index, at.line);
                out.extend(crate::json::findings_of(record, notes).into_iter().map(|d| d.shifted(start)));
                Ok(())
            });
            if read.is_err() {
                return None;
            }
        }
        Cut::Record => {
            let shift = bom(text);
            let (diagnostics, _) = format.notation().check_text(format.dialect(), &text[shift..]);
            out.extend(diagnostics.into_iter().map(|d| d.shifted(shift)));
        }
        Cut::Lines => {
            for (number, span) in lines(text, &index) {
                if stop() {
                    return None;
                }
                // The first line is checked with its byte-order mark, which gets its warning as
                // in a file; the spans are after it.
                let from = if number == 0 { 0 } else { span.start };
                let bytes = &text.as_bytes()[from..span.end];
                let report = crate::check::check_line(format, number + 1, bytes, bytes.len());
                out.extend(report.diagnostics.into_iter().map(|d| d.shifted(span.start)));
            }
        }
    }
    Some(out)
}

/// The position at byte `cursor` of a document, as a diagram, with the span it belongs to: a
/// line record's or a JSON position's; in a PSN game or a KIF, KI2, CSA or JKF record, the
/// position after the move under the cursor (that move shaded; in JKF, an entry of the main
/// line's `moves`), or elsewhere in the game its last position. `None` where there is no
/// record, or the record has no position.
#[cfg(feature = "views")]
pub fn diagram_at(format: Format, text: &str, cursor: usize) -> Option<(Span, crate::views::Diagram)> {
    use crate::views::{Diagram, Frame};
    let index = LineIndex::new(text);
    // A shogi position, the squares of the move that led to it shaded.
    let after = |position, last_move| Diagram::Shogi(vec![Frame { label: None, position, last_move }]);
    let shogi = |position| after(position, Vec::new());
    let chess = |position| Diagram::Chess(position, Vec::new());
    match format.cut() {
        Cut::Games => {
            let all = games(text, psn::Options::default());
            let (start, game) =
                all.iter().find(|(start, g)| *start <= cursor && cursor <= start + g.game.span.len())?;
            let replay = game.replay.as_ref()?;
            let at = cursor - start;
            let (span, position, mv) =
                match game.game.moves.iter().position(|m| m.mv.span.start <= at && at <= m.mv.span.end) {
                    Some(i) => (
                        game.game.moves[i].mv.span.shift(*start),
                        replay.positions().into_iter().nth(i)?,
                        replay.moves.get(i),
                    ),
                    // The game's last position, its last move shaded, as `kifu board` draws it.
                    None => {
                        (Span::new(*start, start + game.game.span.len()), replay.end.to_position(), replay.moves.last())
                    }
                };
            let last_move = mv.map(|m| crate::views::move_squares(*m)).unwrap_or_default();
            Some((span, after(position, last_move)))
        }
        Cut::Values => {
            let mut found = None;
            let _ = crate::json::each_record(text.as_bytes(), &mut |at, record, _| {
                let start = line_start(text, &index, at.line);
                if let Ok(node) = record {
                    let span = node.span.shift(start);
                    if span.start <= cursor && cursor <= span.end {
                        let diagram = match crate::json::read(node) {
                            crate::json::Model::Shogi(c) => c.position.map(shogi),
                            crate::json::Model::Chess(c) => c.position.map(chess),
                        };
                        found = diagram.map(|d| (span, d));
                    }
                }
                Ok(())
            });
            found
        }
        // A KIF, KI2, CSA or JKF record: the position after the move under the cursor (that
        // move shaded), or elsewhere the position after its main line (a CSA file's records
        // each on their own).
        Cut::Record => {
            let (body, shift) = (&text[bom(text)..], bom(text));
            let at = cursor.checked_sub(shift)?;
            let (whole, game, probed) = match format {
                Format::Csa => crate::csa::position_at(body, at)?,
                Format::Jkf => {
                    let (game, probed) = crate::jkf::position_at(body, at);
                    (Span::new(0, body.len()), game, probed)
                }
                _ => {
                    let (game, probed) = crate::kif::position_at(body, at);
                    (Span::new(0, body.len()), game, probed)
                }
            };
            if let Some((span, mv, position)) = probed {
                return Some((span.shift(shift), after(position, crate::views::move_squares(mv))));
            }
            let game = game?;
            let last_move = game.moves.last().map(|n| crate::views::move_squares(n.mv)).unwrap_or_default();
            Some((whole.shift(shift), after(game.final_position(), last_move)))
        }
        Cut::Lines => {
            let line = index.line_of(cursor);
            let (_, span) = lines(text, &index).find(|(i, _)| *i == line)?;
            let diagram = match format.record(span.slice(text))?.position? {
                Position::Shogi(p) => shogi(p),
                Position::Chess(p) => chess(p),
            };
            Some((span, diagram))
        }
    }
}

/// The edits that write each valid record of a document in its canonical form: SFEN in its
/// dialect's; FEN, EPD (its operations as written), PSN and JSON positions (one line each, the
/// hands in the form the record uses) as kifu writes them. Invalid records are left as they
/// are.
pub fn canonical(format: Format, text: &str) -> Vec<(Span, String)> {
    let index = LineIndex::new(text);
    let mut edits = Vec::new();
    match format.cut() {
        Cut::Lines => {
            for (_, span) in lines(text, &index) {
                let text = span.slice(text);
                if let Some(written) = format.record(text).and_then(|r| canonical_record(&r)) {
                    if written != text {
                        edits.push((span, written));
                    }
                }
            }
        }
        Cut::Values => {
            // Each valid position as kifu writes it, on one line, its hands written as they are.
            let _ = crate::json::each_record(text.as_bytes(), &mut |at, record, notes| {
                let Ok(node) = record else { return Ok(()) };
                if notes.iter().any(Diagnostic::is_error) {
                    return Ok(());
                }
                let written = match crate::json::read(node) {
                    crate::json::Model::Shogi(c) if c.is_valid() => {
                        c.position.map(|p| crate::json::shogi::write(&p, crate::json::shogi::style_of(node)))
                    }
                    crate::json::Model::Chess(c) if c.is_valid() => {
                        let operations = c.record.and_then(|w| w.operations);
                        c.position.map(|p| match operations {
                            Some(ops) => crate::json::chess::write_epd(&p, &ops),
                            None => crate::json::chess::write(&p),
                        })
                    }
                    _ => None,
                };
                let span = node.span.shift(line_start(text, &index, at.line));
                if let Some(written) = written.filter(|w| w.as_str() != span.slice(text)) {
                    edits.push((span, written));
                }
                Ok(())
            });
        }
        // A KIF record is left as it is written.
        Cut::Record => {}
        Cut::Games => {
            for (start, g) in games(text, psn::Options::default()).iter().filter(|(_, g)| g.is_valid()) {
                let written = g.to_psn();
                let written = written.trim_end_matches('\n');
                let span = Span::new(*start, start + g.game.span.len());
                if written != span.slice(text) {
                    edits.push((span, written.to_owned()));
                }
            }
        }
    }
    edits
}

/// A valid line record as kifu writes it: SFEN in the dialect it was read in, FEN, and EPD with
/// its operations as written. `None` for an invalid record.
fn canonical_record(record: &Record) -> Option<String> {
    if !record.valid {
        return None;
    }
    match (record.position.as_ref()?, &record.operations) {
        (Position::Shogi(p), _) => p.to_sfen(record.read_as?.try_into().ok()?).ok(),
        (Position::Chess(p), Some(operations)) => Some(p.to_epd(operations)),
        (Position::Chess(p), None) => Some(p.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{fen, sfen};

    const SHORT: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN b - 1";

    #[test]
    fn a_check_stops_between_records_when_a_message_waits() {
        let text = format!("{SHORT}\n").repeat(50);
        let sfen = Format::Sfen(sfen::DialectChoice::Auto);
        assert_eq!(check(sfen, &text, &|| false).map(|f| f.len()), Some(50));
        assert!(check(sfen, &text, &|| true).is_none());
        // A message that arrives after ten records stops the check there.
        let asked = std::cell::Cell::new(0);
        let after_ten = || {
            asked.set(asked.get() + 1);
            asked.get() > 10
        };
        assert!(check(sfen, &text, &after_ten).is_none());
        assert_eq!(asked.get(), 11, "asked once a record, and not after it stopped");
        let json = "{\"sideOnMove\":\"black\"}\n".repeat(5);
        assert!(check(Format::Json, &json, &|| true).is_none());
        let psn = "[Sente \"A\"]\n1. P7f P7f\n\n".repeat(5);
        assert!(check(Format::Psn, &psn, &|| true).is_none());
        let found = check(Format::Psn, &psn, &|| false).unwrap_or_default();
        let errors: Vec<Span> = found.iter().filter(|d| d.is_error()).map(Diagnostic::span).collect();
        assert_eq!(errors.len(), 5, "{found:?}");
        for (i, span) in errors.iter().enumerate() {
            assert_eq!(span.slice(&psn), "P7f");
            assert_eq!(span.start, i * 24 + 19, "the second move of game {i}");
        }
    }

    #[cfg(feature = "views")]
    #[test]
    fn the_board_at_a_place_is_its_record_or_the_position_after_its_move() {
        use crate::views::Diagram;
        let last = |d: &Diagram| match d {
            Diagram::Shogi(frames) => frames.last().map(|f| (f.position.clone(), f.last_move.clone())),
            Diagram::Chess(..) => None,
        };
        let psn = "[Sente \"A\"]\n1. P7f P3d 2. P2f\n";
        let header = diagram_at(Format::Psn, psn, 3).expect("a game's board");
        assert_eq!(header.0, Span::new(0, psn.len() - 1), "the whole game");
        let move_2 = psn.find("P3d").expect("a move");
        let after = diagram_at(Format::Psn, psn, move_2 + 1).expect("a move's board");
        assert_eq!(after.0.slice(psn), "P3d");
        let (end, _) = last(&header.1).expect("shogi");
        let (second, squares) = last(&after.1).expect("shogi");
        assert_ne!(end, second, "after the second move, not the third");
        assert_eq!(squares.len(), 2, "the move's squares are shaded");
        let lines = format!("{SHORT}\n\nrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n");
        let sfen = Format::Sfen(sfen::DialectChoice::Auto);
        assert!(diagram_at(sfen, &lines, 0).is_none(), "an invalid record has no board");
        assert!(diagram_at(sfen, &lines, SHORT.len() + 1).is_none(), "a blank line has none");
        let fen = Format::Fen(fen::Dialect::Standard);
        let (span, board) = diagram_at(fen, &lines, SHORT.len() + 3).expect("a chess board");
        assert_eq!(span.start, SHORT.len() + 2);
        assert!(matches!(board, Diagram::Chess(..)));
        // KIF and KI2: the move under the cursor, in the main line or a variation.
        let kif =
            "\u{FEFF}手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２二角成(88)\n\n変化：2手\n   2 ８四歩(83)\n";
        let at = |needle: &str| diagram_at(Format::Kif, kif, kif.find(needle).expect("in the record") + 3);
        let (span, board) = at("３四歩").expect("a move's board");
        assert_eq!(span.slice(kif), "３四歩(33)");
        let (after_second, squares) = last(&board).expect("shogi");
        assert_eq!(squares.len(), 2, "the move's squares are shaded");
        let (span, board) = at("８四歩").expect("a variation's move");
        assert_eq!(span.slice(kif), "８四歩(83)");
        let (in_variation, _) = last(&board).expect("shogi");
        assert_ne!(in_variation, after_second);
        let (span, board) = at("手合割").expect("the record's board");
        assert_eq!(span, Span::new(3, kif.len()), "the whole record, after its byte-order mark");
        let (end, _) = last(&board).expect("shogi");
        assert_eq!(end.to_string(), "lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B 4");
        let ki2 = "▲７六歩 △３四歩 ▲２二角成\n";
        let (span, _) = diagram_at(Format::Kif, ki2, ki2.find("△").expect("a move") + 3).expect("a KI2 move");
        assert_eq!(span.slice(ki2), "△３四歩");
    }

    #[cfg(feature = "views")]
    #[test]
    fn a_csa_or_jkf_move_shows_the_position_after_it() {
        use crate::views::Diagram;
        let last = |d: &Diagram| match d {
            Diagram::Shogi(frames) => frames.last().map(|f| (f.position.to_string(), f.last_move.len())),
            Diagram::Chess(..) => None,
        };
        const AFTER_2: &str = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3";
        // CSA: a move statement, in the record that holds it; elsewhere, that record's end.
        let csa = "\u{FEFF}V2.2\nPI\n+\n+7776FU,T3\n-3334FU\n%TORYO\n/\nPI\n+\n+2726FU\n";
        let at = |needle: &str| diagram_at(Format::Csa, csa, csa.find(needle).expect("in the text") + 2);
        let (span, board) = at("-3334FU").expect("a move's board");
        assert_eq!(span.slice(csa), "-3334FU");
        assert_eq!(last(&board), Some((AFTER_2.to_owned(), 2)), "the move's squares are shaded");
        let (span, board) = at("%TORYO").expect("the first record's board");
        assert_eq!(span.slice(csa), "V2.2\nPI\n+\n+7776FU,T3\n-3334FU\n%TORYO\n/");
        assert_eq!(last(&board).map(|(p, _)| p), Some(AFTER_2.to_owned()));
        let (span, board) = at("+2726FU").expect("the second record's move");
        assert_eq!(span.slice(csa), "+2726FU");
        let (after_first, _) = last(&board).expect("shogi");
        assert_eq!(after_first, "lnsgkgsnl/1r5b1/ppppppppp/9/9/7P1/PPPPPPP1P/1B5R1/LNSGKGSNL w - 2");
        assert!(diagram_at(Format::Csa, "%TORYO\n", 1).is_none(), "a record without a start has no board");
        // JKF: an entry of the main line's moves; elsewhere, the main line's end.
        let jkf = r#"{"header": {}, "moves": [{}, {"move": {"color": 0, "from": {"x": 7, "y": 7}, "to": {"x": 7, "y": 6}, "piece": "FU"}}, {"move": {"color": 1, "from": {"x": 3, "y": 3}, "to": {"x": 3, "y": 4}, "piece": "FU"}, "forks": [[{"move": {"color": 1, "from": {"x": 8, "y": 3}, "to": {"x": 8, "y": 4}, "piece": "FU"}}]]}, {"special": "TORYO"}]}"#;
        let at = |needle: &str| diagram_at(Format::Jkf, jkf, jkf.find(needle).expect("in the text") + 2);
        let (span, board) = at(r#"{"move": {"color": 1, "from": {"x": 3"#).expect("a move's board");
        assert!(span.slice(jkf).starts_with(r#"{"move": {"color": 1"#) && span.slice(jkf).ends_with("]]}"));
        assert_eq!(last(&board), Some((AFTER_2.to_owned(), 2)));
        let (span, board) = at(r#"{"move": {"color": 1, "from": {"x": 8"#).expect("a fork's move");
        assert!(span.slice(jkf).starts_with(r#"{"move": {"color": 1, "from": {"x": 8"#));
        let in_fork = "lnsgkgsnl/1r5b1/p1ppppppp/1p7/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3";
        assert_eq!(last(&board), Some((in_fork.to_owned(), 2)), "played instead of 3334FU");
        for elsewhere in ["header", "TORYO"] {
            let (span, board) = at(elsewhere).expect("the main line's end");
            assert_eq!(span, Span::new(0, jkf.len()), "{elsewhere}");
            assert_eq!(last(&board).map(|(p, _)| p), Some(AFTER_2.to_owned()), "{elsewhere}");
        }
        assert!(diagram_at(Format::Jkf, "{", 0).is_none(), "no record");
        for cursor in 0..=csa.len() + 1 {
            let _ = diagram_at(Format::Csa, csa, cursor);
        }
        for cursor in 0..=jkf.len() + 1 {
            let _ = diagram_at(Format::Jkf, jkf, cursor);
        }
    }

    #[test]
    fn epd_and_json_positions_are_written_in_their_canonical_form() {
        let epd = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w kqKQ - bm Bb5; id \"x\";\n\
                   rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\n\
                   rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm\n";
        let edits = canonical(Format::Epd(fen::Dialect::Standard), epd);
        // The castling rights in their order, the operations kept as written; a record already
        // canonical and an invalid one (`bm` without an operand) are left alone.
        assert_eq!(edits.len(), 1, "{edits:?}");
        assert_eq!(edits[0].1, "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - bm Bb5; id \"x\";");
        assert_eq!(edits[0].0.slice(epd), epd.lines().next().unwrap_or_default());

        let json = "[\n  {\"sideOnMove\": \"black\", \"blackHand\": {\"silver\": 2},\n   \"whiteHand\": {}, \"pieces\": {\"5a\": \"wK\", \"5i\": \"bK\"}},\n  {\"sideOnMove\": \"white\"}\n]\n";
        let edits = canonical(Format::Json, json);
        assert_eq!(edits.len(), 1, "the second position has no kings: {edits:?}");
        let (span, written) = &edits[0];
        assert!(span.slice(json).starts_with("{\"sideOnMove\": \"black\"") && span.slice(json).ends_with("}}"));
        assert_eq!(
            written,
            r#"{"sideOnMove":"black","blackHand":{"silver":2},"whiteHand":{},"pieces":{"5a":"wK","5i":"bK"}}"#
        );
        // Written again, it is canonical: no edit.
        let again = json.replace(span.slice(json), written);
        assert!(canonical(Format::Json, &again).is_empty());
    }
}
