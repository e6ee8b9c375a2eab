//! A run's folder: `run.json` (what determines the games) written first,
//! `games.jsonl` appended game by game as they finish, and the report files
//! (`report.json`, `report.csv`, `report.svg`) written at the end. Every
//! whole-file write goes to a temporary file renamed into place, so a run
//! killed at any moment leaves either the old file or the new one, and a
//! resumed run ends with exactly the files of a run never interrupted.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::book::BookId;
use crate::error::LabError;
use crate::record::{GameResult, GameStats, Provenance, stats_of};
use crate::report::{self, Report};
use crate::seeds::game_seed;

/// The configuration file, written before any game.
const RUN: &str = "run.json";
/// One finished game a line.
const GAMES: &str = "games.jsonl";
/// The report files, written when the run ends.
const REPORTS: [&str; 3] = ["report.json", "report.csv", "report.svg"];

/// What determines a run's games, kept in its folder's `run.json`: a run
/// resumes only with the same. Threads are not part of it: they change
/// nothing.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunSpec {
    /// The version of this file's layout (1).
    pub format: u32,
    /// What plays the games: `selfplay` or `match`.
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

impl RunSpec {
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
        let (a, b) = (&self.run, &asked.run);
        let shard = |s: &Option<String>| s.clone().unwrap_or_else(|| "none".into());
        let sprt = |s: &Option<[f64; 2]>| s.map_or("none".into(), |[x, y]| format!("{x},{y}"));
        let letters = |p: &[char]| p.iter().collect::<String>();
        let fields = [
            ("format", self.format.to_string(), asked.format.to_string()),
            ("command", self.command.clone(), asked.command.clone()),
            ("variant", a.variant.name.clone(), b.variant.name.clone()),
            (
                "variant source sha256 (the rules changed)",
                a.variant.source_sha256.clone(),
                b.variant.source_sha256.clone(),
            ),
            (
                "engine version",
                a.engine_version.clone(),
                b.engine_version.clone(),
            ),
            ("bots", a.bots.join(","), b.bots.join(",")),
            ("seed", a.seed.to_string(), b.seed.to_string()),
            ("games", a.requested.to_string(), b.requested.to_string()),
            ("shard", shard(&a.shard), shard(&b.shard)),
            (
                "max plies",
                a.max_plies.to_string(),
                b.max_plies.to_string(),
            ),
            ("openings", a.openings.to_string(), b.openings.to_string()),
            ("players", letters(&a.players), letters(&b.players)),
            ("sprt", sprt(&self.sprt), sprt(&asked.sprt)),
            (
                "stopping rule",
                self.stop.clone().unwrap_or_else(|| "none".into()),
                asked.stop.clone().unwrap_or_else(|| "none".into()),
            ),
        ];
        let mut out: Vec<String> = fields
            .into_iter()
            .filter(|(_, there, here)| there != here)
            .map(|(name, there, here)| format!("{name} {there} there, {here} asked"))
            .collect();
        if a.book != b.book {
            out.push(format!(
                "opening book {} there, {} asked",
                BookId::describe_or_none(a.book.as_ref()),
                BookId::describe_or_none(b.book.as_ref())
            ));
        }
        out
    }

    /// Whether game `index` is one of the run's.
    fn plays(&self, index: u64) -> bool {
        let shard = self.run.shard.as_deref().and_then(|s| {
            let (k, n) = s.split_once('/')?;
            Some((k.parse::<u64>().ok()?, n.parse::<u64>().ok()?))
        });
        index < self.run.requested
            && shard.is_none_or(|(k, n)| n > 0 && k > 0 && index % n == k - 1)
    }
}

/// A run kept in a folder: create it, or open it to resume; append each
/// game as it finishes; finish it with the report. [`crate::Options::dir`]
/// hands one to a batch.
#[derive(Debug)]
pub struct RunDir {
    path: PathBuf,
    spec: RunSpec,
    /// `games.jsonl`, open for appending.
    games: File,
    /// Records of the games found in the folder when it was opened.
    done: Vec<GameStats>,
    /// Games numbered this or more are left out when the run is finished.
    end: Option<u64>,
    /// Whether a game was appended since the folder was opened (its old
    /// reports, of an earlier interruption, are then removed).
    appended: bool,
}

