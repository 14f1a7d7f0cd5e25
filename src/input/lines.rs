//! Splitting bytes into lines (LF, CRLF or CR), in bounded memory.
//!
//! [`LineReader`] hands out batches of whole lines without their ends, and keeps at most
//! [`MAX_KEPT`] bytes of any one line (it reads UTF-16 as UTF-8, and says how each batch is to be
//! read: [`Reading`]); [`LineSource`] reads one line at a time with its end, up
//! to a cap, and skips the rest of a longer one.

use std::io::{self, BufRead, Read};

use super::decode::{Reading, Utf8Stream};

/// The longest line kifu parses; a longer one is reported without being parsed.
pub const MAX_LINE: usize = 4096;

/// How many bytes of an over-long line the reader keeps (enough to show its start).
pub const MAX_KEPT: usize = 256;

/// The reader's buffered bytes, refilled when empty, reading again when a read is interrupted:
/// an empty slice at the end of the input.
pub(crate) fn fill(reader: &mut impl io::BufRead) -> io::Result<&[u8]> {
    loop {
        match reader.fill_buf() {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
            Ok(_) => break,
        }
    }
    reader.fill_buf()
}

/// One line of a batch: where its bytes are and how long it really was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineInfo {
    /// 1-based line number in its file.
    pub number: usize,
    /// Start of the kept bytes in [`Batch::data`].
    pub start: usize,
    /// End of the kept bytes.
    pub end: usize,
    /// The line's full length in bytes (more than `end - start` when it was cut).
    pub len: usize,
}

/// Whole lines read from a file: their bytes end to end, and where each one is.
///
/// A batch holds its lines in one of two ways. Either `data` holds each line's kept bytes
/// without its end, and `lines` places them; or, when `block` is set, `data` holds whole lines
/// as they were read, each ended by a LF (the last one may have none), placed by `lines` when
/// the reader found them ([`LineReader::find_lines`]), or else found when they are read
/// ([`Batch::read_lines`]), by the thread that checks them.
#[derive(Clone, Debug, Default)]
pub struct Batch {
    /// The lines' bytes: without their ends of line, or whole lines as read (`block`).
    pub data: Vec<u8>,
    /// The non-blank lines, in order; a block's when its reader found them (else they are
    /// found when read, and this is empty).
    pub lines: Vec<LineInfo>,
    /// When `data` holds whole lines as read: the number of the first.
    pub block: Option<usize>,
    /// Bytes of input this batch consumed (for progress).
    pub consumed: u64,
    /// How its lines are read: the file's encoding as far as it is known.
    pub reading: Reading,
}

impl Batch {
    /// The memory the batch takes: its bytes, and the places of its lines (short lines cost
    /// more in places than in bytes).
    pub fn cost(&self) -> usize {
        self.data.len() + self.lines.len() * std::mem::size_of::<LineInfo>()
    }

    /// Adds line `number`: `kept`, its bytes as the reader keeps them, and `len`, its full
    /// length. A blank line is left out.
    #[inline]
    fn push(&mut self, number: usize, kept: &[u8], len: usize) {
        if !is_blank(kept, len) {
            let start = self.data.len();
            self.data.extend_from_slice(kept);
            self.lines.push(LineInfo { number, start, end: self.data.len(), len });
        }
    }

    /// The kept bytes of `line`.
    pub fn bytes(&self, line: &LineInfo) -> &[u8] {
        &self.data[line.start..line.end]
    }

    /// Its non-blank lines, in order: `lines`, or those of the block found in its bytes.
    fn infos(&self) -> impl Iterator<Item = LineInfo> + '_ {
        let (placed, block) = match self.block {
            Some(first) if self.lines.is_empty() => (&[][..], Some(block_lines(&self.data, first))),
            _ => (&self.lines[..], None),
        };
        placed.iter().copied().chain(block.into_iter().flatten())
    }

    /// A block's lines placed one by one, as the other way of holding them has them: their kept
    /// bytes end to end, without their ends.
    fn place_lines(&mut self) {
        if self.block.is_none() {
            return;
        }
        let mut placed = Self { consumed: self.consumed, reading: self.reading, ..Self::default() };
        for l in self.infos() {
            placed.push(l.number, self.bytes(&l), l.len);
        }
        *self = placed;
    }

    /// Its lines as a checker reads them, each with its text when the batch's bytes are all
    /// UTF-8: found in one pass over the batch, which costs less than a pass over each line.
    pub fn read_lines(&self) -> impl Iterator<Item = Line<'_>> {
        let text = std::str::from_utf8(&self.data).ok();
        self.infos().map(move |l| Line {
            number: l.number,
            bytes: self.bytes(&l),
            len: l.len,
            text: text.and_then(|t| t.get(l.start..l.end)),
        })
    }
}

