//! The folder of a run of games (a self-play run, a match, a balance
//! level): `run.json` (what determines the games) written first,
//! `games.jsonl` appended game by game as they finish, and the report files
//! (`report.json`, `report.csv`, `report.svg`) written at the end. A
//! resumed run ends with exactly the files of a run never interrupted.

use std::path::Path;
use std::sync::OnceLock;

use murus_engine::Variant;
use serde::{Deserialize, Serialize};

use super::lines::{self, Appender};
use super::{
    Differences, Mode, Opened, Partial, RunFolder, Settings, Shard, Sharded, Spec, check_finished,
    check_shards, io, or_none, read_json, write_files,
};
use crate::book::BookId;
use crate::error::LabError;
use crate::play::first_wrong;
use crate::record::{
    GameResult, GameStats, LEGACY_EVALUATIONS, Provenance, VariantId, short_evaluation, stats_of,
};
use crate::report::{self, Report};
use crate::seeds::game_seed;
use crate::write::report_files;

/// One finished game a line.
const GAMES: &str = "games.jsonl";
/// The report files, written when the run ends.
const REPORTS: [&str; 3] = ["report.json", "report.csv", "report.svg"];
/// What a line of `games.jsonl` must be.
const NOT_A_GAME: &str = "not a game";

/// What determines a run's games, kept in its folder's `run.json`: a run
/// resumes only with the same. Threads are not part of it: they change
/// nothing.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunSpec {
    /// The version of this file's layout (1).
    pub format: u32,
    /// What plays the games: `selfplay`, `match` or `balance`.
    pub command: String,
    /// Variant and its source hash, engine version, bots, seed, games,
    /// shard, ply cap, openings (random plies or a book) and players.
    #[serde(flatten)]
    pub run: Provenance,
    /// A match's sequential test, `[elo0, elo1]`: it decides which games
    /// the match plays.
    pub sprt: Option<[f64; 2]>,
    /// A balance level's stopping rule (`precision 0.03 up to 2000
    /// games`): it decides which games the level plays.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop: Option<String>,
}

/// The layout of `run.json` this version writes and reads.
const FORMAT: u32 = 1;

/// Shards of a run merge only with the same provenance but for the shard.
impl Settings for Provenance {
    const WHAT: &'static str = "run";

    fn differences(&self, b: &Provenance, here: &'static str) -> Vec<String> {
        let a = self;
        let mut d = Differences::new(here);
        d.rules(&a.variant, &b.variant);
        d.add("engine version", &a.engine_version, &b.engine_version);
        d.add("bots", a.bots.join(","), b.bots.join(","));
        if a.bots == b.bots {
            d.extend(evaluation_differences(a, b, here));
        }
        d.add("seed", a.seed, b.seed);
        d.add("games", a.requested, b.requested);
        d.add(
            "shard",
            or_none(a.shard.as_ref()),
            or_none(b.shard.as_ref()),
        );
        d.add("max plies", a.max_plies, b.max_plies);
        d.add("openings", a.openings, b.openings);
        let letters = |p: &[char]| p.iter().collect::<String>();
        d.add("players", letters(&a.players), letters(&b.players));
        d.add(
            "opening book",
            BookId::describe_or_none(a.book.as_ref()),
            BookId::describe_or_none(b.book.as_ref()),
        );
        d.finish()
    }
}

/// One sentence per seat whose bot was given another evaluation in `a`
/// (found there) than in `b` (`here`): ``seat 1 (medium): evaluation
/// generic there, sha256:1a2b3c4d5e6f… asked``. A side that records none
/// (a folder written before evaluations were recorded) is read as
/// [`LEGACY_EVALUATIONS`] says.
fn evaluation_differences(a: &Provenance, b: &Provenance, here: &str) -> Vec<String> {
    let seat = |s: usize| {
        format!(
            "seat {} ({})",
            s + 1,
            a.bots.get(s).map_or("", String::as_str)
        )
    };
    let sentence = |s: usize, there: &str, asked: &str| {
        format!("{}: evaluation {there} there, {asked} {here}", seat(s))
    };
    match (a.evaluations.is_empty(), b.evaluations.is_empty()) {
        (true, true) => Vec::new(),
        (false, false) => (0..a.evaluations.len().max(b.evaluations.len()))
            .filter_map(|s| {
                let (x, y) = (a.evaluations.get(s), b.evaluations.get(s));
                (x != y).then(|| {
                    let show = |e: Option<&String>| {
                        e.map_or_else(|| "none".to_string(), |e| short_evaluation(e))
                    };
                    sentence(s, &show(x), &show(y))
                })
            })
            .collect(),
        (legacy_there, _) => {
            let recorded = if legacy_there { b } else { a };
            recorded
                .evaluations
                .iter()
                .enumerate()
                .filter(|&(s, id)| !legacy_accepts(recorded.bots.get(s), id))
                .map(|(s, id)| {
                    let id = short_evaluation(id);
                    if legacy_there {
                        sentence(s, LEGACY_EVALUATIONS, &id)
                    } else {
                        sentence(s, &id, LEGACY_EVALUATIONS)
                    }
                })
                .collect()
        }
    }
}

