//! The UGI engine answers as `docs/engine-protocol.md` says: the handshake,
//! positions, queries, searches under each kind of limit, and bad input
//! that gets an `info string error` line and changes nothing.

use std::io::{BufReader, Read, Write};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::Duration;

use murus_ai::ugi::Server;
use murus_engine::{Game, Variant};

/// An engine on a thread, fed line by line, as a tournament manager drives
/// it: commands wait for the answers they need.
struct Live {
    commands: Option<Sender<String>>,
    lines: Receiver<String>,
    thread: Option<std::thread::JoinHandle<()>>,
}

/// Input from a channel of lines.
struct Lines {
    rx: Receiver<String>,
    pending: Vec<u8>,
}
impl Read for Lines {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.pending.is_empty() {
            match self.rx.recv() {
                Ok(line) => self.pending = (line + "\n").into_bytes(),
                Err(_) => return Ok(0),
            }
        }
        let n = buf.len().min(self.pending.len());
        buf[..n].copy_from_slice(&self.pending[..n]);
        self.pending.drain(..n);
        Ok(n)
    }
}

/// Output into a channel of lines.
struct Sink {
    tx: Sender<String>,
    partial: Vec<u8>,
}
impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.partial.extend_from_slice(buf);
        while let Some(i) = self.partial.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.partial.drain(..=i).collect();
            let _ = self
                .tx
                .send(String::from_utf8_lossy(&line[..i]).into_owned());
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Live {
    fn start() -> Live {
        let (commands, rx) = channel();
        let (tx, lines) = channel();
        let thread = std::thread::spawn(move || {
            let input = BufReader::new(Lines {
                rx,
                pending: Vec::new(),
            });
            let sink = Sink {
                tx,
                partial: Vec::new(),
            };
            Server::builtin(std::io::sink()).serve(input, sink).unwrap();
        });
        Live {
            commands: Some(commands),
            lines,
            thread: Some(thread),
        }
    }
    fn send(&self, line: &str) {
        self.commands.as_ref().unwrap().send(line.into()).unwrap();
    }
    /// The lines up to and including the first that starts with `prefix`;
    /// fails after a minute without it.
    fn until(&self, prefix: &str) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            match self.lines.recv_timeout(Duration::from_secs(60)) {
                Ok(l) => {
                    let done = l.starts_with(prefix);
                    seen.push(l);
                    if done {
                        return seen;
                    }
                }
                Err(_) => panic!("no `{prefix}` after a minute: {seen:?}"),
            }
        }
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        drop(self.commands.take());
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// The engine's whole output for a script of commands.
fn run(script: &str) -> Vec<String> {
    let out = Server::builtin(std::io::sink())
        .serve(script.as_bytes(), Vec::new())
        .expect("the script is read");
    String::from_utf8(out)
        .expect("UTF-8")
        .lines()
        .map(str::to_string)
        .collect()
}

fn responses(out: &[String]) -> Vec<&str> {
    out.iter()
        .filter_map(|l| l.strip_prefix("response "))
        .collect()
}

fn errors(out: &[String]) -> Vec<&str> {
    out.iter()
        .filter_map(|l| l.strip_prefix("info string error "))
        .collect()
}

fn bestmoves(out: &[String]) -> Vec<&str> {
    out.iter()
        .filter_map(|l| l.strip_prefix("bestmove "))
        .collect()
}

/// Romans to move break through at once (a5-a7 or a5-c7).
const WIN_IN_ONE: &str = "4g2g2g2g2/8/r27/8/8/8/2r25 r";

#[test]
fn the_handshake_names_the_engine_and_its_options_then_ugiok() {
    let out = run("ugi\nisready\nquit\n");
    assert!(out[0].starts_with("id name Murus "), "{out:?}");
    assert_eq!(out[1], "id author the Murus authors");
    for option in ["variant", "bot", "hash", "threads", "ablate"] {
        assert!(
            out.iter()
                .any(|l| l.starts_with(&format!("option name {option} type "))),
            "{option}: {out:?}"
        );
    }
    let ugiok = out.iter().position(|l| l == "ugiok").unwrap();
    assert_eq!(out[ugiok + 1], "readyok");
    assert_eq!(out.len(), ugiok + 2);
}

