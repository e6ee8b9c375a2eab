//! The Murus Gallicus engine.
//!
//! A [`Variant`] is a compiled rule file; it makes [`Position`]s, lists and
//! plays [`Move`]s, writes and reads notation and position strings, and
//! judges outcomes. A [`Setup`] is a position being assembled (an editor's
//! board), checked against the rules when it is built. A [`Game`] is a line
//! of play with undo, draw rules and records.
//!
//! ```
//! use murus_engine::{Action, Game, Variant};
//!
//! let v = Variant::standard();
//! let mut game = Game::new(&v);
//! assert_eq!(v.legal_moves(game.position()).len(), 20);
//! let m = v.parse_move(game.position(), "a1-a3").unwrap();
//! assert!(matches!(m.action(), Action::Sow { .. }));
//! assert!(game.play(m));
//! assert_eq!(
//!     v.position_string(game.position()),
//!     "g2g2g2g2g2g2g2g2/8/8/8/r17/r17/1r2r2r2r2r2r2r2 g"
//! );
//! ```

pub mod bits;
pub mod core;
pub mod draw;
pub mod game;
pub mod job;
pub mod moves;
pub mod notation;
pub mod outcome;
pub mod position_string;
pub mod record;
pub mod render;
pub mod setup;
pub mod simd;
/// Words for counts (`1 cell`, `2 cells`), written once: murus-dsl's.
pub use murus_dsl::text;
pub mod tree;
pub mod util;
pub mod variant;

pub use bits::Bits;
pub use core::{Engine, Phase, PlayoutResult, Pos, Scratch, StonesRemoved};
pub use draw::DrawTracker;
pub use game::{Game, GameRecord, RecordError, RecordResult};
pub use moves::{Action, Move, MoveKind};
pub use notation::MoveError;
pub use outcome::{Outcome, Reason};
pub use position_string::PositionError;
pub use record::{Glyph, Record, RecordMove};
pub use setup::{Setup, SetupError, SetupErrorKind};
pub use tree::{MoveTree, NodeId, TreeError};
pub use variant::{BUILTIN, BUILTIN_EVALUATIONS, EngineTask, Position, Variant, Word};
