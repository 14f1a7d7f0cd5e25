//! The error of the small readers of notation: a square (`7f`, `e4`), a piece (`+P`, `n`), a
//! move (`7g7f`, `e2e4`), each through [`FromStr`](std::str::FromStr).

use std::fmt;

/// Text that does not write what was asked for: `"7j"` read as a shogi square, say.
///
/// ```
/// use kifu::shogi::Square;
///
/// let err = "7j".parse::<Square>().unwrap_err();
/// assert_eq!(err.to_string(), "`7j` is not a shogi square (a file 1-9 and a rank a-i, as in 7f)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotationError {
    /// What the text was read as, and how that is written: "shogi square (a file 1-9 …)".
    expected: &'static str,
    /// The text read, as given.
    text: String,
}

impl NotationError {
    /// `text` is not a well-formed `expected` (a noun with, in brackets, how it is written).
    pub fn new(expected: &'static str, text: &str) -> Self {
        Self { expected, text: text.to_owned() }
    }

    /// The text that was read.
    pub fn text(&self) -> &str {
        &self.text
    }
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` is not a {}", self.text, self.expected)
    }
}

impl std::error::Error for NotationError {}

/// Implements [`FromStr`](std::str::FromStr) for `$ty` with `$read` (a function from `&str`
/// to `Option<$ty>`), failing with a [`NotationError`] that names `$expected`.
macro_rules! from_str_by {
    ($(#[$doc:meta])* $ty:ty, $read:expr, $expected:literal) => {
        $(#[$doc])*
        impl std::str::FromStr for $ty {
            type Err = $crate::notation::NotationError;

            fn from_str(s: &str) -> Result<Self, Self::Err> {
                $read(s).ok_or_else(|| $crate::notation::NotationError::new($expected, s))
            }
        }
    };
}
pub(crate) use from_str_by;