/// A line as a checker reads it: its number, the bytes kept of it and its full length, and
/// those bytes as text when its reader found them UTF-8 ([`Batch::read_lines`]).
#[derive(Clone, Copy, Debug)]
pub struct Line<'a> {
    /// 1-based line number in its file.
    pub number: usize,
    /// The kept bytes.
    pub bytes: &'a [u8],
    /// The line's full length in bytes.
    pub len: usize,
    /// `bytes` as text, when found UTF-8 already (`None`: not looked at, or not UTF-8).
    pub text: Option<&'a str>,
}

impl<'a> Line<'a> {
    /// Line `number`, whose kept bytes are `bytes` of `len`, not looked at yet.
    pub fn of(number: usize, bytes: &'a [u8], len: usize) -> Self {
        Self { number, bytes, len, text: None }
    }
}

/// True for a line that is no record: empty, or only spaces and tabs (`kept`: its bytes as
/// kept, `len`: its full length; a line too long to keep is never blank).
pub fn is_blank(kept: &[u8], len: usize) -> bool {
    len == 0 || (len <= MAX_LINE && kept.iter().all(|b| matches!(b, b' ' | b'\t')))
}

/// How many bytes of a line of `len` bytes the reader keeps: all of them, or its first
/// [`MAX_KEPT`] when it is longer than [`MAX_LINE`].
fn kept_len(len: usize) -> usize {
    if len > MAX_LINE {
        MAX_KEPT
    } else {
        len
    }
}

/// The non-blank lines of `data`, whole lines each ended by a LF (the last may have none), the
/// first numbered `first`, each with the bytes kept of it ([`kept_len`]).
fn block_lines(data: &[u8], first: usize) -> impl Iterator<Item = LineInfo> + '_ {
    let unended = (data.last().is_some_and(|b| *b != b'\n')).then_some(data.len());
    let (mut start, mut number) = (0, first);
    memchr::memchr_iter(b'\n', data).chain(unended).filter_map(move |end| {
        let len = end - start;
        let line = LineInfo { number, start, end: start + kept_len(len), len };
        (start, number) = (end + 1, number + 1);
        (!is_blank(&data[line.start..line.end], len)).then_some(line)
    })
}

/// Splits a byte stream into lines at LF, CRLF or CR, in batches, and learns the stream's
/// encoding from them ([`Reading::learn`]); a stream that starts with a UTF-16 byte-order mark is
/// read as UTF-8 ([`Utf8Stream`]). The lines after one that is not text are not read.
#[derive(Debug)]
pub struct LineReader<R> {
    reader: Utf8Stream<R>,
    reading: Reading,
    /// The bytes read and not handed out yet are `buf[pos..end]`; the rest of `buf` is room for
    /// the next read, made once (not set to zero before each read).
    buf: Vec<u8>,
    pos: usize,
    end: usize,
    eof: bool,
    line: usize,
    /// The last byte handed out ended a line with CR: a LF that follows belongs to it.
    after_cr: bool,
    /// An over-long line being skipped: its kept start and its length so far.
    long: Option<(Vec<u8>, usize)>,
    /// The input turned out not to be text: nothing more is read.
    done: bool,
    /// A CR was seen among the bytes: the lines are placed one by one from then on.
    cr_seen: bool,
    /// Bytes read for a block that was not made, counted in the next batch.
    unreported: u64,
    /// The lines of a block are found by the reader ([`Self::find_lines`]).
    finds_lines: bool,
}

const READ_SIZE: usize = 64 * 1024;

/// Most bytes a batch makes room for before it holds them.
const MAX_ROOM: usize = 1 << 20;

