//! A load client for the playtest server: many human-vs-human games played
//! at once through the real HTTP API over TCP, as the players' pages play
//! them, each move's latency measured. `murus bench serve` prints its
//! figures; a test plays a small load and checks every move and record.
//!
//! Each game's two players behave as `play.js` does: each holds the game's
//! event stream open (`GET /api/games/{id}/events`, Server-Sent Events)
//! and, when told of a change, draws the board (`GET …/board.svg?ply=N`)
//! on its own keep-alive connection; the seat to move thinks (a seeded
//! time), then plays a legal move (seeded, from `legal_moves`) at the ply
//! it was shown (`POST …/moves`), its latency timed from sending the
//! request to reading the whole answer. Any answer but 200 is an error.
//!
//! The HTTP client is a small HTTP/1.1 one over tokio's `TcpStream`
//! (requests with `Content-Length`, answers with `Content-Length` or
//! chunked), enough for this server; it is no general client.

use std::io;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use murus_engine::util::{SplitMix64, fnv1a};
use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

use crate::Server;

/// What a load is: how many games, how long each, how players think.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Games played at once.
    pub games: usize,
    /// Plies a game is played to (or to its end, if sooner).
    pub plies: usize,
    /// A player's think time before each move, uniformly from the first to
    /// the second (both zero: flat out).
    pub think: (Duration, Duration),
    /// The seed of the moves chosen and the think times.
    pub seed: u64,
    /// The variant played (a name the server serves).
    pub variant: String,
    /// How long a game may take before its players give up (an error).
    pub patience: Duration,
}

impl Plan {
    /// People-like: 0.5 to 1.5 s of thought a move.
    pub fn people(games: usize, plies: usize) -> Plan {
        Plan {
            games,
            plies,
            think: (Duration::from_millis(500), Duration::from_millis(1500)),
            seed: 1,
            variant: "standard".into(),
            patience: Duration::from_secs(120),
        }
    }

    /// Flat out: no thought, every move played as soon as it is shown.
    pub fn flat_out(games: usize, plies: usize) -> Plan {
        Plan {
            think: (Duration::ZERO, Duration::ZERO),
            ..Plan::people(games, plies)
        }
    }

    /// The think time before the move at `ply` of game `game`.
    fn think_time(&self, game: usize, ply: usize) -> Duration {
        let (lo, hi) = self.think;
        if hi <= lo {
            return lo;
        }
        let span = (hi - lo).as_micros() as u64;
        let r = self.draw(game, ply, b"think") % (span + 1);
        lo + Duration::from_micros(r)
    }

    /// A seeded draw for game `game` at `ply`, for `what`.
    fn draw(&self, game: usize, ply: usize, what: &[u8]) -> u64 {
        let mut key = format!("{}/{game}/{ply}/", self.seed).into_bytes();
        key.extend_from_slice(what);
        SplitMix64(fnv1a(&key)).next()
    }
}

/// A game the load played: its id and the moves its players had answered.
#[derive(Clone, Debug)]
pub struct Played {
    pub id: String,
    /// Moves answered 200, in order.
    pub moves: Vec<String>,
}

/// What a load did.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// The games played.
    pub games: Vec<Played>,
    /// Each move's latency (send to answer), sorted.
    pub latencies: Vec<Duration>,
    /// Wall time from the first player's start to the last one's end.
    pub seconds: f64,
    /// Every error: a non-200 answer, a broken connection, a game that
    /// took too long.
    pub errors: Vec<String>,
    /// Board drawings fetched (each answered 200).
    pub boards: u64,
}

impl Report {
    /// Moves answered 200.
    pub fn moves(&self) -> usize {
        self.latencies.len()
    }

    /// Moves a second over the run.
    pub fn moves_per_second(&self) -> f64 {
        self.moves() as f64 / self.seconds.max(1e-9)
    }

    /// The nearest-rank percentile `p` of the move latencies.
    pub fn latency(&self, p: f64) -> Duration {
        murus_engine::util::percentile(&self.latencies, p)
    }
}

