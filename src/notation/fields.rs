//! What every line format shares: splitting a record into fields and gaps (the total rule
//! `line` of `grammar/common.pest`), the faults of the gaps, and runs of characters no grammar
//! knows.

use pest::{Parser, RuleType};

use crate::diagnostic::{Applicability, Diagnostic, Edit, Fix};
use crate::notation::lookalike;
use crate::span::Span;

/// A format's codes and name for the faults every format shares.
#[derive(Clone, Copy, Debug)]
pub struct Codes {
    /// The format's name in messages: "SFEN", "FEN".
    pub format: &'static str,
    /// What a record starts with: "the board".
    pub first_field: &'static str,
    /// Whitespace before the first field.
    pub leading: crate::diagnostic::Code,
    /// Whitespace after the last field.
    pub trailing: crate::diagnostic::Code,
    /// Anything but one space between fields.
    pub separator: crate::diagnostic::Code,
    /// A look-alike of an ASCII character.
    pub lookalike: crate::diagnostic::Code,
}

/// The fields and the gaps of `text`, by the grammar's total `line` rule (`line`, `field` and
/// `gap` are `grammar/common.pest`'s rules, in the grammar of `P`); `None` only if the grammar is
/// broken. The rules `field` and `gap` compiled to automata find them (see `Tokens`); pest reads
/// the line only if they do not compile.
pub fn split<P: Parser<R>, R: RuleType>(text: &str, line: R, field: R, gap: R) -> Option<(Vec<Span>, Vec<Span>)> {
    match Tokens::shipped() {
        Some(tokens) => tokens.split(text),
        None => split_by_pest::<P, R>(text, line, field, gap),
    }
}

/// The `field` and `gap` rules of `grammar/common.pest`, each compiled to an automaton. Each is a
/// run of characters, a field of those a gap does not hold, and pest takes a run whole: a text
/// starts with the longest of its starts the rule matches, and the `line` rule
/// (`gap? ~ (field ~ (gap ~ field)*)? ~ gap?`) is the one way to cut it into such runs, taken in
/// turn. (A test checks that pest cuts texts so.)
pub(crate) struct Tokens {
    field: crate::notation::grammar::RuleDfa,
    gap: crate::notation::grammar::RuleDfa,
}

impl Tokens {
    /// The rules compiled once; `None` if they do not compile.
    pub(crate) fn shipped() -> Option<&'static Self> {
        static TOKENS: std::sync::OnceLock<Option<Tokens>> = std::sync::OnceLock::new();
        TOKENS
            .get_or_init(|| {
                use crate::notation::grammar::{RuleDfa, Rules};
                let grammar = Rules::named("common")?;
                Some(Self {
                    field: RuleDfa::compile_in(&grammar, "field").ok()?,
                    gap: RuleDfa::compile_in(&grammar, "gap").ok()?,
                })
            })
            .as_ref()
    }

    /// The fields and the gaps of `text`, as [`split`] gives them.
    pub(crate) fn split(&self, text: &str) -> Option<(Vec<Span>, Vec<Span>)> {
        let (mut fields, mut gaps) = (Vec::new(), Vec::new());
        let mut at = 0;
        while let Some(rest) = text.get(at..).filter(|rest| !rest.is_empty()) {
            let (len, into) = match self.gap.longest_start(rest.as_bytes()) {
                Some(n) => (n, &mut gaps),
                None => (self.field.longest_start(rest.as_bytes())?, &mut fields),
            };
            into.push(Span::new(at, at + len));
            at += len;
        }
        Some((fields, gaps))
    }
}

/// The rows of a board field as a format's total board rule reads them (`board_lenient`,
/// `placement_lenient`: rows between `/`s, each a run of squares and faults): each row's span,
/// and each of its squares with its rule and span.
pub type Rows<R> = Vec<(Span, Vec<(R, Span)>)>;

/// The rows of the board field `text` by the automata of the row rule's alternatives
/// ([`RowSquares`]), or when they do not compile by pest's reading of `board`, whose rows are
/// the pairs of `row`. `None` only if the grammar is broken.
pub fn board_rows<P: Parser<R>, R: RuleType>(
    text: &str,
    squares: Option<&RowSquares<R>>,
    board: R,
    row: R,
) -> Option<Rows<R>> {
    squares.and_then(|s| s.rows(text)).or_else(|| rows_by_pest::<P, R>(text, board, row))
}

