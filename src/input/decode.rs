//! Encodings: which one a file is in, and its text.
//!
//! Files of records come in every encoding their writers' platforms used: ASCII, UTF-8 with or
//! without a byte-order mark, UTF-16 with one (Windows editors), ISO-8859-1 and CP437/850 (GSDB
//! archives), and Shift_JIS (Shogidokoro). One definition serves every format:
//!
//! - [`Utf8Stream`] decodes a stream that starts with a UTF-16 byte-order mark as it is read;
//! - a line that is UTF-8 is read as UTF-8; one that is not is read in the first legacy
//!   encoding that fits it (`guess`): a file of line records in the one its first such line
//!   fits ([`Reading`]), a PSN file each game in its own ([`LineDecoder`]), so that one stray byte
//!   changes nothing outside its line;
//! - bytes that are mostly control codes are not text ([`judge`]), and are reported as such;
//! - the finding that says how a file or a game was read is [`encoding_note`]'s.

use std::borrow::Cow;
use std::io::{self, Read};

use crate::diagnostic::{Code, Diagnostic};
use crate::span::Span;

use super::lines::{Batch, MAX_LINE};

#[cfg(feature = "serde")]
use serde::Serialize;

use super::lines::line_len;

/// What a line is to the record format, as far as telling where its records start: the
/// decoder reads each record in its own encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineRole {
    /// A header line: a record starts at the first after a line that is not one.
    Header,
    /// A line that starts a record after a blank line (PSN: move number 1).
    First,
    /// Any other line.
    Other,
}

/// Tells a line's [`LineRole`] from its bytes (in any encoding).
pub type Roles = fn(&[u8]) -> LineRole;

/// Every line is [`LineRole::Other`]: the whole file is one record.
pub fn one_record(_: &[u8]) -> LineRole {
    LineRole::Other
}

/// The encoding a file was read in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum Encoding {
    /// UTF-8 (or plain ASCII).
    #[default]
    Utf8,
    /// UTF-8 after a byte-order mark.
    Utf8Bom,
    /// UTF-16, little-endian, after a byte-order mark.
    Utf16Le,
    /// UTF-16, big-endian, after a byte-order mark.
    Utf16Be,
    /// Shift_JIS, as Shogidokoro writes.
    ShiftJis,
    /// EUC-JP, as old Unix programs wrote Japanese.
    EucJp,
    /// IBM code page 437, as DOS programs wrote.
    Cp437,
    /// ISO-8859-1 (Latin-1).
    Latin1,
}

