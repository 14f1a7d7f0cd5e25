//! The inputs of a command: paths, `-` for standard input, and the name reports give it.

/// The name reports give standard input.
pub const STDIN: &str = "<stdin>";

/// The name reports give the input at `path`: [`STDIN`] for `-`.
pub fn name(path: &str) -> &str {
    if path == "-" {
        STDIN
    } else {
        path
    }
}

/// The paths to read: `paths`, or standard input when there are none.
pub fn paths(paths: &[String]) -> Vec<String> {
    if paths.is_empty() {
        vec!["-".to_owned()]
    } else {
        paths.to_vec()
    }
}

/// Bytes per batch of input handed to a worker: the lines' bytes and their places
/// ([`kifu::input::LineReader::next_batch`] counts both).
pub(crate) const BATCH_BYTES: usize = 128 * 1024;