/// [`board_rows`] by pest.
pub(crate) fn rows_by_pest<P: Parser<R>, R: RuleType>(text: &str, board: R, row: R) -> Option<Rows<R>> {
    let pair = P::parse(board, text).ok()?.next()?;
    let rows = pair.into_inner().filter(|r| r.as_rule() == row);
    Some(
        rows.map(|r| {
            let squares = r.clone().into_inner().map(|item| (item.as_rule(), Span::of(item.as_span())));
            (Span::of(r.as_span()), squares.collect())
        })
        .collect(),
    )
}

/// A board's row rule that repeats a choice of squares and faults (`row_lenient`), its
/// alternatives compiled ([`Repeated`](crate::notation::grammar::Repeated)) with the pest rule of
/// each. No square holds a `/`: the rows of a board field are the texts between its `/`s.
pub struct RowSquares<R> {
    cut: crate::notation::grammar::Repeated,
    rules: Vec<R>,
}

impl<R: RuleType> RowSquares<R> {
    /// The alternatives of `row` in `grammar`, each matched to its rule among `all` (the
    /// grammar's pest rules); `None` if they do not compile.
    pub fn compile(grammar: &crate::notation::grammar::Rules, row: R, all: &[R]) -> Option<Self> {
        let cut = crate::notation::grammar::Repeated::compile_in(grammar, &format!("{row:?}")).ok()?;
        let rule = |name: &String| all.iter().copied().find(|r| format!("{r:?}") == *name);
        let rules = cut.names().iter().map(rule).collect::<Option<Vec<R>>>()?;
        Some(Self { cut, rules })
    }

    /// The rows of the board field `text`.
    pub fn rows(&self, text: &str) -> Option<Rows<R>> {
        let mut rows = Vec::new();
        let mut pieces = Vec::new();
        let mut start = 0;
        for row in text.split('/') {
            pieces.clear();
            self.cut.cut(row, start, &mut pieces)?;
            let squares = pieces.iter().map(|&(i, span)| Some((*self.rules.get(i)?, span)));
            rows.push((Span::new(start, start + row.len()), squares.collect::<Option<Vec<_>>>()?));
            start += row.len() + 1;
        }
        Some(rows)
    }
}

/// Checks that the automata of the alternatives of `row` read every text of up to four
/// characters of `alphabet`, and each of `boards`, as pest's reading of `board` does.
#[cfg(test)]
pub(crate) fn check_rows_read_as_pest<P: Parser<R>, R: RuleType>(
    squares: &RowSquares<R>,
    board: R,
    row: R,
    alphabet: &str,
    boards: &[&str],
) {
    let mut texts = crate::notation::grammar::testing::strings(alphabet, 4);
    texts.extend(boards.iter().map(|b| (*b).to_owned()));
    for text in &texts {
        assert_eq!(squares.rows(text), rows_by_pest::<P, R>(text, board, row), "{text:?}");
    }
}

/// [`split`] by pest's reading of the `line` rule.
pub(crate) fn split_by_pest<P: Parser<R>, R: RuleType>(
    text: &str,
    line: R,
    field: R,
    gap: R,
) -> Option<(Vec<Span>, Vec<Span>)> {
    let pair = P::parse(line, text).ok()?.next()?;
    let (mut fields, mut gaps) = (Vec::new(), Vec::new());
    for p in pair.into_inner() {
        let rule = p.as_rule();
        if rule == field {
            fields.push(Span::of(p.as_span()));
        } else if rule == gap {
            gaps.push(Span::of(p.as_span()));
        }
    }
    Some((fields, gaps))
}

/// The fields of a record an automaton accepted, which vouched that they are split at single
/// spaces. (Each space is found by a search that reads many bytes at a time: a board, the first
/// field, is long.)
#[inline]
pub fn accepted_fields(text: &str) -> impl Iterator<Item = &str> + '_ {
    let mut rest = Some(text);
    std::iter::from_fn(move || {
        let t = rest?;
        match memchr::memchr(b' ', t.as_bytes()) {
            Some(at) => {
                rest = t.get(at + 1..);
                t.get(..at)
            }
            None => rest.take(),
        }
    })
}

