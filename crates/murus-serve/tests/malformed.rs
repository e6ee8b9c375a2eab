//! Malformed requests of every kind (methods, paths, headers, bodies),
//! generated: none answers 500 or panics the server, and every API answer
//! is JSON.

use axum::body::Body;
use axum::http::Request;
use http_body_util::BodyExt;
use murus_serve::Server;
use proptest::prelude::*;
use tower::ServiceExt;

/// Paths that reach every route, with the parts a test varies.
fn path() -> impl Strategy<Value = String> {
    let part = prop_oneof![
        "[a-z0-9]{0,70}",
        "\\PC{0,20}",
        Just("%00%ff".to_string()),
        Just("..".to_string()),
        Just("standard".to_string()),
    ];
    (0..13usize, part).prop_map(|(route, p)| {
        let p: String = p
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || "-_.~%".contains(c) {
                    c.to_string()
                } else {
                    let mut buf = [0u8; 4];
                    c.encode_utf8(&mut buf)
                        .bytes()
                        .map(|b| format!("%{b:02X}"))
                        .collect()
                }
            })
            .collect();
        match route {
            0 => "/api/games".to_string(),
            1 => format!("/api/games/{p}"),
            2 => format!("/api/games/{p}/moves"),
            3 => format!("/api/games/{p}/resign"),
            4 => format!("/api/games/{p}/draw"),
            5 => format!("/api/games/{p}/feedback"),
            6 => format!("/api/games/{p}/board.svg"),
            7 => format!("/api/rules/{p}/summary"),
            8 => "/api/rules".to_string(),
            9 => format!("/play/{p}?token={p}"),
            10 => format!("/rules/{p}/sheet"),
            11 => format!("/api/games/{p}/events"),
            _ => format!("/{p}"),
        }
    })
}

fn body() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        proptest::collection::vec(any::<u8>(), 0..200),
        Just(br#"{"variant":"standard","seats":["human","human"]}"#.to_vec()),
        Just(br#"{"variant":"standard","seats":["human","ugi:sh"]}"#.to_vec()),
        Just(br#"{"move":"a1-a3","ply":0}"#.to_vec()),
        Just(br#"{"move":"a1-a3","ply":18446744073709551615}"#.to_vec()),
        Just(br#"{"fun":9,"clarity":-1,"again":"yes"}"#.to_vec()),
        Just(br#"{"source":"variant \"x\"\nboard rect 99 x 99"}"#.to_vec()),
        "\\PC{0,100}".prop_map(String::into_bytes),
    ]
}

fn header() -> impl Strategy<Value = Option<String>> {
    proptest::option::of(prop_oneof![
        Just("Bearer".to_string()),
        Just("Bearer ".to_string()),
        "Bearer [a-f0-9]{0,80}",
        "Basic [A-Za-z0-9+/=]{0,40}",
        "[ -~]{0,40}",
    ])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn no_request_answers_500_or_panics(
        method in prop_oneof![Just("GET"), Just("POST"), Just("PUT"), Just("DELETE")],
        path in path(),
        real in any::<bool>(),
        auth in header(),
        json in any::<bool>(),
        body in body(),
    ) {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        let server = Server::in_memory().unwrap();
        server.add(murus_engine::Variant::standard()).unwrap();
        let app = server.router();
        // Half the requests are about a real game, with its Romans' token.
        let (id, token) = runtime.block_on(async {
            let made = Request::post("/api/games")
                .header("content-type", "application/json")
                .body(Body::from(r#"{"variant":"standard","seats":["human","human"]}"#))
                .unwrap();
            let res = app.clone().oneshot(made).await.unwrap();
            let bytes = res.into_body().collect().await.unwrap().to_bytes();
            let v: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
            (v["id"].as_str().unwrap().to_string(), v["seats"][0]["token"].as_str().unwrap().to_string())
        });
        let path = if real && path.starts_with("/api/games/") && !path.ends_with("/events") {
            let rest = path["/api/games/".len()..].split_once('/').map_or(String::new(), |(_, r)| format!("/{r}"));
            format!("/api/games/{id}{rest}")
        } else {
            path
        };
        let auth = if real { Some(format!("Bearer {token}")) } else { auth };
        let mut req = Request::builder().method(method).uri(&path);
        if let Some(a) = &auth {
            req = req.header("authorization", a.as_str());
        }
        if json {
            req = req.header("content-type", "application/json");
        }
        let req = req.body(Body::from(body)).unwrap();
        let (status, kind) = runtime.block_on(async {
            let res = app.oneshot(req).await.unwrap();
            let status = res.status();
            let kind = res
                .headers()
                .get("content-type")
                .and_then(|v| v.to_str().ok())
                .unwrap_or_default()
                .to_string();
            let _ = res.into_body().collect().await.unwrap();
            (status, kind)
        });
        prop_assert!(
            status.as_u16() < 500,
            "{} {}: {}", method, path, status
        );
        // Every API answer is JSON; a page is HTML, a board SVG.
        if path.starts_with("/api/") && !path.ends_with("board.svg") || status.is_client_error() && path.starts_with("/api/") {
            prop_assert!(kind.starts_with("application/json"), "{} {}: {} {}", method, path, status, kind);
        }
    }
}