#[test]
fn queries_follow_the_position_and_its_moves() {
    let out = run(
        "position startpos\nquery p1turn\nquery turn\nquery gameover\nquery result\n\
         position startpos moves b1-b3\nquery p1turn\nquery turn\n\
         position fen 4g2g2g2g2/8/r27/8/8/8/2r25 r moves a5-a7\n\
         query gameover\nquery result\nquery winner\nquery players\nquit\n",
    );
    assert_eq!(
        responses(&out),
        [
            "true", "r", "false", "none", "false", "g", "true", "p1win", "r", "r g"
        ]
    );
    assert!(errors(&out).is_empty(), "{out:?}");
}

#[test]
fn a_depth_search_reports_each_iteration_and_a_legal_principal_variation() {
    let out = run("position startpos moves b1-b3\ngo depth 3\nquit\n");
    let infos: Vec<&String> = out.iter().filter(|l| l.starts_with("info depth")).collect();
    assert_eq!(infos.len(), 3, "{out:?}");
    let v = Variant::standard();
    for (i, info) in infos.iter().enumerate() {
        let words: Vec<&str> = info.split_whitespace().collect();
        assert_eq!(words[2], (i + 1).to_string(), "{info}");
        assert_eq!(&words[3..5], ["score", "cp"], "{info}");
        for key in ["nodes", "nps", "time", "pv"] {
            assert!(words.contains(&key), "{key} in {info}");
        }
        // The principal variation is a legal line from the position.
        let pv = &words[words.iter().position(|&w| w == "pv").unwrap() + 1..];
        assert!(!pv.is_empty() && pv.len() <= i + 1, "{info}");
        let mut game = Game::new(&v);
        game.play_str("b1-b3").unwrap();
        for m in pv {
            game.play_str(m).unwrap_or_else(|e| panic!("{info}: {e}"));
        }
    }
    let best = bestmoves(&out);
    assert_eq!(best.len(), 1);
    let last_pv = infos[2].split(" pv ").nth(1).unwrap();
    assert_eq!(last_pv.split(' ').next(), Some(best[0]));
}

#[test]
fn a_won_position_scores_a_win_in_plies_and_its_move_wins() {
    let out = run(&format!("position fen {WIN_IN_ONE}\ngo depth 6\nquit\n"));
    let info = out.iter().find(|l| l.starts_with("info depth")).unwrap();
    assert!(info.contains(" score win 1 "), "{info}");
    let best = bestmoves(&out)[0];
    assert!(["a5-a7", "a5-c7"].contains(&best), "{best}");
    // The side that can only lose scores a loss.
    let out = run(&format!(
        "position fen {}\ngo depth 4\nquit\n",
        "4g2g2g2g2/8/r27/8/8/8/2r25 g"
    ));
    assert!(
        out.iter().any(|l| l.contains(" score loss 2 ")),
        "the Gauls cannot stop a5-a7 next move: {out:?}"
    );
}

#[test]
fn node_limited_searches_are_reproducible_and_time_limits_answer() {
    // Each search runs to its budget: `quit` right after `go` would stop
    // it wherever it stood.
    let search = || {
        let engine = Live::start();
        engine.send("position startpos moves b1-b3 c7-c5");
        engine.send("go nodes 3000");
        engine.until("bestmove ")
    };
    let (a, b) = (search(), search());
    assert_eq!(bestmoves(&a), bestmoves(&b));
    assert_eq!(
        a.iter().filter(|l| l.starts_with("info depth")).count(),
        b.iter().filter(|l| l.starts_with("info depth")).count()
    );
}