/// The fields and the gaps of a record whose first field is a board (see [`split`]). A second
/// field holding ranks means a space split the board: the two parts are read as one board, in
/// which the space is a fault, not a field separator (unless `keep(first field)` says the first
/// field is something else).
pub fn split_board_first<P: Parser<R>, R: RuleType>(
    text: &str,
    [line, field, gap]: [R; 3],
    keep: impl Fn(&str) -> bool,
) -> Option<(Vec<Span>, Vec<Span>)> {
    let (mut fields, mut gaps) = split::<P, R>(text, line, field, gap)?;
    if fields.len() > 1 && fields[1].slice(text).contains('/') && !keep(fields[0].slice(text)) {
        let joined = fields[0].to(fields[1]);
        gaps.retain(|g| !joined.contains(*g));
        fields.splice(0..2, [joined]);
    }
    Some((fields, gaps))
}

/// The finding for an empty record, at `end`; `help` shows a record.
pub fn empty_record(code: crate::diagnostic::Code, end: Span, help: String) -> Diagnostic {
    Diagnostic::error(code, end, "the record is empty").label("nothing here").help(help)
}

/// The finding for a `-` (for "none") at `dash` written with more in its field: `means` says
/// what it stands for ("means no castling rights"); when the field `lists` something besides,
/// `remove` says why to remove the `-`.
pub fn dash_with_more(
    code: crate::diagnostic::Code,
    dash: Span,
    means: &str,
    label: &str,
    lists: bool,
    remove: &str,
) -> Diagnostic {
    let help = if lists { format!("remove the `-`: {remove}") } else { "write a single `-`".to_owned() };
    Diagnostic::error(code, dash, format!("`-` {means}, so it cannot be combined with anything else"))
        .label(label)
        .help(help)
}

/// The fix of a field (`field`) whose `-`s (`dashes`) are written with more: remove them when
/// the field `lists` something besides, or else write a single `-` for the field. Safe: it is
/// the one reading of the field, so the caller attaches it only when the field holds nothing
/// else at fault.
pub fn dashes_fix(dashes: &[Span], field: Span, lists: bool) -> Fix {
    let edits = if lists {
        dashes.iter().map(|d| Edit { span: *d, replacement: String::new() }).collect()
    } else {
        vec![Edit { span: field, replacement: "-".to_owned() }]
    };
    Fix { edits, applicability: Applicability::Safe }
}

/// Reports whitespace around and between the fields; separators of one kind are reported once,
/// with a label on each.
pub fn check_gaps(text: &str, gaps: &[Span], codes: &Codes, out: &mut Vec<Diagnostic>) {
    let mut between: Vec<(String, Span)> = Vec::new();
    for &span in gaps {
        let gap = span.slice(text);
        if span.start == 0 {
            let diag = Diagnostic::error(codes.leading, span, "the record starts with whitespace")
                .label("remove this")
                .help(format!("start the record with {}", codes.first_field));
            // A record that is all separators (`_`) is not emptied: a fix never removes a line.
            // Nor does a fix put a U+FEFF first, where readers take it for a byte-order mark.
            let whole = span.end == text.len();
            let mark = text[span.end..].starts_with('\u{feff}');
            out.push(if whole || mark { diag } else { diag.fix(Fix::replace(span, "", Applicability::Safe)) });
        } else if span.end == text.len() {
            out.push(
                Diagnostic::error(codes.trailing, span, "the record ends with whitespace")
                    .label("remove this")
                    .help("end the record with its last field")
                    .fix(Fix::replace(span, "", Applicability::Safe)),
            );
        } else if gap != " " {
            let what = if gap.chars().all(|c| c == ' ') {
                format!("{} spaces", gap.len())
            } else if gap == "_" {
                "`_` (lishogi and lichess write spaces so in URLs)".to_owned()
            } else if gap.chars().count() == 1 {
                gap.chars().map(lookalike::describe).collect()
            } else {
                format!("`{}`", gap.escape_debug())
            };
            between.push((what, span));
        }
    }
    while let Some((what, first)) = between.first().cloned() {
        let mut diag =
            Diagnostic::error(codes.separator, first, format!("fields are separated by one space, not {what}"))
                .label("use one space")
                .help("separate the fields with a single ASCII space");
        let mut edits = vec![Edit { span: first, replacement: " ".to_owned() }];
        for (_, span) in between.iter().skip(1).filter(|(w, _)| *w == what) {
            diag = diag.with(*span, "and here");
            edits.push(Edit { span: *span, replacement: " ".to_owned() });
        }
        diag = diag.fix(Fix { edits, applicability: Applicability::Safe });
        between.retain(|(w, _)| *w != what);
        out.push(diag);
    }
}

