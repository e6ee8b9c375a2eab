//! The balance check: is a variant fair, and does the answer depend on how
//! well it is played?
//!
//! At each level (random, easy, medium, hard, expert: [`murus_ai::LEVELS`])
//! equal bots play each other in colour-rotated rounds from varied openings,
//! until the first player's share of wins is known well enough
//! ([`Stopping`]); adjacent levels then play a match, which measures how
//! much skill each step adds (the *skill trace*). [`verdict`] turns the
//! figures into sentences, each by a documented rule (`docs/balance.md`).
//!
//! Every game is one of a self-play run or a match and is kept on disk like
//! theirs (`OUT/levels/LEVEL`, `OUT/skill/UPPER-vs-LOWER`): a killed check
//! resumes where it stopped, and a sharded check (a fixed number of games)
//! merges like selfplay.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use murus_ai::{BotSpec, LEVELS};
use murus_engine::Variant;
use serde::{Deserialize, Serialize};

use crate::book::{Book, BookId};
use crate::matches::{MatchConfig, MatchResult, run_match};
use crate::metrics::Metrics;
use crate::report::{Report, VariantId, percent};
use crate::rundir::{RunDir, RunSpec};
use crate::runner::{Control, Deliver, lock, play_range, play_sequential};
use crate::stats::{Z95, wilson_z};
use crate::{Config, LabError};

/// The levels, weakest first: `random` and [`LEVELS`].
pub fn level_names() -> Vec<&'static str> {
    std::iter::once("random")
        .chain(LEVELS.iter().map(|(name, _)| *name))
        .collect()
}

/// A level of play: its name and its bot.
#[derive(Clone, Debug, PartialEq)]
pub struct Level {
    pub name: String,
    pub spec: BotSpec,
}

/// Parses `random,easy,hard`: level names, weakest first (they are sorted
/// so), each once.
pub fn parse_levels(list: &str) -> Result<Vec<Level>, LabError> {
    let names = level_names();
    let mut picked: Vec<usize> = Vec::new();
    for word in list.split(',').map(str::trim) {
        let Some(i) = names.iter().position(|n| *n == word) else {
            return Err(LabError::Invalid(format!(
                "unknown level `{word}`: expected some of {}",
                names.join(", ")
            )));
        };
        if picked.contains(&i) {
            return Err(LabError::Invalid(format!("level `{word}` is named twice")));
        }
        picked.push(i);
    }
    picked.sort_unstable();
    Ok(picked
        .into_iter()
        .map(|i| Level {
            name: names[i].to_string(),
            spec: names[i].parse().expect("level names parse as bots"),
        })
        .collect())
}

/// When a level stops playing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Stopping {
    /// Exactly this many games at each level (rounded up to whole rounds).
    Games(u64),
    /// Until the first player's 95% interval is at most `±precision` wide,
    /// or its edge is clear ([`Stopping::decided`]); at most `max_games`.
    Precision { precision: f64, max_games: u64 },
}

/// No early stop for a clear edge before this many games: small samples
/// make poor evidence even when the interval says otherwise.
pub const MIN_GAMES_FOR_EDGE: u64 = 100;

/// The normal quantile of the early-stopping interval: about 99.7%. The
/// rule looks at the data once per round of games, and a look at 95% each
/// time would cry "unfair" far more often than one time in twenty; a
/// boundary at z = 3 for every look (Pocock's scheme) keeps the chance of a
/// false alarm under 5% for up to about a hundred looks.
pub const Z_EDGE: f64 = 3.0;

impl Stopping {
    /// The most games a level plays.
    pub fn max_games(&self) -> u64 {
        match *self {
            Stopping::Games(n) => n,
            Stopping::Precision { max_games, .. } => max_games,
        }
    }

    /// Whether a level that has played `games` games, `first_wins` of them
    /// won by the first player, stops here, and why. The rule is the same
    /// at every look, so the games a level plays depend on nothing but
    /// their results in number order.
    pub fn decided(&self, first_wins: u64, games: u64, fair: f64) -> Option<StopReason> {
        match *self {
            Stopping::Games(_) => None,
            Stopping::Precision { precision, .. } => {
                let (lo, hi) = wilson_z(first_wins, games, Z95);
                if (hi - lo) / 2.0 <= precision {
                    return Some(StopReason::Precision);
                }
                let (lo, hi) = wilson_z(first_wins, games, Z_EDGE);
                if games >= MIN_GAMES_FOR_EDGE && (lo > fair || hi < fair) {
                    return Some(StopReason::ClearEdge);
                }
                None
            }
        }
    }

    /// What `run.json` keeps of the rule.
    pub fn describe(&self) -> String {
        match *self {
            Stopping::Games(n) => format!("games {n}"),
            Stopping::Precision {
                precision,
                max_games,
            } => format!("precision {precision} up to {max_games} games"),
        }
    }
}

/// Why a level stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StopReason {
    /// The interval reached the asked precision.
    Precision,
    /// The first player's edge (or handicap) is clear.
    ClearEdge,
    /// It played all the games it may.
    Games,
    /// The check was stopped (Ctrl-C, a cancel) first.
    Interrupted,
}

impl StopReason {
    pub fn describe(self) -> &'static str {
        match self {
            StopReason::Precision => "precision reached",
            StopReason::ClearEdge => "clear edge",
            StopReason::Games => "all its games",
            StopReason::Interrupted => "interrupted",
        }
    }
}

