//! The playtest summary of a rules version: the games people played (how
//! many, how often the first player won, with its 95% interval, how long
//! they lasted, how they ended) and the players' feedback summed up, with
//! every comment.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::games::{GameError, Loaded, Variants};
use crate::store::Store;

/// The first player's share of the decided games, with its Wilson 95%
/// interval.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rate {
    pub wins: u64,
    pub decided: u64,
    pub rate: f64,
    pub low: f64,
    pub high: f64,
}

/// The feedback of a rules version's games, summed up.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct FeedbackSummary {
    pub answers: u64,
    /// Mean fun, 1 to 5 (`None` without answers).
    pub fun: Option<f64>,
    /// Mean clarity of the rules, 1 to 5.
    pub clarity: Option<f64>,
    /// How many would play again.
    pub again: u64,
    /// Every comment, oldest first (empty ones left out).
    pub comments: Vec<String>,
}

/// A rules version's playtest summary (`GET /api/rules/{key}/summary`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    pub rules_key: String,
    pub variant: String,
    /// Games made.
    pub games: u64,
    /// Games over.
    pub finished: u64,
    /// Finished games won by the first colour, of those decided.
    pub first_player: Option<Rate>,
    pub draws: u64,
    /// The finished games' lengths in plies, shortest first.
    pub lengths: Vec<usize>,
    /// How the finished games ended: `breakthrough`, `resignation`, … and
    /// how many.
    pub endings: BTreeMap<String, u64>,
    pub feedback: FeedbackSummary,
    /// The bots' balance check of the same rules, when one was asked for
    /// (`POST /api/rules/{key}/bots`): its state and, once done, its
    /// figures.
    pub bots: Option<crate::bots::BotCheck>,
    /// Whether people and bots agree on the first player's rate, once
    /// the bots' figures are in ([`crate::bots::agreement`]).
    pub agreement: Option<String>,
}

fn mean(values: impl Iterator<Item = u8>) -> Option<f64> {
    let (sum, n) = values.fold((0u64, 0u64), |(s, n), v| (s + u64::from(v), n + 1));
    (n > 0).then(|| (sum as f64 / n as f64 * 100.0).round() / 100.0)
}

/// The summary of rules version `key`.
pub fn summary(store: &Store, variants: &Variants, key: &str) -> Result<Summary, GameError> {
    let (key, v) = variants.served(key)?;
    let first = v.letter(0);
    let ids = store.games_of(&key)?;
    let mut finished = 0;
    let (mut first_wins, mut decided, mut draws) = (0, 0, 0);
    let mut lengths = Vec::new();
    let mut endings: BTreeMap<String, u64> = BTreeMap::new();
    for id in &ids {
        let view = Loaded::load(store, variants, id)?.view();
        let Some(result) = view.result else { continue };
        finished += 1;
        lengths.push(view.ply);
        let reason = match &result.by {
            Some(by) => format!("{} by {by}", result.reason),
            None => result.reason.clone(),
        };
        *endings.entry(reason).or_default() += 1;
        match result.winner {
            Some(w) => {
                decided += 1;
                first_wins += u64::from(w == first);
            }
            None => draws += 1,
        }
    }
    lengths.sort_unstable();
    let first_player = (decided > 0).then(|| {
        let (low, high) = murus_lab::stats::wilson(first_wins, decided);
        Rate {
            wins: first_wins,
            decided,
            rate: first_wins as f64 / decided as f64,
            low,
            high,
        }
    });
    let answers = store.feedback_of(&key)?;
    let feedback = FeedbackSummary {
        answers: answers.len() as u64,
        fun: mean(answers.iter().map(|f| f.fun)),
        clarity: mean(answers.iter().map(|f| f.clarity)),
        again: answers.iter().filter(|f| f.again).count() as u64,
        comments: answers
            .iter()
            .map(|f| f.text.trim().to_string())
            .filter(|t| !t.is_empty())
            .collect(),
    };
    let bots = store
        .bot_check(&key)?
        .map(|r| crate::bots::BotCheck::of(&r));
    let agreement = bots.as_ref().and_then(|b| b.figures.as_ref()).map(|f| {
        crate::bots::agreement(
            first_player.as_ref().map(|r| (r.wins, r.decided)),
            f.first_player.as_ref().map(|r| (r.wins, r.decided)),
        )
    });
    Ok(Summary {
        bots,
        agreement,
        rules_key: key,
        variant: v.name().to_string(),
        games: ids.len() as u64,
        finished,
        first_player,
        draws,
        lengths,
        endings,
        feedback,
    })
}