impl Encoding {
    /// The encoding's usual name.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Utf8 => "UTF-8",
            Self::Utf8Bom => "UTF-8 with a byte-order mark",
            Self::Utf16Le => "UTF-16 (little-endian)",
            Self::Utf16Be => "UTF-16 (big-endian)",
            Self::ShiftJis => "Shift_JIS",
            Self::EucJp => "EUC-JP",
            Self::Cp437 => "CP437",
            Self::Latin1 => "ISO-8859-1",
        }
    }

    /// The encoding `name` stands for, as a `#KIF` line or a caller writes it, in any case and
    /// with or without `-` and `_`: `UTF-8`, `Shift_JIS` (`sjis`, `cp932`, `Windows-31J`) or
    /// `EUC-JP`.
    pub fn named(name: &str) -> Option<Self> {
        match name.to_ascii_lowercase().replace(['-', '_'], "").as_str() {
            "utf8" => Some(Self::Utf8),
            "shiftjis" | "sjis" | "cp932" | "windows31j" => Some(Self::ShiftJis),
            "eucjp" => Some(Self::EucJp),
            _ => None,
        }
    }

    /// True when a Japanese record that names its encoding `name` (on its `#KIF` or
    /// `'CSA encoding=` line) was read in that encoding; always true for the encodings no such
    /// record is read in.
    pub(crate) fn is_named(self, name: &str) -> bool {
        match self {
            Self::Utf8 | Self::Utf8Bom => Self::named(name) == Some(Self::Utf8),
            Self::ShiftJis | Self::EucJp => Self::named(name) == Some(self),
            _ => true,
        }
    }

    /// True for the encodings kifu had to guess.
    pub const fn is_legacy(self) -> bool {
        matches!(self, Self::ShiftJis | Self::EucJp | Self::Cp437 | Self::Latin1)
    }

    /// `text` written in this encoding, after the byte-order mark of those read after one, or
    /// `None` when a character of it has no bytes in this encoding (U+FFFD, which stands for
    /// bytes that were not valid, has none in Shift_JIS, CP437 or ISO-8859-1).
    pub fn encode(self, text: &str) -> Option<Vec<u8>> {
        let utf16 = |bom: [u8; 2], unit: fn(u16) -> [u8; 2]| {
            bom.into_iter().chain(text.encode_utf16().flat_map(unit)).collect::<Vec<u8>>()
        };
        match self {
            Self::Utf8 => Some(text.as_bytes().to_vec()),
            Self::Utf8Bom => Some([super::bytes::BOM, text.as_bytes()].concat()),
            Self::Utf16Le => Some(utf16([0xFF, 0xFE], u16::to_le_bytes)),
            Self::Utf16Be => Some(utf16([0xFE, 0xFF], u16::to_be_bytes)),
            Self::ShiftJis => match encoding_rs::SHIFT_JIS.encode(text) {
                (_, _, true) => None,
                (bytes, _, false) => Some(bytes.into_owned()),
            },
            Self::EucJp => match encoding_rs::EUC_JP.encode(text) {
                (_, _, true) => None,
                (bytes, _, false) => Some(bytes.into_owned()),
            },
            Self::Cp437 => oem_cp::encode_string_checked(text, &oem_cp::code_table::ENCODING_TABLE_CP437),
            Self::Latin1 => text.chars().map(|c| u8::try_from(c).ok()).collect(),
        }
    }
}

/// A file's text and the encoding it was read in.
#[derive(Clone, Debug)]
pub struct Decoded {
    /// The text. Every byte of the input is in it, as the character it decodes to.
    pub text: String,
    /// The encoding used: the first legacy encoding a line was read in, else UTF-8.
    pub encoding: Encoding,
}

/// Decodes a whole file, line by line as [`LineDecoder`] does, with records starting where
/// `roles` says; a file that starts with a UTF-16 byte-order mark is read as its UTF-8 twin
/// ([`Utf8Stream`]), as a stream of it is.
pub fn decode(bytes: &[u8], roles: Roles) -> Decoded {
    decode_with(bytes, LineDecoder::new(roles))
}

/// Decodes a whole file of records in a notation, as [`decode`] does with
/// [`LineDecoder::records`]: the file is one record, its legacy encoding told as a line of
/// records' is.
pub fn decode_records(bytes: &[u8]) -> Decoded {
    decode_with(bytes, LineDecoder::records(one_record))
}

/// [`decode`] with `decoder`.
fn decode_with(bytes: &[u8], decoder: LineDecoder) -> Decoded {
    if bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]) {
        let mut stream = Utf8Stream::new(bytes);
        let mut utf8 = Vec::with_capacity(bytes.len());
        // Reading bytes in memory cannot fail.
        let _ = stream.read_to_end(&mut utf8);
        let mut decoded = decode_lines(&utf8, decoder);
        decoded.encoding = stream.encoding().unwrap_or(decoded.encoding);
        return decoded;
    }
    decode_lines(bytes, decoder)
}

/// `bytes` decoded line by line by `decoder`.
fn decode_lines(bytes: &[u8], mut decoder: LineDecoder) -> Decoded {
    let mut text = String::with_capacity(bytes.len());
    let mut encoding = None;
    let mut rest = bytes;
    while !rest.is_empty() {
        let len = line_len(rest);
        let (line, legacy) = decoder.decode(&rest[..len]);
        text.push_str(&line);
        if let (None, Some(l)) = (encoding, legacy) {
            encoding = Some(l.encoding);
        }
        rest = &rest[len..];
    }
    Decoded { text, encoding: encoding.unwrap_or(if decoder.bom { Encoding::Utf8Bom } else { Encoding::Utf8 }) }
}

