//! Sharing rules for playtesting from another program (the studio's
//! "Share for playtesting…"): a playtest server started in this process
//! ([`LocalServer`]), or one running elsewhere, told of the rules and asked
//! for a game through the same JSON API the pages use ([`share`]), and the
//! seats' links it answers.
//!
//! The calls are blocking HTTP/1.1 over a plain TCP connection (the server
//! speaks `http://` only), one connection a call: the few calls sharing
//! makes need no client library.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;
use serde_json::{Value, json};

use crate::Server;
use crate::store::StoreError;

/// Why sharing failed, in words a designer can act on.
#[derive(Debug, thiserror::Error)]
pub enum ShareError {
    #[error("`{0}` is not a server's address: give http://HOST:PORT/ (https is not spoken)")]
    BadUrl(String),
    #[error("no playtest server answers at {url}: {source}")]
    Connect {
        url: String,
        #[source]
        source: std::io::Error,
    },
    #[error("the server at {url} answered {status}: {message}")]
    Refused {
        url: String,
        status: u16,
        message: String,
    },
    #[error("the server at {url} answered something that is not the playtest API's: {why}")]
    Answer { url: String, why: String },
    #[error("cannot start a playtest server: {0}")]
    Start(String),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// A playtest server to share with: its base URL (`http://HOST:PORT`) and
/// the designer's password, if it has one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    base: String,
    host: String,
    password: Option<String>,
}

impl Target {
    /// The server at `url` (`http://HOST:PORT/`, or `HOST:PORT`); the
    /// designer's `password` when it was started with `--password`.
    pub fn new(url: &str, password: Option<&str>) -> Result<Target, ShareError> {
        let t = url.trim();
        let rest = match t.split_once("://") {
            Some(("http", rest)) => rest,
            Some(_) => return Err(ShareError::BadUrl(clip(t))),
            None => t,
        };
        let host = rest.trim_end_matches('/');
        let ok = !host.is_empty()
            && !host.contains(['/', '?', '#', ' ', '@'])
            && host
                .rsplit_once(':')
                .is_some_and(|(h, p)| !h.is_empty() && p.parse::<u16>().is_ok());
        if !ok {
            return Err(ShareError::BadUrl(clip(t)));
        }
        Ok(Target {
            base: format!("http://{host}"),
            host: host.to_string(),
            password: password.filter(|p| !p.is_empty()).map(str::to_string),
        })
    }

    /// The server's base URL, `http://HOST:PORT`.
    pub fn base(&self) -> &str {
        &self.base
    }

    /// `GET path`'s JSON answer.
    pub fn get(&self, path: &str) -> Result<Value, ShareError> {
        self.call("GET", path, None)
    }

    /// `POST path` with `body`'s JSON answer.
    pub fn post(&self, path: &str, body: &Value) -> Result<Value, ShareError> {
        self.call("POST", path, Some(body))
    }

    fn call(&self, method: &str, path: &str, body: Option<&Value>) -> Result<Value, ShareError> {
        let url = format!("{}{path}", self.base);
        let connect = |source| ShareError::Connect {
            url: self.base.clone(),
            source,
        };
        let addr = self
            .host
            .to_socket_addrs()
            .map_err(connect)?
            .next()
            .ok_or_else(|| connect(std::io::ErrorKind::NotFound.into()))?;
        let mut stream =
            TcpStream::connect_timeout(&addr, Duration::from_secs(5)).map_err(connect)?;
        let wait = Some(Duration::from_secs(30));
        stream.set_read_timeout(wait).map_err(connect)?;
        stream.set_write_timeout(wait).map_err(connect)?;
        let body = body.map(Value::to_string).unwrap_or_default();
        let mut head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nAccept: application/json\r\nConnection: close\r\nContent-Length: {}\r\n",
            self.host,
            body.len()
        );
        if !body.is_empty() {
            head.push_str("Content-Type: application/json\r\n");
        }
        if let Some(p) = &self.password {
            head.push_str(&format!(
                "Authorization: Basic {}\r\n",
                base64(format!(":{p}").as_bytes())
            ));
        }
        head.push_str("\r\n");
        stream
            .write_all(head.as_bytes())
            .and_then(|()| stream.write_all(body.as_bytes()))
            .map_err(connect)?;
        let mut answer = Vec::new();
        stream.read_to_end(&mut answer).map_err(connect)?;
        let (status, json) = parse_answer(&answer).map_err(|why| ShareError::Answer {
            url: url.clone(),
            why,
        })?;
        if !(200..300).contains(&status) {
            let message = json
                .get("error")
                .and_then(Value::as_str)
                .unwrap_or("no reason given")
                .to_string();
            return Err(ShareError::Refused {
                url,
                status,
                message,
            });
        }
        Ok(json)
    }
}

