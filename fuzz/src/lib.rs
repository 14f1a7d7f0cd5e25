//! What the fuzz targets run: the entry points of `tests/common/entry.rs`, shared with the
//! stable stand-in `tests/properties/hostile.rs`, so that both check the same promises.

#[path = "../../tests/common/entry.rs"]
pub mod entry;
