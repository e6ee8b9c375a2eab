//! `murus serve`: the real binary on a free loopback port, spoken to over
//! TCP; killed with SIGKILL mid-game and started again over the same data.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::util::{TempDir, command};

/// `murus serve --addr 127.0.0.1:0 --data DIR`, and the address it printed.
pub(crate) fn start(data: &TempDir) -> (Child, String) {
    start_with(data, &[])
}

/// [`start`] with more arguments.
fn start_with(data: &TempDir, more: &[&str]) -> (Child, String) {
    let started = Instant::now();
    let mut child = command()
        .args(["serve", "--addr", "127.0.0.1:0", "--data"])
        .arg(&**data)
        .args(more)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("murus serve starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert!(line.starts_with("murus serve: http://127.0.0.1:"), "{line}");
    // Up and listening in well under a second on an idle machine; this
    // bound leaves room for a loaded one.
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    let addr = line["murus serve: http://".len()..]
        .split('/')
        .next()
        .unwrap()
        .to_string();
    (child, addr)
}

/// One HTTP/1.1 request: the status and the JSON answer.
pub(crate) fn request(
    addr: &str,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: &str,
) -> (u16, Value) {
    let auth = token.map(|t| format!("Bearer {t}"));
    request_as(addr, method, path, auth.as_deref(), body)
}

/// [`request`] with the `Authorization` header `auth`.
fn request_as(
    addr: &str,
    method: &str,
    path: &str,
    auth: Option<&str>,
    body: &str,
) -> (u16, Value) {
    let mut s = TcpStream::connect(addr).expect("the server listens");
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let auth = auth.map_or(String::new(), |a| format!("Authorization: {a}\r\n"));
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{auth}\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = String::new();
    s.read_to_string(&mut answer).unwrap();
    let status: u16 = answer
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("{answer}"));
    let (_, body) = answer.split_once("\r\n\r\n").expect("a body");
    let value = serde_json::from_str(body).unwrap_or_else(|_| panic!("{answer}"));
    (status, value)
}

#[cfg(unix)]
#[test]
fn serve_plays_over_http_and_a_sigkill_loses_no_move() {
    let data = TempDir::new("serve");
    let (mut child, addr) = start(&data);
    let (status, made) = request(
        &addr,
        "POST",
        "/api/games",
        None,
        &json!({"variant": "standard", "seats": ["human", "human"]}).to_string(),
    );
    assert_eq!(status, 201, "{made}");
    let id = made["id"].as_str().unwrap().to_string();
    let token = made["seats"][0]["token"].as_str().unwrap().to_string();
    let (_, g) = request(&addr, "GET", &format!("/api/games/{id}"), None, "");
    let first = g["legal_moves"][0].as_str().unwrap().to_string();
    let body = json!({"move": first, "ply": 0}).to_string();
    let (status, g) = request(
        &addr,
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(&token),
        &body,
    );
    assert_eq!(status, 200, "{g}");
    // Acknowledged, so committed: a SIGKILL now loses nothing.
    crate::util::signal(&child, "KILL");
    let _ = child.wait();
    let (child, addr) = start(&data);
    let (status, g) = request(&addr, "GET", &format!("/api/games/{id}"), None, "");
    assert_eq!(status, 200, "{g}");
    assert_eq!(g["moves"], json!([first]));
    assert_eq!(g["to_move"], "g");
    // A request that is not JSON at all: a JSON error, the server goes on.
    let (status, e) = request(&addr, "POST", "/api/games", None, "garbage");
    assert!((400..500).contains(&status), "{status} {e}");
    assert!(e["error"].is_string());
    crate::util::signal(&child, "TERM");
    let out = crate::util::finish(child);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[cfg(unix)]
#[test]
fn serve_password_guards_the_designers_calls() {
    let data = TempDir::new("serve-password");
    let (mut child, addr) = start_with(&data, &["--password", "x"]);
    let game = json!({"variant": "standard", "seats": ["human", "human"]}).to_string();
    let (status, refused) = request(&addr, "POST", "/api/games", None, &game);
    assert_eq!(status, 401, "{refused}");
    assert!(refused["error"].as_str().unwrap().contains("password"));
    let (status, _) = request_as(&addr, "GET", "/api/rules", Some("Basic dTp5"), "");
    assert_eq!(status, 401, "u:y is the wrong password");
    // `u:x` in base64.
    let (status, made) = request_as(&addr, "POST", "/api/games", Some("Basic dTp4"), &game);
    assert_eq!(status, 201, "{made}");
    let id = made["id"].as_str().unwrap();
    let (status, _) = request(&addr, "GET", &format!("/api/games/{id}"), None, "");
    assert_eq!(status, 200, "a player needs no password");
    child.kill().unwrap();
    child.wait().unwrap();

    let out = command()
        .args([
            "serve",
            "--addr",
            "127.0.0.1:0",
            "--password",
            " ",
            "--data",
        ])
        .arg(&*data)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--password is empty"));
}