/// A balance check.
#[derive(Clone, Debug)]
pub struct BalanceConfig {
    pub levels: Vec<Level>,
    pub stopping: Stopping,
    /// Random plies that open each round of games (none with a book).
    pub openings: u32,
    pub seed: u64,
    pub threads: usize,
    /// `(k, n)`: this shard's share of every level's games and every
    /// match's (fixed game counts only).
    pub shard: Option<(u64, u64)>,
    /// Games of each match between adjacent levels (0: no skill trace).
    pub skill_games: u64,
    /// A ply cap instead of the variant's.
    pub max_plies: Option<u32>,
    /// An opening book: every round of games, at every level and in every
    /// skill match, opens with its next line ([`Config::with_book`])
    /// instead of random plies; the report records it (and 0 openings),
    /// and a check kept in a folder resumes only with the same book.
    pub book: Option<Arc<Book>>,
}

impl BalanceConfig {
    /// Refuses what cannot run: no levels, a precision that is not a
    /// number from 0 (excluded) to 0.5, a shard with a sequential rule.
    pub fn check(&self) -> Result<(), LabError> {
        if self.levels.is_empty() {
            return Err(LabError::Invalid("no levels to play".into()));
        }
        if let Stopping::Precision {
            precision,
            max_games,
        } = self.stopping
        {
            if !(precision > 0.0 && precision <= 0.5) {
                return Err(LabError::Invalid(format!(
                    "precision {precision}: expected a half-width above 0 and at most 0.5 (0.03 is ±3 points)"
                )));
            }
            if max_games == 0 {
                return Err(LabError::Invalid("at most 0 games: nothing to play".into()));
            }
            if self.shard.is_some() {
                return Err(LabError::Invalid(
                    "a sharded check needs a fixed number of games (--games N): shards cannot share a stopping rule".into(),
                ));
            }
        }
        if self.stopping.max_games() == 0 {
            return Err(LabError::Invalid("0 games: nothing to play".into()));
        }
        Ok(())
    }

    /// The self-play run of `level` (its seed is the check's, mixed with the
    /// level's name, so levels are independent samples).
    pub fn level_config(&self, variant: &Variant, level: &Level) -> Result<Config, LabError> {
        let players = variant.player_count() as u64;
        let games = self.stopping.max_games().div_ceil(players) * players;
        let mut c = Config::new(
            variant,
            vec![level.spec.clone()],
            games,
            self.seed ^ name_salt(&level.name),
        )
        .with_threads(self.threads)
        .with_openings(self.openings);
        if let Some(cap) = self.max_plies {
            c = c.with_max_plies(cap);
        }
        if let Some((k, n)) = self.shard {
            c = c.with_shard(k, n)?;
        }
        if let Some(b) = &self.book {
            c = c.with_book(b.clone());
        }
        Ok(c)
    }

    fn level_spec(&self, lc: &Config) -> RunSpec {
        let mut spec = RunSpec::new("balance", lc.provenance(), None);
        spec.stop = Some(self.stopping.describe());
        spec
    }

    /// The match between adjacent levels `upper` (bot A) and `lower` (the
    /// check's book opens its games too).
    pub fn skill_match(&self, upper: &Level, lower: &Level) -> MatchConfig {
        MatchConfig {
            a: upper.spec.clone(),
            b: lower.spec.clone(),
            games: self.skill_games,
            seed: self.seed ^ name_salt(&upper.name) ^ name_salt(&lower.name).rotate_left(17),
            threads: self.threads,
            sprt: None,
            openings: self.openings,
            book: self.book.clone(),
        }
    }
}

/// FNV-1a of a level's name: its seed's salt.
fn name_salt(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// One level's figures.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LevelResult {
    pub level: String,
    pub bot: String,
    pub stopped: StopReason,
    /// The self-play report of the level's games: the first player's and
    /// each colour's rates, draws, ply-cap stops, length, endings.
    pub report: Report,
}

/// The strength one level adds over the level below, from their match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SkillGap {
    pub upper: String,
    pub lower: String,
    pub games: u64,
    /// The upper level's score.
    pub score: f64,
    /// The upper level's Elo advantage and its 95% interval (infinite
    /// bounds as `null`).
    pub elo: Option<f64>,
    pub elo_ci95: [Option<f64>; 2],
}

impl SkillGap {
    fn of(upper: &Level, lower: &Level, r: &MatchResult) -> SkillGap {
        let finite = |x: f64| x.is_finite().then_some(x);
        SkillGap {
            upper: upper.name.clone(),
            lower: lower.name.clone(),
            games: r.games,
            score: r.score,
            elo: finite(r.elo),
            elo_ci95: [finite(r.elo_ci95[0]), finite(r.elo_ci95[1])],
        }
    }

    /// The interval's lower bound, `-inf` where unbounded.
    fn lo(&self) -> f64 {
        self.elo_ci95[0].unwrap_or(f64::NEG_INFINITY)
    }

    fn elo_text(&self) -> String {
        let bound = |b: Option<f64>, inf: &str| b.map_or(inf.to_string(), |x| format!("{x:+.0}"));
        format!(
            "{} [{}, {}]",
            self.elo.map_or_else(
                || if self.score >= 0.5 {
                    "+inf".into()
                } else {
                    "-inf".into()
                },
                |e| format!("{e:+.0}")
            ),
            bound(self.elo_ci95[0], "-inf"),
            bound(self.elo_ci95[1], "+inf")
        )
    }
}

