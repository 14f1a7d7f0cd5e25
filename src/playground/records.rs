//! Inputs cut into the texts a grammar rule reads: one record per line for the line formats
//! (SFEN, FEN, EPD), one game per record for PSN.

/// How an input holds its records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// One record per line; blank lines are skipped.
    Lines,
    /// PSN: one game per record, cut as `kifu check` cuts them (PSN's scanner).
    Games,
    /// PSN: the whole file as one record, for the rule that cuts it into games (`file`).
    Whole,
}

/// One record of an input, as a grammar is run on it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    /// 1-based line of its first character.
    pub line: usize,
    /// Its text (for a line, without the line end).
    pub text: String,
}

/// Cuts `bytes` into records. Bytes that are not UTF-8 are read as U+FFFD, so a grammar
/// rejects them where they are; a byte-order mark at the start is not part of a record.
pub fn split(bytes: &[u8], layout: Layout) -> Vec<Sample> {
    match layout {
        Layout::Games => {
            let decoded = crate::psn::decode::decode(bytes);
            crate::psn::scan::scan(&decoded.text)
                .iter()
                .map(|g| Sample { line: g.line, text: decoded.text.get(g.start..g.end).unwrap_or("").to_owned() })
                .collect()
        }
        Layout::Whole => vec![Sample { line: 1, text: crate::psn::decode::decode(bytes).text }],
        Layout::Lines => {
            let bytes = bytes.strip_prefix("\u{FEFF}".as_bytes()).unwrap_or(bytes);
            let mut out = Vec::new();
            let (mut pos, mut line) = (0, 1);
            while pos < bytes.len() {
                let end = memchr::memchr2(b'\n', b'\r', &bytes[pos..]).map_or(bytes.len(), |i| pos + i);
                let text = String::from_utf8_lossy(&bytes[pos..end]);
                if !text.trim().is_empty() {
                    out.push(Sample { line, text: text.into_owned() });
                }
                pos = end;
                if pos < bytes.len() {
                    pos += if bytes[pos] == b'\r' && bytes.get(pos + 1) == Some(&b'\n') { 2 } else { 1 };
                    line += 1;
                }
            }
            out
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_their_numbers() {
        let records = split(b"\xEF\xBB\xBFa\r\n\nb\rc \n\xFF\n", Layout::Lines);
        let got: Vec<(usize, &str)> = records.iter().map(|r| (r.line, r.text.as_str())).collect();
        assert_eq!(got, [(1, "a"), (3, "b"), (4, "c "), (5, "\u{FFFD}")]);
        assert!(split(b"", Layout::Lines).is_empty());
        assert!(split(b"", Layout::Games).is_empty());
    }
}
