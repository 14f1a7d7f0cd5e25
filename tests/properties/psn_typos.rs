//! One fault, one report, with the fix: a typo in one move of a valid game (one character
//! deleted, inserted or replaced) is reported once, the report's first fix makes the game
//! valid again, and no fix that changes the game is safe. Measured on seeded typos of the games
//! kifu generates, and on the valid games of the corpus in `../shared` when it is there
//! (`scripts/psn-typos.sh` prints the shares).

use crate::common::generate;
use crate::common::shared;

use generate::{psn_games, Rng};
use kifu::psn;

/// The characters a typo puts into a move: the pieces (and a letter that is none), the
/// squares' digits and letters, and the marks moves are written with.
const ALPHABET: &[char] = &[
    'P', 'L', 'N', 'S', 'G', 'B', 'R', 'K', 'Q', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'a', 'b', 'c', 'd', 'e',
    'f', 'g', 'h', 'i', '+', '*', '-', 'x', '=',
];

/// What the typos of a set of games came to.
#[derive(Debug, Default)]
struct Tally {
    /// Typos made.
    typos: usize,
    /// Typos after which the game was still valid (another legal move, say).
    still_valid: usize,
    /// Games made invalid that got exactly one error.
    one_error: usize,
    /// Of those, the ones whose first fix makes the game valid again.
    fixed: usize,
    /// Safe fixes offered, and those of them that left the game invalid or made it another
    /// game than the one typed over (there must be none).
    safe: usize,
    unsound_safe: usize,
    /// Games made invalid whose first fix gives back the moves of the game typed over.
    restored: usize,
    /// The first few games made invalid that got more or fewer errors, or no fix that works.
    examples: Vec<String>,
}

impl Tally {
    fn invalid(&self) -> usize {
        self.typos - self.still_valid
    }

    fn report(&self, what: &str) -> String {
        let share = |n: usize, of: usize| if of == 0 { 0.0 } else { 100.0 * n as f64 / of as f64 };
        format!(
            "{what}: {} typos, {} left the game valid; of the {} games made invalid, {} ({:.1}%) got exactly one \
             error, and {} of those ({:.1}%) a first fix that makes the game valid; the first fix gave back \
             the game typed over in {} ({:.1}% of the games made invalid); {} safe fixes, {} of them leaving \
             the game invalid or changing it",
            self.typos,
            self.still_valid,
            self.invalid(),
            self.one_error,
            share(self.one_error, self.invalid()),
            self.fixed,
            share(self.fixed, self.one_error),
            self.restored,
            share(self.restored, self.invalid()),
            self.safe,
            self.unsound_safe,
        )
    }
}

/// `text` with one character of the move word at `span` deleted, inserted or replaced.
fn typo(text: &str, span: kifu::Span, rng: &mut Rng) -> String {
    let word: Vec<char> = span.slice(text).chars().collect();
    let mut out: Vec<char> = word.clone();
    let c = ALPHABET[rng.below(ALPHABET.len())];
    match rng.below(3) {
        0 if word.len() > 1 => {
            out.remove(rng.below(word.len()));
        }
        1 => out[rng.below(word.len())] = c,
        _ => out.insert(rng.below(word.len() + 1), c),
    }
    let typed: String = out.into_iter().collect();
    format!("{}{typed}{}", &text[..span.start], &text[span.end..])
}

/// The errors of the one game in `text`.
fn errors(text: &str) -> Vec<kifu::Diagnostic> {
    psn::check_text(text, psn::Options::default()).into_iter().filter(kifu::Diagnostic::is_error).collect()
}

/// The moves of the one game in `text`, when it is valid.
fn moves_of(text: &str) -> Option<Vec<kifu::shogi::Move>> {
    let read = psn::check_bytes(text.as_bytes(), psn::Options::default());
    match read.games.as_slice() {
        [g] if g.is_valid() => g.replay.as_ref().map(|r| r.moves.clone()),
        _ => None,
    }
}