/// Whether a bot of `spec` given the evaluation `id` may go on with games
/// of a folder that recorded no evaluation ([`LEGACY_EVALUATIONS`]): the
/// generic one, one shipped with Murus, or the file its spec names.
fn legacy_accepts(spec: Option<&String>, id: &str) -> bool {
    static SHIPPED: OnceLock<Vec<String>> = OnceLock::new();
    let names_file = spec
        .and_then(|s| s.parse::<murus_ai::BotSpec>().ok())
        .is_some_and(|s| s.eval_file().is_some());
    let shipped = SHIPPED.get_or_init(|| {
        murus_engine::BUILTIN_EVALUATIONS
            .iter()
            .filter_map(|(_, bytes)| murus_ai::EvalFile::from_bytes(bytes).ok())
            .map(|f| f.evaluation().id())
            .collect()
    });
    names_file || id == murus_ai::Evaluation::Generic.id() || shipped.iter().any(|s| s == id)
}

impl Sharded for Provenance {
    fn shard(&mut self) -> &mut Option<Shard> {
        &mut self.shard
    }
}

impl Settings for RunSpec {
    const WHAT: &'static str = "run";

    fn differences(&self, asked: &RunSpec, here: &'static str) -> Vec<String> {
        let sprt = |s: &Option<[f64; 2]>| s.map(|[x, y]| format!("{x},{y}"));
        let mut d = Differences::new(here);
        d.add("format", self.format, asked.format);
        d.add("command", &self.command, &asked.command);
        d.extend(self.run.differences(&asked.run, here));
        d.add(
            "sprt",
            or_none(sprt(&self.sprt)),
            or_none(sprt(&asked.sprt)),
        );
        d.add(
            "stopping rule",
            or_none(self.stop.as_ref()),
            or_none(asked.stop.as_ref()),
        );
        d.finish()
    }
}

impl Sharded for RunSpec {
    fn shard(&mut self) -> &mut Option<Shard> {
        &mut self.run.shard
    }
}

impl Spec for RunSpec {
    const FILE: &'static str = "run.json";
    const FILES: &'static [&'static str] = &[GAMES, REPORTS[0], REPORTS[1], REPORTS[2]];
    const OUTPUTS: &'static [&'static str] = &REPORTS;
}

impl RunSpec {
    /// The command of a run folder that holds games people played (a rules
    /// version's games on the playtest server, `murus serve --export-run`):
    /// each game keeps its own seats (`human` or a bot level, seat `s`
    /// starting with player `s`'s colour) and seed 0; the spec's `bots` say,
    /// seat by seat, the kinds found there (`human|medium`); its games are
    /// read, replayed and reported as any run's, and it resumes into no
    /// other run (its command differs).
    pub const PLAYTEST: &'static str = "playtest";

    /// The spec of a run of `command` with provenance `run`.
    pub fn new(command: &str, run: &Provenance, sprt: Option<[f64; 2]>) -> RunSpec {
        RunSpec {
            format: FORMAT,
            command: command.to_string(),
            run: run.clone(),
            sprt,
            stop: None,
        }
    }

    /// One sentence per setting in which `self` (a folder's run) differs
    /// from `asked`: `seed 4 there, 5 asked`.
    pub fn differences(&self, asked: &RunSpec) -> Vec<String> {
        Settings::differences(self, asked, "asked")
    }

