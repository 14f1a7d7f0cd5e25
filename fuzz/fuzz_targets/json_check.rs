//! A JSON file of positions. See `tests/common/entry.rs` for what is asserted.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| kifu_fuzz::entry::json_check(data));
