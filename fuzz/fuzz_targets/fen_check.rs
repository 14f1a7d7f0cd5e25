//! One line of a FEN file, standard and Chess960. See `tests/common/entry.rs` for what is asserted.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| kifu_fuzz::entry::fen_check(data));
