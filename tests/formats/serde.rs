//! The `serde` feature: both positions go to JSON and come back.
#![cfg(feature = "serde")]

#[test]
fn a_fen_position_round_trips_through_serde() {
    let p: kifu::fen::Position = "r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6 0 12".parse().expect("a FEN");
    let json = serde_json::to_string(&p).expect("serializes");
    let back: kifu::fen::Position = serde_json::from_str(&json).expect("deserializes");
    assert_eq!(back, p);
    assert!(serde_json::from_str::<kifu::fen::Position>(r#"{"sideOnMove":"green"}"#).is_err());
}

#[test]
fn an_sfen_position_round_trips_through_serde() {
    let p: kifu::sfen::Position =
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1".parse().expect("an SFEN");
    let json = serde_json::to_string(&p).expect("serializes");
    let back: kifu::sfen::Position = serde_json::from_str(&json).expect("deserializes");
    assert_eq!(back, p);
    assert!(serde_json::from_str::<kifu::sfen::Position>("[]").is_err());
}
