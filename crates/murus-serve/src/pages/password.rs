//! `murus serve --password`: the designer's page and the designer's API
//! calls (`GET /`, `/api/rules`, `POST /api/games`) ask for HTTP Basic
//! authentication; players' and spectators' calls (a game, its moves with
//! the seat's token, its events) do not.
//!
//! Basic rather than a login form and a session cookie: the browser asks
//! for the password itself and sends it with the page's own calls, `curl
//! -u :PASS` scripts the API, and there is no session to keep. The calls
//! it guards take JSON only (`Content-Type: application/json`), which a
//! form on another site cannot send without the CORS preflight this server
//! never grants, so the credentials the browser would add do not make
//! cross-site requests possible. Any user name is taken; the password is
//! compared through its SHA-256, so the time taken says nothing of it.

use std::sync::Arc;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};

use crate::api::ApiError;

/// The password, as its SHA-256.
#[derive(Clone, Debug)]
pub struct Password(Arc<[u8; 32]>);

impl Password {
    pub fn new(text: &str) -> Password {
        Password(Arc::new(Sha256::digest(text.as_bytes()).into()))
    }

    fn admits(&self, headers: &HeaderMap) -> bool {
        basic_password(headers).is_some_and(|given| {
            let hash: [u8; 32] = Sha256::digest(&given).into();
            // Every byte compared, whatever the first difference.
            hash.iter()
                .zip(self.0.iter())
                .fold(0u8, |acc, (a, b)| acc | (a ^ b))
                == 0
        })
    }
}

/// Whether a request is the designer's: the page, the rules API, a rules
/// version's playtest summary (it holds the players' comments) and its
/// games exported (`games.mgn`), making a game.
pub fn is_designers(method: &Method, path: &str) -> bool {
    let path = path.trim_end_matches('/');
    path.is_empty()
        || path == "/api/rules"
        || ((path.starts_with("/api/rules/") || path.starts_with("/rules/"))
            && path.ends_with("/summary"))
        || (path.starts_with("/api/rules/") && path.ends_with("/games.mgn"))
        || (path.starts_with("/api/rules/") && path.ends_with("/bots"))
        || (path == "/api/games" && method == Method::POST)
}

/// The password of `Authorization: Basic …` (what follows the first `:`).
fn basic_password(headers: &HeaderMap) -> Option<Vec<u8>> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, encoded) = value.trim().split_once(' ')?;
    if !scheme.eq_ignore_ascii_case("basic") {
        return None;
    }
    let decoded = base64(encoded.trim())?;
    let colon = decoded.iter().position(|&b| b == b':')?;
    Some(decoded[colon + 1..].to_vec())
}

/// Standard base64 (padding optional); `None` if it is not.
fn base64(text: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0u32);
    for c in text.trim_end_matches('=').bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Some(out)
}

/// The guard: a designer's request without the password gets 401 and the
/// browser's password prompt; every other request passes.
pub async fn guard(State(password): State<Password>, req: Request<Body>, next: Next) -> Response {
    if !is_designers(req.method(), req.uri().path()) || password.admits(req.headers()) {
        return next.run(req).await;
    }
    let mut res = ApiError {
        status: StatusCode::UNAUTHORIZED,
        message: "the designer's page needs the server's password (murus serve --password)".into(),
    }
    .into_response();
    res.headers_mut().insert(
        header::WWW_AUTHENTICATE,
        HeaderValue::from_static("Basic realm=\"murus designer\", charset=\"UTF-8\""),
    );
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_decodes_as_the_standard_says() {
        assert_eq!(base64("OnNlY3JldA==").unwrap(), b":secret");
        assert_eq!(base64("YTpi").unwrap(), b"a:b");
        assert_eq!(base64("w6k6w6k").unwrap(), "é:é".as_bytes());
        assert_eq!(base64("").unwrap(), b"");
        assert!(base64("no spaces").is_none());
    }

    #[test]
    fn the_designers_requests_are_the_page_the_rules_and_making_a_game() {
        assert!(is_designers(&Method::GET, "/"));
        assert!(is_designers(&Method::GET, "/api/rules"));
        assert!(is_designers(&Method::POST, "/api/rules/"));
        assert!(is_designers(&Method::POST, "/api/games"));
        // The playtest summary holds the players' comments.
        assert!(is_designers(&Method::GET, "/api/rules/standard/summary"));
        assert!(is_designers(&Method::GET, "/rules/standard/summary"));
        assert!(is_designers(&Method::GET, "/api/rules/standard/games.mgn"));
        assert!(!is_designers(&Method::GET, "/rules/standard/sheet"));
        assert!(!is_designers(&Method::GET, "/api/games/abc"));
        assert!(!is_designers(&Method::POST, "/api/games/abc/moves"));
        assert!(!is_designers(&Method::GET, "/play/abc"));
        assert!(!is_designers(&Method::GET, "/assets/designer.js"));
    }
}