    /// Whether game `index` is one of the run's.
    fn plays(&self, index: u64) -> bool {
        index < self.run.requested && self.run.shard.is_none_or(|s| s.plays(index))
    }
}

/// A run of games kept in a folder: open it ([`RunDir::open`], new or to
/// resume); append each game as it finishes; finish it with the report.
/// [`crate::spawn`] and [`crate::run_match`] take one.
#[derive(Debug)]
pub struct RunDir {
    folder: RunFolder<RunSpec>,
    /// `games.jsonl`, open for appending.
    games: Appender,
    /// Records of the games found in the folder when it was opened.
    done: Vec<GameStats>,
    /// Games numbered this or more are left out when the run is finished.
    end: Option<u64>,
    /// Whether a game was appended since the folder was opened (its old
    /// reports, of an earlier interruption, are then removed).
    appended: bool,
    /// Whether the games found when it was opened were replayed
    /// ([`RunDir::check_games`]).
    checked: bool,
}

impl RunDir {
    /// Opens the folder `path` for the run of `spec` ([`RunFolder::open`]):
    /// a run started there writes `run.json` and an empty `games.jsonl`; a
    /// resumed one reads the games already played, sorted by number (a game found
    /// twice counts once, a torn last line of `games.jsonl` is dropped and
    /// cut off the file, any other line that is not one of this run's
    /// games is an error naming its `file:line`), and returns them.
    pub fn open(
        path: &Path,
        spec: &RunSpec,
        mode: Mode,
    ) -> Result<(RunDir, Vec<GameResult>), LabError> {
        let folder = RunFolder::open(path, spec, mode)?;
        let (games, whole) = match folder.opened() {
            Opened::Started => (Vec::new(), None),
            Opened::Resumed => {
                let (games, whole) = read_games(path, spec)?;
                (games, Some(whole))
            }
        };
        let log = Appender::open(&path.join(GAMES), whole)?;
        let dir = RunDir {
            folder,
            games: log,
            done: stats_of(&games),
            end: None,
            appended: false,
            checked: games.is_empty(),
        };
        Ok((dir, games))
    }

    /// The games of the run of `spec` in folder `path`, as
    /// [`RunDir::open`] finds them to resume it, without changing the
    /// folder (to show a run).
    pub fn read(path: &Path, spec: &RunSpec) -> Result<Vec<GameResult>, LabError> {
        if RunFolder::<RunSpec>::read_spec(path)?.is_none() {
            return Err(LabError::NoRun {
                path: path.display().to_string(),
                what: RunSpec::WHAT,
                why: format!("it has no {}", RunSpec::FILE),
            });
        }
        RunFolder::open(path, spec, Mode::Resume)?;
        read_games(path, spec).map(|(games, _)| games)
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        self.folder.path()
    }

    /// The run's configuration, as its `run.json` holds it.
    pub fn spec(&self) -> &RunSpec {
        self.folder.spec()
    }

    /// Whether the run was started in the folder or resumed from it.
    pub fn opened(&self) -> Opened {
        self.folder.opened()
    }

    /// Statistics records of the games the folder held when it was opened,
    /// sorted by number.
    pub fn done(&self) -> &[GameStats] {
        &self.done
    }

    /// Replays the games the folder held when it was opened (a resumed
    /// run's), once, before the run counts them: each move must be legal
    /// in turn and each game end as its line says ([`check_games`]). The
    /// runner asks before it plays; the first game that does not replay is
    /// an error naming its `file:line`.
    pub fn check_games(&mut self, variant: &Variant) -> Result<(), LabError> {
        if self.checked {
            return Ok(());
        }
        let path = self.path().join(GAMES);
        let (lines, _) = lines::read::<GameResult>(&path, NOT_A_GAME)?;
        check_games(variant, &path, &lines, self.spec().run.max_plies)?;
        self.checked = true;
        Ok(())
    }

    /// Fails with [`LabError::Mismatch`] unless the folder's run is `spec`.
    pub fn check(&self, spec: &RunSpec) -> Result<(), LabError> {
        let differences = self.spec().differences(spec);
        if differences.is_empty() {
            return Ok(());
        }
        Err(LabError::Mismatch {
            path: self.path().display().to_string(),
            what: RunSpec::WHAT,
            differences,
        })
    }

