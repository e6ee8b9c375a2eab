//! `murus ugi` driven as a tournament manager drives an engine: commands on
//! its stdin, answers read from its stdout as they come.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use murus_engine::{Game, Variant};

use crate::util::{TempDir, command, murus};

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start(args: &[&str]) -> Engine {
        let mut child = command()
            .arg("ugi")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the murus binary runs");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
        }
    }
    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }
    /// The lines up to and including the first starting with `prefix`.
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
    /// Sends `quit` and returns the exit status and stderr.
    fn quit(mut self) -> (std::process::ExitStatus, String) {
        self.send("quit");
        let out = self.child.wait_with_output().unwrap();
        (
            out.status,
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }
}

#[test]
fn murus_ugi_plays_a_game_on_a_rule_file_and_answers_queries() {
    let mut e = Engine::start(&[]);
    e.send("ugi");
    let hello = e.until("ugiok");
    assert!(hello[0].starts_with("id name Murus"), "{hello:?}");
    e.send("setoption name variant value variants/hex.mg");
    e.send("isready");
    assert_eq!(e.until("readyok"), ["readyok"], "the hex file loads");
    e.send("uginewgame");
    e.send("position startpos");
    e.send("go movetime 100");
    let search = e.until("bestmove");
    let best = search
        .last()
        .unwrap()
        .strip_prefix("bestmove ")
        .unwrap()
        .to_string();
    assert!(
        search.iter().any(|l| l.starts_with("info depth")),
        "{search:?}"
    );
    e.send(&format!("position startpos moves {best}"));
    e.send("query p1turn");
    assert_eq!(e.until("response"), ["response false"]);
    e.send("query result");
    assert_eq!(e.until("response"), ["response none"]);
    let (status, _) = e.quit();
    assert!(status.success());
}

/// The bot option takes a level's name, as every bot spec does.
#[test]
fn the_bot_option_takes_a_level() {
    let mut e = Engine::start(&["small"]);
    e.send("setoption name bot value easy");
    e.send("isready");
    assert_eq!(e.until("readyok"), ["readyok"], "`easy` is a bot");
    e.send("position startpos");
    e.send("go");
    let search = e.until("bestmove");
    assert!(!search.iter().any(|l| l.contains("error")), "{search:?}");
    e.send("setoption name bot value eazy");
    e.send("isready");
    let out = e.until("readyok");
    assert!(out[0].contains("unknown bot `eazy`"), "{out:?}");
    let (status, _) = e.quit();
    assert!(status.success());
}

#[test]
fn a_broken_rule_file_is_an_error_line_with_its_diagnostics_on_stderr() {
    let dir = TempDir::new("ugi-bad-rules");
    let bad = dir.write("bad.mg", "variant \"bad\"\nboard rect 8 x\n");
    let mut e = Engine::start(&["advanced"]);
    e.send(&format!("setoption name variant value {}", bad.display()));
    e.send("isready");
    let out = e.until("readyok");
    assert!(
        out[0].starts_with("info string error variant `") && out[0].contains("has errors"),
        "{out:?}"
    );
    // Still on Advanced: 32 moves from the start, the catapult-making a1-c1 among them.
    e.send("position startpos moves a1-c1");
    e.send("query turn");
    assert_eq!(e.until("response"), ["response g"]);
    let (status, stderr) = e.quit();
    assert!(status.success());
    assert!(
        stderr.contains("bad.mg:2:"),
        "the diagnostic names the file and line: {stderr}"
    );
}

#[test]
fn an_unknown_starting_variant_fails_before_the_protocol_starts() {
    let out = command()
        .args(["ugi", "no-such-variant"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown variant `no-such-variant`"));
    assert!(out.stdout.is_empty());
}

/// This build of Murus as an external engine: `ugi:SETTINGS murus ugi`.
fn engine(settings: &str) -> String {
    format!("ugi:{settings} {} ugi", env!("CARGO_BIN_EXE_murus"))
}

#[test]
fn a_match_against_an_external_engine_plays_its_games() {
    let ext = engine("nodes=300");
    let o = murus(&[
        "match",
        "standard",
        &ext,
        "alphabeta:300",
        "--games",
        "4",
        "--json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(j["games"], 4, "{j}");
}

#[test]
fn self_play_of_an_external_engine_on_a_rule_file_keeps_legal_games() {
    let dir = TempDir::new("ugi-selfplay");
    let ext = engine("depth=1 bot=alphabeta");
    let o = murus(&[
        "selfplay",
        "variants/hex.mg",
        "--games",
        "2",
        "--bots",
        &format!("{ext},greedy"),
        "--out",
        dir.to_str().unwrap(),
        "--json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let games = std::fs::read_to_string(dir.join("games.jsonl")).unwrap();
    let hex = Variant::builtin("hex").unwrap();
    for line in games.lines() {
        let g: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(g["seats"][0], ext.as_str(), "{g}");
        let mut game = Game::new(&hex);
        for m in g["moves"].as_array().unwrap() {
            game.play_str(m.as_str().unwrap()).unwrap();
        }
        assert!(game.outcome().is_some(), "{g}");
    }
}

#[test]
fn an_external_engine_that_fails_stops_the_run_with_a_clear_error() {
    for (ext, says) in [
        ("ugi:/no/such/engine --flag".to_string(), "cannot start it"),
        (engine("bot=nonsense"), "it refused: bot:"),
        ("ugi:true".to_string(), "exited"),
    ] {
        let o = murus(&[
            "match",
            "standard",
            &ext,
            "random",
            "--games",
            "2",
            "--threads",
            "1",
        ]);
        assert!(!o.status.success(), "{ext}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("game 1: engine `"), "{ext}: {err}");
        assert!(err.contains(says), "{ext}: {err}");
    }
    let o = murus(&["match", "standard", "ugi:", "random"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("needs its command"));
}