#[test]
fn time_limits_and_the_bots_own_budget_end_a_search_without_stop() {
    // No `stop` and no `quit` is sent: each search must end by itself.
    let engine = Live::start();
    for (bot, go) in [
        ("alphabeta", "go movetime 50"),
        ("alphabeta", "go p1time 2000 p2time 2000 p1inc 10 p2inc 10"),
        ("alphabeta:3000", "go"),
        ("mcts", "go movetime 50"),
        ("mcts:200", "go"),
        ("greedy", "go movetime 50"),
    ] {
        engine.send(&format!("setoption name bot value {bot}"));
        engine.send("position startpos");
        engine.send(go);
        let out = engine.until("bestmove");
        let best = bestmoves(&out)[0];
        Game::new(&Variant::standard())
            .play_str(best)
            .unwrap_or_else(|e| panic!("{bot} {go}: {e}"));
        assert!(errors(&out).is_empty(), "{bot} {go}: {out:?}");
    }
}

#[test]
fn go_infinite_answers_only_when_stopped_and_isready_meanwhile() {
    // A proven win ends the search at once; the answer still waits for stop.
    let engine = Live::start();
    engine.send(&format!("position fen {WIN_IN_ONE}"));
    engine.send("go infinite");
    let first = engine.until("info depth");
    assert!(first.last().unwrap().contains("score win 1"), "{first:?}");
    std::thread::sleep(Duration::from_millis(50));
    engine.send("isready");
    engine.send("query p1turn");
    let waiting = engine.until("response");
    assert_eq!(
        waiting,
        ["readyok", "response true"],
        "no bestmove before stop"
    );
    engine.send("stop");
    let best = engine.until("bestmove");
    assert!(
        ["bestmove a5-a7", "bestmove a5-c7"].contains(&best[0].as_str()),
        "{best:?}"
    );
}

#[test]
fn other_bots_play_through_the_protocol() {
    for bot in ["random", "greedy", "mcts:300", "hard"] {
        let out = run(&format!(
            "setoption name bot value {bot}\nposition startpos\ngo nodes 300\nquit\n"
        ));
        let best = bestmoves(&out);
        assert_eq!(best.len(), 1, "{bot}: {out:?}");
        Game::new(&Variant::standard())
            .play_str(best[0])
            .unwrap_or_else(|e| panic!("{bot}: {e}"));
        assert!(errors(&out).is_empty(), "{bot}: {out:?}");
    }
}

#[test]
fn three_and_four_players_are_named_by_letter_and_by_pn() {
    let out = run(
        "setoption name variant value escape4\nposition startpos\nquery players\nquery turn\n\
         go depth 1\nquit\n",
    );
    let r = responses(&out);
    assert_eq!(r[0].split(' ').count(), 4, "{out:?}");
    assert_eq!(r[1], r[0].split(' ').next().unwrap());
    let v = Variant::builtin("escape4").unwrap();
    Game::new(&v).play_str(bestmoves(&out)[0]).unwrap();
}

#[test]
fn bad_input_gets_an_error_line_and_changes_nothing() {
    let out = run("position startpos moves b1-b3\n\
         frobnicate\n\
         position startpos moves b1-b3 a1-a9\n\
         position fen 8/8/8 r\n\
         position sideways\n\
         setoption name variant value no-such-variant\n\
         setoption name bot value alphabeta:lots\n\
         setoption name hash value 0\n\
         setoption name colour value blue\n\
         setoption value 3\n\
         query meaning\n\
         go nodes many\n\
         go sideways 3\n\
         isready\n\
         query p1turn\n\
         query turn\n\
         go depth 1\n\
         quit\n");
    let e = errors(&out);
    assert_eq!(e.len(), 12, "{out:?}");
    assert!(e[0].contains("unknown command `frobnicate`"), "{}", e[0]);
    assert!(e[1].contains("move 2 `a1-a9`"), "{}", e[1]);
    assert!(e[2].starts_with("position fen 8/8/8 r"), "{}", e[2]);
    assert!(e[3].contains("startpos"), "{}", e[3]);
    assert!(e[4].contains("no-such-variant"), "{}", e[4]);
    assert!(e[5].contains("lots"), "{}", e[5]);
    assert!(e[6].starts_with("hash"), "{}", e[6]);
    assert!(e[7].contains("unknown option `colour`"), "{}", e[7]);
    assert!(e[8].contains("setoption name NAME value VALUE"), "{}", e[8]);
    assert!(e[9].contains("unknown query"), "{}", e[9]);
    assert!(e[10].contains("many"), "{}", e[10]);
    assert!(e[11].contains("sideways"), "{}", e[11]);
    // Still standard, still after b1-b3: the Gauls to move.
    assert!(out.contains(&"readyok".to_string()));
    assert_eq!(responses(&out), ["false", "g"]);
    let mut game = Game::new(&Variant::standard());
    game.play_str("b1-b3").unwrap();
    game.play_str(bestmoves(&out)[0]).unwrap();
}

