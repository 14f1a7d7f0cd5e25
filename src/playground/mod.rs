//! The spec playground: the grammars in `grammar/` as something to try and change.
//!
//! * [`Grammar`]: `.pest` files loaded at run time (pest_meta + pest_vm), with pointed
//!   diagnostics for faults in the grammar ([`GrammarDiagnostic`]) and for inputs it rejects
//!   ([`Rejection`]); [`shipped`] loads kifu's own grammar of a format.
//! * [`split`]: inputs cut into records (a line, or a PSN game), as [`Layout`] says.
//! * [`diff`]: a corpus through two grammars: what is newly accepted, newly rejected, or read
//!   differently ([`DiffReport`]), within a [`RunBudget`].
//!
//! What a grammar loaded at run time may hold, and how long a rule may run, is bounded: a
//! grammar that would exhaust pest gets a diagnostic, not a crash.
//!
//! ```
//! use kifu::format::Format;
//! use kifu::playground::{shipped, Grammar, Source};
//!
//! let sfen = Format::Sfen(Default::default());
//! let original = shipped(sfen).unwrap().unwrap();
//! let text = sfen.grammar().unwrap().text;
//! let edited = text.replace(r#"usi_side = @{ "b" | "w" }"#, r#"usi_side = @{ ^"b" | ^"w" }"#);
//! let edited = Grammar::load(&[Source::new("my-sfen.pest", edited)], true, Some(&original)).unwrap();
//! let record = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL B - 100";
//! assert!(original.parse("record", record).is_err());
//! assert!(edited.parse("record", record).is_ok());
//! ```

pub(crate) mod checks;
machinery! { mod conformance; }
machinery! { mod diff; }
machinery! { mod draw; }
machinery! { mod grammar; }
machinery! { mod limits; }
pub(crate) mod partial;
machinery! { mod records; }
machinery! { mod tree; }

pub use diff::{diff, Change, Example, Report as DiffReport, Transition};
pub use grammar::{Grammar, GrammarDiagnostic, Rejection, RejectionKind, Source};
pub use limits::{RunBudget, RECORD_TIME_BUDGET, RUN_TIME_BUDGET};
pub use records::{split, Layout, Sample};
pub use tree::shipped;
