//! The stages' parts as the run folder keeps them (`parts/*.json`), each
//! written once its stage ends and read back by a resumed report.

use serde::{Deserialize, Serialize};

use super::games::{GameSection, TacticsSection};
use super::openings::{OpeningsSection, OpeningsShare};
use super::plays::{BoardSection, CurvesSection, EndingsSection};
use super::speed::Playouts;
use crate::error::LabError;

/// The speed stage as its part file keeps it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(super) struct SpeedPart {
    pub(super) playouts: Playouts,
    pub(super) rate: f64,
    pub(super) standard: Option<Playouts>,
    pub(super) standard_rate: Option<f64>,
    pub(super) seconds: f64,
}

/// The games stage as its part file keeps it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(super) struct GamesPart {
    pub(super) game: Option<GameSection>,
    pub(super) tactics: Option<TacticsSection>,
    pub(super) seconds: f64,
}

/// The course of play as its part file keeps it (`parts/plays.json`):
/// the strongest level's games by ply and on the board, every level's
/// endings.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(super) struct PlaysPart {
    pub(super) curves: CurvesSection,
    pub(super) board: BoardSection,
    pub(super) endings: EndingsSection,
    pub(super) seconds: f64,
}

/// A shard's share of the openings as its part file keeps it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(super) struct SharePart {
    pub(super) share: OpeningsShare,
    pub(super) seconds: f64,
}

/// The openings stage as its part file keeps it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(super) struct OpeningsPart {
    pub(super) section: OpeningsSection,
    pub(super) seconds: f64,
}

/// The proof stage as its part file keeps it: `value` is `None` when
/// unknown, `Some(None)` a draw, `Some(Some(p))` a win for `p`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(super) struct SolvePart {
    pub(super) value: Option<Option<usize>>,
    pub(super) winning: Vec<String>,
    pub(super) nodes: u64,
    pub(super) seconds: f64,
    /// The value is the game's with its ply cap (`murus solve
    /// --with-cap`): the rules decide a game at the cap.
    #[serde(default)]
    pub(super) with_cap: bool,
    /// The board's cells, where the search was not attempted (more than
    /// [`super::SOLVE_MOST_CELLS`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) not_attempted: Option<usize>,
}

/// The part kept at `path`, or `make`'s (kept there).
pub(super) fn kept_or<T: Serialize + serde::de::DeserializeOwned>(
    path: Option<std::path::PathBuf>,
    make: impl FnOnce() -> Result<T, LabError>,
) -> Result<T, LabError> {
    if let Some(p) = &path
        && let Ok(text) = std::fs::read_to_string(p)
    {
        return serde_json::from_str(&text)
            .map_err(|e| LabError::Invalid(format!("{}: {e}", p.display())));
    }
    let value = make()?;
    if let Some(p) = &path {
        let text = serde_json::to_string_pretty(&value)
            .map_err(|e| LabError::Invalid(format!("{}: {e}", p.display())))?;
        if let Some(dir) = p.parent() {
            std::fs::create_dir_all(dir).map_err(crate::folder::io(dir))?;
        }
        murus_engine::util::write_atomic(p, text.as_bytes()).map_err(crate::folder::io(p))?;
    }
    Ok(value)
}
