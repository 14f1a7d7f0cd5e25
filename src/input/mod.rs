//! Reading input: lines in bounded memory ([`lines`]), the findings a line gets from its bytes
//! before any grammar ([`bytes`]), and legacy encodings ([`decode`]).

pub mod bytes;
#[cfg(feature = "psn")]
pub mod decode;
pub mod lines;
pub mod pool;

pub use bytes::{line_bytes, line_too_long, LineBytes};
#[cfg(feature = "psn")]
pub use decode::{Decoded, Encoding, LineDecoder, LineLegacy, LineRole};
pub use lines::{Batch, LineInfo, LineRead, LineReader, LineSource, MAX_KEPT, MAX_LINE};
