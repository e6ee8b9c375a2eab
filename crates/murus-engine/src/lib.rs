//! The Murus Gallicus engine.

pub mod bits;
pub mod core;
pub mod moves;

pub use bits::Bits;
pub use core::{Engine, Outcome, Phase, Pos, Reason};
pub use moves::{Move, MoveKind};
