//! One line of an SFEN file, in every dialect. See `tests/common/entry.rs` for what is asserted.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| kifu_fuzz::entry::sfen_check(data));
