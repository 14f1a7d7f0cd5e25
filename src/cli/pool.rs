//! Work on several threads, with the results in the order of the work: the library's ordered
//! pool ([`crate::input::pool`]), which `check` and the PSN streams use too.

use crate::input::pool::{cores, run, Limits, Reader};

/// The worker threads to start: `jobs` when given (at least one), else one per core.
pub fn workers(jobs: Option<usize>) -> usize {
    jobs.unwrap_or_else(cores).max(1)
}

/// `work` done on every item on `workers` threads, each taking the next item when free; the
/// results in the items' order (`None` for an item whose work did not finish).
pub fn map<T: Sync, R: Send>(items: &[T], workers: usize, work: impl Fn(&T) -> R + Sync) -> Vec<Option<R>> {
    let workers = workers.clamp(1, items.len().max(1));
    let mut results = Vec::with_capacity(items.len());
    // Results are counted by number, not bytes: the items are there already, and the workers
    // take them.
    let limits = Limits { reader: Reader::Workers, queue: None, in_flight: usize::MAX };
    let pieces = items.iter().map(|item| Ok((item, 0)));
    let _ = run(
        pieces,
        workers,
        limits,
        |item, _| (work(item), 0),
        |r| {
            results.push(Some(r));
            Ok(())
        },
    );
    results.resize_with(items.len(), || None);
    results
}