    /// Appends a finished game to `games.jsonl`, written through to the
    /// file at once (a kill of the process right after loses nothing).
    pub fn append(&mut self, game: &GameResult) -> Result<(), LabError> {
        if !self.appended {
            // The reports an interrupted run wrote describe fewer games from
            // now on: a kill before this run's end must not leave them.
            self.appended = true;
            self.folder.clear_outputs()?;
        }
        self.games.append(game)
    }

    /// Leaves games numbered `end` or more out of the finished folder (a
    /// sequential test that decided before them).
    pub fn drop_from(&mut self, end: u64) {
        self.end = Some(end);
    }

    /// Ends the run: rewrites `games.jsonl` in game-number order (so the
    /// file does not depend on threads or interruptions), then writes
    /// `report.json`, `report.csv` and `report.svg`.
    pub fn finish(self, report: &Report) -> Result<(), LabError> {
        let path = self.path().join(GAMES);
        let (games, _) = lines::read::<GameResult>(&path, NOT_A_GAME)?;
        let mut games: Vec<GameResult> = games
            .into_iter()
            .map(|(_, g)| g)
            .filter(|g| self.end.is_none_or(|end| g.stats.index < end))
            .collect();
        games.sort_by_key(|g| g.stats.index);
        games.dedup_by_key(|g| g.stats.index);
        let mut files = vec![(GAMES, lines::text(&games))];
        files.extend(report_files(report));
        self.folder.write_outputs(&files)
    }
}

/// The games of the run of `spec` in folder `path`, sorted by number (each
/// once), and the length of `games.jsonl`'s whole lines.
fn read_games(path: &Path, spec: &RunSpec) -> Result<(Vec<GameResult>, u64), LabError> {
    let games_path = path.join(GAMES);
    let (lines, whole) = lines::read::<GameResult>(&games_path, NOT_A_GAME)?;
    let mut games = Vec::with_capacity(lines.len());
    for (line, g) in lines {
        let wrong = |why: String| LabError::Parse {
            path: games_path.display().to_string(),
            line,
            message: format!("game {} is not one of this run's: {why}", g.stats.index),
        };
        let run = &spec.run;
        if !spec.plays(g.stats.index) {
            return Err(wrong(format!(
                "its number is not among the {} games{}",
                run.requested,
                run.shard
                    .as_ref()
                    .map_or(String::new(), |s| format!(" of shard {s}"))
            )));
        }
        // A playtest run's games were played by people, each with its own
        // seats and no seed: nothing in its spec decides them.
        let playtest = spec.command == RunSpec::PLAYTEST;
        if !playtest && (g.seed != game_seed(run.seed, g.stats.index) || *g.seats != run.bots[..]) {
            return Err(wrong("its seed or its bots differ".into()));
        }
        games.push(g);
    }
    games.sort_by_key(|g| g.stats.index);
    games.dedup_by_key(|g| g.stats.index);
    Ok((games, whole))
}

/// Replays `games`, read from the lines of `path` (each with its line
/// number), under the ply cap `max_plies`: the first whose moves are not
/// legal in turn, or do not end the game as its line says, is an error
/// naming its `file:line` (``games.jsonl:7: game 6: ply 5: `d7-d6` is not
/// legal there (g to move; 12 legal moves)``).
pub fn check_games(
    variant: &Variant,
    path: &Path,
    games: &[(usize, GameResult)],
    max_plies: u32,
) -> Result<(), LabError> {
    let refs: Vec<&GameResult> = games.iter().map(|(_, g)| g).collect();
    match first_wrong(variant, &refs, max_plies) {
        None => Ok(()),
        Some((i, why)) => Err(LabError::Parse {
            path: path.display().to_string(),
            line: games[i].0,
            message: format!("{why}: not a game of these rules (was the line edited?)"),
        }),
    }
}

/// Writes a run's outputs to `dir` (created if missing), each file whole
/// or not at all: `games.jsonl`, `report.json`, `report.csv` and
/// `report.svg`.
pub fn write_outputs(dir: &Path, report: &Report, games: &[GameResult]) -> Result<(), LabError> {
    let mut files = vec![(GAMES, lines::text(games))];
    files.extend(report_files(report));
    write_files(dir, &files)
}

/// Reads a run's games and provenance back from `dir`.
pub fn read_outputs(dir: &Path) -> Result<(Provenance, Vec<GameResult>), LabError> {
    let (report, games) = read_report(dir)?;
    Ok((report.provenance, games))
}