/// The error of a failed read or write of `path`.
fn io(path: &Path) -> impl FnOnce(std::io::Error) -> LabError + use<> {
    let path = path.display().to_string();
    move |source| LabError::Io { path, source }
}

/// Fails with [`LabError::Mismatch`] unless `found`, the run in folder
/// `path`, is the run `asked` for.
fn compare(path: &Path, found: &RunSpec, asked: &RunSpec) -> Result<(), LabError> {
    let differences = found.differences(asked);
    if differences.is_empty() {
        Ok(())
    } else {
        Err(LabError::Mismatch {
            path: path.display().to_string(),
            differences,
        })
    }
}

/// Checks that `dirs`, shard folders whose `--shard` texts are `shards`,
/// are the shards of one split, each given once: what merging a sharded
/// check or sweep needs before its settings are compared. `what` names the
/// run in the messages (`check`, `sweep`).
pub(crate) fn check_shard_set(
    dirs: &[&Path],
    shards: &[Option<&str>],
    what: &str,
) -> Result<(), String> {
    let mut seen: Vec<(u64, &Path)> = Vec::new();
    let mut split = None;
    for (dir, shard) in dirs.iter().zip(shards) {
        let Some((k, n)) = shard.and_then(parse_shard_text) else {
            return Err(format!(
                "{}: not a shard (that {what} ran without --shard): nothing to merge it with",
                dir.display()
            ));
        };
        if let Some(m) = split
            && m != n
        {
            return Err(format!(
                "{}: shard {k}/{n}, but {} is a shard of {m}: shards of different splits do not merge",
                dir.display(),
                dirs[0].display()
            ));
        }
        split = Some(n);
        if let Some((_, other)) = seen.iter().find(|(s, _)| *s == k) {
            return Err(format!(
                "shard {k}/{n} is given twice: {} and {}",
                other.display(),
                dir.display()
            ));
        }
        seen.push((k, dir));
    }
    Ok(())
}

/// `K/N` as `(K, N)`, when `1 <= K <= N`.
fn parse_shard_text(s: &str) -> Option<(u64, u64)> {
    let (k, n) = s.split_once('/')?;
    let (k, n) = (k.trim().parse().ok()?, n.trim().parse().ok()?);
    (k >= 1 && k <= n).then_some((k, n))
}

/// Writes `text` to `path` through a temporary file renamed into place.
pub(crate) fn write_atomic(path: &Path, text: &str) -> Result<(), LabError> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, text).map_err(io(&tmp))?;
    std::fs::rename(&tmp, path).map_err(io(path))
}

/// Writes the three report files of `report` into `dir`.
fn write_reports(dir: &Path, report: &Report) -> Result<(), LabError> {
    for (name, text) in crate::write::report_files(report) {
        write_atomic(&dir.join(name), &text)?;
    }
    Ok(())
}

/// The games of a `games.jsonl` file's bytes, each with its line number,
/// and the length of its whole lines: a last line without its newline was
/// torn by a kill in the middle of its write and is left out; any other line
/// that is not a game is an error naming `path:line`.
fn parse_games(path: &Path, bytes: &[u8]) -> Result<(Vec<(usize, GameResult)>, usize), LabError> {
    let whole = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let mut games = Vec::new();
    for (i, line) in bytes[..whole].split(|&b| b == b'\n').enumerate() {
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let error = |message: String| LabError::Parse {
            path: path.display().to_string(),
            line: i + 1,
            message,
        };
        let game: GameResult =
            serde_json::from_slice(line).map_err(|e| error(format!("not a game: {e}")))?;
        games.push((i + 1, game));
    }
    Ok((games, whole))
}

/// Reads a `games.jsonl` file (see [`parse_games`]); a missing file holds
/// no games.
fn read_games(path: &Path) -> Result<(Vec<(usize, GameResult)>, usize), LabError> {
    match std::fs::read(path) {
        Ok(bytes) => parse_games(path, &bytes),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok((Vec::new(), 0)),
        Err(e) => Err(io(path)(e)),
    }
}

