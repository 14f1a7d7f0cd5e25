//! JSON values read with their spans ([`crate::json::reader`]) given to serde: a type that
//! derives `Deserialize` is read from a [`Node`], and the first value it refuses is reported at
//! that value's span, with its JSON path (`moves[3].move.piece`).

use std::fmt;

use serde::de::value::StrDeserializer;
use serde::de::{self, DeserializeSeed, IntoDeserializer, Visitor};

use crate::json::{Member, Node, Value};
use crate::span::Span;

/// Where a value is, from the document's root: its keys and indices.
#[derive(Clone, Copy)]
pub(crate) enum Path<'a> {
    /// A value whose path is written out (`moves[3]`; empty for the root).
    Named(&'a str),
    Key(&'a Path<'a>, &'a str),
    Index(&'a Path<'a>, usize),
}

impl fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The steps from the value up to the root, written root first.
        let mut steps = Vec::new();
        let mut at = self;
        loop {
            match at {
                Path::Named(path) => {
                    if !path.is_empty() {
                        steps.push(Err(*path));
                    }
                    break;
                }
                Path::Key(parent, key) => {
                    steps.push(Err(*key));
                    at = parent;
                }
                Path::Index(parent, i) => {
                    steps.push(Ok(*i));
                    at = parent;
                }
            }
        }
        let mut first = true;
        for step in steps.into_iter().rev() {
            match step {
                Err(key) if first => write!(f, "{key}")?,
                Err(key) => write!(f, ".{key}")?,
                Ok(i) => write!(f, "[{i}]")?,
            }
            first = false;
        }
        Ok(())
    }
}

/// What a value refuses, in the words of serde's derived readers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Fault {
    /// A key the type needs is missing.
    Missing(&'static str),
    /// A key the type does not know, with those it knows.
    Unknown(String, &'static [&'static str]),
    /// A key given twice.
    Twice(&'static str),
    /// A value of another type, described (`a string "x"`).
    Type(String),
    /// A value of the right type that is not one the type takes (a number too large, a name
    /// that is none of its names).
    Value(String),
    /// Anything else, in words.
    Other(String),
}

/// A value refused: the fault, where (the span of the value, or of the key for a key it does
/// not know) and its path.
#[derive(Clone, Debug)]
pub(crate) struct Error {
    pub fault: Fault,
    pub span: Option<Span>,
    pub path: String,
}

impl Error {
    fn new(fault: Fault) -> Self {
        Error { fault, span: None, path: String::new() }
    }

    /// The error placed at `span` and `path`, unless a value inside placed it already.
    fn at(mut self, span: Span, path: &Path<'_>) -> Self {
        if self.span.is_none() {
            self.span = Some(span);
            self.path = path.to_string();
        }
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} at {}", self.fault, self.path)
    }
}

impl std::error::Error for Error {}

impl de::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Self::new(Fault::Other(msg.to_string()))
    }

    fn invalid_type(unexpected: de::Unexpected<'_>, _: &dyn de::Expected) -> Self {
        Self::new(Fault::Type(words(unexpected)))
    }

    fn invalid_value(unexpected: de::Unexpected<'_>, _: &dyn de::Expected) -> Self {
        Self::new(Fault::Value(words(unexpected)))
    }

    fn unknown_variant(variant: &str, _: &'static [&'static str]) -> Self {
        Self::new(Fault::Value(format!("the string \"{variant}\"")))
    }

    fn unknown_field(field: &str, expected: &'static [&'static str]) -> Self {
        Self::new(Fault::Unknown(field.to_owned(), expected))
    }

    fn missing_field(field: &'static str) -> Self {
        Self::new(Fault::Missing(field))
    }

    fn duplicate_field(field: &'static str) -> Self {
        Self::new(Fault::Twice(field))
    }
}