/// Makes `per_game` typos in each valid game of `file` and tallies what `kifu check` makes of them.
fn measure(file: &str, per_game: usize, rng: &mut Rng, tally: &mut Tally) {
    let read = psn::check_bytes(file.as_bytes(), psn::Options::default());
    for g in read.games.iter().filter(|g| g.is_valid() && g.replay.as_ref().is_some_and(|r| r.illegal_at.is_none())) {
        let text = g.text(&read.text);
        let played = g.replay.as_ref().map(|r| r.moves.clone());
        let moves = g.game.all_moves();
        if moves.is_empty() {
            continue;
        }
        for _ in 0..per_game {
            let span = moves[rng.below(moves.len())].mv.span;
            let typed = typo(text, span, rng);
            tally.typos += 1;
            let found = errors(&typed);
            if found.is_empty() {
                tally.still_valid += 1;
                continue;
            }
            for fix in found.iter().filter_map(kifu::Diagnostic::safe_fix) {
                tally.safe += 1;
                let after = fix.apply(&typed).unwrap_or_default();
                if moves_of(&after) != played {
                    tally.unsound_safe += 1;
                    let at = fix.edits[0].span.start.saturating_sub(20);
                    let shown: String = typed.chars().skip(at).take(50).collect();
                    tally.examples.push(format!("a safe fix changes the game, or leaves it invalid, in …{shown}…"));
                }
            }
            let first = found.first().and_then(|d| d.fixes.first()).and_then(|f| f.apply(&typed));
            tally.restored += usize::from(first.is_some_and(|t| moves_of(&t) == played));
            let fixed = match found.as_slice() {
                [one] => {
                    tally.one_error += 1;
                    one.fixes.first().and_then(|f| f.apply(&typed)).is_some_and(|t| errors(&t).is_empty())
                }
                _ => false,
            };
            tally.fixed += usize::from(fixed);
            if !fixed && tally.examples.len() < 12 {
                let codes: Vec<&str> = found.iter().map(|d| d.code.as_str()).collect();
                let at = span.start.saturating_sub(12);
                let shown: String = typed.chars().skip(at).take(40).collect();
                tally.examples.push(format!("{codes:?} in …{shown}…"));
            }
        }
    }
}

#[test]
fn a_typo_in_a_generated_game_is_one_error_with_a_fix() {
    let games = psn_games(7, 120_000);
    let mut rng = Rng::new(11);
    let mut tally = Tally::default();
    measure(&games, 3, &mut rng, &mut tally);
    eprintln!("{}", tally.report("generated games"));
    for e in &tally.examples {
        eprintln!("  {e}");
    }
    assert_shares(&tally, "generated games", 400, 99.5, 99.0);
}

/// The same over the valid games of the corpus in `../shared/corpus/psn`, when it is there.
#[test]
fn typos_in_the_corpus_games() {
    let Some(files) = shared::psn_files() else { return };
    let mut rng = Rng::new(11);
    let mut tally = Tally::default();
    for path in files {
        let bytes = std::fs::read(&path).expect("a corpus file");
        let file = psn::check_bytes(&bytes, psn::Options::default()).text;
        measure(&file, 3, &mut rng, &mut tally);
    }
    println!("{}", tally.report("corpus games"));
    for e in &tally.examples {
        println!("  {e}");
    }
    assert_shares(&tally, "corpus games", 400, 99.0, 99.0);
}

/// The shares `tally` must reach: at least `invalid` games made invalid, `one_error` percent of
/// them with exactly one error, `fixed` percent of those made valid by the first fix, and no
/// safe fix that changes the game.
fn assert_shares(tally: &Tally, name: &str, invalid: usize, one_error: f64, fixed: f64) {
    let report = tally.report(name);
    let share = |part: usize, whole: usize| part as f64 * 100.0 / whole.max(1) as f64;
    assert!(tally.invalid() >= invalid, "{report}");
    assert!(share(tally.one_error, tally.invalid()) >= one_error, "{report}");
    assert!(share(tally.fixed, tally.one_error) >= fixed, "{report}");
    // A repair of a move plays another move than the one written: its fix is never safe. A
    // safe fix of another finding keeps the game as it was before the typo.
    assert!(tally.unsound_safe == 0, "{report}");
}

