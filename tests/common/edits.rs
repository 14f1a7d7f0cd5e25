//! Edits of a byte string for the property tests: bytes inserted, deleted or replaced.

#![allow(dead_code)]

use proptest::prelude::*;
use proptest::sample::Index;

/// One edit of a byte string.
#[derive(Clone, Debug)]
pub enum Edit {
    /// Bytes inserted before a position.
    Insert(Index, Vec<u8>),
    /// Some bytes deleted from a position.
    Delete(Index, usize),
    /// The byte at a position replaced by bytes.
    Replace(Index, Vec<u8>),
}

/// An edit that inserts or replaces with what `insertion` makes, or deletes 1 to `most_deleted`
/// bytes.
pub fn edit<S: Strategy<Value = Vec<u8>>>(
    insertion: impl Fn() -> S,
    most_deleted: usize,
) -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<Index>(), insertion()).prop_map(|(at, with)| Edit::Insert(at, with)),
        (any::<Index>(), 1..=most_deleted).prop_map(|(at, n)| Edit::Delete(at, n)),
        (any::<Index>(), insertion()).prop_map(|(at, with)| Edit::Replace(at, with)),
    ]
}

/// Applies `edits` to `bytes` at byte positions (which may split a character).
pub fn apply_bytes(bytes: &mut Vec<u8>, edits: &[Edit]) {
    for e in edits {
        match e {
            Edit::Insert(at, with) => {
                let i = at.index(bytes.len() + 1);
                bytes.splice(i..i, with.iter().copied());
            }
            Edit::Delete(at, n) if !bytes.is_empty() => {
                let i = at.index(bytes.len());
                bytes.drain(i..(i + n).min(bytes.len()));
            }
            Edit::Replace(at, with) if !bytes.is_empty() => {
                let i = at.index(bytes.len());
                bytes.splice(i..=i, with.iter().copied());
            }
            _ => {}
        }
    }
}
