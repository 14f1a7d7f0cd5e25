//! Seeded random numbers for tests and benches: Marsaglia's xorshift64, the same numbers on every
//! run. The benches and integration tests include this file as a module of their own.

/// Marsaglia's xorshift64 generator; the seed must not be 0.
#[derive(Clone, Debug)]
pub struct XorShift(pub u64);

impl XorShift {
    /// The next number.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// The next number below `n` (which must not be 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}
