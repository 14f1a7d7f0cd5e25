//! JKF's types, as its JSON Schema (`json-kifu-format.schema.json`, draft 2020-12) defines them:
//! each struct a `$defs` entry, each field one of its `properties`, an unknown key refused where
//! the schema says `"additionalProperties": false`. The reader gives them the values of a
//! document one part at a time (the header, the start, each move), so that one fault hides no
//! other; the writer serializes them.

use std::collections::BTreeMap;
use std::fmt;

use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};

use crate::shogi::{Ending, PieceKind};

/// `record`: the whole document. `header` is required by the schema and read with a warning
/// when missing; `moves` is required.
#[derive(Debug, Default, Serialize)]
pub(crate) struct Jkf {
    pub header: Header,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub initial: Option<Initial>,
    pub moves: Vec<Entry>,
}

/// `header`: keys and their string values, in the document's order.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Header(pub Vec<(String, String)>);

impl<'de> Deserialize<'de> for Header {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Pairs;
        impl<'de> Visitor<'de> for Pairs {
            type Value = Header;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object of strings")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Header, A::Error> {
                let mut pairs = Vec::new();
                while let Some((key, value)) = map.next_entry::<String, String>()? {
                    pairs.push((key, value));
                }
                Ok(Header(pairs))
            }
        }
        deserializer.deserialize_map(Pairs)
    }
}

impl Serialize for Header {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (key, value) in &self.0 {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

/// `initial`: a handicap by its name, or `OTHER` and the position in `data`.
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Initial {
    pub preset: Preset,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<Data>,
}

/// `preset`: the handicaps KIF names, and `OTHER`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
pub(crate) enum Preset {
    #[serde(rename = "HIRATE")]
    Even,
    #[serde(rename = "KY")]
    Lance,
    #[serde(rename = "KY_R")]
    RightLance,
    #[serde(rename = "KA")]
    Bishop,
    #[serde(rename = "HI")]
    Rook,
    #[serde(rename = "HIKY")]
    RookLance,
    #[serde(rename = "2")]
    Two,
    #[serde(rename = "3")]
    Three,
    #[serde(rename = "4")]
    Four,
    #[serde(rename = "5")]
    Five,
    #[serde(rename = "5_L")]
    LeftFive,
    #[serde(rename = "6")]
    Six,
    #[serde(rename = "7_L")]
    LeftSeven,
    #[serde(rename = "7_R")]
    RightSeven,
    #[serde(rename = "8")]
    Eight,
    #[serde(rename = "10")]
    Ten,
    #[serde(rename = "OTHER")]
    Other,
}

/// `initialData`: the side to move, the board and the hands. (The schema leaves its unknown
/// keys open; kifu refuses them as it does elsewhere.)
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Data {
    pub color: Side,
    pub board: Board,
    pub hands: [Hand; 2],
}

/// `color`: 0 for sente (Black), 1 for gote (White).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(into = "u8")]
pub(crate) struct Side(pub u8);

impl<'de> Deserialize<'de> for Side {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match u64::deserialize(deserializer)? {
            n @ (0 | 1) => Ok(Side(n as u8)),
            n => Err(de::Error::invalid_value(de::Unexpected::Unsigned(n), &"0 or 1")),
        }
    }
}

impl From<Side> for u8 {
    fn from(side: Side) -> u8 {
        side.0
    }
}

/// `initialBoard`: `board[x-1][y-1]` is the square of file x, rank y; an empty object is an
/// empty board.
#[derive(Debug, Default, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub(crate) struct Board(pub Vec<Vec<Cell>>);

impl<'de> Deserialize<'de> for Board {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Columns;
        impl<'de> Visitor<'de> for Columns {
            type Value = Board;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("nine columns of nine squares, or an empty object")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Board, A::Error> {
                let mut columns = Vec::new();
                while let Some(column) = seq.next_element::<Vec<Cell>>()? {
                    columns.push(column);
                }
                Ok(Board(columns))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Board, A::Error> {
                match map.next_key::<String>()? {
                    None => Ok(Board(Vec::new())),
                    Some(key) => Err(de::Error::unknown_field(&key, &[])),
                }
            }
        }
        deserializer.deserialize_any(Columns)
    }
}

/// `square`: a piece and its side, or nothing.
#[derive(Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Cell {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<Side>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<Kind>,
}

/// `kind`: a piece as CSA names it (`FU` … `RY`), read and written by its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Kind(pub PieceKind, pub bool);

impl<'de> Deserialize<'de> for Kind {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = String::deserialize(deserializer)?;
        match PieceKind::from_csa(&name) {
            Some((kind, promoted)) => Ok(Kind(kind, promoted)),
            None => Err(de::Error::invalid_value(de::Unexpected::Str(&name), &"a piece")),
        }
    }
}

impl Serialize for Kind {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.0.csa_name(self.1))
    }
}

/// `hand`: how many of each kind a side holds.
pub(crate) type Hand = BTreeMap<Kind, u32>;

/// `moveWithForksAndInfo` (and `initialComment`, the first): a move and what the record says of
/// it, or an end. `forks` is read apart, line by line.
#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Entry {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comments: Option<Vec<String>>,
    /// The first entry's comment, as the schema's `initialComment` names it.
    #[serde(default, skip_serializing)]
    pub comment: Option<String>,
    #[serde(default, rename = "move", skip_serializing_if = "Option::is_none")]
    pub mv: Option<Move>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time: Option<Time>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub special: Option<Special>,
    #[serde(skip_deserializing, skip_serializing_if = "Vec::is_empty")]
    pub forks: Vec<Vec<Entry>>,
}

/// `move`: who moves, from where (a drop: nowhere) to where, the piece before the move, and
/// what the record adds.
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Move {
    pub color: Side,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<Place>,
    pub to: Place,
    pub piece: Kind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub same: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub promote: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capture: Option<Kind>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub relative: Option<String>,
}

/// `placeFormat`: a square, its file `x` and rank `y` (1 to 9, which the schema leaves to its
/// description: the reader checks it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Place {
    pub x: i64,
    pub y: i64,
}

/// `consumption`: the time a move took and the mover's total. `total` is required by the
/// schema and read with a warning when missing.
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Time {
    pub now: Clock,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total: Option<Clock>,
}

/// `time`: hours, minutes and seconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Clock {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub h: Option<u64>,
    pub m: u64,
    pub s: u64,
}

/// `special`: an end, as CSA names it without its `%` (`TORYO`); JKF has every end of CSA
/// V2.2, which lacks V3.0's `MAX_MOVES`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub(crate) struct Special(pub String);

impl<'de> Deserialize<'de> for Special {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = String::deserialize(deserializer)?;
        if name != "MAX_MOVES" && Ending::from_csa(&name, None).is_some() {
            Ok(Special(name))
        } else {
            Err(de::Error::invalid_value(de::Unexpected::Str(&name), &"an end"))
        }
    }
}