impl<R: Read> LineReader<R> {
    /// A reader over `reader`.
    pub fn new(reader: R) -> Self {
        Self {
            reader: Utf8Stream::new(reader),
            reading: Reading::default(),
            buf: Vec::new(),
            pos: 0,
            end: 0,
            eof: false,
            line: 0,
            after_cr: false,
            long: None,
            done: false,
            cr_seen: false,
            unreported: 0,
            finds_lines: false,
        }
    }

    /// Whether the reader finds the lines of the blocks it hands out ([`Batch::block`]), or
    /// leaves them to be found as they are read. A reader with a core of its own takes that
    /// work off the threads that check the lines; one that shares the cores with them leaves
    /// it to them, as they are many.
    pub fn find_lines(mut self, yes: bool) -> Self {
        self.finds_lines = yes;
        self
    }

    fn fill(&mut self) -> io::Result<usize> {
        if self.pos > 0 {
            self.buf.copy_within(self.pos..self.end, 0);
            self.end -= self.pos;
            self.pos = 0;
        }
        let old = self.end;
        if self.buf.len() < old + READ_SIZE {
            self.buf.resize(old + READ_SIZE, 0);
        }
        let n = loop {
            match self.reader.read(&mut self.buf[old..old + READ_SIZE]) {
                Ok(n) => break n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        };
        self.end = old + n;
        if n == 0 {
            self.eof = true;
        }
        Ok(n)
    }

    fn emit(&mut self, batch: &mut Batch, end: usize) {
        self.line += 1;
        let (kept, len) = match self.long.take() {
            Some((mut kept, len)) => {
                let extra = &self.buf[self.pos..end];
                let room = MAX_KEPT.saturating_sub(kept.len());
                kept.extend_from_slice(&extra[..extra.len().min(room)]);
                (Some(kept), len + extra.len())
            }
            None => (None, end - self.pos),
        };
        match kept {
            Some(kept) => batch.push(self.line, &kept, len),
            None => {
                batch.push(self.line, &self.buf[self.pos..self.pos + kept_len(len)], len);
            }
        }
        self.pos = end;
    }

    /// The whole lines of the buffer from `pos` on, up to the first longer than [`MAX_LINE`],
    /// added to `batch` ([`Batch::push`]), with one search for their ends: true
    /// when the batch reached `target`. (A CR read last leaves `after_cr` set.)
    fn plain_lines(&mut self, batch: &mut Batch, target: usize) -> bool {
        let region = &self.buf[self.pos..self.end];
        let mut start = 0;
        let mut after_cr = false;
        let mut full = false;
        for end in memchr::memchr2_iter(b'\n', b'\r', region) {
            if after_cr && end == start && region[end] == b'\n' {
                // The LF of a CRLF.
                (after_cr, start) = (false, end + 1);
                continue;
            }
            let len = end - start;
            if len > MAX_LINE {
                break;
            }
            self.line += 1;
            batch.push(self.line, &region[start..end], len);
            (after_cr, start) = (region[end] == b'\r', end + 1);
            if batch.cost() >= target {
                full = true;
                break;
            }
        }
        self.pos += start;
        self.after_cr = after_cr;
        full
    }

    /// The next lines, about `target` bytes of them and their places ([`Batch::cost`]); `None`
    /// at the end of the input.
    pub fn next_batch(&mut self, target: usize) -> io::Result<Option<Batch>> {
        if self.done {
            return Ok(None);
        }
        if let Some(batch) = self.next_block(target)? {
            return Ok(self.finish(batch));
        }
        // Room for about `target` bytes of lines from the start: grown by doubling, the batch's
        // bytes would be copied again at each step.
        let room = target.min(MAX_ROOM);
        let mut batch =
            Batch { data: Vec::with_capacity(room), lines: Vec::with_capacity(room / 64), ..Batch::default() };
        batch.consumed = std::mem::take(&mut self.unreported);
        loop {
            if self.pos >= self.end {
                if self.eof {
                    break;
                }
                let n = self.fill()?;
                batch.consumed += n as u64;
                continue;
            }
            if self.after_cr {
                self.after_cr = false;
                if self.buf[self.pos] == b'\n' {
                    self.pos += 1;
                    continue;
                }
            }
            if self.long.is_none() {
                let pos = self.pos;
                if self.plain_lines(&mut batch, target) {
                    break;
                }
                if self.pos != pos {
                    continue; // on from the top: a LF may end the CR read last
                }
            }
            match memchr::memchr2(b'\n', b'\r', &self.buf[self.pos..self.end]) {
                Some(i) => {
                    let at = self.pos + i;
                    let cr = self.buf[at] == b'\r';
                    self.emit(&mut batch, at);
                    self.pos = at + 1;
                    self.after_cr = cr;
                    if batch.cost() >= target {
                        break;
                    }
                }
                None if self.eof => {
                    let end = self.end;
                    self.emit(&mut batch, end);
                }
                None => {
                    let rest = self.end - self.pos;
                    if rest > MAX_LINE || self.long.is_some() {
                        // Keep the start of the line and count the rest without storing it.
                        let chunk = &self.buf[self.pos..self.end];
                        let (mut kept, len) = self.long.take().unwrap_or_default();
                        let room = MAX_KEPT.saturating_sub(kept.len());
                        kept.extend_from_slice(&chunk[..chunk.len().min(room)]);
                        self.long = Some((kept, len + rest));
                        self.pos = self.end;
                    }
                    let n = self.fill()?;
                    batch.consumed += n as u64;
                }
            }
        }
        if self.long.is_some() {
            let end = self.end;
            self.emit(&mut batch, end);
        }
        Ok(self.finish(batch))
    }

    /// About `target` bytes of whole lines as read, up to the last LF among them (or to the end
    /// of the input), handed over without a pass over their lines ([`Batch::block`]); `None`
    /// when the bytes ask for the lines to be placed one by one: a line too long for
    /// `target` or for [`MAX_LINE`] is being read, a CR may pair with the next byte, or the
    /// file has CRs (its bytes read stay buffered for [`Self::next_batch`]).
    fn next_block(&mut self, target: usize) -> io::Result<Option<Batch>> {
        if self.cr_seen || self.after_cr || self.long.is_some() {
            return Ok(None);
        }
        // The bytes held go to the front of the buffer, which is as long as they are, and the
        // rest of the block is read after them.
        self.buf.truncate(self.end);
        self.buf.drain(..self.pos);
        (self.pos, self.end) = (0, self.buf.len());
        if self.end < target && !self.eof {
            // Room for the whole block from the start: grown by doubling, its bytes would be
            // copied again at each step.
            let want = (target - self.end).min(MAX_ROOM + READ_SIZE);
            self.buf.reserve(want);
            let n = self.reader.read_append(&mut self.buf, want)?;
            (self.end, self.eof) = (self.buf.len(), n < want);
            self.unreported += n as u64;
        }
        let held = &self.buf[..self.end];
        let cut = match memchr::memrchr(b'\n', held) {
            _ if self.eof => held.len(),
            Some(at) => at + 1,
            None => return Ok(None),
        };
        if cut == 0 {
            return Ok(None);
        }
        if memchr::memchr(b'\r', &held[..cut]).is_some() {
            self.cr_seen = true;
            return Ok(None);
        }
        let first = self.line + 1;
        let lines = memchr::memchr_iter(b'\n', &held[..cut]).count();
        self.line += lines + usize::from(held[cut - 1] != b'\n');
        // The block takes the buffer, and the bytes after it start a new one.
        let rest = held[cut..].to_vec();
        self.end = rest.len();
        let mut data = std::mem::replace(&mut self.buf, rest);
        data.truncate(cut);
        let consumed = std::mem::take(&mut self.unreported);
        Ok(Some(Batch { data, lines: Vec::new(), block: Some(first), consumed, reading: Reading::default() }))
    }

    /// `batch` with what its lines tell of the file's encoding ([`Reading::learn`]), and without
    /// the lines after one that is not text; `None` when it holds nothing.
    fn finish(&mut self, mut batch: Batch) -> Option<Batch> {
        let settled = self.reading.encoding.is_some() || self.reading.not_text.is_some();
        if !settled && (self.reader.encoding().is_some() || !batch.data.is_ascii()) {
            // What the lines tell is learnt from them placed one by one.
            batch.place_lines();
        }
        self.reading.learn(&batch, self.reader.encoding());
        if let Some(last) = self.reading.not_text {
            batch.place_lines();
            batch.lines.retain(|l| l.number <= last);
            self.done = true;
        }
        if let (Some(first), true) = (batch.block, self.finds_lines) {
            batch.lines = block_lines(&batch.data, first).collect();
        }
        batch.reading = self.reading;
        let holds = !batch.lines.is_empty() || (batch.block.is_some() && !batch.data.is_empty());
        (holds || batch.consumed > 0).then_some(batch)
    }
}

/// The length of the first line of `bytes` with its line end (LF, CRLF or CR), or of all of
/// `bytes` when it has none.
pub fn line_len(bytes: &[u8]) -> usize {
    match memchr::memchr2(b'\n', b'\r', bytes) {
        Some(i) if bytes[i] == b'\r' && bytes.get(i + 1) == Some(&b'\n') => i + 2,
        Some(i) => i + 1,
        None => bytes.len(),
    }
}

/// How far [`LineSource`] looks for the end of a line longer than its cap: 64 MiB. A line
/// that runs on further (such as `/dev/zero`) ends the reading of its input.
pub const MAX_LINE_SKIP: u64 = 64 * 1024 * 1024;

/// How many bytes of a line too long to keep [`LineSource`] keeps (its start).
pub const LONG_HEAD: usize = 200;

/// How [`LineSource::read_line`] read a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineRead {
    /// The input is at its end.
    End,
    /// A line, in [`LineSource::line`].
    Line,
    /// A line longer than the cap, dropped but for its start ([`LineSource::take_long_head`]);
    /// `ended` is false when no line end came within `MAX_LINE_SKIP`.
    Long {
        /// A line end came.
        ended: bool,
    },
}

