//! `kifu convert --to psn` is idempotent: a game written in the 1998 spec's form and read again
//! is written with the same bytes. Checked on the cases that broke it (a comment moved across a
//! variation when the text read again was taken for another dialect), and on generated games
//! with comments, glyphs, variations within variations, every move form and end.

use kifu::psn;
use kifu::shogi::rules::State;
use kifu::shogi::Move;
use proptest::prelude::*;

/// What `kifu convert --to psn` writes of `text`: each valid game in the spec's form, an empty
/// line between games; `None` when a game has an error.
fn convert(text: &str) -> Option<String> {
    let read = psn::check_bytes(text.as_bytes(), Default::default());
    let mut out = String::new();
    for g in &read.games {
        if !g.is_valid() {
            return None;
        }
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&g.to_psn());
    }
    Some(out)
}

/// Converts `text`, then converts what was written: the same bytes.
fn assert_idempotent(text: &str) -> String {
    let once = convert(text).unwrap_or_else(|| panic!("valid: {text}"));
    let twice = convert(&once).unwrap_or_else(|| panic!("what kifu wrote is valid: {once}"));
    assert_eq!(once, twice, "written from\n{text}");
    once
}

#[test]
fn a_comment_stays_on_its_side_of_a_variation() {
    // Separated moves: read as GSDB, whose comments go with the next move; what kifu writes is
    // read as another dialect, whose comments go with the move before.
    let once = assert_idempotent("1. P7g-7f P3c-3d {c} ( 1... P8c-8d ) 2. P2g-2f 1-0\n");
    assert_eq!(once, "1. P7f P3d {c} ( 1... P8d ) 2. P2f 1-0\n");
    // The other way: a game that is not GSDB's, written with a header that makes it so.
    assert_idempotent("[Proam \"x\"]\n1. P7f {a} ( 1. P2f ) 1... P3d 1-0\n");
}

#[test]
fn an_end_word_stays_before_the_last_variation() {
    // The end word becomes a comment, which is read again as a comment on the last move.
    let once = assert_idempotent("1. P7f P3d ( 1... P8d ) Resigns\n");
    assert_eq!(once, "1. P7f P3d {Resigns} ( 1... P8d ) 0-1\n");
    assert_idempotent("Resigns\n");
}

/// The headers and comments of the games of `text`, as read.
fn texts(text: &str) -> (Vec<(String, String)>, Vec<String>) {
    let read = psn::check_bytes(text.as_bytes(), Default::default());
    let mut headers = Vec::new();
    let mut comments = Vec::new();
    for g in &read.games {
        headers.extend(g.game.headers.iter().map(|h| (h.key.to_string(), h.value.to_string())));
        comments.extend(g.game.comments.iter().map(|c| c.text.clone()));
        for m in &g.game.moves {
            comments.extend(m.comments_before().iter().chain(m.comments_after()).map(|c| c.text.clone()));
        }
    }
    (headers, comments)
}

/// Converting keeps every character of headers and comments that PSN can hold, each class of
/// them checked by converting, reading back and converting again.
#[test]
fn converting_keeps_quotes_braces_spaces_and_keywords() {
    for (text, class) in [
        ("[Event \"say \\\"hi\\\" now\"]\n1. P7f 1-0\n", "a quote in a header value"),
        ("[Event \"a \"quoted\" word\"]\n1. P7f 1-0\n", "a bare quote in a header value"),
        ("[Black_grade \"3dan\"]\n1. P7f 1-0\n", "a keyword with `_`"),
        ("1. P7f {a {nested {deep}} b} P3d 1-0\n", "nested braces in a comment"),
        ("1. P7f {   three spaces first, two last  } P3d 1-0\n", "spaces at a comment's ends"),
        ("[Event \"a\tb\u{1}c\u{1b}d\"]\n1. P7f 1-0\n", "tabs and control characters in a header value"),
        ("1. P7f {a\tb\u{1}c} P3d 1-0\n", "tabs and control characters in a comment"),
        ("1. P7f {one\ntwo\r\n\nthree\rfour} P3d 1-0\n", "line breaks in a comment"),
    ] {
        let once = assert_idempotent(text);
        assert_eq!(texts(&once), texts(text), "{class}: written\n{once}\nfrom\n{text}");
        assert_kept(text, &once);
    }
    // A `;` comment's braces become parentheses: as braces they would make a nested comment.
    let once = assert_idempotent("1. P7f ; a } b {c}\nP3d 1-0\n");
    assert!(once.contains("{a ) b (c)}"), "{once}");
}

/// One step of a generated game.
#[derive(Clone, Debug)]
enum Step {
    /// The legal move of this index (modulo their number).
    Move(u16),
    Comment(String),
    LineComment(String),
    Glyph,
    Nag,
    /// A variation replacing the last move of the line.
    Open,
    Close,
}

