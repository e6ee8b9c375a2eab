//! What the server's tests share: one request through the router
//! ([`send`], and [`call`], [`call_text`], [`fetch`], [`json_of`] over it),
//! a server with the shipped variants ([`server`]), a game between two
//! people ([`new_game`]), the Sprint rules and a line of moves that ends a
//! game of them ([`SPRINT`], [`line_to_the_end`]); headless Chromium driven
//! over the DevTools protocol ([`Browser`]), and a server on a real port
//! ([`listen`]).
#![allow(dead_code)] // each test binary uses its own part of it

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Body;
use axum::http::{HeaderMap, Request, StatusCode, header};
use http_body_util::BodyExt;
use murus_engine::{Outcome, Position, Variant};
use murus_serve::Server;
use serde_json::{Value, json};
use tower::ServiceExt;

/// The answer to `method uri` on `app`, with the whole `Authorization`
/// header `authorization` and the JSON text `body`: its status, headers
/// and text.
pub async fn send(
    app: &Router,
    method: &str,
    uri: &str,
    authorization: Option<&str>,
    body: Option<&str>,
) -> (StatusCode, HeaderMap, String) {
    let mut req = Request::builder().method(method).uri(uri);
    if let Some(a) = authorization {
        req = req.header("authorization", a);
    }
    if body.is_some() {
        req = req.header("content-type", "application/json");
    }
    let req = req
        .body(Body::from(body.unwrap_or("").to_string()))
        .unwrap();
    let res = app.clone().oneshot(req).await.unwrap();
    let (status, headers) = (res.status(), res.headers().clone());
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    (
        status,
        headers,
        String::from_utf8_lossy(&bytes).into_owned(),
    )
}

/// [`send`] with the seat's bearer `token`: the status and the text.
pub async fn call_text(
    app: &Router,
    method: &str,
    uri: &str,
    token: Option<&str>,
    body: Option<&str>,
) -> (StatusCode, String) {
    let auth = token.map(|t| format!("Bearer {t}"));
    let (status, _, text) = send(app, method, uri, auth.as_deref(), body).await;
    (status, text)
}

/// [`call_text`] for a JSON answer (panics with the text when it is not).
pub async fn call(
    app: &Router,
    method: &str,
    uri: &str,
    token: Option<&str>,
    body: Option<&str>,
) -> (StatusCode, Value) {
    let (status, text) = call_text(app, method, uri, token, body).await;
    let value = serde_json::from_str(&text).unwrap_or_else(|_| panic!("not JSON: {text}"));
    (status, value)
}

/// [`send`] with the seat's bearer `token`: the status, the content type
/// and the text.
pub async fn fetch(
    app: &Router,
    method: &str,
    uri: &str,
    token: Option<&str>,
    body: Option<&str>,
) -> (StatusCode, String, String) {
    let auth = token.map(|t| format!("Bearer {t}"));
    let (status, headers, text) = send(app, method, uri, auth.as_deref(), body).await;
    let kind = headers
        .get(header::CONTENT_TYPE)
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    (status, kind, text)
}

/// The JSON answer to `GET uri`, which must be 200.
pub async fn json_of(app: &Router, uri: &str) -> Value {
    let (status, _, text) = fetch(app, "GET", uri, None, None).await;
    assert_eq!(status, StatusCode::OK, "{text}");
    serde_json::from_str(&text).unwrap()
}

/// A server in memory with the shipped variants.
pub fn server() -> Server {
    let s = Server::in_memory().unwrap();
    s.add_shipped().unwrap();
    s
}

/// A new game of `variant` between two people: its id and their tokens.
pub async fn new_game(app: &Router, variant: &str) -> (String, String, String) {
    let body = json!({ "variant": variant, "seats": ["human", "human"] }).to_string();
    let (status, v) = call(app, "POST", "/api/games", None, Some(&body)).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let token = |i: usize| v["seats"][i]["token"].as_str().unwrap().to_string();
    (v["id"].as_str().unwrap().to_string(), token(0), token(1))
}