/// The balance report (`balance.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BalanceReport {
    pub variant: VariantId,
    pub engine_version: String,
    pub seed: u64,
    pub openings: u32,
    /// The opening book every level's and match's games open from; left
    /// out when none (reports written before books load as none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub book: Option<BookId>,
    /// The stopping rule: `precision 0.03 up to 2000 games` or `games N`.
    pub stopping: String,
    pub shard: Option<String>,
    /// Whether the variant has the pie rule.
    pub pie_rule: bool,
    pub levels: Vec<LevelResult>,
    /// Adjacent levels' matches, weakest pair first (two players only).
    pub skill: Vec<SkillGap>,
    /// The verdict, a sentence a line ([`verdict`]).
    pub verdict: Vec<String>,
    pub interrupted: bool,
}

impl BalanceReport {
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("reports serialise") + "\n"
    }
}

/// Where a check stands.
#[derive(Clone, Debug, PartialEq)]
pub enum Stage {
    /// Playing level `level` (its number from 0, of `of`).
    Level {
        level: String,
        index: usize,
        of: usize,
    },
    /// Playing the match of `upper` against `lower`.
    Skill { upper: String, lower: String },
}

impl fmt::Display for Stage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stage::Level { level, index, of } => write!(f, "level {}/{of}: {level}", index + 1),
            Stage::Skill { upper, lower } => write!(f, "skill: {upper} vs {lower}"),
        }
    }
}

/// A check's progress, shared with the thread that shows it, and its
/// cancel flag.
#[derive(Debug, Default)]
pub struct Progress {
    /// Set to stop the check: finished games are kept (and on disk).
    pub cancel: Arc<AtomicBool>,
    current: Mutex<Option<(Stage, u64, Arc<Control>)>>,
}

impl Progress {
    /// The stage, its games finished and the most it may play.
    pub fn now(&self) -> Option<(Stage, u64, u64)> {
        lock(&self.current)
            .as_ref()
            .map(|(stage, total, c)| (stage.clone(), c.done(), *total))
    }

    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::SeqCst);
    }

    fn start(&self, stage: Stage, total: u64) -> Arc<Control> {
        let control = Arc::new(Control::with_cancel(self.cancel.clone()));
        *lock(&self.current) = Some((stage, total, control.clone()));
        control
    }
}

/// Runs a balance check of `variant`, keeping every game under `out` when
/// given (a new folder, or with `resume` the check there, which then plays
/// only its missing games). `progress` shows where it is and cancels it.
pub fn run_balance(
    variant: &Variant,
    config: &BalanceConfig,
    out: Option<&Path>,
    resume: bool,
    progress: &Progress,
) -> Result<BalanceReport, LabError> {
    config.check()?;
    for level in &config.levels {
        level
            .spec
            .check(variant)
            .map_err(|e| LabError::Invalid(format!("level {}: {e}", level.name)))?;
    }
    let players = variant.player_count();
    let fair = 1.0 / players as f64;
    let mut levels = Vec::new();
    let mut interrupted = false;
    for (index, level) in config.levels.iter().enumerate() {
        let lc = config.level_config(variant, level)?;
        let c = progress.start(
            Stage::Level {
                level: level.name.clone(),
                index,
                of: config.levels.len(),
            },
            lc.planned(),
        );
        let spec = config.level_spec(&lc);
        let dir = match out {
            Some(o) => Some(open_dir(
                &o.join("levels").join(&level.name),
                &spec,
                resume,
            )?),
            None => None,
        };
        let result = play_level(variant, config, &lc, &c, dir, fair)?;
        interrupted |= result.stopped == StopReason::Interrupted;
        levels.push(LevelResult {
            level: level.name.clone(),
            bot: level.spec.to_string(),
            stopped: result.stopped,
            report: result.report,
        });
        if c.is_cancelled() {
            interrupted = true;
            break;
        }
    }
    let mut skill = Vec::new();
    if players == 2 && config.skill_games > 0 && !interrupted {
        for pair in config.levels.windows(2) {
            let (lower, upper) = (&pair[0], &pair[1]);
            let m = config.skill_match(upper, lower);
            let c = progress.start(
                Stage::Skill {
                    upper: upper.name.clone(),
                    lower: lower.name.clone(),
                },
                m.games + m.games % 2,
            );
            let dir = match out {
                Some(o) => Some(open_dir(
                    &o.join("skill")
                        .join(format!("{}-vs-{}", upper.name, lower.name)),
                    &m.run_spec(variant)?,
                    resume,
                )?),
                None => None,
            };
            let (result, report) = run_match(variant, &m, &c, dir)?;
            if report.interrupted || c.is_cancelled() {
                interrupted = true;
                break;
            }
            skill.push(SkillGap::of(upper, lower, &result));
        }
    }
    let mut report = BalanceReport {
        variant: VariantId {
            name: variant.name().to_string(),
            source_sha256: crate::source_sha256(variant.source()),
        },
        engine_version: env!("CARGO_PKG_VERSION").to_string(),
        seed: config.seed,
        openings: if config.book.is_some() {
            0
        } else {
            config.openings
        },
        book: config.book.as_ref().map(|b| b.id().clone()),
        stopping: config.stopping.describe(),
        shard: config.shard.map(|(k, n)| format!("{k}/{n}")),
        pie_rule: !matches!(variant.rules().opening, murus_dsl::rules::Opening::None),
        levels,
        skill,
        verdict: Vec::new(),
        interrupted,
    };
    report.verdict = verdict(&report);
    if let Some(o) = out {
        write_balance(o, &report)?;
    }
    Ok(report)
}

fn open_dir(path: &Path, spec: &RunSpec, resume: bool) -> Result<RunDir, LabError> {
    if resume && path.join("run.json").is_file() {
        RunDir::open_for_resume(path, spec).map(|(dir, _)| dir)
    } else {
        RunDir::create(path, spec)
    }
}

struct LevelRun {
    stopped: StopReason,
    report: Report,
}