/// Where a line was not read as UTF-8.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineLegacy {
    /// Offset in the decoded line of its first character not in ASCII.
    pub at: usize,
    /// The encoding the line was read in.
    pub encoding: Encoding,
    /// The encoding of the game's earlier legacy lines, when the line is not valid in it.
    pub unlike: Option<Encoding>,
}

/// Decodes a file line by line, each game (record) in its own encoding (PSN note 10).
///
/// A line that is UTF-8 is read as UTF-8. A game's first line that is not is read in the first
/// legacy encoding that fits it: Shift_JIS when it decodes without fault and reads as Japanese
/// (kana, or two ideographs in a row); else CP437 when most of its bytes above 0x7F are in
/// 0x80-0x9F (letters in CP437, control codes in ISO-8859-1); else ISO-8859-1, which decodes any
/// byte. The game's later lines that are not UTF-8 are read in that encoding too, unless they are
/// not valid in it (then they are read on their own, and say so). A game starts at a header line
/// after a line that is not one, or at a line starting with move number 1 after a blank line.
/// A byte-order mark at the start of the file is dropped. Which lines are header lines and first
/// move lines is for the format to say (`Roles`).
#[derive(Clone, Debug)]
pub struct LineDecoder {
    /// What each line is to the format.
    roles: Roles,
    /// Tells the legacy encoding of a game's first line that is not UTF-8.
    guess: fn(&[u8]) -> Encoding,
    /// The legacy encoding of the game being read, once a line of it needed one.
    game: Option<Encoding>,
    /// Lines seen.
    lines: u64,
    /// The file started with a byte-order mark.
    pub bom: bool,
    /// The last line that was not blank was a header line.
    after_header: bool,
    /// The last line was blank.
    after_blank: bool,
}

impl LineDecoder {
    /// A decoder for a file whose lines `roles` tells apart.
    pub fn new(roles: Roles) -> Self {
        Self { roles, guess, game: None, lines: 0, bom: false, after_header: false, after_blank: false }
    }

    /// A decoder for a file of records in a notation (a JSON position file), whose legacy
    /// encoding is told as a line of records' is (`judge`): Japanese beyond ASCII means
    /// Shift_JIS, even in one full-width letter.
    pub fn records(roles: Roles) -> Self {
        Self { guess: guess_record, ..Self::new(roles) }
    }

    /// Forgets the game being read: the next line starts a new one.
    #[cfg(feature = "psn")]
    pub(crate) fn new_game(&mut self) {
        self.game = None;
        self.after_header = false;
        self.after_blank = true;
    }

    /// The text of one line (with its line end) and, when it was not UTF-8, where and how it was
    /// read.
    pub fn decode<'a>(&mut self, line: &'a [u8]) -> (Cow<'a, str>, Option<LineLegacy>) {
        let mut line = line;
        if self.lines == 0 {
            if let Some(rest) = line.strip_prefix(b"\xEF\xBB\xBF") {
                self.bom = true;
                line = rest;
            }
        }
        self.lines += 1;
        let blank = line.iter().all(u8::is_ascii_whitespace);
        if !blank {
            let role = (self.roles)(line);
            let header = role == LineRole::Header;
            if header && !self.after_header || self.after_blank && role == LineRole::First {
                self.game = None;
            }
            self.after_header = header;
        }
        self.after_blank = blank;
        if let Ok(text) = std::str::from_utf8(line) {
            return (Cow::Borrowed(text), None);
        }
        let game = *self.game.get_or_insert_with(|| (self.guess)(line));
        let (text, legacy) = read_legacy(line, game);
        (Cow::Owned(text), Some(legacy))
    }
}

