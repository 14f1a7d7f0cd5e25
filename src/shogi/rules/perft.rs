//! Perft: the number of move sequences of a given length, for testing the move generator.

use super::{Move, State};

impl State {
    /// The number of move sequences of `depth` plies from here (1 for depth 0).
    pub fn perft(&self, depth: u32) -> u64 {
        let mut buffers: Vec<Vec<Move>> = (0..depth).map(|_| Vec::with_capacity(256)).collect();
        self.perft_with(depth, &mut buffers)
    }

    fn perft_with(&self, depth: u32, buffers: &mut [Vec<Move>]) -> u64 {
        if depth == 0 {
            return 1;
        }
        if depth == 1 {
            return self.count_legal_moves();
        }
        let Some((moves, rest)) = buffers.split_first_mut() else {
            return 0;
        };
        self.legal_moves(moves);
        let mut nodes = 0;
        for &mv in moves.iter() {
            let mut next = *self;
            next.play_unchecked(mv);
            nodes += next.perft_with(depth - 1, rest);
        }
        nodes
    }
}
