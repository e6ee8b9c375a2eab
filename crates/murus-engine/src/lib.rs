//! The Murus Gallicus engine.

pub mod bits;
pub mod core;
pub mod draw;
pub mod moves;

pub use bits::Bits;
pub use core::{Engine, Outcome, Phase, PlayoutResult, Pos, Reason, Scratch};
pub use draw::DrawTracker;
pub use moves::{Move, MoveKind};
pub mod variant;
pub use variant::{BUILTIN, EngineTask, MoveError, Position, PositionError, Variant, Word};
pub mod game;
pub use game::{Game, GameRecord, RecordError, RecordResult};