#[test]
fn a_finished_game_has_no_best_move() {
    let out = run(&format!(
        "position fen {WIN_IN_ONE} moves a5-a7\ngo depth 2\nquit\n"
    ));
    assert_eq!(errors(&out), ["the game is over"]);
    assert_eq!(bestmoves(&out), ["(none)"]);
}

#[test]
fn ablate_turns_search_features_off_and_names_a_bad_one() {
    // The nodes of each iteration of a depth-6 search, with `ablate` set to
    // `value` first.
    let nodes = |value: &str| -> Vec<String> {
        let engine = Live::start();
        engine.send(&format!("setoption name ablate value {value}"));
        engine.send("position startpos moves b1-b3 c7-c5");
        engine.send("go depth 6");
        let out = engine.until("bestmove ");
        assert!(errors(&out).is_empty(), "{out:?}");
        out.iter()
            .filter_map(|l| l.split(" nodes ").nth(1))
            .map(|rest| rest.split(' ').next().unwrap().to_string())
            .collect()
    };
    let full = nodes("none");
    assert_eq!(full.len(), 6);
    // Reductions and history change the tree; the empty list changes
    // nothing.
    assert_ne!(nodes("lmr,history"), full);
    assert_eq!(nodes(""), full);
    let bad = run("setoption name ablate value lmr,quiescence\nquit\n");
    assert_eq!(
        errors(&bad),
        [
            "ablate: unknown search feature `quiescence`: expected a comma-separated list of lmr, history, threats, rfp, tempo"
        ]
    );
}

/// The size MCTS reports of its tree after each search.
fn tree_sizes(out: &[String]) -> Vec<usize> {
    out.iter()
        .filter_map(|l| l.strip_prefix("info string tree "))
        .map(|l| l.trim_end_matches(" nodes").parse().expect("a number"))
        .collect()
}

#[test]
fn mcts_goes_on_from_its_tree_along_the_game_and_forgets_it_in_a_new_game() {
    // A first search, then one iteration after the line it expects (each
    // command waits for the last search's answer, as a manager does).
    let sizes = |new_game: bool| {
        let engine = Live::start();
        engine.send("setoption name bot value mcts");
        engine.send("position startpos");
        engine.send("go nodes 400");
        let first = engine.until("bestmove");
        let pv: Vec<String> = first
            .iter()
            .find_map(|l| l.strip_prefix("info nodes 400 "))
            .and_then(|l| l.split_once(" pv "))
            .map(|(_, pv)| pv.split_whitespace().map(str::to_string).collect())
            .expect("an info line with the variation");
        assert!(pv.len() >= 2, "{first:?}");
        assert_eq!(bestmoves(&first), [pv[0].as_str()]);
        if new_game {
            engine.send("uginewgame");
        }
        engine.send(&format!("position startpos moves {} {}", pv[0], pv[1]));
        engine.send("go nodes 1");
        let second = engine.until("bestmove");
        (tree_sizes(&first), tree_sizes(&second))
    };
    let (kept_first, kept) = sizes(false);
    let (fresh_first, fresh) = sizes(true);
    assert_eq!(kept_first, fresh_first, "the same first search");
    // One iteration from scratch makes the root and its children; going on
    // from the expected reply keeps what was searched below it.
    let children = fresh[0] - 1;
    assert!(children > 10, "{fresh:?}");
    assert!(kept[0] > fresh[0] + children, "{kept:?} {fresh:?}");
}

