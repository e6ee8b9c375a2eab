//! The engine side of UGI, the Universal Game Interface: the UCI protocol of
//! chess engines, made general for any two-player game (the protocol of the
//! `cutegames` tournament manager), with an extension for three and four
//! players. `docs/engine-protocol.md` is the reference; this module speaks
//! it over any line reader and writer.
//!
//! The protocol thread reads commands; a search runs on a thread of its own
//! and writes its `info` lines and `bestmove`, so that `stop`, `isready` and
//! `query` are answered while it thinks. Bad input (an unknown command, an
//! illegal move, a malformed position, a bad option) gets an
//! `info string error …` line, and the engine keeps its state and runs on.
//!
//! ```
//! use murus_ai::ugi::Server;
//!
//! let script = "ugi\nisready\nposition startpos moves b1-b3\nquery p1turn\ngo nodes 2000\nquit\n";
//! let out = Server::builtin(std::io::sink()).serve(script.as_bytes(), Vec::new()).unwrap();
//! let out = String::from_utf8(out).unwrap();
//! assert!(out.contains("ugiok\n"));
//! assert!(out.contains("readyok\n"));
//! assert!(out.contains("response false\n"));
//! assert!(out.contains("\nbestmove "));
//! ```

use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use murus_engine::job::{Cancel, HandlerExt};
use murus_engine::text::plural;
use murus_engine::{Game, Variant};

use crate::analysis::{Analyser, Info, Limits};
use crate::evalfile::{EvalFile, Evaluation};
use crate::{Bot, BotSpec, SearchFeatures, Tree};

/// Loads a variant by the value of `setoption name variant value …`: a
/// shipped variant's name or a rule file's path.
pub type Loader = Box<dyn Fn(&str) -> Result<Variant, String> + Send>;

/// The table size of a new engine, in megabytes.
pub const DEFAULT_HASH_MB: usize = 16;
/// The largest table an engine accepts, in megabytes.
pub const MAX_HASH_MB: usize = 4096;

/// The most search threads: the machine's cores.
fn max_threads() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// Where the protocol's lines go: shared by the protocol thread and a
/// search thread, a whole line at a time.
type Out<W> = Arc<Mutex<W>>;

fn say<W: Write>(out: &Out<W>, line: &str) {
    let mut w = out.lock().unwrap_or_else(PoisonError::into_inner);
    // A closed pipe ends the conversation; the protocol thread sees the
    // end of its input next, so a failed write is not an error here.
    let _ = writeln!(w, "{line}");
    let _ = w.flush();
}

/// A search on its own thread.
struct Running {
    stop: Arc<AtomicBool>,
    handle: JoinHandle<Kept>,
}

/// What a search hands back to be kept for the next one: the alpha-beta
/// table, MCTS's tree.
struct Kept {
    analyser: Option<Analyser>,
    tree: Option<Tree>,
}

/// The evaluation asked for with `setoption name evalfile`.
#[derive(Debug)]
enum EvalChoice {
    /// The variant's own (empty value): shipped or generic.
    Own,
    /// `generic`: the generic features with their default weights.
    Generic,
    /// A file, by path, checked against the variant at each `go`.
    File(String, Box<EvalFile>),
}

/// A UGI engine: the variant, the position, the options, and the search
/// in progress.
pub struct Server {
    load: Loader,
    /// Where `info string` notes beyond the protocol go (a log).
    log: Box<dyn Write + Send>,
    variant: Variant,
    game: Game,
    bot: BotSpec,
    hash_mb: usize,
    /// The search's threads (`setoption name threads`): Lazy SMP above 1.
    threads: usize,
    /// The search's features (`setoption name ablate`).
    features: SearchFeatures,
    /// The evaluation (`setoption name evalfile`).
    evalfile: EvalChoice,
    /// The table, kept between searches of a game (`None` while a search
    /// holds it).
    analyser: Option<Analyser>,
    /// MCTS's tree, kept between searches of a game so that the next search
    /// goes on from it (`None` while a search holds it).
    tree: Option<Tree>,
    search: Option<Running>,
    /// The id of the evaluation last named in an `info string evaluation`
    /// line: a search names its evaluation when it differs.
    announced: Option<String>,
}

