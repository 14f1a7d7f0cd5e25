//! The pieces a side holds in hand.

use std::fmt;

use super::PieceKind;

/// The pieces a side holds in hand, counted per kind in the order P L N S G B R.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Hand(pub [u32; 7]);

impl Hand {
    /// No piece.
    pub const EMPTY: Self = Self([0; 7]);

    /// How many of `kind` (0 for the king).
    pub fn count(&self, kind: PieceKind) -> u32 {
        self.0.get(kind.index()).copied().unwrap_or(0)
    }

    /// Adds `n` of `kind` (a king is ignored: it is never in hand).
    pub fn add(&mut self, kind: PieceKind, n: u32) {
        if let Some(c) = self.0.get_mut(kind.index()) {
            *c = c.saturating_add(n);
        }
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&c| c == 0)
    }
}

impl fmt::Debug for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map()
            .entries(PieceKind::ALL[..7].iter().filter(|k| self.count(**k) > 0).map(|k| (k.letter(), self.count(*k))))
            .finish()
    }
}