impl RunDir {
    /// Starts a new run in folder `path` (created if missing): writes
    /// `run.json` and an empty `games.jsonl`. Refuses a folder that already
    /// holds a run's files ([`LabError::RunExists`]): resume it with
    /// [`RunDir::open_for_resume`], or choose another folder.
    pub fn create(path: &Path, spec: &RunSpec) -> Result<RunDir, LabError> {
        for file in [RUN, GAMES].into_iter().chain(REPORTS) {
            if path.join(file).exists() {
                return Err(LabError::RunExists {
                    path: path.display().to_string(),
                    file: file.to_string(),
                });
            }
        }
        std::fs::create_dir_all(path).map_err(io(path))?;
        let mut text = serde_json::to_string_pretty(spec).expect("a run spec serialises");
        text.push('\n');
        write_atomic(&path.join(RUN), &text)?;
        let games_path = path.join(GAMES);
        let games = OpenOptions::new()
            .create_new(true)
            .append(true)
            .open(&games_path)
            .map_err(io(&games_path))?;
        Ok(RunDir {
            path: path.to_path_buf(),
            spec: spec.clone(),
            games,
            done: Vec::new(),
            end: None,
            appended: false,
        })
    }

    /// Opens the run in folder `path` to continue it. Its `run.json` must
    /// match `spec` ([`LabError::Mismatch`] names each difference). Returns
    /// the games already played, sorted by number (a game found twice
    /// counts once); a torn last line of `games.jsonl` is dropped (and cut
    /// off the file), any other line that is not one of this run's games is
    /// an error naming its `file:line`.
    pub fn open_for_resume(
        path: &Path,
        spec: &RunSpec,
    ) -> Result<(RunDir, Vec<GameResult>), LabError> {
        let (found, games, whole) = read_run(path, spec)?;
        let games_path = path.join(GAMES);
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&games_path)
            .map_err(io(&games_path))?;
        // Cut the torn line off, so that the next game starts a line.
        if file.metadata().map_err(io(&games_path))?.len() > whole as u64 {
            file.set_len(whole as u64).map_err(io(&games_path))?;
        }
        let done = stats_of(&games);
        let dir = RunDir {
            path: path.to_path_buf(),
            spec: found,
            games: file,
            done,
            end: None,
            appended: false,
        };
        Ok((dir, games))
    }

    /// The games of the run in folder `path`, as [`RunDir::open_for_resume`]
    /// finds them, without changing the folder (to show a run).
    pub fn read(path: &Path, spec: &RunSpec) -> Result<Vec<GameResult>, LabError> {
        read_run(path, spec).map(|(_, games, _)| games)
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The run's configuration, as its `run.json` holds it.
    pub fn spec(&self) -> &RunSpec {
        &self.spec
    }

    /// Statistics records of the games the folder held when it was opened,
    /// sorted by number.
    pub fn done(&self) -> &[GameStats] {
        &self.done
    }

    /// Fails with [`LabError::Mismatch`] unless the folder's run is `spec`.
    pub fn check(&self, spec: &RunSpec) -> Result<(), LabError> {
        compare(&self.path, &self.spec, spec)
    }

    /// Appends a finished game to `games.jsonl`, written through to the
    /// file at once (a kill of the process right after loses nothing).
    pub fn append(&mut self, game: &GameResult) -> Result<(), LabError> {
        if !self.appended {
            // The reports an interrupted run wrote describe fewer games from
            // now on: a kill before this run's end must not leave them.
            self.appended = true;
            for name in REPORTS {
                let path = self.path.join(name);
                match std::fs::remove_file(&path) {
                    Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(io(&path)(e)),
                    _ => {}
                }
            }
        }
        let mut line = serde_json::to_string(game).expect("a game serialises");
        line.push('\n');
        let path = self.path.join(GAMES);
        self.games.write_all(line.as_bytes()).map_err(io(&path))
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
        let games_path = self.path.join(GAMES);
        let bytes = std::fs::read(&games_path).map_err(io(&games_path))?;
        let (games, _) = parse_games(&games_path, &bytes)?;
        let mut games: Vec<GameResult> = games
            .into_iter()
            .map(|(_, g)| g)
            .filter(|g| self.end.is_none_or(|end| g.stats.index < end))
            .collect();
        games.sort_by_key(|g| g.stats.index);
        games.dedup_by_key(|g| g.stats.index);
        write_atomic(&games_path, &games_text(&games))?;
        write_reports(&self.path, report)
    }
}

