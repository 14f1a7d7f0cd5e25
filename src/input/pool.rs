//! One ordered worker pool: a reader hands out pieces of work, workers do them, and what they
//! make is handed back in the order of the pieces, with the bytes in flight bounded.
//!
//! [`run`] reads the pieces (an iterator) on a thread of its own or on the workers' threads
//! ([`Reader`]), does them on `workers` threads, and hands their results to `consume` on the
//! calling thread, in order. A worker
//! may hand a piece's results over in several parts ([`Parts::send`]), so that a large piece
//! never holds all its results at once. The bytes of pieces and of results waiting at once are
//! bounded ([`Limits`]); the results of the piece handed over next never wait. An error from
//! reading or from `consume` stops every thread.

use std::collections::BTreeMap;
use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Condvar, Mutex, PoisonError};
use std::thread;

/// Who reads the pieces of [`run`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reader {
    /// A thread of its own, which reads ahead while the workers work: the reading costs them
    /// nothing when it has a core of its own.
    OwnThread,
    /// The workers, each the next piece when it is free, one at a time. When the workers have
    /// every core, this leaves no thread to wake for each piece, and the bytes a worker reads
    /// are in its core's cache when it works on them.
    Workers,
}

/// The cores this process may run on (at least 1). Asked once: the answer reads files of the
/// system, and a folder may hold many files to check.
pub fn cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| thread::available_parallelism().map_or(1, |n| n.get()))
}

impl Reader {
    /// The reader for `workers` threads on this machine: a thread of its own when the
    /// workers leave a core free ([`cores`]), else the workers.
    pub fn for_workers(workers: usize) -> Self {
        if workers < cores() {
            Self::OwnThread
        } else {
            Self::Workers
        }
    }
}

/// How [`run`] reads, and how much may wait between the reader, the workers and the consumer.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Who reads the pieces.
    pub reader: Reader,
    /// Pieces read and not yet taken by a worker, at most (`None`: bounded by bytes only), when
    /// the reader has a thread of its own.
    pub queue: Option<usize>,
    /// Bytes of pieces and results waiting at once, at most (one more piece or part may pass
    /// when nothing else waits).
    pub in_flight: usize,
}

/// Why [`run`] stopped early: reading the pieces failed, or `consume` did.
#[derive(Debug)]
pub enum Stopped {
    /// Reading failed.
    Read(io::Error),
    /// `consume` failed (a write error).
    Write(io::Error),
}

/// What the threads share to bound the bytes in flight.
struct Flow {
    /// The piece whose results are handed over next.
    head: usize,
    /// Bytes of pieces and results waiting.
    held: usize,
}

struct Gate {
    flow: Mutex<Flow>,
    changed: Condvar,
    stop: AtomicBool,
}

impl Gate {
    fn lock(&self) -> std::sync::MutexGuard<'_, Flow> {
        self.flow.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Waits until `bytes` more fit within `limit` (or nothing waits, or piece `head` is the
    /// one handed over next, or everything stops), then takes them.
    fn take(&self, bytes: usize, limit: usize, head: Option<usize>) {
        let mut flow = self.lock();
        while flow.held != 0
            && flow.held + bytes > limit
            && head != Some(flow.head)
            && !self.stop.load(Ordering::Relaxed)
        {
            flow = self.changed.wait(flow).unwrap_or_else(PoisonError::into_inner);
        }
        flow.held += bytes;
    }

    /// Gives back `bytes`, and moves on to the next piece when `next` says so.
    fn give(&self, bytes: usize, next: bool) {
        let mut flow = self.lock();
        flow.held = flow.held.saturating_sub(bytes);
        flow.head += usize::from(next);
        drop(flow);
        self.changed.notify_all();
    }

    fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
        // Taking the lock orders the store before any waiter's next check.
        drop(self.lock());
        self.changed.notify_all();
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// A part of a piece's results: the piece's number, the results, their bytes, and the piece's
/// own bytes when they are its last.
struct Part<R> {
    index: usize,
    results: R,
    weight: usize,
    last: Option<usize>,
}

/// How a worker hands over the results of its piece before the piece is done.
pub struct Parts<'a, R> {
    index: usize,
    gate: &'a Gate,
    limit: usize,
    done: &'a mpsc::Sender<Part<R>>,
}

impl<R> Parts<'_, R> {
    /// Hands over `results`, which hold `weight` bytes, waiting for room unless this piece is
    /// handed over next; `false` when everything stops (the worker should stop too).
    pub fn send(&mut self, results: R, weight: usize) -> bool {
        self.gate.take(weight, self.limit, Some(self.index));
        let part = Part { index: self.index, results, weight, last: None };
        !self.gate.stopped() && self.done.send(part).is_ok()
    }