/// `line`, not UTF-8, read in `encoding` (the file's or the game's legacy encoding), or in the
/// legacy encoding that fits it best when it is not valid in that one (Shift_JIS has faults).
fn read_legacy(line: &[u8], encoding: Encoding) -> (String, LineLegacy) {
    let (encoding, unlike) = match encoding {
        Encoding::ShiftJis if sjis(line).is_none() => (guess(line), Some(Encoding::ShiftJis)),
        e => (e, None),
    };
    let text = decode_in(line, encoding);
    let at = text.char_indices().find(|(_, c)| !c.is_ascii()).map_or(0, |(i, _)| i);
    (text, LineLegacy { at, encoding, unlike })
}

/// `bytes` as Shift_JIS, when they decode without fault.
fn sjis(bytes: &[u8]) -> Option<Cow<'_, str>> {
    encoding_rs::SHIFT_JIS.decode_without_bom_handling_and_without_replacement(bytes)
}

/// The legacy encoding that fits `bytes` best (see [`LineDecoder`]).
pub fn guess(bytes: &[u8]) -> Encoding {
    if sjis(bytes).is_some_and(|text| reads_as_japanese(&text)) {
        return Encoding::ShiftJis;
    }
    let high = bytes.iter().filter(|&&b| b >= 0x80).count();
    let c1 = bytes.iter().filter(|&&b| (0x80..0xA0).contains(&b)).count();
    if c1 * 2 > high {
        Encoding::Cp437
    } else {
        Encoding::Latin1
    }
}

/// `bytes` read in `encoding` (a fault in Shift_JIS becomes U+FFFD).
pub(crate) fn decode_in(bytes: &[u8], encoding: Encoding) -> String {
    match encoding {
        Encoding::Utf8 | Encoding::Utf8Bom => String::from_utf8_lossy(bytes).into_owned(),
        Encoding::Utf16Le => encoding_rs::UTF_16LE.decode_without_bom_handling(bytes).0.into_owned(),
        Encoding::Utf16Be => encoding_rs::UTF_16BE.decode_without_bom_handling(bytes).0.into_owned(),
        Encoding::ShiftJis => encoding_rs::SHIFT_JIS.decode_without_bom_handling(bytes).0.into_owned(),
        Encoding::EucJp => encoding_rs::EUC_JP.decode_without_bom_handling(bytes).0.into_owned(),
        Encoding::Cp437 => oem_cp::decode_string_complete_table(bytes, &oem_cp::code_table::DECODING_TABLE_CP437),
        // ISO-8859-1 maps each byte to the code point of the same number.
        Encoding::Latin1 => bytes.iter().map(|&b| char::from(b)).collect(),
    }
}

/// Japanese text has kana, or runs of ideographs; a Western byte that happens to form a Shift_JIS
/// pair gives a lone ideograph between Latin letters.
fn reads_as_japanese(text: &str) -> bool {
    let kana = |c: char| matches!(c, '\u{3040}'..='\u{30FF}' | '\u{FF66}'..='\u{FF9F}');
    let ideograph = |c: char| matches!(c, '\u{4E00}'..='\u{9FFF}');
    let mut run = 0;
    for c in text.chars() {
        if kana(c) {
            return true;
        }
        run = if ideograph(c) { run + 1 } else { 0 };
        if run >= 2 {
            return true;
        }
    }
    false
}

/// A control code that text never holds (tab, line ends and form feed aside).
const fn is_control(b: u8) -> bool {
    matches!(b, 0x00..=0x08 | 0x0B | 0x0E..=0x1F | 0x7F)
}

/// The legacy encoding that fits a line of records best. Records are notations in ASCII, so a
/// line that decodes in Shift_JIS without fault into Japanese characters alone beyond ASCII
/// (full-width letters and digits, kana, ideographs, Japanese punctuation) was typed with a
/// Japanese input method; else as [`guess`] says. (Game records hold free text, where a Western
/// letter before an ASCII one can make a full-width letter: [`guess`] asks more.)
fn guess_record(bytes: &[u8]) -> Encoding {
    let japanese = |c: char| {
        c.is_ascii()
            || matches!(c, '\u{3000}'..='\u{30FF}' | '\u{4E00}'..='\u{9FFF}' | '\u{FF01}'..='\u{FF9F}' | '\u{2010}'..='\u{2312}')
    };
    match sjis(bytes) {
        Some(text) if text.chars().all(japanese) => Encoding::ShiftJis,
        _ => guess(bytes),
    }
}

