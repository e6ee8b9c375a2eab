//! External engines: a bot that asks another program for its moves over UGI
//! (`docs/engine-protocol.md`), such as an older build of Murus, so that
//! `murus match`, self-play and the studio can play it.
//!
//! The spec is `ugi:[SETTING …] COMMAND [ARG …]`. The words after `ugi:`
//! are split at white space (no quoting); leading words of the form
//! `KEY=VALUE` are settings, the rest is the command:
//!
//! | setting | effect |
//! |---|---|
//! | `nodes=N`, `depth=D`, `movetime=MS` | the limits of each `go` (none: a plain `go`, the engine's own budget) |
//! | any other `NAME=VALUE` | `setoption name NAME value VALUE` before the game |
//!
//! ```
//! use murus_ai::BotSpec;
//!
//! let spec: BotSpec = "ugi:movetime=100 bot=hard ./old/murus ugi".parse().unwrap();
//! assert_eq!(spec.to_string(), "ugi:movetime=100 bot=hard ./old/murus ugi");
//! assert!("ugi:".parse::<BotSpec>().is_err());
//! ```
//!
//! The engine is started on the bot's first move and ends with the bot. A
//! Murus engine (one that offers a `variant` option) is told the variant: its
//! rules are written to a file in the system's temporary folder, named by the
//! rules' hash, and `setoption name variant value FILE` names it. Each move
//! sends the game from its start (`position fen START moves …`), so the
//! engine sees the game's repetitions, then `go` with the spec's limits.

use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use murus_engine::job::Handler;
use murus_engine::util::fnv1a;
use murus_engine::{Move, Position, Variant};

/// The settings that are limits of each `go`, not options.
const LIMITS: [&str; 3] = ["nodes", "depth", "movetime"];

/// An external engine's command and settings.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct UgiSpec {
    /// `KEY=VALUE` settings, in the order given.
    pub settings: Vec<(String, String)>,
    /// The program and its arguments.
    pub command: Vec<String>,
}

impl UgiSpec {
    /// Parses the part after `ugi:`; `None` without a command.
    pub fn parse(text: &str) -> Option<UgiSpec> {
        let mut settings = Vec::new();
        let mut words = text.split_whitespace().peekable();
        while let Some(w) = words.peek() {
            match w.split_once('=') {
                Some((k, v)) if !k.is_empty() && !k.contains('/') => {
                    settings.push((k.to_string(), v.to_string()));
                    words.next();
                }
                _ => break,
            }
        }
        let command: Vec<String> = words.map(str::to_string).collect();
        (!command.is_empty()).then_some(UgiSpec { settings, command })
    }

    fn limit(&self, key: &str) -> Option<&str> {
        self.settings
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The `go` command of each move.
    fn go(&self) -> String {
        let mut go = String::from("go");
        for key in LIMITS {
            if let Some(v) = self.limit(key) {
                go.push_str(&format!(" {key} {v}"));
            }
        }
        go
    }
}

impl fmt::Display for UgiSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let words: Vec<String> = self
            .settings
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .chain(self.command.iter().cloned())
            .collect();
        write!(f, "ugi:{}", words.join(" "))
    }
}

/// What went wrong with an external engine.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("engine `{command}`: {what}")]
pub struct ExternalError {
    /// The command line, as the spec gives it.
    pub command: String,
    /// What happened: it could not start, it exited, it did not answer in
    /// time, or it named an illegal move.
    pub what: String,
}

/// How long an engine may take to answer `ugi` or `isready`.
const HANDSHAKE: Duration = Duration::from_secs(30);
/// How long past its move time (or a stop) an engine may take to answer.
const GRACE: Duration = Duration::from_secs(30);

/// A running external engine.
#[derive(Debug)]
pub struct UgiEngine {
    spec: UgiSpec,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// Options the engine offered in its handshake.
    options: Vec<String>,
    /// The rules file the engine was last told to load.
    variant: Option<PathBuf>,
}

impl UgiEngine {
    /// Starts the engine and waits for its `ugiok`.
    pub fn start(spec: &UgiSpec) -> Result<UgiEngine, ExternalError> {
        let error = |what: String| ExternalError {
            command: spec.command.join(" "),
            what,
        };
        let mut child = Command::new(&spec.command[0])
            .args(&spec.command[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| error(format!("cannot start it: {e}")))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, lines) = channel();
        std::thread::Builder::new()
            .name("murus-ugi-client".into())
            .spawn(move || {
                for line in BufReader::new(stdout).lines() {
                    let Ok(line) = line else { break };
                    if tx.send(line).is_err() {
                        break;
                    }
                }
            })
            .map_err(|e| error(format!("cannot read its output: {e}")))?;
        let mut engine = UgiEngine {
            spec: spec.clone(),
            child,
            stdin,
            lines,
            options: Vec::new(),
            variant: None,
        };
        engine.send("ugi")?;
        let hello = engine.until("ugiok", Some(Instant::now() + HANDSHAKE), &())?;
        engine.options = hello
            .iter()
            .filter_map(|l| l.strip_prefix("option name "))
            .filter_map(|l| l.split_whitespace().next())
            .map(str::to_ascii_lowercase)
            .collect();
        for (k, v) in &spec.settings {
            if !LIMITS.contains(&k.as_str()) {
                engine.send(&format!("setoption name {k} value {v}"))?;
            }
        }
        Ok(engine)
    }

