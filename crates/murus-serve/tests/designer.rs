//! The designer's page and its API, driven through the router: rules files
//! compiled as `murus check` compiles them (errors with their lines, the
//! warnings passed on, a file too big refused), the versions kept and
//! playable, `--password` guarding the designer's calls only, the page
//! served with nothing a user wrote in its HTML, and the page's script run
//! by headless Chromium against a real server.

use std::process::Command;

use axum::Router;
use axum::http::StatusCode;
use serde_json::{Value, json};

mod common;

use common::{send, server};

const STANDARD: &str = include_str!("../../../variants/standard.mg");

/// [`send`] (with the whole `Authorization` header `auth`) for a JSON
/// answer.
async fn call(
    app: &Router,
    method: &str,
    uri: &str,
    auth: Option<&str>,
    body: Option<&str>,
) -> (StatusCode, Value) {
    let (status, _, text) = send(app, method, uri, auth, body).await;
    let value = serde_json::from_str(&text).unwrap_or_else(|_| panic!("not JSON: {text}"));
    (status, value)
}

fn upload(source: &str) -> String {
    json!({ "source": source }).to_string()
}

/// The standard rules renamed `name`, titled `title`, and changed (a
/// draw at 299 plies) so that they are a version of their own.
fn renamed(name: &str, title: &str) -> String {
    STANDARD
        .replace("variant \"standard\"", &format!("variant \"{name}\""))
        .replace("title \"Murus Gallicus\"", &format!("title \"{title}\""))
        .replace("plies 300", "plies 299")
}