/// What a line of records that is not UTF-8 is: text in the legacy encoding that fits it best, or `None`
/// when it is not text at all — when more than one byte in sixteen of `sample` (the line and
/// what follows it, a bounded piece of the file) is a control code, as in random bytes.
pub fn judge(line: &[u8], sample: &[u8]) -> Option<Encoding> {
    is_text(sample).then(|| guess_record(line))
}

/// False when more than one byte in sixteen of `sample` is a control code, as in random bytes.
pub fn is_text(sample: &[u8]) -> bool {
    let controls = sample.iter().filter(|&&b| is_control(b)).count();
    controls * 16 <= sample.len()
}

/// The finding that says a file (or a game: `whole` names which) was not read as UTF-8, on the
/// first character of `text` so read (at byte `legacy.at`), with `code`; `None` for a text
/// that has no character there. A line not valid in the encoding of the rest (`unlike`) gets
/// its own.
pub fn encoding_note(code: Code, whole: &str, text: &str, legacy: &LineLegacy) -> Option<Diagnostic> {
    let c = text.get(legacy.at..).and_then(|t| t.chars().next())?;
    let (message, help) = match legacy.unlike {
        None => (
            format!("this {whole} is not in UTF-8: it was read as {}", legacy.encoding.name()),
            "save the file as UTF-8 so that every program reads these characters alike".to_owned(),
        ),
        Some(unlike) => (
            format!(
                "this line is not {} like the rest of the {whole}: it was read as {}",
                unlike.name(),
                legacy.encoding.name()
            ),
            format!("save the {whole} in one encoding, UTF-8 best; this line may be damaged"),
        ),
    };
    let span = Span::new(legacy.at, legacy.at + c.len_utf8());
    let label = if legacy.encoding.is_legacy() { format!("read as `{c}`") } else { format!("the {whole} starts here") };
    Some(Diagnostic::warning(code, span, message).label(label).help(help))
}

/// How many bytes of UTF-16 [`Utf8Stream`] decodes at a time.
const UTF16_CHUNK: usize = 8 * 1024;

/// A byte stream as UTF-8: one that starts with a UTF-16 byte-order mark is decoded as it is
/// read, a piece at a time (memory stays flat), without its mark; any other is handed on as it
/// is. A fault in the UTF-16 (a lone surrogate) becomes U+FFFD.
#[derive(Debug)]
pub struct Utf8Stream<R> {
    inner: R,
    /// The first bytes, read to look for a byte-order mark, not yet handed on.
    head: Vec<u8>,
    started: bool,
    utf16: Option<Utf16>,
}

/// The state of decoding UTF-16: the decoder, the bytes it made, and how many were handed on.
struct Utf16 {
    encoding: Encoding,
    decoder: encoding_rs::Decoder,
    raw: Vec<u8>,
    out: Vec<u8>,
    at: usize,
    done: bool,
}

impl std::fmt::Debug for Utf16 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Utf16").field("encoding", &self.encoding).field("done", &self.done).finish_non_exhaustive()
    }
}

/// Reads into `buf`, again when a read is interrupted.
fn read_retrying(reader: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    loop {
        match reader.read(buf) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            r => return r,
        }
    }
}

impl<R: Read> Utf8Stream<R> {
    /// The stream `inner`, as UTF-8.
    pub fn new(inner: R) -> Self {
        Self { inner, head: Vec::new(), started: false, utf16: None }
    }

    /// UTF-16 (little- or big-endian) when the stream started with its byte-order mark; `None`
    /// before the first read, and for any other stream.
    pub fn encoding(&self) -> Option<Encoding> {
        self.utf16.as_ref().map(|u| u.encoding)
    }