/// `text` with the move word at `span` turned into another that reads as a move: one of its
/// squares' file digit or rank letter moved, mostly one step (`P7f` to `P7e` or `P6f`),
/// sometimes further (`P7f` to `P7b`).
fn one_step(text: &str, span: kifu::Span, rng: &mut Rng) -> Option<String> {
    let word = span.slice(text);
    let places: Vec<(usize, char)> = word.char_indices().filter(|&(_, c)| matches!(c, '1'..='9' | 'a'..='i')).collect();
    if places.is_empty() {
        return None;
    }
    let (at, c) = places[rng.below(places.len())];
    let (low, high) = if c.is_ascii_digit() { ('1', '9') } else { ('a', 'i') };
    // One step, or (one time in three) anywhere on the file or rank: a move far from the one
    // written.
    let step = match rng.below(6) {
        0 | 1 => 1 + rng.below(8) as i32,
        2 => -1 - rng.below(8) as i32,
        3 | 4 => 1,
        _ => -1,
    };
    let moved = char::from_u32((c as i32 + step) as u32).filter(|m| (low..=high).contains(m))?;
    Some(format!("{}{}{moved}{}", &text[..span.start], &word[..at], &text[span.start + at + 1..]))
}

/// What planted illegal moves came to.
#[derive(Debug, Default)]
struct Planted {
    /// Games with one fault planted, those that got exactly one error, and the safe fixes
    /// that changed the game.
    single: usize,
    one_error: usize,
    changing_safe: usize,
    /// Of the games with one fault, those whose first fix gives back the game's moves.
    restored: usize,
    /// Games with two faults planted far apart, and those whose second fault was reported.
    double: usize,
    second_found: usize,
}

/// Plants one-step faults in the moves of the valid games of `file`: one in each game, then
/// two in each game long enough (at least 8 plies apart), each of which alone is an illegal
/// move.
fn plant(file: &str, rng: &mut Rng, tally: &mut Planted) {
    let read = psn::check_bytes(file.as_bytes(), psn::Options::default());
    for g in read.games.iter().filter(|g| g.is_valid()) {
        let text = g.text(&read.text);
        let played = g.replay.as_ref().map(|r| r.moves.clone());
        let spans: Vec<kifu::Span> = g.game.moves.iter().map(|m| m.mv.span).collect();
        if spans.len() < 12 {
            continue;
        }
        // Each fault alone must be an illegal move where it stands (a step may give another
        // legal move, a slip found only where a later move cannot be played).
        let faulty = |i: usize, rng: &mut Rng| {
            one_step(text, spans[i], rng).filter(|t| errors(t).first().is_some_and(|d| spans[i].contains(d.span())))
        };
        let first = rng.below(spans.len() - 10);
        let Some(one) = faulty(first, rng) else { continue };
        tally.single += 1;
        let found = errors(&one);
        tally.one_error += usize::from(found.len() == 1);
        let first_fix = found.first().and_then(|d| d.fixes.first()).and_then(|f| f.apply(&one));
        tally.restored += usize::from(first_fix.is_some_and(|t| moves_of(&t) == played));
        for fix in found.iter().filter_map(kifu::Diagnostic::safe_fix) {
            let after = fix.apply(&one).unwrap_or_default();
            tally.changing_safe += usize::from(moves_of(&after) != played);
        }
        let second = first + 8 + rng.below(spans.len() - first - 8);
        let Some(two) = faulty(second, rng) else { continue };
        // Both faults: the steps change one character each, so the spans stay where they were.
        let both = format!("{}{}", &one[..spans[second].start], &two[spans[second].start..]);
        tally.double += 1;
        tally.second_found += usize::from(errors(&both).iter().any(|d| spans[second].contains(d.span())));
    }
}

#[test]
fn a_planted_illegal_move_is_one_error_and_a_second_is_still_found() {
    let games = psn_games(17, 300_000);
    let mut rng = Rng::new(23);
    let mut tally = Planted::default();
    plant(&games, &mut rng, &mut tally);
    let share = |n: usize, of: usize| 100.0 * n as f64 / of.max(1) as f64;
    eprintln!(
        "{} games with one planted fault: {} ({:.1}%) got exactly one error, the first fix gave the game back in \
         {} ({:.1}%), {} safe fixes changed the game; {} games with two: the second was reported in {} ({:.1}%)",
        tally.single,
        tally.one_error,
        share(tally.one_error, tally.single),
        tally.restored,
        share(tally.restored, tally.single),
        tally.changing_safe,
        tally.double,
        tally.second_found,
        share(tally.second_found, tally.double),
    );
    assert!(tally.single >= 200 && tally.double >= 100, "{tally:?}");
    assert!(tally.one_error * 100 >= tally.single * 97, "{tally:?}");
    assert_eq!(tally.changing_safe, 0, "{tally:?}");
    assert!(tally.second_found * 100 >= tally.double * 80, "{tally:?}");
}