impl std::fmt::Debug for Server {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Server")
            .field("variant", &self.variant.name())
            .field("ply", &self.game.ply())
            .field("bot", &self.bot)
            .field("hash_mb", &self.hash_mb)
            .field("searching", &self.search.is_some())
            .finish()
    }
}

/// Parses `go`'s arguments into limits: `None` for `infinite`. A `go`
/// without limits searches with the bot's own budget (`Limits` all `None`
/// means that, here).
fn parse_go(words: &[&str], mover: usize) -> Result<(Limits, bool), String> {
    let mut limits = Limits::default();
    let mut infinite = false;
    let (mut time, mut inc) = (None, None);
    let mut i = 0;
    let number = |i: usize| -> Result<u64, String> {
        let word = words
            .get(i + 1)
            .ok_or_else(|| format!("go {}: a number must follow", words[i]))?;
        word.parse::<u64>()
            .map_err(|_| format!("go {}: `{word}` is not a whole number", words[i]))
    };
    while i < words.len() {
        let w = words[i];
        match w {
            "infinite" => {
                infinite = true;
                i += 1;
                continue;
            }
            "nodes" => limits.nodes = Some(number(i)?.max(1)),
            "depth" => limits.depth = Some(number(i)?.clamp(1, 64) as u32),
            "movetime" => limits.time = Some(Duration::from_millis(number(i)?)),
            _ => {
                // p1time … p4time, p1inc … p4inc: only the mover's count.
                let clock = w
                    .strip_prefix('p')
                    .and_then(|r| r.find(|c: char| !c.is_ascii_digit()).map(|i| r.split_at(i)))
                    .and_then(|(n, what)| Some((n.parse::<usize>().ok()?, what)))
                    .filter(|(n, what)| (1..=4).contains(n) && (*what == "time" || *what == "inc"));
                match clock {
                    Some((n, what)) => {
                        let ms = number(i)?;
                        if n == mover + 1 {
                            if what == "time" {
                                time = Some(ms);
                            } else {
                                inc = Some(ms);
                            }
                        }
                    }
                    None => return Err(format!("go: unknown limit `{w}`")),
                }
            }
        }
        i += 2;
    }
    if let Some(t) = time {
        // A share of the time left, and most of the increment; never more
        // than half the clock.
        let inc = inc.unwrap_or(0);
        let allot = (t / 25 + inc * 3 / 4).min(t / 2).max(1);
        limits.time = Some(limits.time.map_or(Duration::from_millis(allot), |m| {
            m.min(Duration::from_millis(allot))
        }));
    }
    Ok((limits, infinite))
}

/// An `info` line: `info depth 5 score cp 35 nodes 1200 nps 80000 time 15 pv b1-b3 c7-c5`.
fn info_line(variant: &Variant, info: &Info) -> String {
    let pv: Vec<String> = info.pv.iter().map(|&m| variant.move_to_string(m)).collect();
    format!(
        "info depth {} score {} nodes {} nps {} time {} pv {}",
        info.depth,
        info.score,
        info.nodes,
        info.nps(),
        info.time.as_millis(),
        pv.join(" ")
    )
}

impl Server {
    /// An engine on `variant` whose `setoption name variant` loads with
    /// `load`; notes for a person go to `log`.
    pub fn new(variant: Variant, load: Loader, log: Box<dyn Write + Send>) -> Server {
        Server {
            load,
            log,
            game: Game::new(&variant),
            variant,
            bot: BotSpec::AlphaBeta {
                nodes: crate::DEFAULT_NODES,
                eval: None,
            },
            hash_mb: DEFAULT_HASH_MB,
            threads: 1,
            features: SearchFeatures::ALL,
            evalfile: EvalChoice::Own,
            analyser: None,
            tree: None,
            search: None,
            announced: None,
        }
    }