/// Plays `plan` against the server at `addr`: makes the games, then plays
/// them all at once.
pub async fn run(addr: SocketAddr, plan: &Plan) -> Report {
    let plan = Arc::new(plan.clone());
    let mut report = Report::default();
    let mut made = Vec::new();
    let mut conn = Conn::new(addr);
    for game in 0..plan.games {
        match new_game(&mut conn, &plan.variant).await {
            Ok(g) => made.push((game, g)),
            Err(e) => report.errors.push(format!("making game {game}: {e}")),
        }
    }
    let start = Instant::now();
    let mut tasks = Vec::new();
    for (game, (id, tokens)) in made {
        for (seat, token) in tokens.into_iter().enumerate() {
            let plan = plan.clone();
            let id = id.clone();
            tasks.push(tokio::spawn(async move {
                let mut p = Player::new(addr, game, seat, id, token);
                let out = tokio::time::timeout(plan.patience, p.play(&plan)).await;
                let error = match out {
                    Ok(Ok(())) => None,
                    Ok(Err(e)) => Some(format!("game {game}, seat {seat}: {e}")),
                    Err(_) => Some(format!(
                        "game {game}, seat {seat}: not over within {:?}",
                        plan.patience
                    )),
                };
                (p, error)
            }));
        }
    }
    let mut by_game: std::collections::BTreeMap<usize, Vec<Player>> = Default::default();
    for t in tasks {
        match t.await {
            Ok((p, error)) => {
                report.errors.extend(error);
                by_game.entry(p.game).or_default().push(p);
            }
            Err(e) => report.errors.push(format!("a player's task failed: {e}")),
        }
    }
    report.seconds = start.elapsed().as_secs_f64();
    for (_, players) in by_game {
        let mut moves: Vec<(usize, String)> = Vec::new();
        for p in &players {
            report.latencies.extend(p.latencies.iter().copied());
            report.boards += p.boards;
            moves.extend(p.played.iter().cloned());
        }
        moves.sort();
        report.games.push(Played {
            id: players[0].id.clone(),
            moves: moves.into_iter().map(|(_, m)| m).collect(),
        });
    }
    report.latencies.sort();
    report
}

/// A new human-vs-human game of `variant`: its id and the seats' tokens.
async fn new_game(conn: &mut Conn, variant: &str) -> io::Result<(String, Vec<String>)> {
    let body = serde_json::json!({ "variant": variant, "seats": ["human", "human"] }).to_string();
    let (status, answer) = conn
        .request("POST", "/api/games", None, Some(&body))
        .await?;
    if status != 201 {
        return Err(bad(format!("POST /api/games answered {status}")));
    }
    let v: Value = serde_json::from_slice(&answer).map_err(|e| bad(e.to_string()))?;
    let id = v["id"].as_str().ok_or_else(|| bad("no id".into()))?;
    let tokens = v["seats"]
        .as_array()
        .map(|s| {
            s.iter()
                .filter_map(|s| s["token"].as_str().map(str::to_string))
                .collect::<Vec<_>>()
        })
        .unwrap_or_default();
    if tokens.len() != 2 {
        return Err(bad("not two seats with tokens".into()));
    }
    Ok((id.to_string(), tokens))
}

fn bad(message: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, message)
}

/// One seat of one game, as its page plays it.
struct Player {
    addr: SocketAddr,
    game: usize,
    seat: usize,
    id: String,
    token: String,
    /// The moves this seat had answered 200, with their plies.
    played: Vec<(usize, String)>,
    latencies: Vec<Duration>,
    boards: u64,
    /// The ply of the board drawn last.
    board_ply: Option<usize>,
}

impl Player {
    fn new(addr: SocketAddr, game: usize, seat: usize, id: String, token: String) -> Player {
        Player {
            addr,
            game,
            seat,
            id,
            token,
            played: Vec::new(),
            latencies: Vec::new(),
            boards: 0,
            board_ply: None,
        }
    }

    /// Plays until the game is over or at the plan's ply.
    async fn play(&mut self, plan: &Plan) -> io::Result<()> {
        let api = format!("/api/games/{}", self.id);
        let mut events = Events::open(self.addr, &format!("{api}/events")).await?;
        let mut conn = Conn::new(self.addr);
        let mut seen: Option<usize> = None;
        loop {
            let view = events.next_game().await?;
            let ply = view["ply"].as_u64().unwrap_or(0) as usize;
            if seen.is_some_and(|s| ply <= s) {
                continue; // an older or the same state again
            }
            seen = Some(ply);
            let mut view = view;
            loop {
                self.draw_board(&mut conn, &api, &view).await?;
                let ply = view["ply"].as_u64().unwrap_or(0) as usize;
                if view["to_move_seat"].is_null() || ply >= plan.plies {
                    return Ok(());
                }
                if view["to_move_seat"].as_u64() != Some(self.seat as u64) {
                    break;
                }
                view = self.move_at(&mut conn, &api, plan, &view, ply).await?;
                seen = Some(ply + 1);
            }
        }
    }