fn play_level(
    variant: &Variant,
    config: &BalanceConfig,
    lc: &Config,
    control: &Control,
    dir: Option<RunDir>,
    fair: f64,
) -> Result<LevelRun, LabError> {
    let resumed = dir.as_ref().map(|d| d.done().to_vec()).unwrap_or_default();
    control.preload(&resumed);
    let dir = dir.map(Mutex::new);
    let deliver = Deliver {
        dir: dir.as_ref(),
        ..Deliver::default()
    };
    let players = variant.player_count() as u64;
    let first = variant.letter(0);
    let (played, mut stopped) = match config.stopping {
        Stopping::Games(_) => {
            let mut skip: Vec<u64> = resumed.iter().map(|g| g.index).collect();
            skip.sort_unstable();
            play_range(variant, lc, control, 0..lc.planned(), &skip, &deliver);
            (control.stats(), StopReason::Games)
        }
        Stopping::Precision { .. } => {
            let mut reason = StopReason::Games;
            let run = play_sequential(variant, lc, control, &resumed, &deliver, players, |p| {
                let wins = p.iter().filter(|g| g.winner == Some(first)).count() as u64;
                match config.stopping.decided(wins, p.len() as u64, fair) {
                    Some(r) => {
                        reason = r;
                        true
                    }
                    None => false,
                }
            });
            if run.decided
                && let Some(d) = &dir
            {
                lock(d).drop_from(run.next);
            }
            (run.played, reason)
        }
    };
    if let Some(e) = control.take_error() {
        return Err(e);
    }
    let cut_short = control.is_cancelled()
        && stopped == StopReason::Games
        && (played.len() as u64) < lc.planned();
    if cut_short {
        stopped = StopReason::Interrupted;
    }
    let mut report = lc.report(&played);
    report.interrupted = cut_short;
    if let Some(d) = dir {
        d.into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .finish(&report)?;
    }
    Ok(LevelRun { stopped, report })
}

/// Writes `balance.json` (and the table, `balance.csv`) into `out`.
pub fn write_balance(out: &Path, report: &BalanceReport) -> Result<(), LabError> {
    // Each file through a temporary one renamed into place: a kill leaves
    // the old file or the new, never a torn one.
    let write = |name: &str, text: String| -> Result<(), LabError> {
        crate::rundir::write_atomic(&out.join(name), &text)
    };
    write("balance.json", report.to_json())?;
    write("balance.svg", crate::charts::balance_svg(report))?;
    write("balance.csv", to_csv(report))
}

/// One row a level: the first player's rate and interval, each colour's
/// rate, draws, ply-cap stops, mean length, and the stop reason.
pub fn to_csv(report: &BalanceReport) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    let colours: Vec<String> = report
        .levels
        .first()
        .map(|l| l.report.by_colour.keys().cloned().collect())
        .unwrap_or_default();
    let mut header: Vec<String> = [
        "level",
        "bot",
        "games",
        "first_player",
        "first_player_lo",
        "first_player_hi",
    ]
    .map(String::from)
    .to_vec();
    header.extend(colours.iter().map(|c| format!("colour_{c}")));
    header.extend(
        ["draws", "ply_cap", "mean_plies", "stopped"]
            .map(String::from)
            .to_vec(),
    );
    // The game-quality metrics, after the columns above.
    header.extend(
        Metrics::default()
            .rows()
            .into_iter()
            .map(|(k, _)| format!("metrics_{k}")),
    );
    w.write_record(&header).expect("writes to memory");
    for l in &report.levels {
        let r = &l.report;
        let f = &r.first_player_advantage;
        let mut row = vec![
            l.level.clone(),
            l.bot.clone(),
            r.games.to_string(),
            format!("{:.4}", f.rate),
            format!("{:.4}", f.ci95[0]),
            format!("{:.4}", f.ci95[1]),
        ];
        row.extend(
            colours
                .iter()
                .map(|c| format!("{:.4}", r.by_colour.get(c).map_or(0.0, |x| x.rate))),
        );
        row.extend([
            format!("{:.4}", r.draws.rate),
            format!("{:.4}", r.ply_cap.rate),
            format!("{:.1}", r.length.mean),
            format!("{:?}", l.stopped).to_lowercase(),
        ]);
        row.extend(r.metrics.rows().into_iter().map(|(_, v)| v));
        w.write_record(&row).expect("writes to memory");
    }
    String::from_utf8(w.into_inner().expect("flushes to memory")).expect("csv is UTF-8")
}

/// A share of games above which one way of ending is flagged.
pub const DOMINANT_ENDING: f64 = 0.9;
/// A share of games drawn (by repetition or the rules) that is flagged.
pub const DRAWISH: f64 = 0.5;
/// A share of games stopped by the ply cap that is flagged.
pub const CAPPED: f64 = 0.1;