/// Reads lines one at a time, each with its line end (LF, CRLF or CR), from a buffered reader.
#[derive(Debug)]
pub struct LineSource<R> {
    input: R,
    /// The last line read, with its line end.
    pub line: Vec<u8>,
    /// The start of the last line too long to keep.
    long_head: Vec<u8>,
}

impl<R: BufRead> LineSource<R> {
    /// Lines of `input`.
    pub fn new(input: R) -> Self {
        Self { input, line: Vec::new(), long_head: Vec::new() }
    }

    /// The input.
    pub fn get_ref(&self) -> &R {
        &self.input
    }

    /// The start of the last line too long to keep (at most `LONG_HEAD` bytes), taken.
    pub fn take_long_head(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.long_head)
    }

    /// Reads the next line into [`Self::line`], up to `cap` bytes.
    pub fn read_line(&mut self, cap: usize) -> io::Result<LineRead> {
        self.line.clear();
        loop {
            let buf = fill(&mut self.input)?;
            if buf.is_empty() {
                return Ok(if self.line.is_empty() { LineRead::End } else { LineRead::Line });
            }
            if self.line.last() == Some(&b'\r') {
                // A CR at the end of the last buffer: a CRLF if an LF comes next.
                if buf[0] == b'\n' {
                    self.line.push(b'\n');
                    self.input.consume(1);
                }
                return Ok(LineRead::Line);
            }
            let (take, end) = match memchr::memchr2(b'\n', b'\r', buf) {
                Some(i) if buf[i] == b'\r' && i + 1 == buf.len() => (i + 1, false),
                Some(i) if buf[i] == b'\r' && buf[i + 1] == b'\n' => (i + 2, true),
                Some(i) => (i + 1, true),
                None => (buf.len(), false),
            };
            if self.line.len() + take > cap {
                let after_cr = !end && buf[take - 1] == b'\r';
                let mut head = std::mem::take(&mut self.line);
                let skipped = (head.len() + take) as u64;
                head.extend_from_slice(&buf[..take.min(LONG_HEAD)]);
                head.truncate(LONG_HEAD);
                self.long_head = head;
                let ended = self.skip_line(take, end, skipped, after_cr)?;
                self.line.clear();
                return Ok(LineRead::Long { ended });
            }
            self.line.extend_from_slice(&buf[..take]);
            self.input.consume(take);
            if end {
                return Ok(LineRead::Line);
            }
        }
    }

    /// Drops the rest of a line too long to keep, after the `take` bytes of the buffer (`end`:
    /// they end the line; `skipped` bytes of it so far, `after_cr`: the last was a CR); false
    /// when no line end came within [`MAX_LINE_SKIP`].
    fn skip_line(&mut self, take: usize, end: bool, mut skipped: u64, mut after_cr: bool) -> io::Result<bool> {
        self.input.consume(take);
        if end {
            return Ok(true);
        }
        loop {
            let buf = fill(&mut self.input)?;
            if buf.is_empty() {
                return Ok(true);
            }
            if after_cr {
                if buf[0] == b'\n' {
                    self.input.consume(1);
                }
                return Ok(true);
            }
            match memchr::memchr2(b'\n', b'\r', buf) {
                Some(i) if buf[i] == b'\r' && i + 1 == buf.len() => {
                    self.input.consume(i + 1);
                    after_cr = true;
                }
                Some(i) => {
                    let n = if buf[i] == b'\r' && buf[i + 1] == b'\n' { i + 2 } else { i + 1 };
                    self.input.consume(n);
                    return Ok(true);
                }
                None => {
                    let n = buf.len();
                    self.input.consume(n);
                    skipped += n as u64;
                    if skipped > MAX_LINE_SKIP {
                        return Ok(false);
                    }
                }
            }
        }
    }
}