#[derive(Clone, Debug)]
struct Style {
    numbered: bool,
    /// 0: the spec's `P7g7f`; 1: USI `7g7f`; 2: separated `P7g-7f` (GSDB).
    form: u8,
    /// A header that makes the game GSDB's.
    proam: bool,
    /// A handicap (White moves first), by its index in the handicaps kifu knows.
    handicap: Option<usize>,
    /// The starting position in an `SFEN` header (`… w - 1` for a handicap), not a
    /// `Handicap` header.
    sfen_header: bool,
    end: u8,
}

fn steps() -> impl Strategy<Value = Vec<Step>> {
    proptest::collection::vec(
        prop_oneof![
            8 => any::<u16>().prop_map(Step::Move),
            2 => "[a-zA-Z0-9 ()\\[\\]!?.,:;~\"'*+=-]{0,12}".prop_map(Step::Comment),
            1 => "[a-zA-Z0-9 (){}!?.,]{0,10}".prop_map(Step::LineComment),
            1 => Just(Step::Glyph),
            1 => Just(Step::Nag),
            2 => Just(Step::Open),
            2 => Just(Step::Close),
        ],
        0..60,
    )
}

fn style() -> impl Strategy<Value = Style> {
    (any::<bool>(), 0u8..3, any::<bool>(), proptest::option::of(1..psn::setup::HANDICAPS.len()), any::<bool>(), 0u8..6)
        .prop_map(|(numbered, form, proam, handicap, sfen_header, end)| Style {
            numbered,
            form,
            proam,
            handicap,
            sfen_header,
            end,
        })
}

/// `mv` written in `form` in `state`.
fn write_move(mv: Move, state: &State, form: u8) -> String {
    match mv {
        Move::Drop { .. } => mv.to_string(),
        Move::Board { from, to, promote } if form == 1 => {
            format!("{from}{to}{}", if promote { "+" } else { "" })
        }
        Move::Board { from, to, promote } => {
            let Some(piece) = state.piece_at(from) else { return mv.to_string() };
            let sep = match (form, state.piece_at(to).is_some()) {
                (2, true) => "x",
                (2, false) => "-",
                _ => "",
            };
            format!(
                "{}{}{from}{sep}{to}{}",
                if piece.promoted { "+" } else { "" },
                piece.kind.letter(),
                if promote { "+" } else { "" }
            )
        }
    }
}

/// A line being written: the position, the one before its last move (and that move's ply),
/// and the ply of the next move.
struct Line {
    state: State,
    before_last: Option<(State, u32)>,
    ply: u32,
}

/// The text of a game made of `steps`: every move legal, every variation after a move.
fn game_text(steps: &[Step], style: &Style) -> String {
    let mut out = String::from("[Event \"generated\"]\n");
    if style.proam {
        out.push_str("[Proam \"pro\"]\n");
    }
    let mut start = State::startpos();
    let mut ply = 0;
    if let Some((name, _, sfen, _)) = style.handicap.and_then(|i| psn::setup::HANDICAPS.get(i)) {
        if style.sfen_header {
            out.push_str(&format!("[SFEN \"{sfen}\"]\n"));
        } else {
            out.push_str(&format!("[Handicap \"{name}\"]\n"));
        }
        start = State::new(&sfen.parse().expect("a handicap's position"));
        ply = 1;
    } else if style.sfen_header {
        out.push_str("[SFEN \"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\"]\n");
    }
    let mut lines = vec![Line { state: start, before_last: None, ply }];
    let mut legal = Vec::new();
    for step in steps {
        let Some(line) = lines.last_mut() else { break };
        match step {
            Step::Move(k) => {
                legal.clear();
                line.state.legal_moves(&mut legal);
                if legal.is_empty() {
                    continue;
                }
                let mv = legal[usize::from(*k) % legal.len()];
                if style.numbered {
                    let pair = line.ply / 2 + 1;
                    out.push_str(&if line.ply % 2 == 0 { format!("{pair}. ") } else { format!("{pair}... ") });
                }
                out.push_str(&write_move(mv, &line.state, style.form));
                out.push(' ');
                line.before_last = Some((line.state, line.ply));
                line.state.play_unchecked(mv);
                line.ply += 1;
            }
            Step::Comment(t) => out.push_str(&format!("{{{t}}} ")),
            Step::LineComment(t) => out.push_str(&format!("; {t}\n")),
            Step::Glyph if line.before_last.is_some() => out.push_str("!? "),
            Step::Glyph => {}
            Step::Nag if line.before_last.is_some() => out.push_str("$3 "),
            Step::Nag => {}
            Step::Open => {
                if let Some((state, ply)) = line.before_last {
                    lines.push(Line { state, before_last: None, ply });
                    out.push_str("( ");
                }
            }
            Step::Close if lines.len() > 1 => {
                lines.pop();
                out.push_str(") ");
            }
            Step::Close => {}
        }
    }
    for _ in 1..lines.len() {
        out.push_str(") ");
    }
    out.push_str(["", "1-0", "0-1", "1/2-1/2", "Resigns", "Sennichite"][usize::from(style.end)]);
    out.push('\n');
    out
}