/// Reads a run's report and games back from `dir`.
fn read_report(dir: &Path) -> Result<(Report, Vec<GameResult>), LabError> {
    let report: Report = read_json(&dir.join(REPORTS[0]), "not a run's report")?;
    let games_path = dir.join(GAMES);
    if !games_path.is_file() {
        return Err(io(&games_path)(std::io::ErrorKind::NotFound.into()));
    }
    let (games, _) = lines::read::<GameResult>(&games_path, NOT_A_GAME)?;
    if let Some(variant) = shipped_rules(&report.provenance) {
        check_games(variant, &games_path, &games, report.provenance.max_plies)?;
    }
    Ok((report, games.into_iter().map(|(_, g)| g).collect()))
}

/// The shipped variant whose rules `p` names (by their key, or in a file
/// written before keys by the text of its source), to replay the games of
/// a folder read for a merge, which is given no rules: games of a rule
/// file of the user's are replayed when their run resumes, not when its
/// shards merge.
fn shipped_rules(p: &Provenance) -> Option<&'static Variant> {
    static SHIPPED: OnceLock<Vec<Variant>> = OnceLock::new();
    let shipped = SHIPPED.get_or_init(|| {
        murus_engine::BUILTIN
            .iter()
            .filter_map(|(name, _)| Variant::builtin(name))
            .collect()
    });
    shipped
        .iter()
        .find(|v| VariantId::of(v).same_rules(&p.variant))
}

/// Merges shard outputs into the report of the whole run. The folders
/// must hold the shards of one run that ran to their end ([`check_shards`]:
/// the same variant, bots, seed, games and ply cap, one split, each shard
/// once; each with its report). A merge that lacks shards, or has shards
/// that were interrupted, is refused ([`LabError::Partial`]) unless
/// `partial` allows it: its report then lists the shards missing
/// ([`Report::missing_shards`]) and is [`interrupted`](Report::interrupted)
/// when a shard's report was.
pub fn merge(dirs: &[&Path], partial: Partial) -> Result<(Report, Vec<GameResult>), LabError> {
    merge_runs(dirs, Some(partial))
}

/// Merges folders that each hold the same whole run (a balance check's
/// skill match as checks before its matches were sharded played it, whole
/// in every shard): their provenances must be equal, and a game found in
/// several counts once.
pub(crate) fn merge_copies(dirs: &[&Path]) -> Result<(Report, Vec<GameResult>), LabError> {
    merge_runs(dirs, None)
}

/// [`merge`] (shards, `Some(partial)`), or [`merge_copies`] (`None`).
fn merge_runs(
    dirs: &[&Path],
    sharded: Option<Partial>,
) -> Result<(Report, Vec<GameResult>), LabError> {
    check_finished(dirs, REPORTS[0], RunSpec::WHAT)?;
    let mut provenances: Vec<Provenance> = Vec::new();
    let mut stopped: Vec<bool> = Vec::new();
    let mut all: Vec<GameResult> = Vec::new();
    for dir in dirs {
        let (report, games) = read_report(dir)?;
        stopped.push(report.interrupted);
        provenances.push(report.provenance);
        all.extend(games);
    }
    let mut missing_shards = Vec::new();
    if let Some(partial) = sharded {
        let set = check_shards(dirs, &provenances)?;
        set.check_whole(dirs, &stopped, partial)?;
        missing_shards = set.missing_shards();
    } else if let Some(first) = provenances.first() {
        for (dir, p) in dirs.iter().zip(&provenances) {
            let differences = first.differences(p, "here");
            if !differences.is_empty() {
                return Err(LabError::Invalid(format!(
                    "{} is not the run of {}: {}",
                    dir.display(),
                    dirs[0].display(),
                    differences.join("; ")
                )));
            }
        }
    } else {
        return Err(LabError::Invalid("nothing to merge".into()));
    }
    let mut prov = provenances.swap_remove(0);
    prov.shard = None;
    all.sort_by_key(|g| g.stats.index);
    all.dedup_by_key(|g| g.stats.index);
    let mut report = report::build(&prov, &stats_of(&all));
    report.interrupted = stopped.contains(&true);
    report.missing_shards = missing_shards;
    Ok((report, all))
}