/// The run in folder `path`, checked against `spec`: its `run.json`, its
/// games sorted by number (each once), and the length of `games.jsonl`'s
/// whole lines.
fn read_run(path: &Path, spec: &RunSpec) -> Result<(RunSpec, Vec<GameResult>, usize), LabError> {
    let no_run = |why: &str| LabError::NoRun {
        path: path.display().to_string(),
        why: why.to_string(),
    };
    if !path.is_dir() {
        return Err(no_run("there is no such folder"));
    }
    let run_path = path.join(RUN);
    let text = match std::fs::read_to_string(&run_path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(no_run(
                "it has no run.json (it was not written by a run that can resume)",
            ));
        }
        Err(e) => return Err(io(&run_path)(e)),
    };
    let found: RunSpec = serde_json::from_str(&text).map_err(|e| LabError::Parse {
        path: run_path.display().to_string(),
        line: e.line(),
        message: format!("not a run's configuration: {e}"),
    })?;
    compare(path, &found, spec)?;
    let games_path = path.join(GAMES);
    let (lines, whole) = read_games(&games_path)?;
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
        if g.seed != game_seed(run.seed, g.stats.index) || g.seats != run.bots {
            return Err(wrong("its seed or its bots differ".into()));
        }
        games.push(g);
    }
    games.sort_by_key(|g| g.stats.index);
    games.dedup_by_key(|g| g.stats.index);
    Ok((found, games, whole))
}

/// `games` as `games.jsonl` text.
fn games_text(games: &[GameResult]) -> String {
    let mut lines = String::new();
    for g in games {
        lines.push_str(&serde_json::to_string(g).expect("a game serialises"));
        lines.push('\n');
    }
    lines
}

/// Writes a run's outputs to `dir` (created if missing), each file
/// atomically: `games.jsonl`, `report.json`, `report.csv` and `report.svg`.
pub fn write_outputs(dir: &Path, report: &Report, games: &[GameResult]) -> Result<(), LabError> {
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    write_atomic(&dir.join(GAMES), &games_text(games))?;
    write_reports(dir, report)
}

/// Reads a run's games and provenance back from `dir`.
pub fn read_outputs(dir: &Path) -> Result<(Provenance, Vec<GameResult>), LabError> {
    let (report, games) = read_report(dir)?;
    Ok((report.provenance(), games))
}

/// Reads a run's report and games back from `dir`.
fn read_report(dir: &Path) -> Result<(Report, Vec<GameResult>), LabError> {
    let report_path = dir.join("report.json");
    let text = std::fs::read_to_string(&report_path).map_err(io(&report_path))?;
    let report: Report = serde_json::from_str(&text).map_err(|e| LabError::Parse {
        path: report_path.display().to_string(),
        line: e.line(),
        message: e.to_string(),
    })?;
    let games_path = dir.join(GAMES);
    let bytes = std::fs::read(&games_path).map_err(io(&games_path))?;
    let (games, _) = parse_games(&games_path, &bytes)?;
    Ok((report, games.into_iter().map(|(_, g)| g).collect()))
}

/// Merges shard outputs into the report of the whole run. The shards must
/// come from the same run (variant, bots, seed, games, ply cap); a game
/// present twice counts once. The merge is marked
/// [`interrupted`](Report::interrupted) when a shard's report was.
pub fn merge(dirs: &[&Path]) -> Result<(Report, Vec<GameResult>), LabError> {
    let mut base: Option<Provenance> = None;
    let mut all: Vec<GameResult> = Vec::new();
    let mut interrupted = false;
    for dir in dirs {
        let (report, games) = read_report(dir)?;
        interrupted |= report.interrupted;
        let mut prov = report.provenance();
        prov.shard = None;
        match &base {
            None => base = Some(prov),
            Some(b) if *b != prov => {
                return Err(LabError::Invalid(format!(
                    "{}: not a shard of the same run (variant, bots, seed, games and ply cap must match)",
                    dir.display()
                )));
            }
            Some(_) => {}
        }
        all.extend(games);
    }
    let Some(prov) = base else {
        return Err(LabError::Invalid("nothing to merge".into()));
    };
    all.sort_by_key(|g| g.stats.index);
    all.dedup_by_key(|g| g.stats.index);
    let mut report = report::build(&prov, &stats_of(&all));
    report.interrupted = interrupted;
    Ok((report, all))
}
