//! [`Checked`]: a record read and checked, for every format that reads a position.

use crate::diagnostic::Diagnostic;

/// A record read and checked: its syntax tree (`Syntax`), its position (`Model`) when the
/// syntax is sound, and every finding (syntax first, in the order of the record, then the
/// rules of the game).
///
/// [`sfen::Checked`](crate::sfen::Checked) and [`fen::Checked`](crate::fen::Checked) are
/// this type for SFEN and for FEN/EPD.
///
/// ```
/// use kifu::sfen::{self, DialectChoice};
///
/// let checked = sfen::check("P3k4/9/9/9/9/9/9/9/4K4 b - 1", DialectChoice::Usi);
/// assert!(!checked.is_valid(), "a pawn on the last rank can never move");
/// assert_eq!(checked.errors().count(), 1);
/// assert!(checked.position.is_some(), "the record is still read");
/// assert!(checked.into_result().is_err());
/// ```
#[derive(Clone, Debug)]
pub struct Checked<Syntax, Model> {
    /// The syntax tree, faults included.
    pub record: Syntax,
    /// The position, when the record has no syntax errors (it may still break the rules of
    /// the game: see [`Checked::into_result`]).
    pub position: Option<Model>,
    /// True when the record has no syntax error: the grammar's record rule for its dialect
    /// accepts it, and so do the counts the builder checks beyond the grammar (squares in a
    /// rank, a move number that fits).
    pub syntax_ok: bool,
    /// Every finding.
    pub diagnostics: Vec<Diagnostic>,
}

impl<Syntax: Default, Model> Default for Checked<Syntax, Model> {
    /// Nothing read: an empty syntax tree, no position, no finding.
    fn default() -> Self {
        Self::unread(Vec::new())
    }
}

impl<Syntax: Default, Model> Checked<Syntax, Model> {
    /// A record too broken to read: only its findings, with an empty syntax tree and no
    /// position.
    pub fn unread(diagnostics: Vec<Diagnostic>) -> Self {
        Self { record: Syntax::default(), position: None, syntax_ok: false, diagnostics }
    }
}

impl<Syntax, Model> Checked<Syntax, Model> {
    /// True when no finding is an error.
    pub fn is_valid(&self) -> bool {
        !self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// How many warnings a valid record has; `None` for an invalid one.
    pub fn warnings_if_valid(&self) -> Option<usize> {
        self.is_valid().then_some(self.diagnostics.len())
    }

    /// The findings that are errors, in order.
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics.iter().filter(|d| d.is_error())
    }

    /// The findings that are warnings, in order.
    pub fn warnings(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics.iter().filter(|d| !d.is_error())
    }

    /// The position when no finding is an error (warnings are dropped), or the errors.
    pub fn into_result(self) -> Result<Model, Vec<Diagnostic>> {
        match self.position {
            Some(position) if self.is_valid() => Ok(position),
            _ => Err(self.diagnostics.into_iter().filter(Diagnostic::is_error).collect()),
        }
    }
}

impl<Syntax, Model> Checked<Syntax, Model> {
    /// The position as a [`Legal`] one when no finding is an error (every rule was checked), or
    /// the errors (see [`Checked::into_result`]).
    pub fn into_legal(self) -> Result<Legal<Model>, Vec<Diagnostic>> {
        self.into_result().map(Legal::new_unchecked)
    }
}

/// A position the rules of its game allow: [`shogi::Legal`](crate::shogi::Legal) or
/// [`chess::Legal`](crate::chess::Legal). A record says what it says; a `Legal` position is one
/// the rules can play from, reached only through the checks that say so.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Legal<P>(P);

impl<P> Legal<P> {
    /// Takes `position` as legal: only for callers that have checked every rule.
    pub(crate) const fn new_unchecked(position: P) -> Self {
        Self(position)
    }

    /// The position.
    pub const fn position(&self) -> &P {
        &self.0
    }

    /// The position, for the rules to change (they keep it legal).
    pub(crate) fn position_mut(&mut self) -> &mut P {
        &mut self.0
    }

    /// The position, given back.
    pub fn into_position(self) -> P {
        self.0
    }
}

impl<P> AsRef<P> for Legal<P> {
    fn as_ref(&self) -> &P {
        &self.0
    }
}

/// Writes the position as its notation writes it (USI SFEN, FEN).
impl<P: std::fmt::Display> std::fmt::Display for Legal<P> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}
