//! The spec playground: the grammars in `grammar/` as something to try and change.
//!
//! * [`grammar`]: `.pest` files loaded at run time (pest_meta + pest_vm), with pointed
//!   diagnostics for faults in the grammar and for inputs it rejects.
//! * [`limits`]: what a grammar loaded at run time may hold, and how long a rule may run.
//! * `partial`: the tree of what a rule read of a record before it rejected it.
//! * [`records`]: inputs cut into records (a line, or a PSN game).
//! * [`tree`]: a record's parse tree by a grammar, as `kifu tree` shows it, and kifu's grammar
//!   and rule for each format.
//! * [`diff`]: a corpus through two grammars: what is newly accepted, newly rejected, or read
//!   differently.
//! * [`draw`]: railroad diagrams (SVG) and W3C-style EBNF of a rule and what it reaches.
//! * [`conformance`]: the fixtures as a suite for other implementations.
//!
//! ```
//! use kifu::playground::grammar::{Grammar, Source};
//!
//! let shipped = Grammar::shipped("grammar/sfen.pest", kifu::notation::grammar::SFEN).unwrap();
//! let edited = kifu::notation::grammar::SFEN.replace(r#"usi_side = @{ "b" | "w" }"#, r#"usi_side = @{ ^"b" | ^"w" }"#);
//! let edited = Grammar::load(&[Source::new("my-sfen.pest", edited)], true, Some(&shipped)).unwrap();
//! let record = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL B - 100";
//! assert!(shipped.parse("record", record).is_err());
//! assert!(edited.parse("record", record).is_ok());
//! ```

pub(crate) mod checks;
#[doc(hidden)]
pub mod conformance;
#[doc(hidden)]
pub mod diff;
#[doc(hidden)]
pub mod draw;
#[doc(hidden)]
pub mod grammar;
#[doc(hidden)]
pub mod limits;
pub(crate) mod partial;
#[doc(hidden)]
pub mod records;
#[doc(hidden)]
pub mod tree;