    /// An engine on the standard game that loads only shipped variants.
    pub fn builtin(log: impl Write + Send + 'static) -> Server {
        Server::new(
            Variant::standard(),
            Box::new(|name| {
                Variant::builtin(name).ok_or_else(|| format!("no shipped variant `{name}`"))
            }),
            Box::new(log),
        )
    }

    /// Answers the commands read from `input` on `output` until `quit` or
    /// the end of the input (a search in progress is stopped first, and
    /// answers), then hands `output` back. Fails only when `input` cannot be
    /// read.
    pub fn serve<W: Write + Send + 'static>(
        mut self,
        input: impl BufRead,
        output: W,
    ) -> io::Result<W> {
        let out = Arc::new(Mutex::new(output));
        let mut read = Ok(());
        for line in input.lines() {
            match line {
                Ok(line) if self.handle(&line, &out) => {}
                Ok(_) => break,
                Err(e) => {
                    read = Err(e);
                    break;
                }
            }
        }
        self.stop_search();
        read?;
        // Every search thread has ended: the writer is ours again.
        let out = Arc::try_unwrap(out).map_err(|_| io::Error::other("a search still writes"))?;
        Ok(out.into_inner().unwrap_or_else(PoisonError::into_inner))
    }

    /// Handles one command; `false` after `quit`.
    fn handle<W: Write + Send + 'static>(&mut self, line: &str, out: &Out<W>) -> bool {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, args)) = words.split_first() else {
            return true;
        };
        let result = match command {
            "ugi" => {
                self.hello(out);
                Ok(())
            }
            "isready" => {
                say(out, "readyok");
                Ok(())
            }
            "uginewgame" => {
                self.stop_search();
                self.game = Game::new(&self.variant);
                if let Some(a) = &mut self.analyser {
                    a.clear();
                }
                self.tree = None;
                Ok(())
            }
            "setoption" => {
                self.stop_search();
                self.set_option(line)
            }
            "position" => {
                self.stop_search();
                self.position(args)
            }
            "go" => {
                self.stop_search();
                self.go(args, out)
            }
            "stop" => {
                self.stop_search();
                Ok(())
            }
            "query" => self.query(args, out),
            "quit" => return false,
            "debug" | "register" | "ponderhit" => Ok(()),
            _ => Err(format!("unknown command `{command}`")),
        };
        if let Err(e) = result {
            say(out, &format!("info string error {e}"));
            let _ = writeln!(self.log, "murus ugi: {e} (in `{line}`)");
        }
        true
    }

    fn hello<W: Write>(&self, out: &Out<W>) {
        say(out, &format!("id name Murus {}", env!("CARGO_PKG_VERSION")));
        say(out, "id author the Murus authors");
        say(
            out,
            &format!(
                "option name variant type string default {}",
                self.variant.name()
            ),
        );
        say(
            out,
            &format!("option name bot type string default {}", self.bot),
        );
        say(
            out,
            &format!(
                "option name hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}"
            ),
        );
        say(
            out,
            &format!(
                "option name threads type spin default 1 min 1 max {}",
                max_threads()
            ),
        );
        say(out, "option name ablate type string default none");
        say(out, "option name evalfile type string default <empty>");
        say(out, "ugiok");
    }

    /// `setoption name NAME value VALUE` (the value may hold spaces: a path).
    fn set_option(&mut self, line: &str) -> Result<(), String> {
        let rest = line.trim().strip_prefix("setoption").unwrap_or("").trim();
        let rest = rest
            .strip_prefix("name ")
            .ok_or("setoption: expected `setoption name NAME value VALUE`")?;
        // `value` with nothing after it sets an empty value.
        let (name, value) = match rest.split_once(" value ") {
            Some((n, v)) => (n.trim(), v.trim()),
            None => (rest.trim().trim_end_matches(" value").trim(), ""),
        };
        match name.to_ascii_lowercase().as_str() {
            "variant" => {
                let v = (self.load)(value).map_err(|e| format!("variant `{value}`: {e}"))?;
                self.game = Game::new(&v);
                self.variant = v;
                if let Some(a) = &mut self.analyser {
                    a.clear();
                }
                self.tree = None;
            }
            "bot" => {
                self.bot = value.parse().map_err(|e| format!("bot: {e}"))?;
                self.tree = None;
            }
            "hash" => {
                let mb = value
                    .parse::<usize>()
                    .ok()
                    .filter(|mb| (1..=MAX_HASH_MB).contains(mb))
                    .ok_or_else(|| {
                        format!("hash: `{value}` is not a whole number of megabytes from 1 to {MAX_HASH_MB}")
                    })?;
                self.hash_mb = mb;
                self.analyser = None;
            }
            "ablate" => {
                self.features =
                    SearchFeatures::without(value).map_err(|e| format!("ablate: {e}"))?;
            }
            "evalfile" => {
                self.evalfile = match value {
                    "" | "<empty>" => EvalChoice::Own,
                    "generic" => EvalChoice::Generic,
                    path => {
                        let bytes =
                            std::fs::read(path).map_err(|e| format!("evalfile `{path}`: {e}"))?;
                        let file = EvalFile::from_bytes(&bytes)
                            .map_err(|e| format!("evalfile `{path}`: {e}"))?;
                        EvalChoice::File(path.to_string(), Box::new(file))
                    }
                };
            }
            "threads" => {
                let max = max_threads();
                self.threads = value
                    .parse::<usize>()
                    .ok()
                    .filter(|n| (1..=max).contains(n))
                    .ok_or_else(|| {
                        format!("threads: `{value}` is not a whole number from 1 to {max}")
                    })?;
            }
            _ => return Err(format!("unknown option `{name}`")),
        }
        Ok(())
    }

    /// `position startpos|fen POS [moves M…]`; on any error the position
    /// stays as it was.
    fn position(&mut self, args: &[&str]) -> Result<(), String> {
        let split = args.iter().position(|&w| w == "moves");
        let (place, moves) = match split {
            Some(i) => (&args[..i], &args[i + 1..]),
            None => (args, &[][..]),
        };
        let mut game = match place.split_first() {
            Some((&"startpos", [])) => Game::new(&self.variant),
            Some((&"fen", text)) if !text.is_empty() => {
                let text = text.join(" ");
                let pos = self
                    .variant
                    .parse_position(&text)
                    .map_err(|e| format!("position fen {text}: {e}"))?;
                Game::from_position(&self.variant, pos)
            }
            _ => return Err("position: expected `startpos` or `fen POSITION`".into()),
        };
        for (i, m) in moves.iter().enumerate() {
            game.play_str(m)
                .map_err(|e| format!("position: move {} `{m}`: {e}", i + 1))?;
        }
        self.game = game;
        Ok(())
    }

    fn query<W: Write>(&self, args: &[&str], out: &Out<W>) -> Result<(), String> {
        let v = &self.variant;
        let outcome = self.game.outcome();
        let answer = match args {
            ["p1turn"] => (v.turn(self.game.position()) == 0).to_string(),
            ["gameover"] => outcome.is_some().to_string(),
            ["result"] => match outcome {
                None => "none".into(),
                Some(o) => match o.winner {
                    Some(w) => format!("p{}win", w + 1),
                    None => "draw".into(),
                },
            },
            ["turn"] => v.letter(v.turn(self.game.position())).to_string(),
            ["winner"] => match outcome.and_then(|o| o.winner) {
                Some(w) => v.letter(w).to_string(),
                None => "none".into(),
            },
            ["players"] => (0..v.player_count())
                .map(|p| v.letter(p).to_string())
                .collect::<Vec<_>>()
                .join(" "),
            _ => return Err(format!("unknown query `{}`", args.join(" "))),
        };
        say(out, &format!("response {answer}"));
        Ok(())
    }

    /// Starts a search of the current position on a thread of its own.
    fn go<W: Write + Send + 'static>(&mut self, args: &[&str], out: &Out<W>) -> Result<(), String> {
        let mover = self.variant.turn(self.game.position());
        let (limits, infinite) = parse_go(args, mover)?;
        if self.game.outcome().is_some() {
            say(out, "info string error the game is over");
            say(out, "bestmove (none)");
            return Ok(());
        }
        let stop = Arc::new(AtomicBool::new(false));
        let game = self.game.clone();
        let variant = self.variant.clone();
        let out = out.clone();
        let bot = self.bot.clone();
        let seed = variant.hash(game.position());
        let analyser = self.analyser.take();
        let kept_tree = self.tree.take();
        let hash_mb = self.hash_mb;
        let threads = self.threads;
        let features = self.features;
        // A file named in the bot's spec, then the option. One that does
        // not fit the variant is named, and the search uses the variant's
        // own evaluation.
        let chosen = match (self.bot.eval_file(), &self.evalfile) {
            (Some(r), _) => r
                .evaluation_for(&variant)
                .map(Some)
                .map_err(|e| format!("bot's eval: {e}")),
            (None, EvalChoice::Own) => Ok(None),
            (None, EvalChoice::Generic) => Ok(Some(Evaluation::Generic)),
            (None, EvalChoice::File(path, file)) => file
                .check_variant(&variant)
                .map(|()| Some(file.as_ref().clone().evaluation()))
                .map_err(|e| format!("evalfile `{path}`: {e}")),
        };
        let evaluation = chosen.unwrap_or_else(|e| {
            say(
                &out,
                &format!("info string error {e}; searching with the variant's own"),
            );
            None
        });
        // The evaluation the search uses, named when it changes.
        let evaluation = evaluation.unwrap_or_else(|| Evaluation::for_variant(&variant));
        if !matches!(bot, BotSpec::Random | BotSpec::Ugi(_)) {
            let id = evaluation.id();
            if self.announced.as_ref() != Some(&id) {
                say(
                    &out,
                    &format!("info string evaluation {}", evaluation.summary()),
                );
                self.announced = Some(id);
            }
        }
        let evaluation = Some(evaluation);
        let flag = stop.clone();
        let handle = std::thread::Builder::new()
            .name("murus-ugi-search".into())
            .spawn(move || {
                let (best, kept) = match bot {
                    BotSpec::AlphaBeta { nodes, .. } => {
                        let mut a = analyser.unwrap_or_else(|| Analyser::new(hash_mb));
                        a.set_features(features);
                        a.set_threads(threads);
                        a.set_evaluation(evaluation);
                        let mut limits = limits;
                        if limits == Limits::default() && !infinite {
                            limits.nodes = Some(nodes);
                        }
                        let handler = Cancel::from_flag(flag.clone())
                            .on_progress(|info: &Info| say(&out, &info_line(&variant, info)));
                        let found = a.analyse(&game, limits, seed, &handler);
                        let kept = Kept {
                            analyser: Some(a),
                            tree: kept_tree,
                        };
                        (found.map(|f| f.best), kept)
                    }
                    other => {
                        let (best, tree) = other_bot(
                            other,
                            kept_tree,
                            &game,
                            limits,
                            &flag,
                            (seed, evaluation),
                            &out,
                        );
                        let kept = Kept { analyser, tree };
                        (best, kept)
                    }
                };
                if infinite {
                    // `go infinite` answers only when stopped.
                    while !flag.load(Ordering::Relaxed) {
                        std::thread::sleep(Duration::from_millis(2));
                    }
                }
                let best = best.map_or_else(|| "(none)".into(), |m| variant.move_to_string(m));
                say(&out, &format!("bestmove {best}"));
                kept
            })
            .map_err(|e| format!("go: cannot start the search: {e}"))?;
        self.search = Some(Running { stop, handle });
        Ok(())
    }

    /// Stops a search in progress and waits for its `bestmove`.
    fn stop_search(&mut self) {
        if let Some(r) = self.search.take() {
            r.stop.store(true, Ordering::Relaxed);
            if let Ok(kept) = r.handle.join() {
                self.analyser = self.analyser.take().or(kept.analyser);
                self.tree = self.tree.take().or(kept.tree);
            }
        }
    }
}