/// The verdict, one sentence a line, each by a rule of `docs/balance.md`:
///
/// 1. **Edge per level**, strongest level first: the first player's rate
///    and the 95% interval's half-width; "a significant advantage" when the
///    interval lies above the fair rate, "a significant disadvantage" below
///    it, "no significant edge" when it holds the fair rate.
/// 2. **Skill-dependence**: when the levels disagree (an edge at one, none
///    or the other at another), "Fairness depends on skill."
/// 3. **Remedy**: a significant edge at the strongest level of a
///    two-player variant without the pie rule, that level being one that
///    plays (not `random`): "Consider the pie rule."
/// 4. **Skill trace**: each adjacent match whose interval holds 0 says
///    that step adds no measurable strength; when every step adds strength,
///    one sentence says so; when the last does not, "skill stops
///    mattering" above the level before it.
/// 5. **Extremes**, per level: draws other than the ply cap's above
///    [`DRAWISH`], ply-cap stops above
///    [`CAPPED`], and one ending (other than a breakthrough) above
///    [`DOMINANT_ENDING`] of the games.
/// 6. **Game quality**, per level: each game-quality metric outside its
///    documented bound ([`Metrics::extremes`]), as "At LEVEL, …".
pub fn verdict(report: &BalanceReport) -> Vec<String> {
    let mut out = Vec::new();
    #[derive(PartialEq, Clone, Copy)]
    enum Edge {
        Advantage,
        Disadvantage,
        None,
    }
    let mut edges = Vec::new();
    for l in report.levels.iter().rev() {
        let f = &l.report.first_player_advantage;
        if l.report.games == 0 {
            continue;
        }
        let half = (f.ci95[1] - f.ci95[0]) / 2.0 * 100.0;
        let edge = if f.ci95[0] > f.fair {
            Edge::Advantage
        } else if f.ci95[1] < f.fair {
            Edge::Disadvantage
        } else {
            Edge::None
        };
        edges.push(edge);
        let words = match edge {
            Edge::Advantage => "a significant advantage",
            Edge::Disadvantage => "a significant disadvantage",
            Edge::None => "no significant edge",
        };
        out.push(format!(
            "At {}, the first player wins {:.1}% ± {half:.1}: {words}.",
            l.level,
            f.rate * 100.0,
        ));
    }
    if edges.windows(2).any(|w| w[0] != w[1]) {
        out.push("Fairness depends on skill.".into());
    }
    let players = report.levels.first().map_or(0, |l| l.report.players.len());
    let strongest = report.levels.iter().rev().find(|l| l.report.games > 0);
    if players == 2
        && !report.pie_rule
        && strongest.is_some_and(|l| l.level != "random")
        && edges.first().is_some_and(|e| *e != Edge::None)
    {
        out.push("Consider the pie rule.".into());
    }
    if !report.skill.is_empty() {
        let flat: Vec<&SkillGap> = report.skill.iter().filter(|g| g.lo() <= 0.0).collect();
        if flat.is_empty() {
            let gaps: Vec<String> = report
                .skill
                .iter()
                .map(|g| format!("{} over {} {}", g.upper, g.lower, g.elo_text()))
                .collect();
            out.push(format!(
                "Skill matters at every step: {} Elo.",
                gaps.join(", ")
            ));
        } else {
            for g in &flat {
                out.push(format!(
                    "{} adds no measurable strength over {}: {} Elo.",
                    capitalise(&g.upper),
                    g.lower,
                    g.elo_text()
                ));
            }
            if let Some(last) = report.skill.last()
                && last.lo() <= 0.0
            {
                out.push(format!(
                    "Skill stops mattering above {}: the strongest levels play alike.",
                    last.lower
                ));
            }
        }
    }
    for l in &report.levels {
        let r = &l.report;
        if r.games == 0 {
            continue;
        }
        // Draws the rules made (repetition, a stalemate that draws), not
        // the ply cap's stops.
        let drawn = r.draws.count.saturating_sub(r.ply_cap.count) as f64 / r.games as f64;
        if drawn > DRAWISH {
            out.push(format!(
                "At {}, {} of games are drawn.",
                l.level,
                percent(drawn)
            ));
        }
        if r.ply_cap.rate > CAPPED {
            out.push(format!(
                "At {}, {} of games hit the ply cap of {} plies: the game may not finish.",
                l.level,
                percent(r.ply_cap.rate),
                r.max_plies
            ));
        }
        for (reason, &count) in &r.end_reasons {
            let share = count as f64 / r.games as f64;
            if share > DOMINANT_ENDING && !reason.starts_with("breakthrough") && reason != "ply-cap"
            {
                out.push(format!(
                    "At {}, {} of games end by {}.",
                    l.level,
                    percent(share),
                    reason.replace('-', " ")
                ));
            }
        }
    }
    for l in report.levels.iter().filter(|l| l.report.games > 0) {
        for e in l.report.metrics.extremes() {
            out.push(format!("At {}, {e}.", l.level));
        }
    }
    out
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    c.next().map_or_else(String::new, |f| {
        f.to_uppercase().collect::<String>() + c.as_str()
    })
}

// ---------------------------------------------------------------------------
// Merging the shards of a check (`murus balance --merge`).