/// What a game is, for a round trip: where it starts (the SFEN, with its move number), its
/// main line's moves, and the codes of its findings.
fn meaning(text: &str) -> Vec<(String, Vec<Move>, std::collections::BTreeSet<kifu::diagnostic::Code>)> {
    let read = psn::check_bytes(text.as_bytes(), Default::default());
    read.games
        .iter()
        .map(|g| {
            let replay = g.replay.as_ref();
            (
                replay.map(|r| r.start.to_string()).unwrap_or_default(),
                replay.map(|r| r.moves.clone()).unwrap_or_default(),
                g.diagnostics.iter().map(|d| d.code).collect(),
            )
        })
        .collect()
}

/// Converting `text` keeps each game's start, move number included, and its moves, and adds no
/// finding: each finding of what was written is one the game had.
fn assert_kept(text: &str, once: &str) {
    let before = meaning(text);
    let after = meaning(once);
    assert_eq!(before.len(), after.len(), "as many games, written from\n{text}");
    for ((start, moves, codes), (start2, moves2, codes2)) in before.iter().zip(&after) {
        assert_eq!(start, start2, "the same start, written\n{once}\nfrom\n{text}");
        assert_eq!(moves, moves2, "the same moves, written\n{once}\nfrom\n{text}");
        let gained: Vec<_> = codes2.difference(codes).collect();
        assert!(gained.is_empty(), "findings gained: {gained:?}, written\n{once}\nfrom\n{text}");
    }
}

#[test]
fn a_game_white_starts_keeps_its_move_number() {
    // `w - 1`, the handicap position as USI writes it, has no pair number in the spec's FEN
    // (pair N is ply 2N - 1 with Black to move, 2N with White): it is kept as SFEN.
    let text = "[SFEN \"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGS1L w - 1\"]\n1... P3d 2. P7f 1-0\n";
    let once = assert_idempotent(text);
    assert!(once.contains("[SFEN \"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGS1L w - 1\"]"), "{once}");
    assert_kept(text, &once);
    // A move number that reads back as a pair is written in the spec's FEN.
    let text = "[SFEN \"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGS1L w - 2\"]\n1... P3d 2. P7f 1-0\n";
    let once = assert_idempotent(text);
    assert!(
        once.contains("[FEN \"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGS1L 0000000/0000000 g 1\"]"),
        "{once}"
    );
    assert_kept(text, &once);
}

#[test]
fn a_game_ended_by_repetition_keeps_its_end() {
    // The start position a fourth time after the 12th move: the game ends there.
    let moves = "1. K5i-4h K5a-4b 2. K4h-5i K4b-5a 3. K5i-4h K5a-4b 4. K4h-5i K4b-5a 5. K5i-4h K5a-4b 6. K4h-5i K4b-5a";
    for end in ["Sennichite", "1/2-1/2"] {
        let text = format!("{moves} {end}\n");
        let once = assert_idempotent(&text);
        assert_kept(&text, &once);
        assert!(!meaning(&text)[0].2.iter().any(|c| c.as_str() == "psn::sennichite"), "{text}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn converting_keeps_the_game(games in proptest::collection::vec((steps(), style()), 1..3)) {
        let text: String = games.iter().map(|(steps, style)| game_text(steps, style)).collect::<Vec<_>>().join("\n");
        let once = convert(&text);
        prop_assume!(once.is_some());
        assert_kept(&text, &once.unwrap_or_default());
    }

    #[test]
    fn converting_what_convert_wrote_changes_nothing(games in proptest::collection::vec((steps(), style()), 1..3)) {
        let text: String = games.iter().map(|(steps, style)| game_text(steps, style)).collect::<Vec<_>>().join("\n");
        let once = convert(&text);
        // A game the generator made invalid (a game with no moves takes the next one's headers).
        prop_assume!(once.is_some());
        let once = once.unwrap_or_default();
        let twice = convert(&once);
        prop_assert!(twice.is_some(), "what kifu wrote has errors:\n{}\nfrom\n{}", once, text);
        prop_assert_eq!(&once, &twice.unwrap_or_default(), "written from\n{}", text);
    }
}
