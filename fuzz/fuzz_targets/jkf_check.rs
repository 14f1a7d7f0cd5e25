//! A whole JKF record. See `tests/common/entry.rs` for what is asserted; it runs on a thread
//! with the stack of a `kifu check` worker.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| kifu_fuzz::entry::on_worker_stack(data, kifu_fuzz::entry::jkf_check));