    /// Draws the board of `view` when its ply is new, as the page does.
    async fn draw_board(&mut self, conn: &mut Conn, api: &str, view: &Value) -> io::Result<()> {
        let ply = view["ply"].as_u64().unwrap_or(0) as usize;
        if self.board_ply == Some(ply) {
            return Ok(());
        }
        let path = format!("{api}/board.svg?ply={ply}");
        let (status, _) = conn.request("GET", &path, None, None).await?;
        if status != 200 {
            return Err(bad(format!("GET {path} answered {status}")));
        }
        self.boards += 1;
        self.board_ply = Some(ply);
        Ok(())
    }

    /// Thinks, then plays a seeded legal move at `ply`: the game as the
    /// answer shows it.
    async fn move_at(
        &mut self,
        conn: &mut Conn,
        api: &str,
        plan: &Plan,
        view: &Value,
        ply: usize,
    ) -> io::Result<Value> {
        let legal: Vec<&str> = view["legal_moves"]
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        if legal.is_empty() {
            return Err(bad(format!("no legal moves at ply {ply}")));
        }
        let think = plan.think_time(self.game, ply);
        if !think.is_zero() {
            tokio::time::sleep(think).await;
        }
        let pick = plan.draw(self.game, ply, b"move") % legal.len() as u64;
        let text = legal[pick as usize].to_string();
        let body = serde_json::json!({ "move": text, "ply": ply }).to_string();
        let path = format!("{api}/moves");
        let t = Instant::now();
        let (status, answer) = conn
            .request("POST", &path, Some(&self.token), Some(&body))
            .await?;
        let latency = t.elapsed();
        if status != 200 {
            return Err(bad(format!(
                "POST {path} {text} at ply {ply} answered {status}: {}",
                String::from_utf8_lossy(&answer)
            )));
        }
        self.latencies.push(latency);
        self.played.push((ply, text));
        serde_json::from_slice(&answer).map_err(|e| bad(e.to_string()))
    }
}

/// A keep-alive HTTP/1.1 connection, made when first needed.
struct Conn {
    addr: SocketAddr,
    stream: Option<BufReader<TcpStream>>,
}

impl Conn {
    fn new(addr: SocketAddr) -> Conn {
        Conn { addr, stream: None }
    }

    /// `method path` with the bearer `token` and a JSON `body`: the
    /// answer's status and body.
    async fn request(
        &mut self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&str>,
    ) -> io::Result<(u16, Vec<u8>)> {
        if self.stream.is_none() {
            let s = TcpStream::connect(self.addr).await?;
            s.set_nodelay(true)?;
            self.stream = Some(BufReader::new(s));
        }
        let Some(stream) = self.stream.as_mut() else {
            unreachable!("connected above")
        };
        let mut req = format!("{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n");
        if let Some(t) = token {
            req.push_str(&format!("Authorization: Bearer {t}\r\n"));
        }
        let body = body.unwrap_or("");
        if !body.is_empty() {
            req.push_str("Content-Type: application/json\r\n");
        }
        req.push_str(&format!("Content-Length: {}\r\n\r\n{body}", body.len()));
        stream.get_mut().write_all(req.as_bytes()).await?;
        let head = read_head(stream).await?;
        let answer = match head.length {
            Some(n) => {
                let mut b = vec![0; n];
                stream.read_exact(&mut b).await?;
                b
            }
            None if head.chunked => {
                let mut b = Vec::new();
                while let Some(chunk) = read_chunk(stream).await? {
                    b.extend_from_slice(&chunk);
                }
                b
            }
            None => return Err(bad("an answer without a length".into())),
        };
        if head.close {
            self.stream = None;
        }
        Ok((head.status, answer))
    }
}

/// An answer's status line and the headers the client needs.
struct Head {
    status: u16,
    length: Option<usize>,
    chunked: bool,
    close: bool,
}

