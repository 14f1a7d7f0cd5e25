//! KIF, the game records of Kifu for Windows (柿木将棋) that most Japanese shogi software reads
//! and writes: written here from a [`crate::shogi::Game`], as the format's own description
//! (`kif_format.html`, 棋譜ファイル KIF 形式) gives them.
//!
//! A record is its `#KIF` line (the encoding), the header (`key：value`, the start as `手合割`
//! or as a board diagram), the move lines (`   1 ７六歩(77)   ( 0:01/00:00:01)`), each move's
//! `*` comments, the ending (`投了`, and `まで…` naming the winner), and each variation as a
//! `変化：N手` block after the main line.

mod write;

pub use write::write;

/// `text` in Shift_JIS (as Windows writes it, code page 932), or the characters it has no code
/// for, quoted (`` `😀` ``).
pub fn shift_jis(text: &str) -> Result<Vec<u8>, String> {
    let (bytes, _, lossy) = encoding_rs::SHIFT_JIS.encode(text);
    if !lossy {
        return Ok(bytes.into_owned());
    }
    let mut missing: Vec<char> = Vec::new();
    for c in text.chars().filter(|c| encoding_rs::SHIFT_JIS.encode(c.encode_utf8(&mut [0; 4])).2) {
        if !missing.contains(&c) && missing.len() < 5 {
            missing.push(c);
        }
    }
    Err(missing.iter().map(|c| format!("`{c}`")).collect::<Vec<_>>().join(", "))
}