    fn error(&self, what: String) -> ExternalError {
        ExternalError {
            command: self.spec.command.join(" "),
            what,
        }
    }

    fn send(&mut self, line: &str) -> Result<(), ExternalError> {
        let Err(e) = writeln!(self.stdin, "{line}").and_then(|()| self.stdin.flush()) else {
            return Ok(());
        };
        // A closed pipe is most often an engine that exited: say so.
        for _ in 0..40 {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Err(self.error(format!("it exited ({status}) before `{line}`")));
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        Err(self.error(format!("it stopped reading ({e}) before `{line}`")))
    }

    /// Reads lines up to the first that starts with `prefix`. An `info
    /// string error` line is the engine refusing a command: an error. Past
    /// `deadline` it is an error; once `handler` says stop, `stop` is sent
    /// and the engine has [`GRACE`] to answer.
    fn until(
        &mut self,
        prefix: &str,
        mut deadline: Option<Instant>,
        handler: &dyn Handler,
    ) -> Result<Vec<String>, ExternalError> {
        let mut seen = Vec::new();
        let mut stopped = false;
        loop {
            if !stopped && handler.stop() {
                stopped = true;
                self.send("stop")?;
                deadline = Some(Instant::now() + GRACE);
            }
            match self.lines.recv_timeout(Duration::from_millis(20)) {
                Ok(line) => {
                    if let Some(e) = line.strip_prefix("info string error ") {
                        return Err(self.error(format!("it refused: {e}")));
                    }
                    let done = line.starts_with(prefix);
                    seen.push(line);
                    if done {
                        return Ok(seen);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    if deadline.is_some_and(|d| Instant::now() >= d) {
                        return Err(self.error(format!("no `{prefix}` in time")));
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    let status = self
                        .child
                        .wait()
                        .map_or_else(|e| e.to_string(), |s| s.to_string());
                    return Err(self.error(format!("it exited ({status}) before `{prefix}`")));
                }
            }
        }
    }

    /// Tells a Murus engine the variant, through a rules file named by the
    /// rules' hash.
    fn load_variant(&mut self, variant: &Variant) -> Result<(), ExternalError> {
        if !self.options.iter().any(|o| o == "variant") {
            return Ok(());
        }
        let path = std::env::temp_dir().join(format!(
            "murus-ugi-{:016x}.mg",
            fnv1a(variant.source().as_bytes())
        ));
        if self.variant.as_ref() == Some(&path) {
            return Ok(());
        }
        if std::fs::read_to_string(&path).ok().as_deref() != Some(variant.source()) {
            // Written whole, then renamed: engines of parallel games (in
            // this process or another) may read it.
            murus_engine::util::write_atomic(&path, variant.source())
                .map_err(|e| self.error(format!("cannot write it: {e}")))?;
        }
        self.send(&format!("setoption name variant value {}", path.display()))?;
        self.variant = Some(path);
        Ok(())
    }

    /// The engine's move in the game that started at `start` and went on
    /// with `moves`; once `handler` says stop, it is told to answer at
    /// once.
    pub fn choose(
        &mut self,
        variant: &Variant,
        start: &Position,
        moves: &[Move],
        handler: &dyn Handler,
    ) -> Result<Move, ExternalError> {
        self.load_variant(variant)?;
        self.send("isready")?;
        self.until("readyok", Some(Instant::now() + HANDSHAKE), handler)?;
        let mut position = format!("position fen {}", variant.position_string(start));
        let mut pos = *start;
        if !moves.is_empty() {
            position.push_str(" moves");
            for &m in moves {
                position.push(' ');
                position.push_str(&variant.move_to_string(m));
                pos = variant.play(&pos, m);
            }
        }
        self.send(&position)?;
        let go = self.spec.go();
        self.send(&go)?;
        let deadline = self
            .spec
            .limit("movetime")
            .and_then(|ms| ms.parse::<u64>().ok())
            .map(|ms| Instant::now() + Duration::from_millis(ms) + GRACE);
        let answer = self.until("bestmove", deadline, handler)?;
        let last = answer.last().expect("until returns the line it found");
        let text = last["bestmove".len()..].trim();
        let text = text.split_whitespace().next().unwrap_or("");
        variant
            .parse_move(&pos, text)
            .map_err(|e| self.error(format!("its move {e}")))
    }
}

impl Drop for UgiEngine {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        // A second to quit, then it is killed.
        let until = Instant::now() + Duration::from_secs(1);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_come_first_and_the_rest_is_the_command() {
        let s =
            UgiSpec::parse("nodes=5000 bot=mcts:200 /opt/murus-old/murus ugi standard").unwrap();
        assert_eq!(
            s.settings,
            [
                ("nodes".to_string(), "5000".to_string()),
                ("bot".to_string(), "mcts:200".to_string())
            ]
        );
        assert_eq!(s.command, ["/opt/murus-old/murus", "ugi", "standard"]);
        assert_eq!(s.go(), "go nodes 5000");
        // A path with `=` in a folder name is the command, not a setting.
        let s = UgiSpec::parse("./a=b/engine").unwrap();
        assert!(s.settings.is_empty());
        assert_eq!(UgiSpec::parse("movetime=100"), None);
        assert_eq!(UgiSpec::parse("  "), None);
        let s = UgiSpec::parse("depth=3 movetime=50 e").unwrap();
        assert_eq!(s.go(), "go depth 3 movetime 50");
        assert_eq!(s.to_string(), "ugi:depth=3 movetime=50 e");
    }
}