fn clip(s: &str) -> String {
    s.chars().take(80).collect()
}

/// The status and JSON body of an HTTP/1.1 answer read to its end.
fn parse_answer(bytes: &[u8]) -> Result<(u16, Value), String> {
    let split = bytes
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or("no end of headers")?;
    let head = std::str::from_utf8(&bytes[..split]).map_err(|_| "headers not UTF-8")?;
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse::<u16>().ok())
        .ok_or("no status line")?;
    let chunked = lines.any(|l| {
        l.split_once(':').is_some_and(|(k, v)| {
            k.trim().eq_ignore_ascii_case("transfer-encoding")
                && v.trim().eq_ignore_ascii_case("chunked")
        })
    });
    let raw = &bytes[split + 4..];
    let body = if chunked { dechunk(raw)? } else { raw.to_vec() };
    let json = serde_json::from_slice(&body).map_err(|e| format!("not JSON ({e})"))?;
    Ok((status, json))
}

/// A chunked body's bytes.
fn dechunk(mut raw: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    loop {
        let line_end = raw
            .windows(2)
            .position(|w| w == b"\r\n")
            .ok_or("a chunk without its size")?;
        let size = std::str::from_utf8(&raw[..line_end])
            .ok()
            .and_then(|s| usize::from_str_radix(s.split(';').next()?.trim(), 16).ok())
            .ok_or("a chunk size that is not hex")?;
        raw = &raw[line_end + 2..];
        if size == 0 {
            return Ok(out);
        }
        let chunk = raw.get(..size).ok_or("a chunk cut short")?;
        out.extend_from_slice(chunk);
        raw = raw.get(size + 2..).ok_or("a chunk cut short")?;
    }
}

