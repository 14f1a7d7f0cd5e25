//! Work on several threads, with the results in the order of the work.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// The worker threads to start: `jobs` when given (at least one), else one per core.
pub fn workers(jobs: Option<usize>) -> usize {
    jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1)
}

/// `work` done on every item on `workers` threads, each taking the next item when free; the
/// results in the items' order (`None` for an item whose work did not finish).
pub fn map<T: Sync, R: Send>(items: &[T], workers: usize, work: impl Fn(&T) -> R + Sync) -> Vec<Option<R>> {
    let next = AtomicUsize::new(0);
    let results: Vec<Mutex<Option<R>>> = items.iter().map(|_| Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..workers.clamp(1, items.len().max(1)) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = items.get(i) else { break };
                let result = work(item);
                if let Ok(mut slot) = results[i].lock() {
                    *slot = Some(result);
                }
            });
        }
    });
    results.into_iter().map(|slot| slot.into_inner().ok().flatten()).collect()
}
