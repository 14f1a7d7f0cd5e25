//! What the benches that time kifu beside its peers share: their settings and timings.

use std::time::Instant;

/// The setting `name` of the environment, a count (`1_000_000` allowed), or `default`.
pub fn setting(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.replace('_', "").parse().ok()).unwrap_or(default)
}

/// The median of `runs` timings of `f`, in seconds.
pub fn median(runs: usize, mut f: impl FnMut()) -> f64 {
    let mut times: Vec<f64> = (0..runs.max(1))
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed().as_secs_f64()
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}