/// Standard base64 with padding.
fn base64(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for c in bytes.chunks(3) {
        let n = (u32::from(c[0]) << 16)
            | (u32::from(*c.get(1).unwrap_or(&0)) << 8)
            | u32::from(*c.get(2).unwrap_or(&0));
        for i in 0..4 {
            if i <= c.len() {
                out.push(A[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// A seat's invitation: the player's name, who sits there, and the link
/// for a person's seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invitation {
    /// The player's name in the rules (`White`, …).
    pub player: String,
    /// `human` or a bot level.
    pub kind: String,
    /// The seat's secret link; `None` for a bot's seat.
    pub url: Option<String>,
}

/// A game made for playtesting, and its links.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SharedGame {
    pub id: String,
    /// The rules version's key (hex).
    pub rules_key: String,
    /// The server's base URL.
    pub server: String,
    pub seats: Vec<Invitation>,
    pub spectate_url: String,
    /// The playtest summary of the rules version (designer's page).
    pub summary_url: String,
}

impl SharedGame {
    /// The links as text to paste to the players, one a line.
    pub fn links_text(&self, title: &str) -> String {
        let mut s = format!("Playtest of {title}\n");
        for seat in &self.seats {
            if let Some(url) = &seat.url {
                s.push_str(&format!("{}: {url}\n", seat.player));
            }
        }
        s.push_str(&format!("Spectators: {}\n", self.spectate_url));
        s
    }
}

#[derive(Deserialize)]
struct CreatedSeat {
    #[serde(default)]
    url: Option<String>,
}

#[derive(Deserialize)]
struct Created {
    id: String,
    seats: Vec<CreatedSeat>,
    spectate_url: String,
}

/// Tells the server at `target` of the rules `source` (a rules file's
/// text; `file` its name, for diagnostics) and makes a game of them with
/// `seats` (`human` or a bot level each, in seat order; `players` their
/// names): the game and its links.
pub fn share(
    target: &Target,
    source: &str,
    file: Option<&str>,
    players: &[String],
    seats: &[String],
) -> Result<SharedGame, ShareError> {
    let answer_error = |why: &str| ShareError::Answer {
        url: target.base.clone(),
        why: why.to_string(),
    };
    let kept = target.post("/api/rules", &json!({ "source": source, "file": file }))?;
    let key = kept
        .get("key")
        .and_then(Value::as_str)
        .ok_or_else(|| answer_error("no rules key"))?
        .to_string();
    let created = target.post("/api/games", &json!({ "variant": key, "seats": seats }))?;
    let created: Created =
        serde_json::from_value(created).map_err(|e| answer_error(&e.to_string()))?;
    let absolute = |path: &str| format!("{}{path}", target.base);
    let seats = seats
        .iter()
        .enumerate()
        .map(|(i, kind)| Invitation {
            player: players
                .get(i)
                .cloned()
                .unwrap_or_else(|| format!("seat {}", i + 1)),
            kind: kind.clone(),
            url: created
                .seats
                .get(i)
                .and_then(|s| s.url.as_deref())
                .map(absolute),
        })
        .collect();
    Ok(SharedGame {
        summary_url: absolute(&format!("/rules/{key}/summary")),
        id: created.id,
        rules_key: key,
        server: target.base.clone(),
        seats,
        spectate_url: absolute(&created.spectate_url),
    })
}

/// A playtest server running in this process, on its own thread, until
/// it is dropped: the shipped variants served, its games kept in a data
/// folder as `murus serve`'s are.
#[derive(Debug)]
pub struct LocalServer {
    addr: SocketAddr,
    data: PathBuf,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl LocalServer {
    /// Starts a server over the database in `data`, listening on the
    /// first of `addrs` free (loopback addresses: this machine only).
    pub fn start(data: &Path, addrs: &[SocketAddr]) -> Result<LocalServer, ShareError> {
        let server = Server::open(data)?;
        server.add_shipped()?;
        let listener = addrs
            .iter()
            .find_map(|a| std::net::TcpListener::bind(a).ok())
            .ok_or_else(|| {
                ShareError::Start(format!(
                    "none of {} is free",
                    addrs
                        .iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
            })?;
        let addr = listener
            .local_addr()
            .map_err(|e| ShareError::Start(e.to_string()))?;
        listener
            .set_nonblocking(true)
            .map_err(|e| ShareError::Start(e.to_string()))?;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .map_err(|e| ShareError::Start(e.to_string()))?;
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let (ready, started) = std::sync::mpsc::channel();
        let thread = std::thread::Builder::new()
            .name("murus-serve".to_string())
            .spawn(move || {
                runtime.block_on(async move {
                    let listener = match tokio::net::TcpListener::from_std(listener) {
                        Ok(l) => l,
                        Err(e) => {
                            let _ = ready.send(Err(e.to_string()));
                            return;
                        }
                    };
                    if let Err(e) = server.resume_bots() {
                        let _ = ready.send(Err(e.to_string()));
                        return;
                    }
                    let _ = ready.send(Ok(()));
                    let _ = axum::serve(listener, server.router())
                        .with_graceful_shutdown(async {
                            let _ = stopped.await;
                        })
                        .await;
                });
            })
            .map_err(|e| ShareError::Start(e.to_string()))?;
        match started.recv() {
            Ok(Ok(())) => {}
            Ok(Err(e)) => return Err(ShareError::Start(e)),
            Err(_) => return Err(ShareError::Start("its thread ended".to_string())),
        }
        Ok(LocalServer {
            addr,
            data: data.to_path_buf(),
            stop: Some(stop),
            thread: Some(thread),
        })
    }

    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Its base URL, `http://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Its data folder.
    pub fn data(&self) -> &Path {
        &self.data
    }

    /// The target to share with.
    pub fn target(&self) -> Target {
        Target {
            base: self.url(),
            host: self.addr.to_string(),
            password: None,
        }
    }
}

impl Drop for LocalServer {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        // Open event streams keep the graceful shutdown waiting: the
        // thread is left to end with the process rather than joined.
        drop(self.thread.take());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_encodes_as_the_standard_says() {
        assert_eq!(base64(b":secret"), "OnNlY3JldA==");
        assert_eq!(base64(b"a:b"), "YTpi");
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"ab"), "YWI=");
    }

    #[test]
    fn a_target_is_an_http_host_and_port() {
        let t = Target::new("http://127.0.0.1:8080/", None).unwrap();
        assert_eq!(t.base(), "http://127.0.0.1:8080");
        assert_eq!(
            Target::new("localhost:9", None).unwrap().base(),
            "http://localhost:9"
        );
        for bad in [
            "https://x:1/",
            "http://x/",
            "",
            "http://:80",
            "x:80/path",
            "x:99999",
        ] {
            assert!(
                matches!(Target::new(bad, None), Err(ShareError::BadUrl(_))),
                "{bad}"
            );
        }
    }

    #[test]
    fn a_chunked_answer_reads_whole() {
        let raw = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\n{\"a\r\n4\r\n\":1}\r\n0\r\n\r\n";
        let (status, v) = parse_answer(raw).unwrap();
        assert_eq!((status, v), (200, json!({"a": 1})));
        assert!(parse_answer(b"HTTP/1.1 200 OK\r\n\r\n{").is_err());
        assert!(parse_answer(b"garbage").is_err());
    }
}