async fn read_head(stream: &mut BufReader<TcpStream>) -> io::Result<Head> {
    let mut line = String::new();
    if stream.read_line(&mut line).await? == 0 {
        return Err(io::Error::new(
            io::ErrorKind::UnexpectedEof,
            "the server closed the connection",
        ));
    }
    let status = line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| bad(format!("not an HTTP status line: {line:?}")))?;
    let mut head = Head {
        status,
        length: None,
        chunked: false,
        close: false,
    };
    loop {
        line.clear();
        if stream.read_line(&mut line).await? == 0 {
            return Err(bad("the headers end early".into()));
        }
        let l = line.trim_end();
        if l.is_empty() {
            return Ok(head);
        }
        let Some((name, value)) = l.split_once(':') else {
            continue;
        };
        let (name, value) = (name.trim().to_ascii_lowercase(), value.trim());
        match name.as_str() {
            "content-length" => head.length = value.parse().ok(),
            "transfer-encoding" => head.chunked = value.eq_ignore_ascii_case("chunked"),
            "connection" => head.close = value.eq_ignore_ascii_case("close"),
            _ => {}
        }
    }
}

/// One chunk of a chunked body; `None` at its end.
async fn read_chunk(stream: &mut BufReader<TcpStream>) -> io::Result<Option<Vec<u8>>> {
    let mut line = String::new();
    if stream.read_line(&mut line).await? == 0 {
        return Err(io::Error::new(
            io::ErrorKind::UnexpectedEof,
            "the stream ended",
        ));
    }
    let size = line.trim().split(';').next().unwrap_or("");
    let n = usize::from_str_radix(size, 16).map_err(|_| bad(format!("a chunk size {size:?}")))?;
    let mut chunk = vec![0; n + 2];
    stream.read_exact(&mut chunk).await?;
    chunk.truncate(n);
    if n == 0 {
        // The trailer's end was read with it.
        return Ok(None);
    }
    Ok(Some(chunk))
}

/// A game's event stream (Server-Sent Events over a chunked answer).
struct Events {
    stream: BufReader<TcpStream>,
    text: String,
}

impl Events {
    async fn open(addr: SocketAddr, path: &str) -> io::Result<Events> {
        let s = TcpStream::connect(addr).await?;
        s.set_nodelay(true)?;
        let mut stream = BufReader::new(s);
        let req =
            format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n");
        stream.get_mut().write_all(req.as_bytes()).await?;
        let head = read_head(&mut stream).await?;
        if head.status != 200 || !head.chunked {
            return Err(bad(format!("GET {path} answered {}", head.status)));
        }
        Ok(Events {
            stream,
            text: String::new(),
        })
    }

    /// The next `game` event's data, as JSON.
    async fn next_game(&mut self) -> io::Result<Value> {
        loop {
            while let Some(end) = self.text.find("\n\n") {
                let event: String = self.text.drain(..end + 2).collect();
                let mut kind = "";
                let mut data = String::new();
                for line in event.lines() {
                    if let Some(k) = line.strip_prefix("event:") {
                        kind = k.trim();
                    } else if let Some(d) = line.strip_prefix("data:") {
                        data.push_str(d.strip_prefix(' ').unwrap_or(d));
                    }
                }
                if kind == "game" {
                    return serde_json::from_str(&data).map_err(|e| bad(e.to_string()));
                }
            }
            let Some(chunk) = read_chunk(&mut self.stream).await? else {
                return Err(bad("the event stream ended".into()));
            };
            self.text.push_str(&String::from_utf8_lossy(&chunk));
        }
    }
}

/// A fresh, empty data folder under the system's temporary folder.
pub fn temp_folder(label: &str) -> io::Result<PathBuf> {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let dir = std::env::temp_dir().join(format!("murus-{label}-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

/// Serves `server` on 127.0.0.1 at a free port, as `murus serve` does,
/// on the current tokio runtime: the address.
pub async fn listen(server: &Server) -> io::Result<SocketAddr> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let router = server.router();
    tokio::spawn(async move {
        let _ = axum::serve(listener, router).await;
    });
    Ok(addr)
}

/// What is wrong with the games of `report` as `server` keeps them: each
/// game must replay from its record, and its moves be the ones its
/// players were answered 200 for, in order. Empty when all is well.
pub fn check(server: &Server, report: &Report) -> Vec<String> {
    let s = &server.shared;
    let mut wrong = Vec::new();
    for g in &report.games {
        match crate::games::Loaded::load(&s.store, &s.variants, &g.id) {
            Ok(loaded) if loaded.row.moves == g.moves => {}
            Ok(loaded) => wrong.push(format!(
                "game {}: kept {} moves, {} answered",
                g.id,
                loaded.row.moves.len(),
                g.moves.len()
            )),
            Err(e) => wrong.push(format!("game {}: {e}", g.id)),
        }
    }
    wrong
}
