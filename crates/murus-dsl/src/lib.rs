//! The Murus rules language.
//!
//! (Stub: the compiler is being written; see docs/rules-language.md.)

pub mod geometry;
pub mod rules;

pub use geometry::{Direction, Geometry, ShapeKind};
pub use rules::Rules;