    /// Appends the next `n` bytes of the stream to `buf`, fewer only at its end: how many. A
    /// stream handed on as it is is read straight into `buf`'s free room, which is not set to
    /// zero first.
    pub fn read_append(&mut self, buf: &mut Vec<u8>, n: usize) -> io::Result<usize> {
        if !self.started {
            self.start()?;
        }
        let limit = n as u64;
        if self.utf16.is_none() && self.head.is_empty() {
            (&mut self.inner).take(limit).read_to_end(buf)
        } else {
            self.take(limit).read_to_end(buf)
        }
    }

    /// Reads the first two bytes, and starts decoding UTF-16 when they are its byte-order mark.
    fn start(&mut self) -> io::Result<()> {
        let mut two = [0u8; 2];
        let mut got = 0;
        while got < 2 {
            match read_retrying(&mut self.inner, &mut two[got..])? {
                0 => break,
                n => got += n,
            }
        }
        self.started = true;
        let (encoding, decoding) = match &two[..got] {
            [0xFF, 0xFE] => (Encoding::Utf16Le, encoding_rs::UTF_16LE),
            [0xFE, 0xFF] => (Encoding::Utf16Be, encoding_rs::UTF_16BE),
            head => {
                self.head = head.to_vec();
                return Ok(());
            }
        };
        let decoder = decoding.new_decoder_without_bom_handling();
        self.utf16 = Some(Utf16 { encoding, decoder, raw: vec![0; UTF16_CHUNK], out: Vec::new(), at: 0, done: false });
        Ok(())
    }
}

impl<R: Read> Read for Utf8Stream<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if !self.started {
            self.start()?;
        }
        if buf.is_empty() {
            return Ok(0);
        }
        let Some(u) = &mut self.utf16 else {
            if self.head.is_empty() {
                return self.inner.read(buf);
            }
            let n = self.head.len().min(buf.len());
            buf[..n].copy_from_slice(&self.head[..n]);
            self.head.drain(..n);
            return Ok(n);
        };
        while u.at == u.out.len() && !u.done {
            let n = read_retrying(&mut self.inner, &mut u.raw)?;
            u.done = n == 0;
            let room = u.decoder.max_utf8_buffer_length(n).unwrap_or(4 * n + 16);
            u.out.clear();
            u.out.resize(room, 0);
            let (_, _, written, _) = u.decoder.decode_to_utf8(&u.raw[..n], &mut u.out, u.done);
            u.out.truncate(written);
            u.at = 0;
        }
        let n = (u.out.len() - u.at).min(buf.len());
        buf[..n].copy_from_slice(&u.out[u.at..u.at + n]);
        u.at += n;
        Ok(n)
    }
}

/// How the lines of a file of line records are read, decided by [`Reading::learn`] from the
/// first lines that tell (a bounded piece of the file, read in order), then the same for every
/// line, each read on its own ([`Reading::line`], on any thread).
///
/// A file that starts with a UTF-16 byte-order mark is UTF-16 ([`Utf8Stream`]); one that starts
/// with UTF-8's, or whose first line with a character beyond ASCII is UTF-8, is UTF-8 (a later
/// line that is not is damaged, and reported so); else the first line that is not UTF-8 is read
/// in the legacy encoding that fits it best (`guess`), and so is every later line that is not
/// UTF-8 (one not valid in that encoding is read on its own, and says so). The file's one finding
/// on its encoding is on the line that decided it. Bytes that are not text (`judge`) end the
/// reading of the file, with one finding.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reading {
    /// The file's encoding, once its bytes told (`None` while every line was ASCII).
    pub encoding: Option<Encoding>,
    /// The line that carries the file's finding on its encoding.
    pub announce: Option<usize>,
    /// The line where the file turned out not to be text: reported there, and nothing after it
    /// is read.
    pub not_text: Option<usize>,
}

/// A line's text as [`Reading::line`] reads it.
#[derive(Clone, Debug)]
pub enum LineText<'a> {
    /// The line as text, and the finding it carries on the file's encoding, if any (on the line
    /// that decided it, or on a line not valid in it).
    Text(Cow<'a, str>, Option<Diagnostic>),
    /// The line is not UTF-8 in a file that is: its text with U+FFFD for the faults.
    Damaged(String),
    /// The line is not text: the file is read no further.
    NotText,
}

