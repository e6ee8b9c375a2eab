//! A self-play run's settings and the setup of each of its games.

use std::sync::Arc;

use murus_ai::{BotSpec, Evaluation};
use murus_engine::Variant;

use crate::book::Book;
use crate::error::LabError;
use crate::folder::RunSpec;
use crate::metrics::{CLARITY_SAMPLE, RANDOM_FULL_ROUNDS, RANDOM_ROUNDS};
use crate::play::{GameSetup, Measure};
use crate::record::{GameStats, Provenance, VariantId};
use crate::report::{self, Report};
use crate::seeds::{OPENING_SALT, game_seed};

/// A self-play run.
#[derive(Clone, Debug)]
pub struct Config {
    /// Bot per seat (a shorter list repeats to fill every seat).
    pub bots: Vec<BotSpec>,
    pub games: u64,
    pub seed: u64,
    pub threads: usize,
    pub max_plies: u32,
    /// `(k, n)`: play only games with `index % n == k - 1`.
    pub shard: Option<(u64, u64)>,
    /// Write every game's moves down (default); off, games keep only their
    /// statistics, which is faster. A run kept in a [`crate::RunDir`] always
    /// writes them.
    pub record_moves: bool,
    /// Measure the games' quality (default): the game-quality metrics and
    /// the evaluation's leader, in every game or in a sample of them
    /// ([`Config::setup`]). Off, no game is measured (reports have no
    /// metrics and no lead changes): what `murus bench` compares with to
    /// give the metrics' cost.
    pub record_metrics: bool,
    /// The opening book that opens every round of games, if any.
    book: Option<Arc<Book>>,
    /// The evaluation each seat's bot is given ([`Provenance::evaluations`]),
    /// settled once for the run.
    evaluations: Vec<Evaluation>,
    provenance: Provenance,
}

/// The evaluation a bot of `spec` is given on `variant`: the file its spec
/// names (one that cannot be used was reported by [`BotSpec::check`], and
/// falls back, as [`murus_ai::Bot::prepare`] does), else the variant's own.
fn evaluation_of(spec: &BotSpec, variant: &Variant) -> Evaluation {
    spec.eval_file()
        .and_then(|r| r.evaluation_for(variant).ok())
        .unwrap_or_else(|| Evaluation::for_variant(variant))
}

impl Config {
    /// A run of `games` games of `variant` by `bots`, seeded, on as many
    /// threads as the process has CPUs ([`murus_engine::util::default_threads`]:
    /// its affinity, its cgroup quota, a Slurm task's CPUs), capped at the
    /// variant's ply cap (or 1 000 plies).
    pub fn new(variant: &Variant, bots: Vec<BotSpec>, games: u64, seed: u64) -> Config {
        let players = variant.player_count();
        let bots: Vec<BotSpec> = (0..players)
            .map(|s| bots[s % bots.len().max(1)].clone())
            .collect();
        let max_plies = variant.rules().draw.ply_cap.unwrap_or(1000);
        let evaluations: Vec<Evaluation> = bots.iter().map(|b| evaluation_of(b, variant)).collect();
        Config {
            provenance: Provenance {
                variant: VariantId::of(variant),
                engine_version: env!("CARGO_PKG_VERSION").to_string(),
                bots: bots.iter().map(ToString::to_string).collect(),
                evaluations: evaluations.iter().map(Evaluation::id).collect(),
                seed,
                requested: games,
                max_plies,
                openings: 0,
                book: None,
                shard: None,
                players: (0..players).map(|p| variant.letter(p)).collect(),
            },
            bots,
            games,
            seed,
            threads: murus_engine::util::default_threads(),
            max_plies,
            shard: None,
            record_moves: true,
            record_metrics: true,
            book: None,
            evaluations,
        }
    }

    /// Opens each game with `plies` random legal moves, the same for the
    /// games of a colour-swapped round (seeded by the run's seed), so that
    /// deterministic bots play varied games. A run with a book
    /// ([`Config::with_book`]) opens from it and plays no random plies.
    pub fn with_openings(mut self, plies: u32) -> Config {
        if self.book.is_none() {
            self.provenance.openings = plies;
        }
        self
    }

    /// Opens the games from `book` instead of random plies: game `index`
    /// plays line `(index / players) % lines` of the book (every game of a
    /// colour-rotated round opens alike, as with random openings, and the
    /// rounds take the lines in turn), then the bots play. The book wins
    /// over [`Config::with_openings`], in either order: the run plays no
    /// random plies and its provenance records the book
    /// ([`Provenance::book`]) and 0 openings. The book must have been read
    /// for this run's variant (a move it cannot play stops the run with an
    /// error).
    pub fn with_book(mut self, book: Arc<Book>) -> Config {
        self.provenance.openings = 0;
        self.provenance.book = Some(book.id().clone());
        self.book = Some(book);
        self
    }

    /// The book the games open from, if any.
    pub fn book(&self) -> Option<&Arc<Book>> {
        self.book.as_ref()
    }

    /// Caps games at `plies` plies.
    pub fn with_max_plies(mut self, plies: u32) -> Config {
        self.max_plies = plies;
        self.provenance.max_plies = plies;
        self
    }

    /// Plays only shard `k` of `n` (1-based).
    pub fn with_shard(mut self, k: u64, n: u64) -> Result<Config, LabError> {
        if n == 0 || k == 0 || k > n {
            return Err(LabError::Invalid(format!(
                "shard {k}/{n}: K must be from 1 to N"
            )));
        }
        self.shard = Some((k, n));
        self.provenance.shard = Some(crate::shard::Shard { k, n });
        Ok(self)
    }

