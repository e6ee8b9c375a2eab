//! The clocks of a live game on the player's and spectators' page, in
//! Chromium (the DevTools-pipe harness of `pages.rs`, copied): both
//! seats' times, the running one counting down between the server's
//! answers, low time highlighted; and the designer's clock choice and
//! the summary page's button that runs the bots' balance check.

use std::process::Command;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use murus_serve::Server;
use murus_serve::time::TimeSource;
use serde_json::{Value, json};
use tower::ServiceExt;

async fn call(
    app: &Router,
    method: &str,
    uri: &str,
    token: Option<&str>,
    body: Option<&str>,
) -> Value {
    let mut req = Request::builder().method(method).uri(uri);
    if let Some(t) = token {
        req = req.header("authorization", format!("Bearer {t}"));
    }
    if body.is_some() {
        req = req.header("content-type", "application/json");
    }
    let res = app
        .clone()
        .oneshot(
            req.body(Body::from(body.unwrap_or("").to_string()))
                .unwrap(),
        )
        .await
        .unwrap();
    assert!(res.status() == StatusCode::OK || res.status() == StatusCode::CREATED);
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    serde_json::from_slice(&bytes).unwrap()
}

/// Headless Chromium driven over the DevTools protocol on a pipe
/// (`--remote-debugging-pipe`: it reads commands on fd 3, answers on fd 4,
/// each a JSON text ended by a NUL), so that a test can wait for what the
/// page's script builds and click as a person does. (`--dump-dom` with a
/// virtual time budget never ends on a page that holds an event stream
/// open.)
struct Browser {
    child: std::process::Child,
    to: std::process::ChildStdin,
    from: std::sync::mpsc::Receiver<Value>,
    next: u64,
    session: String,
    profile: std::path::PathBuf,
}