/// A JSON value serde names, in JSON's words.
fn words(unexpected: de::Unexpected<'_>) -> String {
    use de::Unexpected as U;
    match unexpected {
        U::Unit | U::Option => "null".to_owned(),
        U::Bool(b) => format!("`{b}`"),
        U::Unsigned(n) => format!("the number {n}"),
        U::Signed(n) => format!("the number {n}"),
        U::Float(n) => format!("the number {n}"),
        U::Char(c) => format!("the string \"{c}\""),
        U::Str(s) => format!("the string \"{s}\""),
        U::Seq => "an array".to_owned(),
        U::Map => "an object".to_owned(),
        other => other.to_string(),
    }
}

/// Reads a `T` from `node`, found at `path`; `skip` names a key of an object left to the
/// caller (read apart, value by value).
pub(crate) fn read<T: de::DeserializeOwned>(node: &Node, path: &Path<'_>, skip: Option<&str>) -> Result<T, Error> {
    T::deserialize(De { node, path: *path, skip }).map_err(|e| e.at(node.span, path))
}

/// The deserializer of one value.
struct De<'a> {
    node: &'a Node,
    path: Path<'a>,
    skip: Option<&'a str>,
}

impl<'de> de::Deserializer<'de> for De<'_> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match &self.node.value {
            Value::Null => visitor.visit_unit(),
            Value::Bool(b) => visitor.visit_bool(*b),
            Value::Number(n) => {
                if let Ok(u) = n.parse::<u64>() {
                    visitor.visit_u64(u)
                } else if let Ok(i) = n.parse::<i64>() {
                    visitor.visit_i64(i)
                } else {
                    // The reader gives only numbers JSON writes, which every float reads.
                    visitor.visit_f64(n.parse::<f64>().unwrap_or(f64::NAN))
                }
            }
            Value::String(s) => visitor.visit_str(s),
            Value::Array(items) => visitor.visit_seq(Seq { items, next: 0, path: &self.path }),
            Value::Object(members) => {
                visitor.visit_map(Map { members, next: 0, value: None, path: &self.path, skip: self.skip })
            }
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.node.value {
            Value::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match &self.node.value {
            Value::String(s) => {
                let names: StrDeserializer<'_, Error> = s.as_str().into_deserializer();
                visitor.visit_enum(names)
            }
            _ => self.deserialize_any(visitor),
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct newtype_struct seq tuple
        tuple_struct map struct identifier ignored_any
    }
}

/// The items of an array, each read at its index.
struct Seq<'a> {
    items: &'a [Node],
    next: usize,
    path: &'a Path<'a>,
}

impl<'de> de::SeqAccess<'de> for Seq<'_> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, Error> {
        let Some(node) = self.items.get(self.next) else { return Ok(None) };
        let path = Path::Index(self.path, self.next);
        self.next += 1;
        seed.deserialize(De { node, path, skip: None }).map(Some).map_err(|e| e.at(node.span, &path))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len() - self.next)
    }
}

/// The members of an object, each key read at its span and each value at its key.
struct Map<'a> {
    members: &'a [Member],
    next: usize,
    value: Option<&'a Member>,
    path: &'a Path<'a>,
    skip: Option<&'a str>,
}

impl<'de> de::MapAccess<'de> for Map<'_> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, Error> {
        let member = loop {
            let Some(member) = self.members.get(self.next) else { return Ok(None) };
            self.next += 1;
            if Some(member.key.as_str()) != self.skip {
                break member;
            }
        };
        self.value = Some(member);
        let path = Path::Key(self.path, &member.key);
        let key: StrDeserializer<'_, Error> = member.key.as_str().into_deserializer();
        seed.deserialize(key).map(Some).map_err(|e| e.at(member.key_span, &path))
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        let Some(member) = self.value.take() else {
            return Err(Error::new(Fault::Other("a value read before its key".to_owned())));
        };
        let path = Path::Key(self.path, &member.key);
        let node = &member.value;
        seed.deserialize(De { node, path, skip: None }).map_err(|e| e.at(node.span, &path))
    }
}
