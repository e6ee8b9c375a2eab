//! `murus analyze`: the best move and line of a position, its score, and
//! with `--multipv` the K best moves; with `--game FILE`, a whole game
//! reviewed and written back as an annotated record (`murus_ai::review`).

use std::io::{self, Write};
use std::path::PathBuf;

use anyhow::{Context, Result, anyhow, bail};
use clap::Args;
use murus_ai::BotSpec;
use murus_ai::EvalRef;
use murus_ai::analysis::{Analyser, Limits, Score};
use murus_engine::{Move, Variant};
use serde::{Serialize, Serializer};

use murus_ai::review;

use crate::answer::{self, Answer};
use crate::load::{game_to_search, load_variant};

/// `murus analyze`'s arguments.
#[derive(Args)]
pub struct AnalyzeArgs {
    /// A `.mg` file or a shipped variant's name (with --game: the variant of
    /// a record whose rules are neither shipped nor embedded).
    #[arg(required_unless_present = "game")]
    pub variant: Option<String>,
    /// Review a whole game: a record file (`.mgn`, or JSON), written back
    /// annotated: the score after each move, `??` on blunders with the
    /// better line as a variation. Each position gets the search budget.
    #[arg(long, conflicts_with_all = ["position", "moves", "multipv", "json"])]
    pub game: Option<String>,
    /// With --game: write the annotated record here instead of stdout.
    #[arg(long, requires = "game")]
    pub out: Option<PathBuf>,
    /// With --out: replace the file if it exists.
    #[arg(long, requires = "out")]
    pub force: bool,
    /// A position string (default: the start).
    #[arg(long)]
    pub position: Option<String>,
    /// Moves played from the position, in notation.
    #[arg(long, num_args = 1..)]
    pub moves: Vec<String>,
    /// The budget as a bot: a level (`easy`, `medium`, `hard`, `expert`)
    /// or `alphabeta:NODES`; default `hard`. `easy` (`greedy`) looks one ply
    /// ahead, as that bot does.
    #[arg(long, conflicts_with = "movetime")]
    pub bot: Option<String>,
    /// Think for this many milliseconds instead of a node budget.
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Search no deeper than this many plies.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Show the K best moves, each with its score and line.
    #[arg(long)]
    pub multipv: Option<usize>,
    /// Search threads (Lazy SMP: helpers share the table and the main
    /// search answers sooner deeper). Above 1 a search is not
    /// reproducible; a node budget counts the main search's nodes.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    #[arg(long)]
    pub json: bool,
}

/// `murus analyze`'s answer.
#[derive(Serialize)]
pub struct Analysis {
    /// The best move.
    pub best: String,
    #[serde(serialize_with = "score_json")]
    pub score: Score,
    /// The deepest finished iteration.
    pub depth: u32,
    pub nodes: u64,
    /// The principal variation, the best move first.
    pub pv: Vec<String>,
    /// The K best moves, best first.
    pub lines: Vec<Line>,
    /// The evaluation the search used.
    pub evaluation: EvaluationId,
    /// How many lines the text shows (one: none but the best).
    #[serde(skip)]
    pub multipv: usize,
}

/// Which evaluation a search used: `generic`, or the digest of a trained
/// one, and a line about it.
#[derive(Serialize)]
pub struct EvaluationId {
    pub id: String,
    pub summary: String,
}

/// One of the best moves, with its score and line.
#[derive(Serialize)]
pub struct Line {
    #[serde(rename = "move")]
    pub first: String,
    #[serde(serialize_with = "score_json")]
    pub score: Score,
    pub pv: Vec<String>,
}

/// A score as JSON: `{"cp": N}`, `{"win": N}` or `{"loss": N}`.
fn score_json<S: Serializer>(score: &Score, s: S) -> Result<S::Ok, S::Error> {
    #[derive(Serialize)]
    #[serde(rename_all = "lowercase")]
    enum Tagged {
        Cp(i32),
        Win(u32),
        Loss(u32),
    }
    match *score {
        Score::Cp(n) => Tagged::Cp(n),
        Score::Win(n) => Tagged::Win(n),
        Score::Loss(n) => Tagged::Loss(n),
    }
    .serialize(s)
}

/// `murus analyze`: a finished game (after `--moves`) is an error saying
/// so, since it has no move to name.
pub fn analyze(a: &AnalyzeArgs) -> Result<Analysis> {
    let multipv = a.multipv.unwrap_or(1);
    if multipv == 0 {
        bail!("--multipv must be at least 1");
    }
    let (limits, eval) = budget(a)?;
    let spec = a
        .variant
        .as_deref()
        .expect("clap asks for VARIANT without --game");
    let v = &load_variant(spec)?;
    let mut analyser = analyser(v, eval, a.threads)?;
    let game = game_to_search(v, a.position.as_deref(), &a.moves)?;
    let seed = v.hash(game.position());
    let found = analyser
        .analyse_lines(&game, limits, multipv, seed, &())
        .ok_or_else(|| anyhow!("no move to analyse"))?;
    let evaluation = analyser.evaluation(v);
    let text = |ms: &[Move]| -> Vec<String> { notation(v, ms) };
    Ok(Analysis {
        best: v.move_to_string(found.best),
        score: found.score,
        depth: found.depth,
        nodes: found.nodes,
        pv: text(&found.pv),
        lines: found
            .lines
            .iter()
            .map(|l| Line {
                first: v.move_to_string(l.first),
                score: l.score,
                pv: text(&l.pv),
            })
            .collect(),
        evaluation: EvaluationId {
            id: evaluation.id(),
            summary: evaluation.summary(),
        },
        multipv,
    })
}

