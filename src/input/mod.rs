//! Reading input: lines in bounded memory (`lines`), the findings a line gets from its bytes
//! before any grammar (`bytes`), and encodings (`decode`: which
//! one a file is in, and its text).

pub(crate) mod bytes;
machinery! { mod decode; }
pub(crate) mod lines;
machinery! { mod pool; }

pub use bytes::{line_bytes, line_too_long, LineBytes};
pub use decode::{Decoded, Encoding, LineDecoder, LineLegacy, LineRole, Reading, Utf8Stream};
pub use lines::{is_blank, Batch, Line, LineInfo, LineRead, LineReader, LineSource, MAX_KEPT, MAX_LINE};
pub use pool::cores;