#[test]
fn evalfile_chooses_the_evaluation_and_names_a_file_it_cannot_use() {
    let variants = concat!(env!("CARGO_MANIFEST_DIR"), "/../../variants");
    // The errors and the nodes of each iteration of a depth-5 search, with
    // `evalfile` set to `value` first.
    let search = |value: &str| -> (Vec<String>, Vec<String>) {
        let engine = Live::start();
        engine.send(&format!("setoption name evalfile value {value}"));
        engine.send("position startpos moves b1-b3 c7-c5");
        engine.send("go depth 5");
        let out = engine.until("bestmove ");
        let nodes = out
            .iter()
            .filter_map(|l| l.split(" nodes ").nth(1))
            .map(|rest| rest.split(' ').next().unwrap().to_string())
            .collect();
        (
            errors(&out).iter().map(ToString::to_string).collect(),
            nodes,
        )
    };
    let own = search("");
    assert!(own.0.is_empty(), "{own:?}");
    // The standard game's own evaluation is its shipped file.
    let shipped = search(&format!("{variants}/standard.eval"));
    assert_eq!(shipped, own);
    let generic = search("generic");
    assert!(generic.0.is_empty(), "{generic:?}");
    assert_ne!(generic.1, own.1, "another evaluation, another tree");
    // Another variant's file: named at `go`, which searches with the own.
    let (errors_hex, nodes_hex) = search(&format!("{variants}/hex.eval"));
    assert_eq!(errors_hex.len(), 1, "{errors_hex:?}");
    assert!(
        errors_hex[0].contains("hex.eval") && errors_hex[0].contains("trained on other rules"),
        "{errors_hex:?}"
    );
    assert_eq!(nodes_hex, own.1);
    // A file that does not read is refused at once; the engine goes on.
    let out = run("setoption name evalfile value /no/such/file.eval\nisready\nquit\n");
    let e = errors(&out);
    assert_eq!(e.len(), 1, "{out:?}");
    assert!(e[0].starts_with("evalfile `/no/such/file.eval`: "), "{e:?}");
    assert!(out.iter().any(|l| l == "readyok"), "{out:?}");
}

#[test]
fn a_search_names_its_evaluation_when_it_changes() {
    let out = run("position startpos\ngo depth 1\ngo depth 1\n\
         setoption name evalfile value generic\ngo depth 1\nquit\n");
    let named: Vec<&str> = out
        .iter()
        .filter_map(|l| l.strip_prefix("info string evaluation "))
        .collect();
    assert_eq!(named.len(), 2, "{out:?}");
    assert!(
        named[0].starts_with("trained: ") && named[0].contains("(shipped standard.eval, sha256:"),
        "{named:?}"
    );
    assert_eq!(named[1], "generic features");
}

#[test]
fn threads_up_to_the_cores_are_accepted_and_a_search_on_two_answers_a_legal_move() {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let out = run("ugi\nquit\n");
    assert!(
        out.contains(&format!(
            "option name threads type spin default 1 min 1 max {cores}"
        )),
        "{out:?}"
    );
    // Two threads even on one core: the option's bound is the machine's,
    // so on one core `2` is refused and the search runs on one.
    let engine = Live::start();
    engine.send("setoption name threads value 2");
    engine.send("position startpos moves b1-b3");
    engine.send("go movetime 200");
    let out = engine.until("bestmove");
    if cores >= 2 {
        assert!(errors(&out).is_empty(), "{out:?}");
    }
    let mut game = Game::new(&Variant::standard());
    game.play_str("b1-b3").unwrap();
    game.play_str(bestmoves(&out)[0]).unwrap();
    // A depth search on two threads reports every iteration.
    engine.send("go depth 4");
    let out = engine.until("bestmove");
    assert_eq!(
        out.iter().filter(|l| l.starts_with("info depth")).count(),
        4,
        "{out:?}"
    );
    // Out of range: an error naming the bound.
    let out = run(&format!(
        "setoption name threads value 0\nsetoption name threads value {}\nquit\n",
        cores + 1
    ));
    let e = errors(&out);
    assert_eq!(e.len(), 2, "{out:?}");
    assert!(e[1].contains(&format!("from 1 to {cores}")), "{}", e[1]);
}