    /// Everything stops: the worker may leave its piece unfinished.
    pub fn stopped(&self) -> bool {
        self.gate.stopped()
    }
}

/// Stops everything when a worker panics, so that no thread waits for it forever.
struct StopOnPanic<'a>(&'a Gate);

impl Drop for StopOnPanic<'_> {
    fn drop(&mut self) {
        if thread::panicking() {
            self.0.stop();
        }
    }
}

/// Does every piece of `pieces` (each with its bytes) with `work` on `workers` threads, and
/// hands the results to `consume` in the order of the pieces. `work` returns a piece's last
/// results and their bytes; it may hand earlier ones over with [`Parts::send`]. The first
/// error from reading or from `consume` stops everything and is returned; after a read error,
/// the pieces read before it are still done and handed over.
pub fn run<P, I, R, W, C>(pieces: P, workers: usize, limits: Limits, work: W, mut consume: C) -> Result<(), Stopped>
where
    P: Iterator<Item = io::Result<(I, usize)>> + Send,
    I: Send,
    R: Send,
    W: Fn(I, &mut Parts<'_, R>) -> (R, usize) + Sync,
    C: FnMut(R) -> io::Result<()>,
{
    let gate =
        Gate { flow: Mutex::new(Flow { head: 0, held: 0 }), changed: Condvar::new(), stop: AtomicBool::new(false) };
    // Where the workers take the pieces, and what a reader thread of its own reads them from.
    let (feed, to_read) = match limits.reader {
        Reader::OwnThread => {
            let (tx, rx) = match limits.queue {
                Some(n) => {
                    let (tx, rx) = mpsc::sync_channel(n);
                    (Sender::Bounded(tx), rx)
                }
                None => {
                    let (tx, rx) = mpsc::channel();
                    (Sender::Open(tx), rx)
                }
            };
            (Feed::Queue(Mutex::new(Some(rx))), Some((pieces, tx)))
        }
        Reader::Workers => (Feed::Shared(Mutex::new(Source { pieces, read: 0, error: None, ended: false })), None),
    };
    let (done_tx, done_rx) = mpsc::channel::<Part<R>>();
    thread::scope(|scope| {
        let (gate, work, feed) = (&gate, &work, &feed);
        let reader = to_read.map(|(pieces, tx)| scope.spawn(move || read(pieces, limits.in_flight, gate, &tx)));
        for _ in 0..workers.max(1) {
            let done = done_tx.clone();
            scope.spawn(move || {
                let _guard = StopOnPanic(gate);
                do_pieces(|| feed.next(gate, limits.in_flight), gate, limits.in_flight, work, &done);
                feed.close();
            });
        }
        drop(done_tx);
        let written = hand_in_order(done_rx, gate, &mut consume);
        let read = match reader {
            Some(reader) => reader.join().unwrap_or_else(|_| Err(io::Error::other("the reader thread failed"))).err(),
            None => feed.error(),
        };
        match (written, read) {
            (Err(e), _) => Err(Stopped::Write(e)),
            (Ok(()), Some(e)) => Err(Stopped::Read(e)),
            (Ok(()), None) => Ok(()),
        }
    })
}

/// Where the workers of [`run`] take the pieces: each numbered, with its bytes.
enum Feed<P, I> {
    /// The queue a reader thread fills ([`Reader::OwnThread`]); dropped by a worker that stops,
    /// so that the reader stops too.
    Queue(Mutex<Option<mpsc::Receiver<(usize, I, usize)>>>),
    /// The pieces themselves, read by the workers in turn ([`Reader::Workers`]).
    Shared(Mutex<Source<P>>),
}

impl<P: Iterator<Item = io::Result<(I, usize)>>, I> Feed<P, I> {
    /// The next piece, waiting for it (or, read by a worker, for room for it unless the pieces
    /// before it are all handed over); `None` at the end.
    fn next(&self, gate: &Gate, limit: usize) -> Option<(usize, I, usize)> {
        match self {
            Self::Queue(rx) => rx.lock().map_or(None, |rx| rx.as_ref().and_then(|rx| rx.recv().ok())),
            Self::Shared(source) => {
                let piece = source.lock().unwrap_or_else(PoisonError::into_inner).next();
                if let Some((index, _, bytes)) = &piece {
                    gate.take(*bytes, limit, Some(*index));
                }
                piece
            }
        }
    }

    /// A worker stops: a reader thread stops too.
    fn close(&self) {
        if let Self::Queue(rx) = self {
            if let Ok(mut rx) = rx.lock() {
                *rx = None;
            }
        }
    }

    /// The error that ended the workers' reading, if any.
    fn error(&self) -> Option<io::Error> {
        match self {
            Self::Queue(_) => None,
            Self::Shared(source) => source.lock().unwrap_or_else(PoisonError::into_inner).error.take(),
        }
    }
}

/// The pieces as the workers read them ([`Reader::Workers`]): numbered in the order read, up to
/// the end or the first error.
struct Source<P> {
    pieces: P,
    read: usize,
    error: Option<io::Error>,
    ended: bool,
}

impl<P: Iterator<Item = io::Result<(I, usize)>>, I> Source<P> {
    fn next(&mut self) -> Option<(usize, I, usize)> {
        if self.ended {
            return None;
        }
        match self.pieces.next() {
            Some(Ok((piece, bytes))) => {
                self.read += 1;
                Some((self.read - 1, piece, bytes))
            }
            Some(Err(e)) => {
                (self.error, self.ended) = (Some(e), true);
                None
            }
            None => {
                self.ended = true;
                None
            }
        }
    }
}

/// The pieces' channel, bounded in number or not.
enum Sender<T> {
    Bounded(mpsc::SyncSender<T>),
    Open(mpsc::Sender<T>),
}

impl<T> Sender<T> {
    fn send(&self, t: T) -> bool {
        match self {
            Self::Bounded(tx) => tx.send(t).is_ok(),
            Self::Open(tx) => tx.send(t).is_ok(),
        }
    }
}

/// The reader of [`run`]: numbers the pieces and sends them while there is room.
fn read<I>(
    pieces: impl Iterator<Item = io::Result<(I, usize)>>,
    limit: usize,
    gate: &Gate,
    piece_tx: &Sender<(usize, I, usize)>,
) -> io::Result<()> {
    for (index, piece) in pieces.enumerate() {
        let (piece, bytes) = piece?;
        gate.take(bytes, limit, None);
        if gate.stopped() || !piece_tx.send((index, piece, bytes)) {
            break;
        }
    }
    Ok(())
}

/// A worker of [`run`]: does each piece it takes (`next`: a piece's number, the piece and its
/// bytes) and sends its results.
fn do_pieces<I, R>(
    mut next: impl FnMut() -> Option<(usize, I, usize)>,
    gate: &Gate,
    limit: usize,
    work: &impl Fn(I, &mut Parts<'_, R>) -> (R, usize),
    done: &mpsc::Sender<Part<R>>,
) {
    while let Some((index, piece, bytes)) = next().filter(|_| !gate.stopped()) {
        let mut parts = Parts { index, gate, limit, done };
        let (results, weight) = work(piece, &mut parts);
        gate.take(weight, limit, Some(index));
        if gate.stopped() || done.send(Part { index, results, weight, last: Some(bytes) }).is_err() {
            break;
        }
    }
}

/// The consumer of [`run`]: hands the results to `consume` in the order of their pieces; the
/// first error from `consume` stops everyone, and is returned.
fn hand_in_order<R>(
    done_rx: mpsc::Receiver<Part<R>>,
    gate: &Gate,
    consume: &mut impl FnMut(R) -> io::Result<()>,
) -> io::Result<()> {
    // Parts that came before their turn.
    let mut pending: BTreeMap<usize, Vec<Part<R>>> = BTreeMap::new();
    let mut error = None;
    let mut head = 0;
    for part in done_rx {
        if part.index != head {
            pending.entry(part.index).or_default().push(part);
            continue;
        }
        let mut ready = vec![part];
        while !ready.is_empty() {
            let mut finished = false;
            for part in ready.drain(..) {
                if error.is_none() {
                    if let Err(e) = consume(part.results) {
                        error = Some(e);
                        gate.stop();
                    }
                }
                finished = part.last.is_some();
                gate.give(part.weight + part.last.unwrap_or(0), finished);
            }
            if finished {
                head += 1;
                ready = pending.remove(&head).unwrap_or_default();
            }
        }
    }
    error.map_or(Ok(()), Err)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pieces `0..n` (reading fails at piece `unread`), each worked into parts of its number,
    /// handed back in order (writing fails after `written` parts).
    fn numbers(
        n: usize,
        workers: usize,
        limits: Limits,
        unread: Option<usize>,
        written: Option<usize>,
    ) -> (Vec<usize>, Result<(), Stopped>) {
        let mut seen = Vec::new();
        let pieces = (0..n).map(|i| if Some(i) == unread { Err(io::Error::other("unread")) } else { Ok((i, 8)) });
        let work = |i: usize, parts: &mut Parts<'_, usize>| {
            for _ in 0..i % 4 {
                if !parts.send(i, 100) {
                    break;
                }
            }
            (i, 100)
        };
        let result = run(pieces, workers, limits, work, |part| {
            if Some(seen.len()) == written {
                return Err(io::Error::other("closed"));
            }
            seen.push(part);
            Ok(())
        });
        (seen, result)
    }

    /// The limits with each reader.
    fn both(queue: Option<usize>, in_flight: usize) -> [Limits; 2] {
        [Reader::OwnThread, Reader::Workers].map(|reader| Limits { reader, queue, in_flight })
    }

    #[test]
    fn results_come_in_the_order_of_the_pieces() {
        let expected: Vec<usize> = (0..500).flat_map(|i| std::iter::repeat_n(i, i % 4 + 1)).collect();
        for (workers, limits) in [(1, both(None, 1)), (3, both(Some(3), 250)), (8, both(None, usize::MAX))] {
            for limits in limits {
                let (seen, result) = numbers(500, workers, limits, None, None);
                assert!(result.is_ok());
                assert_eq!(seen, expected, "{workers} workers, {limits:?}");
            }
        }
    }

    #[test]
    fn a_read_error_comes_after_the_pieces_before_it() {
        for limits in both(Some(3), 250) {
            let (seen, result) = numbers(100, 3, limits, Some(50), None);
            let expected: Vec<usize> = (0..50).flat_map(|i| std::iter::repeat_n(i, i % 4 + 1)).collect();
            assert_eq!(seen, expected, "{limits:?}");
            assert!(matches!(result, Err(Stopped::Read(_))));
        }
    }

    #[test]
    fn a_write_error_stops_everything() {
        for limits in both(Some(4), 1000) {
            let (seen, result) = numbers(1_000_000, 4, limits, None, Some(10));
            assert_eq!(seen.len(), 10, "{limits:?}");
            assert!(matches!(result, Err(Stopped::Write(_))));
        }
    }

    /// Pieces are read only a few ahead of the one handed over, bounded by the bytes in flight
    /// (pieces of 8 bytes, and results of 8).
    #[test]
    fn pieces_are_read_a_few_ahead() {
        use std::sync::atomic::AtomicUsize;
        for limits in both(Some(2), 40) {
            let read = AtomicUsize::new(0);
            let pieces = (0..2_000).map(|i| {
                read.fetch_add(1, Ordering::Relaxed);
                Ok((i, 8))
            });
            let mut most = 0;
            let slow = |i: usize, _: &mut Parts<'_, usize>| {
                if i % 7 == 0 {
                    thread::sleep(std::time::Duration::from_micros(50));
                }
                (i, 8)
            };
            let result = run(pieces, 3, limits, slow, |i| {
                most = most.max(read.load(Ordering::Relaxed) - i);
                Ok(())
            });
            assert!(result.is_ok());
            // Five pieces fit in 40 bytes, and one more may pass.
            let ahead = 6;
            assert!(most <= ahead, "{most} read ahead of the one handed over, {limits:?}");
        }
    }
}
