//! What the line notations share, whatever the game: the automaton compiled from their
//! grammars ([`grammar`]), the board field as a grid of cells with its rank, width and
//! separator checks ([`grid`]), splitting a record into fields ([`fields`]), look-alike
//! characters ([`lookalike`]), the findings chess and shogi word alike ([`findings`]), and parse
//! trees as text ([`tree`]).

pub mod fields;
pub mod findings;
pub mod grammar;
pub mod grid;
pub mod lookalike;
pub mod tree;
