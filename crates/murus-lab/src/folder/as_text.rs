//! Serde through a value's text (`Display`, `FromStr`), for the types of
//! other crates that specs keep as text (a bot: `alphabeta:2000`): parsed
//! once when a folder is read, and a text that does not read is an error
//! quoting it. `#[serde(with = "crate::folder::as_text")]`.

use std::fmt::Display;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serializer};

pub fn serialize<T: Display, S: Serializer>(value: &T, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(value)
}

pub fn deserialize<'de, T, D>(d: D) -> Result<T, D::Error>
where
    T: FromStr,
    T::Err: Display,
    D: Deserializer<'de>,
{
    let text = String::deserialize(d)?;
    text.parse()
        .map_err(|e| serde::de::Error::custom(format!("`{text}`: {e}")))
}