/// A move from a bot other than alpha-beta: its own budget, or `nodes`
/// (iterations, for MCTS) when given; a time limit stops it on the clock.
/// MCTS goes on from `kept`, the tree of the game's last search; the tree
/// to keep comes back with the move.
fn other_bot<W: Write + Send + 'static>(
    spec: BotSpec,
    kept: Option<Tree>,
    game: &Game,
    limits: Limits,
    stop: &Arc<AtomicBool>,
    (seed, evaluation): (u64, Option<Evaluation>),
    out: &Out<W>,
) -> (Option<murus_engine::Move>, Option<Tree>) {
    let spec = match (spec, limits.nodes) {
        (BotSpec::Mcts { guided, eval, .. }, Some(n)) => BotSpec::Mcts {
            iterations: n.min(u64::from(u32::MAX)) as u32,
            guided,
            eval,
        },
        (BotSpec::Mcts { guided, eval, .. }, None) if limits.time.is_some() => BotSpec::Mcts {
            iterations: u32::MAX,
            guided,
            eval,
        },
        (s, _) => s,
    };
    let mut bot = Bot::new(spec, seed);
    if let Some(e) = evaluation {
        bot.set_evaluation(e);
    }
    if let Some(tree) = kept {
        bot.set_tree(tree);
    }
    let started = Instant::now();
    // Stopped by the protocol's `stop`, or when its time is up.
    let handler = Cancel::from_flag(stop.clone()).until(limits.time.map(|t| started + t));
    let best = bot.choose_in_game_with(game, &handler);
    if matches!(bot.spec(), BotSpec::Mcts { .. }) {
        // Iterations as nodes, the most visited line as the variation, and
        // the tree's size, kept for the next search.
        let ms = started.elapsed().as_millis().max(1) as u64;
        let n = bot.last_nodes;
        let pv: Vec<String> = bot
            .tree()
            .principal_variation()
            .iter()
            .map(|&m| game.variant().move_to_string(m))
            .collect();
        say(
            out,
            &format!(
                "info nodes {n} nps {} time {ms} pv {}",
                n * 1000 / ms,
                pv.join(" ")
            ),
        );
        let size = bot.tree_size() as u64;
        say(out, &format!("info string tree {}", plural(size, "node")));
        return (best, Some(bot.take_tree()));
    }
    (best, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_give_the_mover_a_share_of_its_time_and_most_of_its_increment() {
        let go = |s: &str, mover| parse_go(&s.split_whitespace().collect::<Vec<_>>(), mover);
        let (l, inf) = go("p1time 10000 p2time 5000 p1inc 100 p2inc 100", 0).unwrap();
        assert_eq!((l.time, inf), (Some(Duration::from_millis(475)), false));
        let (l, _) = go("p1time 10000 p2time 5000", 1).unwrap();
        assert_eq!(l.time, Some(Duration::from_millis(200)));
        // Never more than half the clock.
        let (l, _) = go("p1time 100 p2time 100 p1inc 1000", 0).unwrap();
        assert_eq!(l.time, Some(Duration::from_millis(50)));
        let (l, _) = go("p3time 9000 p3inc 0", 2).unwrap();
        assert_eq!(l.time, Some(Duration::from_millis(360)));
        let (l, inf) = go("infinite", 0).unwrap();
        assert_eq!((l, inf), (Limits::default(), true));
        let (l, _) = go("nodes 500 depth 3 movetime 20", 0).unwrap();
        assert_eq!(
            l,
            Limits {
                nodes: Some(500),
                depth: Some(3),
                time: Some(Duration::from_millis(20))
            }
        );
        assert!(go("nodes", 0).unwrap_err().contains("a number must follow"));
        assert!(go("nodes x", 0).unwrap_err().contains("not a whole number"));
        assert!(go("p5time 10", 0).unwrap_err().contains("unknown limit"));
        assert!(go("wtime 10", 0).unwrap_err().contains("unknown limit"));
    }
}
