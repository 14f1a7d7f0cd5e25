//! Criterion benchmarks of the SFEN layers.
fn main() {}