    pub fn with_threads(mut self, threads: usize) -> Config {
        self.threads = threads.max(1);
        self
    }

    /// The number of the run's `j`-th game (`j < planned()`), in order.
    pub fn game_number(&self, j: u64) -> u64 {
        match self.shard {
            None => j,
            Some((k, n)) => k - 1 + j * n,
        }
    }

    /// The game numbers this run plays, in order, one at a time (a run of
    /// a hundred million games allocates nothing for them).
    pub fn game_numbers(&self) -> impl Iterator<Item = u64> + Clone + use<> {
        let (first, step) = self.shard.map_or((0, 1), |(k, n)| (k - 1, n));
        (0..self.planned()).map(move |j| first + j * step)
    }

    /// Whether game `index` is one of this run's (its shard's share).
    pub fn plays(&self, index: u64) -> bool {
        index < self.games && self.shard.is_none_or(|(k, n)| index % n == k - 1)
    }

    /// What game `index` measures ([`Measure`]): with random bots alone,
    /// the games of the first [`RANDOM_FULL_ROUNDS`] rounds and of one
    /// round in [`RANDOM_ROUNDS`] after them; otherwise every game.
    /// A measured game values its legal moves at every ply where bots
    /// search (and none plays at random), else at one ply in
    /// [`CLARITY_SAMPLE`]. Nothing without [`Config::record_metrics`].
    pub fn measure(&self, index: u64) -> Measure {
        if !self.record_metrics {
            return Measure::Nothing;
        }
        let seats = self.bots.len().max(1) as u64;
        let round = index / seats;
        if self.bots.iter().all(|b| *b == BotSpec::Random)
            && round >= RANDOM_FULL_ROUNDS
            && round % RANDOM_ROUNDS != 0
        {
            return Measure::Nothing;
        }
        let random = self.bots.contains(&BotSpec::Random);
        let value_moves_one_in = if !random && self.bots.iter().any(BotSpec::searches) {
            1
        } else {
            CLARITY_SAMPLE
        };
        Measure::Metrics { value_moves_one_in }
    }

    /// The setup of game `index`.
    pub fn setup(&self, index: u64) -> GameSetup {
        self.setup_with(index, Vec::new(), Vec::new(), Vec::new())
    }

    /// Makes `setup` that of game `index`, reusing its buffers (a thread's
    /// games of a run of fast bots allocate nothing for their setups).
    pub fn setup_into(&self, index: u64, setup: &mut GameSetup) {
        let seats = std::mem::take(&mut setup.seats);
        let colours = std::mem::take(&mut setup.colour_of_seat);
        let evaluations = std::mem::take(&mut setup.evaluations);
        *setup = self.setup_with(index, seats, colours, evaluations);
    }

    /// The setup of game `index`, in the buffers given.
    fn setup_with(
        &self,
        index: u64,
        mut seats: Vec<BotSpec>,
        mut colour_of_seat: Vec<usize>,
        mut evaluations: Vec<Evaluation>,
    ) -> GameSetup {
        let players = self.bots.len();
        let round = index / players as u64;
        seats.clone_from(&self.bots);
        colour_of_seat.clear();
        colour_of_seat.extend((0..players).map(|s| (s + index as usize) % players));
        evaluations.clear();
        let mut setup = GameSetup {
            index,
            seed: game_seed(self.seed, index),
            seats,
            colour_of_seat,
            max_plies: self.max_plies,
            openings: self.provenance.openings,
            // Every game of a round (the players' colour rotations) opens alike.
            opening_seed: game_seed(self.seed ^ OPENING_SALT, round),
            book_line: self.book.as_ref().map(|b| b.line_of_round(round)),
            record_moves: self.record_moves,
            evaluations,
            measure: self.measure(index),
        };
        // Random movers that measure nothing need no evaluation (and a copy
        // of a shared one would cost the threads of a run of random games).
        if !setup.needs_no_evaluation() {
            setup.evaluations.clone_from(&self.evaluations);
        }
        setup
    }

    /// The evaluation each seat's bot is given, by seat.
    pub fn evaluations(&self) -> &[Evaluation] {
        &self.evaluations
    }

    pub fn provenance(&self) -> &Provenance {
        &self.provenance
    }

    /// Games this run plays (its shard's share).
    pub fn planned(&self) -> u64 {
        match self.shard {
            None => self.games,
            Some((k, n)) if self.games >= k => (self.games - k) / n + 1,
            Some(_) => 0,
        }
    }

    /// The report of finished games of this run, from their statistics
    /// records (see [`crate::stats_of`] for games).
    pub fn report(&self, games: &[GameStats]) -> Report {
        report::build(&self.provenance, games)
    }

    /// The report of finished games, marked [`interrupted`](Report::interrupted)
    /// when `cancelled` cut the run short of its planned games.
    pub fn report_interrupted(&self, games: &[GameStats], cancelled: bool) -> Report {
        let mut r = self.report(games);
        r.interrupted = cancelled && (games.len() as u64) < self.planned();
        r
    }

    /// What determines this run's games, as [`crate::RunDir`] keeps it.
    pub fn run_spec(&self) -> RunSpec {
        RunSpec::new("selfplay", &self.provenance, None)
    }
}