impl Reading {
    /// Learns what the lines of `batch`, the next of the file, tell of its encoding; `stream` is
    /// the encoding [`Utf8Stream`] decoded the file from, if any.
    pub fn learn(&mut self, batch: &Batch, stream: Option<Encoding>) {
        if self.encoding.is_some() || self.not_text.is_some() {
            return;
        }
        let Some(first) = batch.lines.first() else { return };
        if stream.is_some() {
            (self.encoding, self.announce) = (stream, Some(first.number));
            return;
        }
        if first.number == 1 && batch.bytes(first).starts_with(super::bytes::BOM) {
            self.encoding = Some(Encoding::Utf8Bom);
            return;
        }
        if batch.data.is_ascii() {
            return;
        }
        for line in batch.lines.iter().filter(|l| !batch.bytes(l).is_ascii()) {
            match std::str::from_utf8(batch.bytes(line)) {
                Ok(_) => self.encoding = Some(Encoding::Utf8),
                // A line cut short may end inside a character.
                Err(e) if line.len > MAX_LINE && e.error_len().is_none() => continue,
                Err(_) => match judge(batch.bytes(line), &batch.data[line.start..]) {
                    Some(e) => (self.encoding, self.announce) = (Some(e), Some(line.number)),
                    None => self.not_text = Some(line.number),
                },
            }
            return;
        }
    }

    /// Line `number` of the file, `bytes` without a byte-order mark, as text (`utf8`: the same
    /// bytes as text, when the caller found them UTF-8 already); `code` is the code of the
    /// finding on the encoding. A file whose encoding is not known yet is this line alone.
    pub fn line<'a>(&self, number: usize, bytes: &'a [u8], utf8: Option<&'a str>, code: Code) -> LineText<'a> {
        let announce = self.announce == Some(number);
        let utf8 = match utf8 {
            Some(text) => Ok(text),
            None => std::str::from_utf8(bytes),
        };
        if let Ok(text) = utf8 {
            let note = match self.encoding {
                Some(encoding @ (Encoding::Utf16Le | Encoding::Utf16Be)) if announce => {
                    encoding_note(code, "file", text, &LineLegacy { at: 0, encoding, unlike: None })
                }
                _ => None,
            };
            return LineText::Text(Cow::Borrowed(text), note);
        }
        let (encoding, announce) = match self.encoding {
            Some(e) if e.is_legacy() => (e, announce),
            Some(_) => return LineText::Damaged(String::from_utf8_lossy(bytes).into_owned()),
            None => match judge(bytes, bytes) {
                Some(e) => (e, true),
                None => return LineText::NotText,
            },
        };
        let (text, legacy) = read_legacy(bytes, encoding);
        let note = (announce || legacy.unlike.is_some()).then(|| encoding_note(code, "file", &text, &legacy)).flatten();
        LineText::Text(Cow::Owned(text), note)
    }
}

/// The text of a Japanese game record's bytes (KIF, KI2, CSA), the encoding it was read in, and
/// where the first bytes that are not text in it are, if any: UTF-8 (with or without a
/// byte-order mark), else Shift_JIS or EUC-JP, whichever reads without a fault (when both do,
/// the one whose text reads more as a record), else Shift_JIS with the bytes it cannot read as
/// `U+FFFD`.
pub fn decode_japanese(bytes: &[u8]) -> (String, Encoding, Option<usize>) {
    if let Some(rest) = bytes.strip_prefix(b"\xEF\xBB\xBF") {
        let text = String::from_utf8_lossy(rest).into_owned();
        let bad = text.find('\u{FFFD}');
        return (text, Encoding::Utf8Bom, bad);
    }
    if let Ok(text) = std::str::from_utf8(bytes) {
        return (text.to_owned(), Encoding::Utf8, None);
    }
    let clean = |encoding: &'static encoding_rs::Encoding| {
        encoding.decode_without_bom_handling_and_without_replacement(bytes).map(|t| t.into_owned())
    };
    let candidates =
        [(Encoding::ShiftJis, clean(encoding_rs::SHIFT_JIS)), (Encoding::EucJp, clean(encoding_rs::EUC_JP))];
    // Both may read without a fault: the one whose text reads as a record wins.
    let best = candidates
        .into_iter()
        .filter_map(|(e, t)| t.map(|t| (likeness(&t), e, t)))
        .max_by_key(|(score, e, _)| (*score, *e == Encoding::ShiftJis));
    match best {
        Some((_, encoding, text)) => (text, encoding, None),
        None => {
            let text = decode_in(bytes, Encoding::ShiftJis);
            let bad = text.find('\u{FFFD}');
            (text, Encoding::ShiftJis, bad)
        }
    }
}