/// Merges the `--out` folders of a sharded check (`--shard K/N`, one
/// folder a shard) into the report of the whole check, and with `out`
/// writes it there as a check would (`balance.json`, `.csv`, `.svg`, and
/// each level's and match's merged games and report, without `run.json`).
///
/// Every game is seeded by its number alone, so the merged report is the
/// one an unsharded check of the same options gives, byte for byte, once
/// every shard is there; with shards missing it covers the games present
/// (each level's report says how many of how many). The folders must be
/// shards (each with `balance.json`) of one check: the same variant,
/// engine, seed, openings, stopping rule, levels and matches, split the
/// same way (the same N), each shard once; anything else is refused,
/// naming the difference.
pub fn merge_balance(dirs: &[&Path], out: Option<&Path>) -> Result<BalanceReport, LabError> {
    let Some(first_dir) = dirs.first() else {
        return Err(LabError::Invalid("nothing to merge".into()));
    };
    for d in dirs {
        if !d.join("balance.json").is_file() {
            return Err(LabError::Invalid(format!(
                "{}: no balance.json: not the --out folder of a check's shard that ran to its end (resume it with --resume)",
                d.display()
            )));
        }
    }
    let shards: Vec<BalanceReport> = dirs
        .iter()
        .map(|d| read_balance(d))
        .collect::<Result<_, _>>()?;
    let base = &shards[0];
    let texts: Vec<Option<&str>> = shards.iter().map(|s| s.shard.as_deref()).collect();
    crate::rundir::check_shard_set(dirs, &texts, "check").map_err(LabError::Invalid)?;
    for (dir, shard) in dirs.iter().zip(&shards) {
        let differences = check_differences(base, shard);
        if !differences.is_empty() {
            return Err(LabError::Invalid(format!(
                "{} is not a shard of the same check as {}: {}",
                dir.display(),
                first_dir.display(),
                differences.join("; ")
            )));
        }
    }
    let folders = |sub: &Path| -> Vec<PathBuf> { dirs.iter().map(|d| d.join(sub)).collect() };
    let merged_run = |sub: &Path| -> Result<(Report, Vec<crate::GameResult>), LabError> {
        let paths = folders(sub);
        let refs: Vec<&Path> = paths.iter().map(PathBuf::as_path).collect();
        let (report, games) = crate::rundir::merge(&refs)?;
        if let Some(o) = out {
            crate::rundir::write_outputs(&o.join(sub), &report, &games)?;
        }
        Ok((report, games))
    };
    let mut interrupted = shards.iter().any(|s| s.interrupted);
    let mut levels = Vec::new();
    for l in &base.levels {
        let (report, _) = merged_run(&Path::new("levels").join(&l.level))?;
        interrupted |= report.interrupted;
        levels.push(LevelResult {
            level: l.level.clone(),
            bot: l.bot.clone(),
            stopped: if report.interrupted {
                StopReason::Interrupted
            } else {
                StopReason::Games
            },
            report,
        });
    }
    let mut skill = Vec::new();
    for pair in base.levels.windows(2) {
        let (lower, upper) = (&pair[0].level, &pair[1].level);
        let sub = Path::new("skill").join(format!("{upper}-vs-{lower}"));
        let present: Vec<bool> = folders(&sub).iter().map(|p| p.is_dir()).collect();
        if !present.iter().any(|&p| p) {
            continue;
        }
        if let Some(i) = present.iter().position(|&p| !p) {
            return Err(LabError::Invalid(format!(
                "{}: no {} folder, which other shards have: not a shard of the same check (or it was interrupted before its matches; resume it)",
                dirs[i].display(),
                sub.display()
            )));
        }
        let (report, games) = merged_run(&sub)?;
        interrupted |= report.interrupted;
        skill.push(skill_gap_of(upper, lower, &games));
    }
    let mut report = BalanceReport {
        shard: None,
        levels,
        skill,
        verdict: Vec::new(),
        interrupted,
        ..base.clone()
    };
    report.verdict = verdict(&report);
    if let Some(o) = out {
        write_balance(o, &report)?;
    }
    Ok(report)
}

/// Reads `DIR/balance.json`.
pub fn read_balance(dir: &Path) -> Result<BalanceReport, LabError> {
    let path = dir.join("balance.json");
    let text = std::fs::read_to_string(&path).map_err(|source| LabError::Io {
        path: path.display().to_string(),
        source,
    })?;
    serde_json::from_str(&text).map_err(|e| LabError::Parse {
        path: path.display().to_string(),
        line: e.line(),
        message: format!("not a balance report: {e}"),
    })
}

/// One sentence per setting in which shard `b` differs from shard `a`
/// (their shard numbers aside): `seed 1 there, 2 here`.
fn check_differences(a: &BalanceReport, b: &BalanceReport) -> Vec<String> {
    let levels = |r: &BalanceReport| {
        r.levels
            .iter()
            .map(|l| format!("{} ({})", l.level, l.bot))
            .collect::<Vec<_>>()
            .join(", ")
    };
    [
        ("variant", a.variant.name.clone(), b.variant.name.clone()),
        (
            "variant source sha256 (the rules differ)",
            a.variant.source_sha256.clone(),
            b.variant.source_sha256.clone(),
        ),
        (
            "engine version",
            a.engine_version.clone(),
            b.engine_version.clone(),
        ),
        ("seed", a.seed.to_string(), b.seed.to_string()),
        ("openings", a.openings.to_string(), b.openings.to_string()),
        (
            "opening book",
            BookId::describe_or_none(a.book.as_ref()),
            BookId::describe_or_none(b.book.as_ref()),
        ),
        ("stopping rule", a.stopping.clone(), b.stopping.clone()),
        ("levels", levels(a), levels(b)),
    ]
    .into_iter()
    .filter(|(_, x, y)| x != y)
    .map(|(name, x, y)| format!("{name} {x} there, {y} here"))
    .collect()
}