#[tokio::test]
async fn an_upload_is_kept_as_a_version_listed_and_playable_by_its_key() {
    let app = server().router();
    let source = renamed("trial", "Trial <b>rules</b>");
    let (status, v) = call(&app, "POST", "/api/rules", None, Some(&upload(&source))).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let key = v["key"].as_str().unwrap().to_string();
    let expected = murus_engine::Variant::compile(&source).unwrap().rules_key();
    assert_eq!(key, expected.to_hex());
    assert_eq!(v["name"], "trial");
    assert_eq!(v["title"], "Trial <b>rules</b>");
    assert_eq!(v["warnings"], json!([]));
    assert_eq!(v["players"], json!(["Romans", "Gauls"]));
    assert_eq!(v["sheet_url"], format!("/rules/{key}/sheet"));
    assert_eq!(v["shipped"], false);
    assert_eq!(v["new"], true);

    let (status, list) = call(&app, "GET", "/api/rules", None, None).await;
    assert_eq!(status, StatusCode::OK, "{list}");
    let versions = list["versions"].as_array().unwrap();
    let mine = versions.iter().find(|x| x["key"] == key.as_str()).unwrap();
    assert_eq!(mine["name"], "trial");
    let standard = versions.iter().find(|x| x["name"] == "standard").unwrap();
    assert_eq!(standard["shipped"], true);
    assert_eq!(standard["title"], "Murus Gallicus");

    let body = json!({ "variant": key, "seats": ["human", "easy"] }).to_string();
    let (status, g) = call(&app, "POST", "/api/games", None, Some(&body)).await;
    assert_eq!(status, StatusCode::CREATED, "{g}");
    let id = g["id"].as_str().unwrap();
    let (_, game) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await;
    assert_eq!(game["variant"], "trial");
    assert_eq!(game["rules_key"], key.as_str());

    // The same file again is the same version, kept once.
    let (status, again) = call(&app, "POST", "/api/rules", None, Some(&upload(&source))).await;
    assert_eq!(status, StatusCode::CREATED);
    assert_eq!(again["key"], key.as_str());
    assert_eq!(again["new"], false);
    let (_, list) = call(&app, "GET", "/api/rules", None, None).await;
    let count = list["versions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|x| x["key"] == key.as_str())
        .count();
    assert_eq!(count, 1);
}

#[tokio::test]
async fn a_file_with_errors_is_refused_with_each_diagnostic_at_its_line_and_column() {
    let app = server().router();
    let broken = STANDARD.replace("home rank 7", "home rank 9");
    let body = json!({ "source": broken, "file": "drafts/mine.mg" }).to_string();
    let (status, v) = call(&app, "POST", "/api/rules", None, Some(&body)).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("mine.mg does not compile: 1 error")
    );
    let d = &v["diagnostics"][0];
    assert_eq!(d["severity"], "error");
    assert_eq!(d["line"], 19);
    assert_eq!(d["column"], 10);
    assert_eq!(d["message"], "rank 9 is not on this board (ranks 1–7)");
    // Rendered exactly as `murus check` renders it.
    let diags = murus_dsl::compile(&broken).unwrap_err();
    assert_eq!(d["rendered"], diags[0].render("mine.mg", &broken));
    assert!(
        d["rendered"]
            .as_str()
            .unwrap()
            .starts_with("mine.mg:19:10: error:")
    );
    // A syntax error, unnamed: at its place, in `rules.mg`.
    let (status, v) = call(
        &app,
        "POST",
        "/api/rules",
        None,
        Some(&upload("variant \"x\"\nboard")),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    let d = &v["diagnostics"][0];
    assert_eq!(d["line"], 2);
    assert!(
        d["rendered"].as_str().unwrap().starts_with("rules.mg:2:"),
        "{d}"
    );
    // Nothing was kept.
    let (_, list) = call(&app, "GET", "/api/rules", None, None).await;
    assert!(
        list["versions"]
            .as_array()
            .unwrap()
            .iter()
            .all(|x| x["shipped"] == true)
    );
}

#[tokio::test]
async fn warnings_come_back_with_the_version() {
    let app = server().router();
    let source = renamed("warned", "Warned").replace(
        "directions all\n    onto",
        "directions n, ne, e, se, s, sw, w, nw, n\n    onto",
    );
    let expected = murus_dsl::compile(&source).expect("compiles").warnings;
    assert!(!expected.is_empty(), "the test's file has a warning");
    let (status, v) = call(&app, "POST", "/api/rules", None, Some(&upload(&source))).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let warnings = v["warnings"].as_array().unwrap();
    assert_eq!(warnings.len(), expected.len());
    let (line, column) = expected[0].line_col(&source);
    assert_eq!(warnings[0]["severity"], "warning");
    assert_eq!(warnings[0]["line"], line);
    assert_eq!(warnings[0]["column"], column);
    assert_eq!(
        warnings[0]["rendered"],
        expected[0].render("rules.mg", &source)
    );
}

#[tokio::test]
async fn a_file_over_64_kib_is_refused_with_413_and_bad_bodies_with_json_errors() {
    let app = server().router();
    let huge = format!("{STANDARD}{}", "// padding\n".repeat(7000));
    let (status, v) = call(&app, "POST", "/api/rules", None, Some(&upload(&huge))).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{v}");
    assert!(v["error"].as_str().unwrap().contains("at most 65536"));
    for bad in ["{", "[]", r#"{"source": 3}"#, r#"{"text": "x"}"#] {
        let (status, v) = call(&app, "POST", "/api/rules", None, Some(bad)).await;
        assert!(status.is_client_error(), "{bad}: {status}");
        assert!(v["error"].is_string(), "{bad}: {v}");
    }
    // The largest board the language allows compiles at once.
    let big = STANDARD.replace("board rect 8 x 7", "board rect 1000000 x 1000000");
    let (status, _) = call(&app, "POST", "/api/rules", None, Some(&upload(&big))).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
}

#[tokio::test]
async fn an_upload_named_as_a_shipped_variant_leaves_the_name_to_the_shipped_rules() {
    let app = server().router();
    let changed = STANDARD.replace("repetition 3", "repetition 4");
    let (status, v) = call(&app, "POST", "/api/rules", None, Some(&upload(&changed))).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let mine = v["key"].as_str().unwrap().to_string();
    let shipped = murus_engine::Variant::standard().rules_key().to_hex();
    assert_ne!(mine, shipped);
    let body = json!({ "variant": "standard", "seats": ["human", "human"] }).to_string();
    let (_, g) = call(&app, "POST", "/api/games", None, Some(&body)).await;
    let (_, game) = call(
        &app,
        "GET",
        &format!("/api/games/{}", g["id"].as_str().unwrap()),
        None,
        None,
    )
    .await;
    assert_eq!(game["rules_key"], shipped.as_str());
    let (_, list) = call(&app, "GET", "/api/rules", None, None).await;
    let mine = list["versions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["key"] == mine.as_str())
        .unwrap()
        .clone();
    assert_eq!(mine["shipped"], false);
}

#[tokio::test]
async fn the_same_rules_retitled_are_the_version_kept_before() {
    let app = server().router();
    let retitled = STANDARD.replace("title \"Murus Gallicus\"", "title \"Mine\"");
    let (status, v) = call(&app, "POST", "/api/rules", None, Some(&upload(&retitled))).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    assert_eq!(
        v["key"],
        murus_engine::Variant::standard().rules_key().to_hex()
    );
    assert_eq!(v["new"], false);
    assert_eq!(v["name"], "standard");
    assert_eq!(v["title"], "Murus Gallicus");
    assert_eq!(v["shipped"], true);
}

/// `Authorization: Basic` for `user:password`.
fn basic(user_password: &str) -> String {
    const ABC: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let bytes = user_password.as_bytes();
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |acc, (i, &b)| acc | u32::from(b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ABC[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    format!("Basic {out}")
}

#[tokio::test]
async fn the_password_guards_the_designers_calls_and_not_the_players() {
    let app = server().with_password("s3cret é").router();
    let good = basic("designer:s3cret é");
    let wrong = basic("designer:s3cret");
    let game = json!({ "variant": "standard", "seats": ["human", "human"] }).to_string();
    let rules = upload(&renamed("guarded", "Guarded"));
    let designers: [(&str, &str, Option<&str>); 4] = [
        ("GET", "/", None),
        ("GET", "/api/rules", None),
        ("POST", "/api/rules", Some(&rules)),
        ("POST", "/api/games", Some(&game)),
    ];
    for (method, uri, body) in designers {
        for auth in [
            None,
            Some(wrong.as_str()),
            Some("Bearer x"),
            Some("Basic %%%"),
        ] {
            let (status, headers, text) = send(&app, method, uri, auth, body).await;
            assert_eq!(
                status,
                StatusCode::UNAUTHORIZED,
                "{method} {uri} {auth:?}: {text}"
            );
            assert!(
                headers["www-authenticate"]
                    .to_str()
                    .unwrap()
                    .starts_with("Basic ")
            );
            assert!(text.contains("password"), "{text}");
        }
        let (status, _, text) = send(&app, method, uri, Some(&good), body).await;
        assert!(status.is_success(), "{method} {uri}: {status} {text}");
    }
    // The game made: its players and spectators need no password.
    let (_, g) = call(&app, "POST", "/api/games", Some(&good), Some(&game)).await;
    let id = g["id"].as_str().unwrap();
    let token = g["seats"][0]["token"].as_str().unwrap();
    let (status, view) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await;
    assert_eq!(status, StatusCode::OK);
    let first = view["legal_moves"][0].as_str().unwrap();
    let body = json!({ "move": first, "ply": 0 }).to_string();
    let bearer = format!("Bearer {token}");
    let (status, v) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(&bearer),
        Some(&body),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let (status, _, _) = send(&app, "GET", "/assets/designer.js", None, None).await;
    assert_eq!(status, StatusCode::OK);
    // Without --password, all is open.
    let open = server().router();
    let (status, _, _) = send(&open, "GET", "/", None, None).await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn the_page_is_static_and_holds_nothing_a_user_wrote() {
    let app = server().router();
    let hostile = "<img src=x onerror=alert(1)>";
    let (status, _) = call(
        &app,
        "POST",
        "/api/rules",
        None,
        Some(&upload(&renamed("hostile", hostile))),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);
    let (status, headers, html) = send(&app, "GET", "/", None, None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        headers["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/html")
    );
    let csp = headers["content-security-policy"].to_str().unwrap();
    assert!(csp.contains("script-src 'self'"), "{csp}");
    assert!(!html.contains("hostile") && !html.contains("onerror"));
    assert!(html.contains("<script src=\"/assets/designer.js\""));
    for (asset, kind) in [
        ("/assets/designer.js", "text/javascript"),
        ("/assets/designer.css", "text/css"),
    ] {
        let (status, headers, text) = send(&app, "GET", asset, None, None).await;
        assert_eq!(status, StatusCode::OK);
        assert!(headers["content-type"].to_str().unwrap().starts_with(kind));
        assert!(
            !text.contains("innerHTML"),
            "{asset} puts no text in as HTML"
        );
    }
}

/// Headless Chromium's DOM of `url` once its scripts have run.
fn dump_dom(url: &str) -> String {
    let profile =
        std::env::temp_dir().join(format!("murus-designer-chromium-{}", std::process::id()));
    let out = Command::new("chromium")
        .args([
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
        ])
        .args([
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(["--virtual-time-budget=5000", "--dump-dom", url])
        .output()
        .expect("Debian's chromium runs (apt-get install chromium)");
    let _ = std::fs::remove_dir_all(&profile);
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_lists_the_versions_it_fetched_with_their_sheets_and_titles_as_text() {
    let server = server();
    let app = server.router();
    let hostile = "<img src=x onerror=alert(1)>";
    let (status, v) = call(
        &app,
        "POST",
        "/api/rules",
        None,
        Some(&upload(&renamed("hostile", hostile))),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);
    let key = v["key"].as_str().unwrap().to_string();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    let url = format!("http://{addr}/");
    let dom = tokio::task::spawn_blocking(move || dump_dom(&url))
        .await
        .unwrap();
    // A row a version, built by the script from GET /api/rules.
    assert!(dom.contains(&format!("data-key=\"{key}\"")), "{dom}");
    assert!(
        dom.contains(&format!("href=\"/rules/{key}/sheet\"")),
        "{dom}"
    );
    assert!(
        dom.contains(&format!("href=\"/rules/{key}/summary\"")),
        "{dom}"
    );
    assert!(dom.contains("Murus Gallicus"), "{dom}");
    // The hostile title is text in the page, not an element.
    assert!(dom.contains("&lt;img src=x onerror=alert(1)&gt;"), "{dom}");
    assert!(!dom.contains("<img"), "{dom}");
}