/// A race on a 3×5 board: two towers a side on their home ranks, a tower
/// sows two cells, and a stone dropped on the far rank wins at once. A
/// game of it ends by the rules in a handful of moves.
pub const SPRINT: &str = r##"
variant "sprint"
title "Sprint"

board rect 3 x 5

player "Romans" {
    letter r
    colour "#e8dcc0"
    home rank 1
    forward n
}

player "Gauls" {
    letter g
    colour "#5b3a29"
    home rank 5
    forward s
}

setup {
    r 2 on cells a1 c1
    g 2 on cells a5 c5
}

stack limit 2

sow {
    heights 2
    directions all
    onto empty, own 1
}

win {
    breakthrough immediate by sow
    stalemate loses
}

draw {
    repetition 3
    plies 40
}
"##;

/// The first line of moves (in the engine's order, only those whose text
/// `keep` takes) that ends the game by the rules after exactly `plies`
/// plies and not before, and how it ends.
pub fn line_to_the_end(
    v: &Variant,
    plies: usize,
    keep: impl Fn(&str) -> bool,
) -> Option<(Vec<String>, Outcome)> {
    fn search(
        v: &Variant,
        pos: &Position,
        left: usize,
        keep: &dyn Fn(&str) -> bool,
        line: &mut Vec<String>,
    ) -> Option<Outcome> {
        if left == 0 {
            return v.outcome(pos);
        }
        if v.outcome(pos).is_some() {
            return None;
        }
        for m in v.legal_moves(pos) {
            let text = v.move_to_string(m);
            if !keep(&text) {
                continue;
            }
            line.push(text);
            if let Some(o) = search(v, &v.play(pos, m), left - 1, keep, line) {
                return Some(o);
            }
            line.pop();
        }
        None
    }
    let mut line = Vec::new();
    search(v, &v.start(), plies, &keep, &mut line).map(|o| (line, o))
}

/// Headless Chromium driven over the DevTools protocol on a pipe
/// (`--remote-debugging-pipe`: it reads commands on fd 3, answers on fd 4,
/// each a JSON text ended by a NUL), so that a test can wait for what the
/// page's script builds and click as a person does. (`--dump-dom` with a
/// virtual time budget never ends on a page that holds an event stream
/// open.)
///
/// Each browser is a process of its own with a profile of its own, and
/// one page. The page's console, its uncaught exceptions, the browser's log
/// (a resource that failed to load) and its requests are listened to from
/// before the page loads: every event is kept ([`Browser::errors`],
/// [`Browser::requests`]), none is dropped while a command waits for its
/// answer.
pub struct Browser {
    child: Child,
    to: ChildStdin,
    from: Receiver<Value>,
    next: u64,
    session: String,
    profile: std::path::PathBuf,
    /// Every event heard, in order.
    events: Vec<Value>,
}

