//! A finished game annotated on request by the bots' analysis, as `murus
//! analyze --game` annotates a record ([`murus_ai::review`]): each
//! position searched for [`BUDGET`], each move's score after it, `??` on a
//! blunder with the better move. One run a game at a time, on a blocking
//! thread, at most [`AT_ONCE`] runs at once over the server; the result is
//! kept in the database, so it is computed once and survives a restart.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use murus_ai::analysis::{Analyser, Limits};
use murus_ai::review;
use murus_engine::Record;
use serde::{Deserialize, Serialize};

use crate::Shared;
use crate::games::{GameError, Loaded};
use crate::store::AnnotationsRow;

/// The search's budget for each position of a game: a game of 60 plies
/// takes about 20 seconds.
pub const BUDGET: Duration = Duration::from_millis(300);

/// Runs at most at once over the server (the others wait their turn).
pub const AT_ONCE: usize = 2;

/// One move annotated.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveNote {
    /// The move's ply (1: the first move).
    pub ply: usize,
    /// The move in notation.
    #[serde(rename = "move")]
    pub text: String,
    /// Its glyph: `??` on a blunder.
    pub glyph: Option<String>,
    /// The score after it with the depth searched (`+0.35 (depth 9)`: the
    /// first player's view with two players); `None` for a move that ends
    /// the game.
    pub score: Option<String>,
    /// On a blunder, the move the search found better.
    pub better: Option<String>,
    /// That move's score (`+0.40 (depth 8)`).
    pub better_score: Option<String>,
}

/// `GET /api/games/{id}/annotations`'s answer.
#[derive(Clone, Debug, Serialize)]
pub struct AnnotationsView {
    /// `none` (not asked for, or the game goes on), `running`, `done` or
    /// `failed`.
    pub state: &'static str,
    /// The budget a position, in milliseconds.
    pub budget_ms: u64,
    /// Whether the game is over (annotations are for finished games).
    pub finished: bool,
    /// Each move's annotation, once done.
    pub moves: Vec<MoveNote>,
    /// The annotated record (the record format, as `murus analyze --game`
    /// writes it), once done.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub record: Option<String>,
    /// Why the last run failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// A run in memory: going, or failed with why.
#[derive(Clone, Debug)]
enum Run {
    Running,
    Failed(String),
}

/// The runs under way or failed, by game id (ids are 256-bit secrets, so
/// one table serves every server of the process).
fn runs() -> &'static Mutex<HashMap<String, Run>> {
    static RUNS: OnceLock<Mutex<HashMap<String, Run>>> = OnceLock::new();
    RUNS.get_or_init(Default::default)
}

fn runs_held() -> std::sync::MutexGuard<'static, HashMap<String, Run>> {
    runs()
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn permits() -> &'static tokio::sync::Semaphore {
    static PERMITS: OnceLock<tokio::sync::Semaphore> = OnceLock::new();
    PERMITS.get_or_init(|| tokio::sync::Semaphore::new(AT_ONCE))
}

/// The annotations of `loaded`'s game, each position searched within
/// `budget`: the moves' notes and the annotated record.
pub fn annotate(loaded: &Loaded, budget: Duration) -> (Vec<MoveNote>, String) {
    let g = &loaded.game;
    let v = g.variant();
    let mut record = Record::from_game_record(&g.record());
    record.result = loaded.view().result;
    let limits = Limits {
        time: Some(budget),
        ..Limits::default()
    };
    let mut analyser = Analyser::new(64);
    let line = review::review_line(&mut analyser, v, *g.start(), g.moves(), limits, &());
    review::annotate(&mut record, v, &line);
    let notes = record
        .moves
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let better = m.variations.first().and_then(|l| l.first());
            MoveNote {
                ply: i + 1,
                text: m.text.clone(),
                glyph: m.glyph.map(|x| x.as_str().to_string()),
                score: m.comment.clone(),
                better: better.map(|b| b.text.clone()),
                better_score: better.and_then(|b| {
                    b.comment
                        .as_deref()
                        .map(|c| c.trim_start_matches("better: ").to_string())
                }),
            }
        })
        .collect();
    (notes, record.write(v))
}

/// What is known of game `id`'s annotations.
pub fn view(s: &Shared, id: &str) -> Result<AnnotationsView, GameError> {
    let loaded = Loaded::load(&s.store, &s.variants, id)?;
    let mut out = AnnotationsView {
        state: "none",
        budget_ms: BUDGET.as_millis() as u64,
        finished: loaded.is_over(),
        moves: Vec::new(),
        record: None,
        error: None,
    };
    if let Some(row) = s.store.annotations(id)? {
        out.state = "done";
        out.budget_ms = row.budget_ms;
        out.moves = serde_json::from_str(&row.moves)
            .map_err(|e| GameError::Corrupt(format!("the annotations kept: {e}")))?;
        out.record = Some(row.record);
        return Ok(out);
    }
    match runs_held().get(id) {
        Some(Run::Running) => out.state = "running",
        Some(Run::Failed(why)) => {
            out.state = "failed";
            out.error = Some(why.clone());
        }
        None => {}
    }
    Ok(out)
}

/// Starts annotating game `id` (a finished game) unless it is annotated
/// already or being annotated; what is known then. Needs a tokio runtime.
pub fn start(s: &Arc<Shared>, id: &str) -> Result<AnnotationsView, GameError> {
    let loaded = Loaded::load(&s.store, &s.variants, id)?;
    if !loaded.is_over() {
        return Err(GameError::NotOver);
    }
    if s.store.annotations(id)?.is_some() {
        return view(s, id);
    }
    {
        let mut held = runs_held();
        if matches!(held.get(id), Some(Run::Running)) {
            drop(held);
            return view(s, id);
        }
        held.insert(id.to_string(), Run::Running);
    }
    let (s2, id2) = (s.clone(), id.to_string());
    tokio::spawn(async move {
        let _permit = permits().acquire().await;
        let (s3, id3) = (s2.clone(), id2.clone());
        let done = tokio::task::spawn_blocking(move || run(&s3, &id3)).await;
        let mut held = runs_held();
        match done {
            Ok(Ok(())) => {
                held.remove(&id2);
            }
            Ok(Err(e)) => {
                held.insert(id2, Run::Failed(e.to_string()));
            }
            Err(_) => {
                held.insert(id2, Run::Failed("the analysis stopped".into()));
            }
        }
    });
    view(s, id)
}

/// One run: the game annotated and kept (unless another run kept it
/// first).
fn run(s: &Shared, id: &str) -> Result<(), GameError> {
    if s.store.annotations(id)?.is_some() {
        return Ok(());
    }
    let loaded = Loaded::load(&s.store, &s.variants, id)?;
    let (notes, record) = annotate(&loaded, BUDGET);
    let moves = serde_json::to_string(&notes).map_err(|e| GameError::Corrupt(e.to_string()))?;
    s.store.add_annotations(
        id,
        &AnnotationsRow {
            budget_ms: BUDGET.as_millis() as u64,
            moves,
            record,
        },
    )?;
    Ok(())
}