/// The skill gap of `upper` (seat 0, bot A of the match) over `lower` from
/// the match's games, as [`crate::run_match`] reports it.
fn skill_gap_of(upper: &str, lower: &str, games: &[crate::GameResult]) -> SkillGap {
    let mut w = crate::Wdl::default();
    for g in games {
        match g.stats.winner_seat {
            Some(0) => w.wins += 1,
            Some(_) => w.losses += 1,
            None => w.draws += 1,
        }
    }
    let (elo, (lo, hi)) = w.elo();
    // The rounding of `MatchResult`.
    let r = |x: f64| (x * 100.0).round() / 100.0;
    let finite = |x: f64| x.is_finite().then_some(x);
    SkillGap {
        upper: upper.to_string(),
        lower: lower.to_string(),
        games: w.games(),
        score: (w.score() * 1e6).round() / 1e6,
        elo: finite(r(elo)),
        elo_ci95: [finite(r(lo)), finite(r(hi))],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{GameStats, Provenance, build};
    use murus_engine::Reason;

    /// A level of `first` first-player wins, `second` second-player wins
    /// (both by breakthrough), `drawn` repetition draws and `capped`
    /// ply-cap stops.
    fn level(name: &str, first: u64, second: u64, drawn: u64, capped: u64) -> LevelResult {
        let mut games = Vec::new();
        let mut push = |winner: Option<char>, reason: Reason| {
            games.push(GameStats {
                index: games.len() as u64,
                winner,
                winner_seat: winner.map(|c| usize::from(c == 'g')),
                reason,
                plies: 40,
                branching_sum: 400,
                branching_max: 20,
                forced: 0,
                lead_changes: 0,
                leader_at_three_quarters: None,
                metrics: None,
            });
        };
        (0..first).for_each(|_| push(Some('r'), Reason::BreakthroughSow));
        (0..second).for_each(|_| push(Some('g'), Reason::BreakthroughSow));
        (0..drawn).for_each(|_| push(None, Reason::Repetition));
        (0..capped).for_each(|_| push(None, Reason::PlyCap));
        let prov = Provenance {
            variant: VariantId {
                name: "test".into(),
                source_sha256: String::new(),
            },
            engine_version: String::new(),
            bots: vec!["random".into(), "random".into()],
            seed: 1,
            requested: games.len() as u64,
            max_plies: 300,
            openings: 0,
            book: None,
            shard: None,
            players: vec!['r', 'g'],
        };
        LevelResult {
            level: name.into(),
            bot: name.into(),
            stopped: StopReason::Games,
            report: build(&prov, &games),
        }
    }

    fn report(levels: Vec<LevelResult>, skill: Vec<SkillGap>, pie_rule: bool) -> BalanceReport {
        BalanceReport {
            variant: VariantId {
                name: "test".into(),
                source_sha256: String::new(),
            },
            engine_version: String::new(),
            seed: 1,
            openings: 0,
            book: None,
            stopping: "games".into(),
            shard: None,
            pie_rule,
            levels,
            skill,
            verdict: Vec::new(),
            interrupted: false,
        }
    }

    fn gap(upper: &str, lower: &str, elo: f64, lo: f64, hi: f64) -> SkillGap {
        SkillGap {
            upper: upper.into(),
            lower: lower.into(),
            games: 100,
            score: 0.6,
            elo: Some(elo),
            elo_ci95: [Some(lo), Some(hi)],
        }
    }

    #[test]
    fn an_edge_at_the_top_that_random_play_lacks_asks_for_the_pie_rule() {
        let r = report(
            vec![
                level("random", 447, 553, 0, 0),
                level("hard", 568, 432, 0, 0),
            ],
            vec![gap("hard", "random", 800.0, 600.0, 1100.0)],
            false,
        );
        let v = verdict(&r);
        assert_eq!(
            v,
            [
                "At hard, the first player wins 56.8% ± 3.1: a significant advantage.",
                "At random, the first player wins 44.7% ± 3.1: a significant disadvantage.",
                "Fairness depends on skill.",
                "Consider the pie rule.",
                "Skill matters at every step: hard over random +800 [+600, +1100] Elo.",
            ]
        );
        // Random play alone is no ground for a remedy.
        let random_only = report(vec![level("random", 447, 553, 0, 0)], Vec::new(), false);
        assert!(!verdict(&random_only).iter().any(|s| s.contains("pie")));
        // With the pie rule already there, no remedy is suggested.
        let r = report(r.levels.clone(), r.skill.clone(), true);
        assert!(!verdict(&r).iter().any(|s| s.contains("pie")));
    }

    #[test]
    fn a_fair_game_at_every_level_says_so_and_nothing_more() {
        let r = report(
            vec![
                level("random", 250, 250, 0, 0),
                level("easy", 245, 255, 0, 0),
            ],
            Vec::new(),
            false,
        );
        assert_eq!(
            verdict(&r),
            [
                "At easy, the first player wins 49.0% ± 4.4: no significant edge.",
                "At random, the first player wins 50.0% ± 4.4: no significant edge.",
            ]
        );
    }

    #[test]
    fn a_flat_skill_step_and_extremes_are_named() {
        let r = report(
            vec![
                level("medium", 100, 100, 0, 0),
                level("hard", 20, 20, 140, 20),
            ],
            vec![gap("hard", "medium", 20.0, -40.0, 80.0)],
            false,
        );
        let v = verdict(&r);
        assert!(
            v.contains(
                &"Hard adds no measurable strength over medium: +20 [-40, +80] Elo.".to_string()
            ),
            "{v:?}"
        );
        assert!(
            v.contains(
                &"Skill stops mattering above medium: the strongest levels play alike.".to_string()
            ),
            "{v:?}"
        );
        assert!(
            v.contains(&"At hard, 70.0% of games are drawn.".to_string()),
            "{v:?}"
        );
        // 10% capped is not above the threshold.
        assert!(!v.iter().any(|s| s.contains("ply cap")), "{v:?}");
        assert!(
            !v.iter()
                .any(|s| s.starts_with("At medium, ") && s.contains("drawn")),
            "{v:?}"
        );
    }

    #[test]
    fn a_capped_level_and_a_dominant_ending_are_flagged() {
        let mut l = level("random", 10, 10, 0, 30);
        let v = verdict(&report(vec![l.clone()], Vec::new(), false));
        assert!(
            v.contains(
                &"At random, 60.0% of games hit the ply cap of 300 plies: the game may not finish."
                    .to_string()
            ),
            "{v:?}"
        );
        // Stalemates by the dozen: 95 of 100 games.
        l.report.end_reasons = [
            ("stalemate".to_string(), 95),
            ("breakthrough-sow".to_string(), 5),
        ]
        .into_iter()
        .collect();
        l.report.games = 100;
        let v = verdict(&report(vec![l], Vec::new(), false));
        assert!(
            v.contains(&"At random, 95.0% of games end by stalemate.".to_string()),
            "{v:?}"
        );
    }

    #[test]
    fn game_quality_extremes_are_named_per_level_after_the_other_rules() {
        // A 6x6 variant's random games: 12 plies where 40 to 120 would
        // be ideal, and the winner never behind.
        let mut random = level("random", 50, 50, 0, 0);
        let m = &mut random.report.metrics;
        m.duration.mean = 12.0;
        m.duration.ideal = Some([40.0, 120.0]);
        m.drama = Some(0.0);
        let easy = level("easy", 50, 50, 0, 0);
        let v = verdict(&report(vec![random, easy], Vec::new(), false));
        assert_eq!(
            v[2..],
            [
                "At random, games last 12.0 plies on average, far below the ideal band of 40–120 plies for their branching.",
                "At random, drama is 0.000: the eventual winner almost never trails, so games have no comebacks.",
            ]
        );
        assert!(
            v[..2].iter().all(|s| s.contains("the first player wins")),
            "{v:?}"
        );
        // Without figures (games recorded before the metrics), nothing is
        // judged.
        let plain = verdict(&report(
            vec![level("random", 50, 50, 0, 0)],
            Vec::new(),
            false,
        ));
        assert_eq!(plain.len(), 1, "{plain:?}");
    }

    #[test]
    fn the_balance_table_ends_with_the_metrics_columns() {
        let mut l = level("random", 50, 50, 0, 0);
        l.report.metrics.drama = Some(0.125);
        let csv = to_csv(&report(
            vec![l, level("easy", 40, 60, 0, 0)],
            Vec::new(),
            false,
        ));
        let rows: Vec<csv::StringRecord> = csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(csv.as_bytes())
            .records()
            .map(Result::unwrap)
            .collect();
        assert_eq!(rows.len(), 3);
        assert!(rows.iter().all(|r| r.len() == rows[0].len()));
        let col = |name: &str| rows[0].iter().position(|h| h == name).unwrap();
        assert!(col("stopped") < col("metrics_completion"));
        assert_eq!(&rows[1][col("metrics_drama")], "0.125");
        assert_eq!(&rows[2][col("metrics_drama")], "", "no figure, no value");
        assert_eq!(&rows[1][col("metrics_completion")], "1");
    }

    #[test]
    fn the_stopping_rule_stops_for_precision_or_a_clear_edge_and_not_before() {
        let s = Stopping::Precision {
            precision: 0.04,
            max_games: 5000,
        };
        // ±4 points at 50% needs about 600 games.
        assert_eq!(s.decided(295, 590, 0.5), None);
        assert_eq!(s.decided(305, 610, 0.5), Some(StopReason::Precision));
        // A clear edge stops early, but never before 100 games…
        assert_eq!(s.decided(90, 98, 0.5), None);
        assert_eq!(s.decided(80, 100, 0.5), Some(StopReason::ClearEdge));
        // …and only when the z = 3 interval excludes the fair rate: 60%
        // of 100 games is not enough (95% would have said it is).
        let (lo, _) = crate::stats::wilson(60, 100);
        assert!(lo > 0.5);
        assert_eq!(s.decided(60, 100, 0.5), None);
        assert_eq!(Stopping::Games(10).decided(10, 10, 0.5), None);
    }

    #[test]
    fn levels_parse_in_order_and_unknown_ones_are_refused() {
        let l = parse_levels("hard,random").unwrap();
        assert_eq!(
            l.iter().map(|l| l.name.as_str()).collect::<Vec<_>>(),
            ["random", "hard"]
        );
        let e = parse_levels("random,grandmaster").unwrap_err().to_string();
        assert_eq!(
            e,
            "unknown level `grandmaster`: expected some of random, easy, medium, hard, expert"
        );
        assert!(parse_levels("easy,easy").is_err());
    }

    #[test]
    fn a_sequential_level_is_reproducible_and_resumes_to_the_same_games() {
        let v = Variant::standard();
        let config = BalanceConfig {
            levels: parse_levels("random").unwrap(),
            stopping: Stopping::Precision {
                precision: 0.1,
                max_games: 400,
            },
            openings: 2,
            seed: 3,
            threads: 2,
            shard: None,
            skill_games: 0,
            max_plies: None,
            book: None,
        };
        let one = run_balance(&v, &config, None, false, &Progress::default()).unwrap();
        let single = BalanceConfig {
            threads: 1,
            ..config.clone()
        };
        let two = run_balance(&v, &single, None, false, &Progress::default()).unwrap();
        assert_eq!(one, two, "threads change nothing");
        let l = &one.levels[0];
        assert_eq!(l.stopped, StopReason::Precision);
        // ±10 points needs about 96 games: stopped at the first round there.
        assert!((90..=100).contains(&l.report.games), "{}", l.report.games);
        // Kept on disk, and a second run in the same folder resumes to the
        // same report without playing anything.
        let dir = std::env::temp_dir().join(format!("murus-balance-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let kept = run_balance(&v, &config, Some(&dir), false, &Progress::default()).unwrap();
        assert_eq!(kept, one);
        let again = run_balance(&v, &config, Some(&dir), true, &Progress::default()).unwrap();
        assert_eq!(again, one);
        assert!(dir.join("balance.json").is_file());
        assert!(dir.join("levels/random/report.json").is_file());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