/// How much a text reads as a Japanese game record: its characters that records are made of (kanji of
/// pieces and numbers, full-width digits, kana), less the half-width katakana that a record
/// in another encoding turns into.
fn likeness(text: &str) -> i64 {
    text.chars()
        .map(|c| match c {
            '手' | '先' | '後' | '歩' | '同' | '成' | '打' | '一'..='九' | '１'..='９' | '\u{3041}'..='\u{30FF}' => {
                2
            }
            '\u{FF61}'..='\u{FF9F}' => -3,
            _ => 0,
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(bytes: &[u8]) -> Decoded {
        super::decode(bytes, one_record)
    }

    #[test]
    fn picks_the_encoding_that_fits() {
        assert_eq!(decode(b"[Sente \"x\"]").encoding, Encoding::Utf8);
        assert_eq!(decode("[Sente \"S\u{f6}lter\"]".as_bytes()).encoding, Encoding::Utf8);
        let bom = decode(b"\xEF\xBB\xBF7g7f");
        assert_eq!((bom.encoding, bom.text.as_str()), (Encoding::Utf8Bom, "7g7f"));
        let latin = decode(b"S\xf6lter");
        assert_eq!((latin.encoding, latin.text.as_str()), (Encoding::Latin1, "S\u{f6}lter"));
        let dos = decode(b"S\x94lter");
        assert_eq!((dos.encoding, dos.text.as_str()), (Encoding::Cp437, "S\u{f6}lter"));
        // "わたし" in Shift_JIS.
        let sjis = decode(b"[Sente \"\x82\xed\x82\xbd\x82\xb5\"]");
        assert_eq!((sjis.encoding, sjis.text.as_str()), (Encoding::ShiftJis, "[Sente \"わたし\"]"));
    }

    /// What a file decodes to, written again in its encoding, is the file's bytes; a character
    /// an encoding has no bytes for is refused.
    #[test]
    fn a_decoded_file_is_written_back_byte_for_byte() {
        let files: &[&[u8]] = &[
            b"7g7f\n",
            b"\xEF\xBB\xBF7g7f\n",
            b"S\xf6lter\r\n7g7f",
            b"S\x94lter\n",
            b"[Sente \"\x82\xed\x82\xbd\x82\xb5\"]\n",
            b"\xFF\xFE7\x00g\x00\xE9\x00\n\x00",
            b"\xFE\xFF\x007\x00g\x00\xE9\x00\n",
        ];
        for &bytes in files {
            let decoded = decode(bytes);
            assert_eq!(decoded.encoding.encode(&decoded.text).as_deref(), Some(bytes), "{:?}", decoded.encoding);
        }
        assert_eq!(Encoding::ShiftJis.encode("\u{FFFD}"), None);
        assert_eq!(Encoding::Latin1.encode("\u{100}"), None);
        assert_eq!(Encoding::Cp437.encode("日"), None);
        // A Shift_JIS fault read as U+FFFD cannot come back: such a file is not written.
        let faulty = decode(b"\x82\xed\x82\xbd\n\x82\n");
        assert_ne!(faulty.encoding.encode(&faulty.text).as_deref(), Some(&b"\x82\xed\x82\xbd\n\x82\n"[..]));
    }
}
