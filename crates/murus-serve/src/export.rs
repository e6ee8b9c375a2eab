//! A rules version's playtest games exported: one `.mgn` collection (each
//! game's record as `murus` writes records, one after another), with its
//! result (by the rules, a resignation or a draw agreed), the seats' kinds
//! and the date it was made as tags; and a lab run folder
//! ([`run_folder`]) that the lab's statistics, `murus lab merge` and
//! `murus replay` read as one of its own.

use std::path::Path;
use std::sync::Arc;

use murus_engine::{Reason, Record, Variant};
use murus_lab::play::people_game;
use murus_lab::{GameResult, LabError, Mode, Provenance, RunDir, RunSpec, VariantId};

use crate::games::{GameError, Loaded, Variants};
use crate::store::Store;

/// Why a rules version's games did not export as a run folder.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error(transparent)]
    Game(#[from] GameError),
    #[error(transparent)]
    Lab(#[from] LabError),
    #[error("{0} already holds a run ({1}): give --force to replace it, or choose another folder")]
    Exists(String, &'static str),
}

/// The files of a lab run folder that an export writes (and `force`
/// replaces).
const RUN_FILES: [&str; 5] = [
    "run.json",
    "games.jsonl",
    "report.json",
    "report.csv",
    "report.svg",
];

/// The date and time (UTC) of `secs` since the Unix epoch, as records'
/// tags write them: `2026.11.29` and `09:49:26`.
pub fn utc(secs: i64) -> (String, String) {
    let (y, m, d) = murus_engine::util::civil(secs.div_euclid(86_400));
    let rest = secs.rem_euclid(86_400);
    (
        format!("{y:04}.{m:02}.{d:02}"),
        format!(
            "{:02}:{:02}:{:02}",
            rest / 3600,
            rest % 3600 / 60,
            rest % 60
        ),
    )
}

/// Game `id`'s record: its moves, its result (by the rules, or as people
/// ended it), and tags: `Event`, `Game` (its id), `UTCDate` and `UTCTime`
/// (when it was made), `Seats` (each seat's kind in seat order: `human` or
/// a bot level), the rules embedded when they are not a shipped
/// variant's.
pub fn record(store: &Store, variants: &Variants, id: &str) -> Result<Record, GameError> {
    let loaded = Loaded::load(store, variants, id)?;
    let v = loaded.game.variant();
    let mut r = Record::from_game_record(&loaded.game.record());
    r.tags.clear();
    r.result = loaded.view().result;
    r.embed_rules(v);
    r.set_tag("Event", "Murus playtest");
    r.set_tag("Game", id);
    if let Some(secs) = store.created(id)? {
        let (date, time) = utc(secs);
        r.set_tag("UTCDate", date);
        r.set_tag("UTCTime", time);
    }
    let seats: Vec<&str> = loaded.row.seats.iter().map(|s| s.kind.as_str()).collect();
    r.set_tag("Seats", seats.join(", "));
    Ok(r)
}

/// Every game of rules version `key` (a key or a served variant's name),
/// oldest first, as one `.mgn` collection: the records one after another,
/// a blank line between; and how many games it holds.
pub fn collection(
    store: &Store,
    variants: &Variants,
    key: &str,
) -> Result<(String, usize), GameError> {
    let (key, v) = variants.served(key)?;
    let ids = store.games_of(&key)?;
    let mut out = String::new();
    for id in &ids {
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&record(store, variants, id)?.write(&v));
    }
    Ok((out, ids.len()))
}

/// The finished games of rules version `key`, oldest first, as lines of
/// a lab run's `games.jsonl` (numbered from 0; see
/// [`murus_lab::play::people_game`]), with the rules version and the ply
/// cap they were replayed under.
pub fn lab_games(
    store: &Store,
    variants: &Variants,
    key: &str,
) -> Result<(Variant, Vec<GameResult>, u32), GameError> {
    let (key, v) = variants.served(key)?;
    let mut finished = Vec::new();
    for id in store.games_of(&key)? {
        let loaded = Loaded::load(store, variants, &id)?;
        if loaded.is_over() {
            finished.push(loaded);
        }
    }
    let longest = finished
        .iter()
        .map(|l| l.row.moves.len())
        .max()
        .unwrap_or(0);
    let cap = playtest_cap(&v, longest);
    let mut games = Vec::with_capacity(finished.len());
    for (index, loaded) in finished.into_iter().enumerate() {
        let row = loaded.row;
        let ended = match &row.ending {
            None => None,
            Some(e) => match Reason::from_parts(&e.reason, None).filter(|r| r.by_people()) {
                Some(r) => Some((e.winner_seat, r)),
                None => {
                    return Err(GameError::Corrupt(format!(
                        "game {}: `{}` is no ending people give",
                        row.id, e.reason
                    )));
                }
            },
        };
        let mut seats: Vec<(usize, String)> =
            row.seats.iter().map(|s| (s.seat, s.kind.clone())).collect();
        seats.sort();
        let seats: Arc<[String]> = seats.into_iter().map(|(_, k)| k).collect();
        let game = people_game(&v, index as u64, seats, row.moves, ended, cap)
            .map_err(|why| GameError::Corrupt(format!("game {}: {why}", row.id)))?;
        games.push(game);
    }
    Ok((v, games, cap))
}

/// The ply cap of a playtest run of `v` whose longest game has `longest`
/// plies: the rules' own, else one no game reached (the server plays on
/// without a cap where the rules set none; the lab's runs cap at 1 000).
fn playtest_cap(v: &Variant, longest: usize) -> u32 {
    v.rules()
        .draw
        .ply_cap
        .unwrap_or_else(|| u32::try_from(longest + 1).unwrap_or(u32::MAX).max(1000))
}

/// Writes the finished games of rules version `key` to `dir` as a lab run
/// folder: `run.json` (command `playtest`, seed 0, each seat's kinds
/// found: `human` or bot levels, joined by `|` where games differ; shard
/// 1/1, the whole run, so that `murus lab merge` reads it alone),
/// `games.jsonl` and the lab's reports of them (`report.json`, `.csv`,
/// `.svg`, built by the lab's own [`murus_lab::report::build`]). A folder
/// that holds a run already is refused unless `force`, which replaces that
/// run's files (and no other file of the folder). Returns how many games
/// it holds.
pub fn run_folder(
    store: &Store,
    variants: &Variants,
    key: &str,
    dir: &Path,
    force: bool,
) -> Result<usize, ExportError> {
    let (v, games, cap) = lab_games(store, variants, key)?;
    let held = RUN_FILES.into_iter().find(|f| dir.join(f).exists());
    match held {
        Some(file) if !force => return Err(ExportError::Exists(dir.display().to_string(), file)),
        Some(_) => {
            for file in RUN_FILES {
                match std::fs::remove_file(dir.join(file)) {
                    Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                        return Err(LabError::Io {
                            path: dir.join(file).display().to_string(),
                            source: e,
                        }
                        .into());
                    }
                    _ => {}
                }
            }
        }
        None => {}
    }
    let players = v.player_count();
    let bots = (0..players)
        .map(|s| {
            let mut kinds: Vec<&str> = Vec::new();
            for g in &games {
                if let Some(k) = g.seats.get(s).filter(|k| !kinds.contains(&k.as_str())) {
                    kinds.push(k);
                }
            }
            kinds.join("|")
        })
        .collect();
    let prov = Provenance {
        variant: VariantId::of(&v),
        engine_version: env!("CARGO_PKG_VERSION").to_string(),
        bots,
        evaluations: Vec::new(),
        seed: 0,
        requested: games.len() as u64,
        max_plies: cap,
        openings: 0,
        book: None,
        // The whole run as shard 1 of 1: `murus lab merge` reads a run
        // folder that is one of the shards of a split, so this one reads
        // (its games replayed, its report rebuilt) with nothing beside it.
        shard: Some(murus_lab::Shard::new(1, 1).expect("shard 1/1")),
        players: (0..players).map(|p| v.letter(p)).collect(),
    };
    let spec = RunSpec::new(RunSpec::PLAYTEST, &prov, None);
    let (mut run, _) = RunDir::open(dir, &spec, Mode::New)?;
    for g in &games {
        run.append(g)?;
    }
    let stats = murus_lab::stats_of(&games);
    run.finish(&murus_lab::report::build(&prov, &stats))?;
    Ok(games.len())
}

#[cfg(test)]
mod tests {
    use super::utc;

    #[test]
    fn dates_are_the_calendars() {
        assert_eq!(utc(0), ("1970.01.01".into(), "00:00:00".into()));
        assert_eq!(utc(1_795_945_766), ("2026.11.29".into(), "09:49:26".into()));
        assert_eq!(utc(951_782_400), ("2000.02.29".into(), "00:00:00".into()));
    }
}