/// The finding for a `0` at `span` that counts no squares in a rank (`rank`, its text, starts
/// at `rank_start`). Removing it is the fix, safe unless it stands between two digits, which
/// would then be written side by side.
pub fn zero_count(
    code: crate::diagnostic::Code,
    span: Span,
    message: &str,
    help: &str,
    rank: &str,
    rank_start: usize,
) -> Diagnostic {
    let at = span.start.saturating_sub(rank_start);
    let digit = |c: Option<char>| c.is_some_and(|c| c.is_ascii_digit());
    let before = rank.get(..at).and_then(|r| r.chars().next_back());
    let after = rank.get(at + span.len()..).and_then(|r| r.chars().next());
    let between = digit(before) && digit(after);
    let diag = Diagnostic::error(code, span, message).label("a count of zero").help(help);
    if between {
        diag
    } else {
        diag.fix(Fix::replace(span, "", Applicability::Safe))
    }
}

/// What to call characters a field does not know: the code, what one such character is not
/// ("shogi piece", made plural with an `s` for several), how to write the field, and the ASCII
/// characters the field is written with (a look-alike of one of them gets a safe fix).
#[derive(Clone, Copy, Debug)]
pub struct Unknown(crate::diagnostic::Code, &'static str, &'static str, &'static str);

impl Unknown {
    /// The code, the noun ("shogi piece"), the help and the field's characters.
    pub const fn new(
        code: crate::diagnostic::Code,
        noun: &'static str,
        help: &'static str,
        known: &'static str,
    ) -> Self {
        Self(code, noun, help, known)
    }
}

/// The finding for a look-alike of ASCII at `span`: `what` names it (as in "`ｂ` (U+FF42)"),
/// `meant` is the ASCII text it looks like, which the fix writes; `fits` says whether that text
/// is what the field wants: then the finding carries that safe fix (otherwise the ASCII text
/// would be another fault, and there is no fix).
pub fn lookalike_finding(codes: &Codes, span: Span, what: &str, meant: &str, fits: bool) -> Diagnostic {
    let diag = Diagnostic::error(codes.lookalike, span, format!("{what} looks like `{meant}` but is not ASCII"))
        .label(format!("did you mean `{meant}`?"))
        .help(format!("{} is written in ASCII: write `{meant}`", codes.format));
    if fits {
        diag.fix(Fix::replace(span, meant, Applicability::Safe))
    } else {
        diag
    }
}

/// One diagnostic for a run of adjacent characters that the grammar does not know: look-alikes
/// of ASCII get a "did you mean"; anything else is unknown.
pub fn bad_run(run: &[(Span, char)], codes: &Codes, unknown: &Unknown) -> Option<Diagnostic> {
    let (first, _) = *run.first()?;
    let span = first.to(run[run.len() - 1].0);
    let written: String = run.iter().map(|(_, c)| *c).collect();
    let one = (run.len() == 1).then(|| lookalike::describe(run[0].1));
    let meant: Option<String> = run.iter().map(|(_, c)| lookalike::ascii_for(*c)).collect();
    Some(match meant {
        Some(meant) => {
            let what = one.unwrap_or_else(|| format!("`{written}`"));
            let fits = meant.chars().all(|c| unknown.3.contains(c));
            lookalike_finding(codes, span, &what, &meant, fits)
        }
        None => {
            let (message, label) = match one {
                Some(what) => (format!("{what} is not a {}", unknown.1), format!("not a {}", unknown.1)),
                None => (format!("`{}` are not {}s", written.escape_debug(), unknown.1), format!("not {}s", unknown.1)),
            };
            Diagnostic::error(unknown.0, span, message).label(label).help(unknown.2)
        }
    })
}

/// Where `rule` (compiled to `automaton`, when it compiles) stops reading `text`, if it does
/// not read all of it: the automaton's stop, or without one, where pest's error is.
pub fn grammar_stop<P: Parser<R>, R: RuleType>(
    text: &str,
    automaton: Option<&crate::notation::grammar::RuleDfa>,
    rule: R,
    words: fn(R) -> &'static str,
) -> Option<crate::notation::grammar::Stop> {
    match automaton {
        Some(dfa) => dfa.stop(text),
        None => {
            let error = P::parse(rule, text).err()?;
            let at = match error.location {
                pest::error::InputLocation::Pos(p) | pest::error::InputLocation::Span((p, _)) => p.min(text.len()),
            };
            Some(crate::notation::grammar::Stop { at, expected: expected_words(&error, words), completion: None })
        }
    }
}

/// The `code` error at `stop` in `text`, which starts at `offset` of its record; `what` names
/// what stopped ("the FEN record", "the EPD operations"): the character that cannot be read, or
/// where the text ends too early with what would complete it.
pub fn stop_report(
    code: crate::diagnostic::Code,
    what: &str,
    text: &str,
    offset: usize,
    stop: &crate::notation::grammar::Stop,
) -> Diagnostic {
    let at = stop.at.min(text.len());
    let next = text[at..].chars().next();
    let span = Span::new(at, at + next.map_or(0, char::len_utf8)).shift(offset);
    let expected = &stop.expected;
    match (next, &stop.completion) {
        (None, Some(c)) => Diagnostic::error(code, span, format!("unexpected end of {what}: `{c}` would complete it"))
            .label(format!("`{c}` is missing here"))
            .help(format!("add `{c}` at the end"))
            .fix(Fix::replace(span, c.as_str(), Applicability::Unsafe)),
        (None, None) => Diagnostic::error(code, span, format!("unexpected end of {what}: expected {expected} here"))
            .label("it ends here")
            .help(format!("write {expected} here")),
        (Some(c), _) => Diagnostic::error(code, span, format!("expected {expected} here in {what}"))
            .label(format!("`{}` is not expected here", c.escape_debug()))
            .help(format!("write {expected} here")),
    }
}

/// The grammar's verdict on a record that the builder read with recovery rules: the grammar
/// decides whether a record is well-formed, the builder only explains. When the record rule of
/// the dialect rejects `text` and none of `found` (the builder's findings) is an error that
/// starts where the rule stops reading or before, the place where it stops gets a `code` error
/// saying what the grammar reads there ([`grammar_stop`], [`stop_report`]).
pub fn grammar_verdict<P: Parser<R>, R: RuleType>(
    text: &str,
    automaton: Option<&crate::notation::grammar::RuleDfa>,
    rule: R,
    found: &[Diagnostic],
    code: crate::diagnostic::Code,
    format: &str,
    words: fn(R) -> &'static str,
) -> Option<Diagnostic> {
    let stop = grammar_stop::<P, R>(text, automaton, rule, words)?;
    if found.iter().any(|d| d.is_error() && d.span().start <= stop.at) {
        return None;
    }
    Some(stop_report(code, &format!("the {format} record"), text, 0, &stop))
}

/// The "expected …" list of a pest error, in words: "`B` or `W` (SFEN 2007), or `b` or `w`
/// (USI)".
pub fn expected_words<R: RuleType>(error: &pest::error::Error<R>, words: fn(R) -> &'static str) -> String {
    let pest::error::ErrorVariant::ParsingError { positives, .. } = &error.variant else {
        return "something else".to_owned();
    };
    let mut said: Vec<&str> = Vec::new();
    for w in positives.iter().map(|r| words(*r)) {
        if !said.contains(&w) {
            said.push(w);
        }
    }
    match said.as_slice() {
        [] => "something else".to_owned(),
        [one] => (*one).to_owned(),
        [init @ .., last] => format!("{}, or {last}", init.join(", ")),
    }
}

/// Checks that the automata of `field` and `gap` cut every text into fields and gaps as pest's
/// reading of `line` (in the grammar of `P`) does: every text of up to four characters drawn from
/// the gaps' characters and others, and records with gaps of every kind.
#[cfg(test)]
pub(crate) fn check_tokens_cut_as_pest<P: Parser<R>, R: RuleType>(line: R, field: R, gap: R) {
    let tokens = Tokens::shipped().expect("`field` and `gap` compile");
    let mut texts =
        crate::notation::grammar::testing::strings("a /\t_\u{A0}\u{3000}\u{2002}\u{2003}\u{2009}é\u{2000}", 4);
    texts.extend(
        [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "  sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL\tb_-\u{3000}1 ",
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR\u{A0}b KQkq\u{2009}\u{2009}e3 0 1\u{2003}",
        ]
        .map(str::to_owned),
    );
    for text in &texts {
        assert_eq!(tokens.split(text), split_by_pest::<P, R>(text, line, field, gap), "{text:?}");
    }
}