impl Browser {
    fn open(url: &str) -> Browser {
        use std::io::{BufRead, BufReader};
        use std::process::Stdio;
        // A profile of its own: two browsers on one profile, one quits.
        static OPENED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = OPENED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
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
        };
        let target = b.call("Target.createTarget", json!({ "url": url }), false);
        let target = target["targetId"].as_str().unwrap().to_string();
        let attached = b.call(
            "Target.attachToTarget",
            json!({ "targetId": target, "flatten": true }),
            false,
        );
        b.session = attached["sessionId"].as_str().unwrap().to_string();
        b
    }

    /// Sends `method` with `params` (to the page when `in_page`) and
    /// waits for its answer.
    fn call(&mut self, method: &str, params: Value, in_page: bool) -> Value {
        use std::io::Write;
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
                .recv_timeout(std::time::Duration::from_secs(30))
                .expect("Chromium answers");
            if v["id"] == json!(self.next) {
                assert!(v.get("error").is_none(), "{method}: {v}");
                return v["result"].clone();
            }
        }
    }

    /// The value of the JavaScript expression `js` in the page.
    fn eval(&mut self, js: &str) -> Value {
        let r = self.call(
            "Runtime.evaluate",
            json!({ "expression": js, "returnByValue": true, "awaitPromise": true }),
            true,
        );
        r["result"]["value"].clone()
    }

    /// Waits until `js` is true in the page (at most 20 seconds); the
    /// page's HTML then, or a panic showing it.
    fn until(&mut self, js: &str) -> String {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        loop {
            if self.eval(&format!("Boolean({js})")) == json!(true) {
                return self.dom();
            }
            if std::time::Instant::now() > deadline {
                panic!("never true: {js}\n{}", self.dom());
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
    }

    fn dom(&mut self) -> String {
        self.eval("document.documentElement.outerHTML")
            .as_str()
            .unwrap_or_default()
            .to_string()
    }
}

impl Browser {
    /// A person's click on the element `selector` finds: scrolled into
    /// view, a mouse press and release at its centre.
    fn click(&mut self, selector: &str) {
        let at = self.eval(&format!(
            "(() => {{ const c = document.querySelector({selector:?}); c.scrollIntoView({{ block: 'center' }}); const r = c.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }})()"
        ));
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
    fn type_into(&mut self, selector: &str, text: &str) {
        self.click(selector);
        self.eval(&format!("document.querySelector({selector:?}).select()"));
        self.call("Input.insertText", json!({ "text": text }), true);
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

/// A server on a real port of 127.0.0.1 over `app`: its address.
async fn listen(app: Router) -> std::net::SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    addr
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_shows_both_clocks_the_running_one_ticking_and_low_time_highlighted() {
    let time = TimeSource::manual(1_800_000_000_000);
    let server = Server::with_time(None, time.clone()).unwrap();
    server.add_shipped().unwrap();
    let app = server.router();
    let body = json!({"variant": "standard", "seats": ["human", "human"], "clock": {"minutes": 1}})
        .to_string();
    let made = call(&app, "POST", "/api/games", None, Some(&body)).await;
    let id = made["id"].as_str().unwrap().to_string();
    let token = made["seats"][0]["token"].as_str().unwrap().to_string();
    let g = call(&app, "GET", &format!("/api/games/{id}"), None, None).await;
    let m = g["legal_moves"][0].as_str().unwrap();
    let mv = json!({"move": m, "ply": 0}).to_string();
    call(
        &app,
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(&token),
        Some(&mv),
    )
    .await;
    // The Gauls have thought for 45 s of the server's time: 15 s left.
    time.advance(45_000);
    let addr = listen(app.clone()).await;
    let url = format!("http://{addr}/watch/{id}");
    let (dom, first, later) = tokio::task::spawn_blocking(move || {
        let mut b = Browser::open(&url);
        let dom = b.until("document.querySelectorAll('#clocks .clock').length === 2");
        let text = "document.querySelector('#clocks .clock[data-seat=\"1\"]').textContent";
        let first = b.eval(text);
        std::thread::sleep(std::time::Duration::from_millis(1500));
        let later = b.eval(text);
        (dom, first, later)
    })
    .await
    .unwrap();
    assert!(
        dom.contains(r#"<span class="clock" data-seat="0">Romans (r): 1:00</span>"#),
        "{dom}"
    );
    assert!(
        dom.contains(r#"class="clock running low" data-seat="1">Gauls (g): 0:1"#),
        "{dom}"
    );
    assert!(
        !dom.contains(r#"id="clocks" class="clocks" hidden"#),
        "{dom}"
    );
    // The page counts the running clock down itself between answers.
    let (first, later) = (first.as_str().unwrap(), later.as_str().unwrap());
    assert!(first.starts_with("Gauls (g): 0:1"), "{first}");
    assert_ne!(first, later, "the running clock ticks");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_designer_chooses_a_live_game_with_a_clock() {
    let server = Server::in_memory().unwrap();
    server.add_shipped().unwrap();
    let app = server.router();
    let addr = listen(app.clone()).await;
    let url = format!("http://{addr}/");
    let links = tokio::task::spawn_blocking(move || {
        let mut b = Browser::open(&url);
        b.until("document.querySelector('#versions tbody tr[data-key] input')");
        b.click("#versions tbody tr[data-key] input");
        b.until("!document.getElementById('create').disabled");
        b.click("#clock-choice input[value=live]");
        b.type_into("#clock-minutes", "3");
        b.type_into("#clock-increment", "2");
        b.click("#create");
        b.until("document.querySelectorAll('#links li').length > 0");
        b.eval("Array.from(document.querySelectorAll('#links input')).map((i) => i.value)")
    })
    .await
    .unwrap();
    let spectate = links
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .find(|u| u.contains("/watch/"))
        .unwrap()
        .to_string();
    let id = spectate.rsplit('/').next().unwrap();
    let g = call(&app, "GET", &format!("/api/games/{id}"), None, None).await;
    assert_eq!(g["clock"]["initial_ms"], 180_000, "{g}");
    assert_eq!(g["clock"]["increment_ms"], 2_000, "{g}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_designer_runs_the_bots_check_from_the_summary_page() {
    let server = Server::in_memory()
        .unwrap()
        .with_bot_check(murus_serve::checks::Settings {
            level: "random".into(),
            games: 8,
        });
    server.add_shipped().unwrap();
    let app = server.router();
    let addr = listen(app.clone()).await;
    let url = format!("http://{addr}/rules/standard/summary");
    let dom = tokio::task::spawn_blocking(move || {
        let mut b = Browser::open(&url);
        b.until("document.getElementById('run-bots')");
        b.click("#run-bots");
        b.until("document.querySelector('table.versus')")
    })
    .await
    .unwrap();
    assert!(
        dom.contains("<th>People</th><th>Bots (random)</th>"),
        "{dom}"
    );
    assert!(dom.contains(r#"<td data-key="bots_games">8</td>"#), "{dom}");
    assert!(dom.contains("too few games to tell"), "{dom}");
    assert!(dom.contains("Run the bots' balance check again"), "{dom}");
}