/// An analyser for `v` on `threads` threads, with the evaluation file of
/// `--bot` if any.
fn analyser(v: &Variant, eval: Option<EvalRef>, threads: usize) -> Result<Analyser> {
    if threads == 0 {
        bail!("--threads must be at least 1");
    }
    let mut analyser = Analyser::new(64);
    analyser.set_threads(threads);
    if let Some(file) = eval {
        let e = file.evaluation_for(v).map_err(|e| anyhow!("--bot: {e}"))?;
        analyser.set_evaluation(Some(e));
    }
    Ok(analyser)
}

/// The search budget of `--bot`, `--movetime` and `--depth`.
fn budget(a: &AnalyzeArgs) -> Result<(Limits, Option<EvalRef>)> {
    let mut limits = Limits {
        depth: a.depth,
        ..Limits::default()
    };
    if a.depth.is_some_and(|d| !(1..=64).contains(&d)) {
        bail!("--depth must be from 1 to 64");
    }
    let mut eval = None;
    match a.movetime {
        Some(0) => bail!("--movetime must be at least 1 ms"),
        Some(ms) => limits.time = Some(std::time::Duration::from_millis(ms)),
        None => {
            let text = a.bot.as_deref().unwrap_or("hard");
            match text.parse::<BotSpec>().context("--bot")? {
                BotSpec::AlphaBeta { nodes, eval: file } => {
                    limits.nodes = Some(nodes);
                    eval = file;
                }
                // The greedy bot's move: the best evaluation one ply ahead.
                BotSpec::Greedy => limits.depth = Some(1),
                _ => bail!(
                    "--bot {text}: analysis searches with alpha-beta: give a level (easy, medium, hard, expert), alphabeta:NODES, or --movetime MS"
                ),
            }
        }
    }
    Ok((limits, eval))
}

/// Moves in notation.
fn notation(v: &Variant, moves: &[Move]) -> Vec<String> {
    moves.iter().map(|&m| v.move_to_string(m)).collect()
}

impl Answer for Analysis {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(out, "best   {}", self.best)?;
        writeln!(out, "score  {}", self.score)?;
        writeln!(out, "depth  {}", self.depth)?;
        writeln!(out, "nodes  {}", self.nodes)?;
        writeln!(out, "pv     {}", self.pv.join(" "))?;
        writeln!(out, "eval   {}", self.evaluation.summary)?;
        if self.multipv > 1 {
            for (i, l) in self.lines.iter().enumerate() {
                writeln!(
                    out,
                    "{:>2}. {:<10} {:<10} {}",
                    i + 1,
                    l.first,
                    l.score.to_string(),
                    l.pv.join(" ")
                )?;
            }
        }
        Ok(())
    }

    /// Indented, as it always was.
    fn json(&self, out: &mut dyn Write) -> io::Result<()> {
        answer::json_pretty(self, out)
    }
}

/// `murus analyze --game`'s answer: the annotated record.
#[derive(Serialize)]
pub struct Reviewed {
    /// The record in the record format.
    pub record: String,
    /// Where it was written, with --out.
    #[serde(skip)]
    pub wrote: Option<PathBuf>,
    /// Positions searched and blunders marked, for stderr.
    #[serde(skip)]
    pub summary: String,
}

/// `murus analyze --game`: every position of the record's main line
/// searched, the record written back annotated.
pub fn game(a: &AnalyzeArgs) -> Result<Reviewed> {
    let file = a.game.as_deref().expect("called with --game");
    let (limits, eval) = budget(a)?;
    let fallback = a.variant.as_deref().map(load_variant).transpose()?;
    let (mut record, v) = crate::record::load(file, fallback.as_ref())?;
    let game = record.replay(&v).with_context(|| format!("`{file}`"))?;
    let mut analyser = analyser(&v, eval, a.threads)?;
    let review = review::review_line(&mut analyser, &v, *game.start(), game.moves(), limits, &());
    let before: usize = record
        .moves
        .iter()
        .filter(|m| m.glyph == Some(murus_engine::Glyph::Blunder))
        .count();
    review::annotate(&mut record, &v, &review);
    // A game the rules ended says so, where the record left it open.
    if record.result.is_none() {
        record.result = game.record().result;
    }
    let after = record
        .moves
        .iter()
        .filter(|m| m.glyph == Some(murus_engine::Glyph::Blunder))
        .count();
    let text = record.write(&v);
    if let Some(path) = &a.out {
        if path.exists() && !a.force {
            bail!("`{}` exists: give --force to replace it", path.display());
        }
        murus_engine::util::write_atomic(path, text.as_bytes())?;
    }
    Ok(Reviewed {
        record: text,
        wrote: a.out.clone(),
        summary: format!(
            "reviewed {} positions; {} blunders marked\n",
            review.len(),
            after.saturating_sub(before)
        ),
    })
}

impl Answer for Reviewed {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        if self.wrote.is_none() {
            out.write_all(self.record.as_bytes())?;
        }
        Ok(())
    }

    fn notes(&self) -> String {
        match &self.wrote {
            Some(p) => format!("{}wrote {}\n", self.summary, p.display()),
            None => self.summary.clone(),
        }
    }
}