/// Reads one line that ends at a LF (as JSON Lines do; a CR alone does not end one): its first
/// `keep` bytes without the LF (nor a CR before it, when the line is whole) and its full length;
/// `None` at the end of the input. With `to_end` false, a line longer than `keep` is left unread
/// past its first `keep` bytes, and its length given as `keep + 1`.
pub(crate) fn read_lf_line(
    reader: &mut impl BufRead,
    keep: usize,
    to_end: bool,
) -> io::Result<Option<(Vec<u8>, usize)>> {
    let (mut kept, mut len, mut any) = (Vec::new(), 0usize, false);
    loop {
        let buf = fill(reader)?;
        if buf.is_empty() {
            break;
        }
        any = true;
        let (chunk, end) = match memchr::memchr(b'\n', buf) {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        let room = keep.saturating_sub(kept.len());
        if !to_end && chunk.len() > room {
            kept.extend_from_slice(&chunk[..room]);
            reader.consume(room);
            return Ok(Some((kept, keep + 1)));
        }
        kept.extend_from_slice(&chunk[..chunk.len().min(room)]);
        len += chunk.len();
        let used = end.unwrap_or(buf.len());
        reader.consume(used);
        if end.is_some() {
            break;
        }
    }
    if !any {
        return Ok(None);
    }
    if kept.last() == Some(&b'\r') && len <= keep {
        kept.pop();
        len -= 1;
    }
    Ok(Some((kept, len)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::line_bytes;

    fn lines(input: &[u8], target: usize) -> Vec<(usize, String, usize)> {
        let mut reader = LineReader::new(input);
        let mut out = Vec::new();
        while let Some(batch) = reader.next_batch(target).expect("read") {
            for l in batch.infos() {
                out.push((l.number, String::from_utf8_lossy(batch.bytes(&l)).into_owned(), l.len));
            }
        }
        out
    }

    /// The text a batch gives its lines from one check of all its bytes is what each line's own
    /// check gives, and what is read of them is the same: on a byte-order mark, lines in UTF-8
    /// and in ASCII, a line that is not UTF-8 (which leaves the whole batch unchecked) and one
    /// too long, in batches of every size.
    #[test]
    fn a_batch_reads_its_lines_as_each_line_alone() {
        let mut files: Vec<Vec<u8>> = vec![
            "\u{feff}ab\nS\u{f6}lter\ncd\n".into(),
            b"ab\ncd\nef".to_vec(),
            b"ab\nS\xf6lter\ncd".to_vec(),
            b"\xEF\xBB\xBFa\xFFb\nok\n".to_vec(),
        ];
        files.push([&b"x"[..], &vec![b'y'; MAX_LINE + 10], b"\nz\xC3\xA9\n"].concat());
        for file in &files {
            for target in [1, 7, 4096] {
                let mut reader = LineReader::new(&file[..]);
                let mut with_text = 0usize;
                while let Some(batch) = reader.next_batch(target).expect("read") {
                    let read: Vec<Line<'_>> = batch.read_lines().collect();
                    let infos: Vec<LineInfo> = batch.infos().collect();
                    assert_eq!(read.len(), infos.len());
                    for (line, info) in read.iter().zip(&infos) {
                        let alone = Line::of(info.number, batch.bytes(info), info.len);
                        assert_eq!((line.number, line.bytes, line.len), (alone.number, alone.bytes, alone.len));
                        if let Some(text) = line.text {
                            assert_eq!(Some(text), std::str::from_utf8(line.bytes).ok());
                            with_text += 1;
                        }
                        let (a, b) = (line_bytes(*line, &batch.reading), line_bytes(alone, &batch.reading));
                        assert_eq!(format!("{a:?}"), format!("{b:?}"), "{file:?}, line {}", info.number);
                    }
                }
                // In a file all UTF-8, every line is read from its batch's check.
                if std::str::from_utf8(file).is_ok() {
                    assert_eq!(with_text, file.split(|b| *b == b'\n').filter(|l| !l.is_empty()).count(), "{file:?}");
                }
            }
        }
    }

    #[test]
    fn splits_every_line_ending() {
        let got = lines(b"a\nb\r\nc\rd\n\ne", 1);
        let want: Vec<(usize, String, usize)> =
            vec![(1, "a".into(), 1), (2, "b".into(), 1), (3, "c".into(), 1), (4, "d".into(), 1), (6, "e".into(), 1)];
        assert_eq!(got, want);
        assert_eq!(lines(b"a\r", 1), vec![(1, "a".into(), 1)]);
        assert_eq!(lines(b"a\r\r\nb", 1), vec![(1, "a".into(), 1), (3, "b".into(), 1)]);
    }

    #[test]
    fn a_cr_at_a_read_boundary_still_pairs_with_its_lf() {
        // READ_SIZE bytes, the last a CR, then LF: one line end, not two.
        let mut input = vec![b'x'; READ_SIZE - 1];
        input.push(b'\r');
        input.extend_from_slice(b"\nnext");
        let got = lines(&input, usize::MAX);
        assert_eq!(got.len(), 2);
        assert_eq!((got[1].0, got[1].1.as_str()), (2, "next"));
    }

    #[test]
    fn a_batch_of_short_lines_is_cut_by_their_places_too() {
        // Three bytes a line, 32 bytes of place: a batch of 64 KiB holds about 2,000 lines. (The
        // lines of a file with CRs are placed one by one by the reader.)
        let input = "x\r\n".repeat(100_000);
        let mut reader = LineReader::new(input.as_bytes());
        let batch = reader.next_batch(64 * 1024).expect("read").expect("a batch");
        assert!(batch.cost() < 64 * 1024 + 64, "{}", batch.cost());
        assert!(batch.lines.len() < 64 * 1024 / std::mem::size_of::<LineInfo>(), "{}", batch.lines.len());
    }

    #[test]
    fn keeps_only_the_start_of_a_huge_line() {
        let mut input = vec![b'9'; 10 * 1024 * 1024];
        input.extend_from_slice(b"\nok");
        let got = lines(&input, 1 << 20);
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].1.len(), MAX_KEPT);
        assert_eq!(got[0].2, 10 * 1024 * 1024);
        assert_eq!((got[1].0, got[1].1.as_str()), (2, "ok"));
    }

    /// A reader that hands out at most `step` bytes a read, so that lines and CRLFs straddle
    /// reads.
    struct Trickle<'a> {
        bytes: &'a [u8],
        step: usize,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.bytes.len().min(self.step).min(buf.len());
            buf[..n].copy_from_slice(&self.bytes[..n]);
            self.bytes = &self.bytes[n..];
            Ok(n)
        }
    }

    /// The lines of `input` as the reader must give them, found the plain way: split at LF, CRLF
    /// or CR, numbered from 1, blank lines left out, a line longer than [`MAX_LINE`] kept to
    /// its first [`MAX_KEPT`] bytes.
    fn plain_split(input: &[u8]) -> Vec<(usize, Vec<u8>, usize)> {
        let mut out = Vec::new();
        let (mut start, mut number, mut i) = (0, 0, 0);
        let mut push = |line: &[u8]| {
            number += 1;
            let kept = if line.len() > MAX_LINE { &line[..MAX_KEPT] } else { line };
            if !is_blank(kept, line.len()) {
                out.push((number, kept.to_vec(), line.len()));
            }
        };
        while i < input.len() {
            if matches!(input[i], b'\n' | b'\r') {
                push(&input[start..i]);
                i += if input[i] == b'\r' && input.get(i + 1) == Some(&b'\n') { 2 } else { 1 };
                start = i;
            } else {
                i += 1;
            }
        }
        if start < input.len() {
            push(&input[start..]);
        }
        out
    }

    #[test]
    fn batches_hold_the_lines_of_a_plain_split() {
        let mut rng = crate::rng::XorShift(0x9E37_79B9_7F4A_7C15u64);
        let mut next = move || rng.next_u64();
        // Batches handed over as blocks of whole lines, in files with no CR.
        let mut blocks = 0;
        for case in 0..300 {
            let mut input = Vec::new();
            let size = 2_000 + (case % 7) * 30_000;
            // A third of the files have no CR, a third have some only in their second half.
            let cr_from = [usize::MAX, size / 2, 0][case % 3];
            while input.len() < size {
                match next() % 12 {
                    0 => input.push(b'\n'),
                    1 | 2 if input.len() < cr_from => input.push(b'\n'),
                    1 => input.push(b'\r'),
                    2 => input.extend_from_slice(b"\r\n"),
                    3 => input.push(b' '),
                    4 => input.push(b'\t'),
                    // Now and then a line too long to keep.
                    5 if next() % 50 == 0 => input.extend(std::iter::repeat_n(b'x', MAX_LINE + (next() % 3) as usize)),
                    _ => input.extend_from_slice(b"ab"),
                }
            }
            let step = [1, 7, 100, 4_096, READ_SIZE][case % 5];
            let target = [1, 64, 1_000, 128 * 1024][case / 5 % 4];
            // Half the readers find the lines of their blocks themselves.
            let mut reader = LineReader::new(Trickle { bytes: &input, step }).find_lines(case % 2 == 0);
            let mut got = Vec::new();
            while let Some(batch) = reader.next_batch(target).expect("read") {
                got.extend(batch.infos().map(|l| (l.number, batch.bytes(&l).to_vec(), l.len)));
                blocks += usize::from(batch.block.is_some());
            }
            assert_eq!(got, plain_split(&input), "case {case}: read {step} bytes at a time, batches of {target}");
        }
        assert!(blocks > 1_000, "{blocks} blocks");
    }

    #[test]
    fn a_file_without_cr_is_handed_over_in_blocks_cut_after_a_lf() {
        let input = "ab\n\ncd\n".repeat(20_000) + "last";
        let mut reader = LineReader::new(input.as_bytes());
        let mut numbers = Vec::new();
        while let Some(batch) = reader.next_batch(64 * 1024).expect("read") {
            assert!(batch.block.is_some() && batch.lines.is_empty());
            assert!(batch.data.ends_with(b"\n") || batch.data.ends_with(b"last"));
            assert!(batch.cost() < 64 * 1024 + READ_SIZE, "{}", batch.cost());
            numbers.extend(batch.read_lines().map(|l| l.number));
        }
        let want: Vec<usize> = (0..20_000).flat_map(|i| [3 * i + 1, 3 * i + 3]).chain([60_001]).collect();
        assert_eq!(numbers, want);
    }

    #[test]
    fn lf_lines_keep_their_start_and_length() {
        let mut input = std::io::BufReader::with_capacity(4, &b"ab\r\ncdefgh\rx\n\nlast"[..]);
        let mut got = Vec::new();
        while let Some((kept, len)) = read_lf_line(&mut input, 5, true).expect("read") {
            got.push((String::from_utf8_lossy(&kept).into_owned(), len));
        }
        let want = [("ab", 2), ("cdefg", 8), ("", 0), ("last", 4)];
        assert_eq!(got, want.map(|(k, l)| (k.to_owned(), l)));
        // Not to the end: the rest of a long line is left unread.
        let mut input = &b"abcdefgh\nz"[..];
        assert_eq!(read_lf_line(&mut input, 3, false).expect("read"), Some((b"abc".to_vec(), 4)));
        assert_eq!(read_lf_line(&mut input, 3, false).expect("read"), Some((b"def".to_vec(), 4)));
    }
}