impl Browser {
    /// A browser showing `url`.
    pub fn open(url: &str) -> Browser {
        // A profile of its own: two browsers on one profile, one quits.
        static OPENED: AtomicUsize = AtomicUsize::new(0);
        let n = OPENED.fetch_add(1, Ordering::Relaxed);
        let profile =
            std::env::temp_dir().join(format!("murus-serve-chromium-{}-{n}", std::process::id()));
        let script = format!(
            "exec chromium --headless=new --no-sandbox --disable-gpu --no-first-run \
             --disable-background-networking --disable-component-update --disable-sync \
             --user-data-dir='{}' --remote-debugging-pipe about:blank \
             3<&0 4>&1 0</dev/null 1>/dev/null 2>/dev/null",
            profile.display()
        );
        let mut child = Command::new("sh")
            .args(["-c", &script])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("Debian's chromium runs (apt-get install chromium; .ci/run installs it)");
        let to = child.stdin.take().unwrap();
        let out = child.stdout.take().unwrap();
        let (tx, from) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(out);
            let mut buf = Vec::new();
            while r.read_until(0, &mut buf).is_ok_and(|n| n > 0) {
                buf.pop();
                if let Ok(v) = serde_json::from_slice(&buf) {
                    if tx.send(v).is_err() {
                        return;
                    }
                }
                buf.clear();
            }
        });
        let mut b = Browser {
            child,
            to,
            from,
            next: 0,
            session: String::new(),
            profile,
            events: Vec::new(),
        };
        let target = b.call(
            "Target.createTarget",
            json!({ "url": "about:blank" }),
            false,
        );
        let target = target["targetId"].as_str().unwrap().to_string();
        let attached = b.call(
            "Target.attachToTarget",
            json!({ "targetId": target, "flatten": true }),
            false,
        );
        b.session = attached["sessionId"].as_str().unwrap().to_string();
        for domain in [
            "Runtime.enable",
            "Log.enable",
            "Network.enable",
            "Page.enable",
        ] {
            b.call(domain, json!({}), true);
        }
        b.navigate(url);
        b
    }

    /// Sends `method` with `params` (to the page when `in_page`) and
    /// waits for its answer: the whole answer, `error` or `result`. The
    /// events heard meanwhile are kept.
    pub fn send(&mut self, method: &str, params: Value, in_page: bool) -> Value {
        self.next += 1;
        let mut msg = json!({ "id": self.next, "method": method, "params": params });
        if in_page {
            msg["sessionId"] = json!(self.session);
        }
        self.to.write_all(msg.to_string().as_bytes()).unwrap();
        self.to.write_all(&[0]).unwrap();
        self.to.flush().unwrap();
        loop {
            let v = self
                .from
                .recv_timeout(Duration::from_secs(30))
                .expect("Chromium answers");
            if v["id"] == json!(self.next) {
                return v;
            }
            if v.get("method").is_some() {
                self.events.push(v);
            }
        }
    }

    /// [`Browser::send`], its result, or a panic naming the error.
    pub fn call(&mut self, method: &str, params: Value, in_page: bool) -> Value {
        let v = self.send(method, params, in_page);
        assert!(v.get("error").is_none(), "{method}: {v}");
        v["result"].clone()
    }

    /// Loads `url` in the page.
    pub fn navigate(&mut self, url: &str) {
        self.call("Page.navigate", json!({ "url": url }), true);
    }

    /// Reloads the page, as a person pressing F5 does.
    pub fn reload(&mut self) {
        self.call("Page.reload", json!({}), true);
    }

    /// The value of the JavaScript expression `js` in the page (null while
    /// the page is between two documents, or when `js` throws).
    pub fn eval(&mut self, js: &str) -> Value {
        let r = self.send(
            "Runtime.evaluate",
            json!({ "expression": js, "returnByValue": true, "awaitPromise": true }),
            true,
        );
        r["result"]["result"]["value"].clone()
    }

    /// Waits until `js` is true in the page (at most 20 seconds); the
    /// page's HTML then, or a panic showing it.
    pub fn until(&mut self, js: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if self.eval(&format!("Boolean({js})")) == json!(true) {
                return self.dom();
            }
            if Instant::now() > deadline {
                panic!("never true: {js}\n{}", self.dom());
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    pub fn dom(&mut self) -> String {
        self.eval("document.documentElement.outerHTML")
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    /// A person's click on the first element `selector` finds: scrolled
    /// into view, a mouse press and release at its centre, as the browser
    /// delivers them.
    pub fn click(&mut self, selector: &str) {
        let found = serde_json::to_string(selector).unwrap();
        let at = self.eval(&format!(
            "(() => {{ const c = document.querySelector({found}); if (!c) return null; c.scrollIntoView({{ block: 'center' }}); const r = c.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }})()"
        ));
        assert!(at.is_array(), "nothing to click at {selector}");
        let (x, y) = (at[0].as_f64().unwrap(), at[1].as_f64().unwrap());
        for kind in ["mousePressed", "mouseReleased"] {
            self.call(
                "Input.dispatchMouseEvent",
                json!({ "type": kind, "x": x, "y": y, "button": "left", "clickCount": 1 }),
                true,
            );
        }
    }

    /// Types `text` into the field `selector` finds, over what it held.
    pub fn type_into(&mut self, selector: &str, text: &str) {
        self.click(selector);
        let found = serde_json::to_string(selector).unwrap();
        self.eval(&format!("document.querySelector({found}).select()"));
        self.call("Input.insertText", json!({ "text": text }), true);
    }

    /// A key pressed and released, as the keyboard gives it (`ArrowRight`).
    pub fn key(&mut self, key: &str, code: u32) {
        for kind in ["rawKeyDown", "keyUp"] {
            self.call(
                "Input.dispatchKeyEvent",
                json!({ "type": kind, "key": key, "code": key, "windowsVirtualKeyCode": code }),
                true,
            );
        }
    }

    /// A person's click on cell `cell` of the board.
    pub fn click_cell(&mut self, cell: &str) {
        self.click(&format!("#board .cell[data-cell=\"{cell}\"]"));
    }

    /// Text typed at the keyboard into what has the focus.
    pub fn type_text(&mut self, text: &str) {
        self.call("Input.insertText", json!({ "text": text }), true);
    }

    /// Takes in the events that came while no command was waiting.
    fn pump(&mut self) {
        while let Ok(v) = self.from.try_recv() {
            if v.get("method").is_some() {
                self.events.push(v);
            }
        }
    }

    /// Every error the page or the browser reported so far: uncaught
    /// exceptions, `console.error` and `console.assert` failures, and the
    /// browser's log entries of level error (a resource that did not load).
    pub fn errors(&mut self) -> Vec<String> {
        self.pump();
        self.events
            .iter()
            .filter_map(|e| {
                let p = &e["params"];
                match e["method"].as_str()? {
                    "Runtime.exceptionThrown" => {
                        Some(format!("exception: {}", p["exceptionDetails"]))
                    }
                    "Runtime.consoleAPICalled"
                        if matches!(p["type"].as_str(), Some("error" | "assert")) =>
                    {
                        Some(format!("console.{}: {}", p["type"], p["args"]))
                    }
                    "Log.entryAdded" if p["entry"]["level"] == "error" => {
                        Some(format!("log: {}", p["entry"]))
                    }
                    _ => None,
                }
            })
            .collect()
    }

    /// Every request the page made so far: its method and address.
    pub fn requests(&mut self) -> Vec<(String, String)> {
        self.pump();
        self.events
            .iter()
            .filter(|e| e["method"] == "Network.requestWillBeSent")
            .map(|e| {
                let r = &e["params"]["request"];
                (
                    r["method"].as_str().unwrap_or_default().to_string(),
                    r["url"].as_str().unwrap_or_default().to_string(),
                )
            })
            .collect()
    }

    /// The page as a PNG image `width` by `height` pixels, drawn at
    /// `zoom` (0.5: the page laid out in a window twice as wide and high,
    /// shown at half size).
    pub fn screenshot(&mut self, width: u32, height: u32, zoom: f64) -> Vec<u8> {
        let (w, h) = (f64::from(width) / zoom, f64::from(height) / zoom);
        self.call(
            "Emulation.setDeviceMetricsOverride",
            json!({ "width": w.round(), "height": h.round(), "deviceScaleFactor": 1, "mobile": false }),
            true,
        );
        let clip = json!({ "x": 0, "y": 0, "width": w, "height": h, "scale": zoom });
        let shot = self.call(
            "Page.captureScreenshot",
            json!({ "format": "png", "clip": clip }),
            true,
        );
        base64(shot["data"].as_str().unwrap())
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

/// The bytes of base64 text (the DevTools protocol's screenshots).
fn base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("not base64: {c}"),
    };
    let digits: Vec<u8> = text.bytes().filter(|&c| c != b'=').map(value).collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let mut n = 0u32;
        for (i, &d) in chunk.iter().enumerate() {
            n |= u32::from(d) << (18 - 6 * i);
        }
        for i in 0..chunk.len().saturating_sub(1) {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    out
}

/// A server on a real port of 127.0.0.1 over `app`: its address.
pub async fn listen(app: Router) -> std::net::SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    addr
}
