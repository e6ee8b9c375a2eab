//! A whole game in real browsers (issue 39's acceptance): headless
//! Chromium, three processes of their own, plays a short variant to its
//! end by the rules between two players, each through their seat's link,
//! with real mouse clicks; a spectator watches without reloading; one
//! player reloads mid-game and carries on; an illegal click plays nothing;
//! both players send the feedback form and the summary page shows the game
//! and what they said, a comment with `<script>` as text; no page reports
//! an error. And, `#[ignore]`d, the README's screenshots.

use std::time::Duration;

use axum::Router;
use axum::http::StatusCode;
use murus_engine::Variant;
use murus_serve::Server;
use serde_json::{Value, json};

mod common;

use common::{Browser, SPRINT, call, line_to_the_end, listen, new_game};

/// The page's script has built the board and listens for changes.
const READY: &str = "document.querySelector('#board svg') && document.getElementById('live').textContent === 'live'";

/// The centre of cell `cell` on the page: `[x, y]`.
fn cell_at(b: &mut Browser, cell: &str) -> (f64, f64) {
    let r = b.eval(&format!(
        "(() => {{ const r = document.querySelector('#board .cell[data-cell=\"{cell}\"]').getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }})()"
    ));
    (r[0].as_f64().unwrap(), r[1].as_f64().unwrap())
}

/// The plies the page's move list shows.
fn listed(b: &mut Browser) -> Vec<String> {
    let v = b.eval("[...document.querySelectorAll('#moves .ply')].map((e) => e.textContent)");
    serde_json::from_value(v).unwrap_or_default()
}

/// The POST requests a page sent.
fn posts(b: &mut Browser) -> Vec<String> {
    b.requests()
        .into_iter()
        .filter(|(method, _)| method == "POST")
        .map(|(_, url)| url)
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_players_play_a_game_to_its_end_in_browsers_and_a_spectator_watches_it_live() {
    let server = Server::in_memory().unwrap();
    let sprint = Variant::compile(SPRINT).unwrap_or_else(|e| panic!("{e:?}"));
    let line = (4..9)
        .find_map(|n| line_to_the_end(&sprint, n, |m| m.contains('-')))
        .map(|(line, _)| line)
        .expect("a game of sprint ends in a handful of moves");
    let key = server.add(sprint).unwrap();
    let app = server.router();
    let (id, romans, gauls) = new_game(&app, &key).await;
    let addr = listen(app.clone()).await;
    let base = format!("http://{addr}");
    let game_uri = format!("/api/games/{id}");
    let rt = tokio::runtime::Handle::current();
    let api = app.clone();
    let game = move || rt.block_on(call(&api, "GET", &game_uri, None, None)).1;
    let (p1_url, p2_url) = (
        format!("{base}/play/{id}?token={romans}"),
        format!("{base}/play/{id}?token={gauls}"),
    );
    let watch_url = format!("{base}/watch/{id}");
    let summary_url = format!("{base}/rules/{key}/summary");
    let comment = "<script>window.pwned=1</script> too short & sweet";

    tokio::task::spawn_blocking(move || {
        let mut spectator = Browser::open(&watch_url);
        spectator.until(READY);
        // Set once: a reload of the spectator's page would lose it.
        spectator.eval("window.murusWatching = 'since the start'");
        let mut players = [Browser::open(&p1_url), Browser::open(&p2_url)];
        for p in &mut players {
            p.until(READY);
        }
        players[0].until("document.querySelector('#board.active')");

        // Each sees the board from their side: their home rank (1 for the
        // Romans, 5 for the Gauls) at the bottom; the spectator as the
        // first player does.
        let [p0, p1] = &mut players;
        for (b, bottom, top) in [
            (p0, "a1", "a5"),
            (p1, "a5", "a1"),
            (&mut spectator, "a1", "a5"),
        ] {
            let (low, high) = (cell_at(b, bottom), cell_at(b, top));
            assert!(low.1 > high.1, "{bottom} {low:?} below {top} {high:?}");
            assert_eq!(low.0, high.0, "a file stands upright");
        }
        let (a1, c1) = (cell_at(&mut players[1], "a1"), cell_at(&mut players[1], "c1"));
        assert!(a1.0 > c1.0, "the Gauls see file a on their right");

        for (ply, text) in line.iter().enumerate() {
            let g = game();
            assert_eq!(g["ply"], json!(ply));
            assert!(g["result"].is_null(), "{g}");
            let chosen: Vec<&Value> = g["legal"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|m| m["move"] == json!(text))
                .collect();
            let (from, to) = (
                chosen[0]["from"].as_str().unwrap().to_string(),
                chosen[0]["to"][0].as_str().unwrap().to_string(),
            );
            let same_clicks = g["legal"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|m| m["from"] == json!(from) && m["to"].as_array().unwrap().contains(&json!(to)))
                .count();
            assert_eq!(same_clicks, 1, "{text}: one move from {from} to {to}");
            let mover = ply % players.len();

            if ply == 0 {
                // Illegal clicks: the opponent's stack, then a stack of
                // one's own and a cell that is none of its targets.
                let b = &mut players[0];
                let theirs = b
                    .eval("document.querySelector('#board .stack[data-player=\"g\"]').dataset.cell");
                let theirs = theirs.as_str().unwrap().to_string();
                b.click_cell(&theirs);
                b.until(&format!(
                    "document.getElementById('message').textContent === 'No move starts on {theirs}.'"
                ));
                b.click_cell(&from);
                b.until("document.querySelector('#board .cell.target')");
                let legal = g["legal"].as_array().unwrap();
                let off = b
                    .eval("[...document.querySelectorAll('#board .cell')].map((c) => c.dataset.cell)");
                let off = off
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|c| c.as_str().unwrap().to_string())
                    .find(|c| {
                        legal.iter().all(|m| {
                            m["from"] != json!(c)
                                && !(m["from"] == json!(from)
                                    && m["to"].as_array().unwrap().contains(&json!(c)))
                        })
                    })
                    .expect("a cell that is no target");
                b.click_cell(&off);
                b.until("!document.querySelector('#board .cell.origin, #board .cell.target')");
                std::thread::sleep(Duration::from_millis(300));
                assert_eq!(posts(b), Vec::<String>::new(), "no move sent");
                assert_eq!(game()["ply"], json!(0), "nothing played");
                assert!(listed(b).is_empty());
            }
            if ply == 1 {
                // The Gauls' player reloads before their move, and carries
                // on from the same position.
                let b = &mut players[1];
                b.eval("window.beforeReload = true");
                b.reload();
                b.until(&format!(
                    "!window.beforeReload && {READY} && document.querySelector('#board.active') \
                     && document.querySelectorAll('#moves .ply').length === 1"
                ));
                assert_eq!(listed(b), line[..1]);
                let (a5, a1) = (cell_at(b, "a5"), cell_at(b, "a1"));
                assert!(a5.1 > a1.1, "still seen from the Gauls' side");
            }

            for p in &mut players {
                assert_eq!(
                    p.eval("document.getElementById('feedback').checkVisibility()"),
                    json!(false),
                    "no feedback form while the game goes on"
                );
            }
            let b = &mut players[mover];
            b.until("document.querySelector('#board.active')");
            b.click_cell(&from);
            b.until(&format!(
                "document.querySelector('#board .cell.target[data-cell=\"{to}\"]')"
            ));
            b.click_cell(&to);
            let shown = format!(
                "document.querySelectorAll('#moves .ply').length === {} \
                 && document.querySelector('#moves .ply.last').textContent === '{text}'",
                ply + 1
            );
            b.until(&shown);
            // Every page hears of it without reloading.
            spectator.until(&shown);
            players[1 - mover].until(&shown);
            assert_eq!(
                spectator.eval("window.murusWatching"),
                json!("since the start"),
                "the spectator's page was not reloaded"
            );
        }

        // Over by the rules: the result said on every page, the form
        // offered to the players only.
        let g = game();
        assert_eq!(g["ply"], json!(line.len()), "{g}");
        let reason = g["result"]["reason"].as_str().expect("a result").to_string();
        assert!(!g["result"]["winner"].is_null(), "{g}");
        let [p0, p1] = &mut players;
        for b in [p0, p1, &mut spectator] {
            b.until("document.getElementById('result').textContent.includes(' won by ')");
        }
        assert_eq!(spectator.eval("Boolean(document.getElementById('feedback'))"), json!(false));

        for (i, b) in players.iter_mut().enumerate() {
            b.until("document.getElementById('feedback').checkVisibility()");
            b.eval(&format!(
                "(() => {{ const f = document.getElementById('feedback'); \
                 f.elements.fun.value = '{}'; f.elements.clarity.value = '{}'; return true; }})()",
                4 + i,
                2 + i
            ));
            b.click("#feedback input[name=again]");
            b.click("#feedback textarea");
            b.type_text(if i == 0 { comment } else { "the race is fast" });
            b.click("#feedback button[type=submit]");
            b.until("document.getElementById('feedback-said').textContent.startsWith('Thank you')");
        }

        // The designer's summary: the game and both answers, the comment
        // as text.
        let reader = &mut players[0];
        reader.navigate(&summary_url);
        reader.until("document.querySelector('[data-key=comments]')");
        let cell = |b: &mut Browser, key: &str| {
            b.eval(&format!(
                "document.querySelector('[data-key=\"{key}\"]').textContent"
            ))
        };
        assert_eq!(cell(reader, "games"), json!("1"));
        assert_eq!(cell(reader, "finished"), json!("1"));
        assert_eq!(cell(reader, "lengths"), json!(line.len().to_string()));
        assert_eq!(cell(reader, "endings"), json!(format!("\n{reason}: 1\n")));
        assert_eq!(cell(reader, "answers"), json!("2"));
        assert_eq!(cell(reader, "fun"), json!("4.50"));
        assert_eq!(cell(reader, "again"), json!("2 of 2"));
        let comments = reader
            .eval("[...document.querySelectorAll('[data-key=comments] li')].map((li) => li.textContent)");
        assert!(comments.as_array().unwrap().contains(&json!(comment)), "{comments}");
        // The page's own scripts only (files under /assets/): none made
        // from the comment.
        assert_eq!(
            reader.eval(
                "[...document.querySelectorAll('script')].filter((s) => !new URL(s.src || 'x:', location.href).pathname.startsWith('/assets/')).length"
            ),
            json!(0)
        );
        assert_eq!(reader.eval("typeof window.pwned"), json!("undefined"));

        let [p0, p1] = &mut players;
        for (name, b) in [
            ("Romans", p0),
            ("Gauls", p1),
            ("spectator", &mut spectator),
        ] {
            let errors = b.errors();
            assert!(errors.is_empty(), "the {name}' page: {errors:#?}");
        }
    })
    .await
    .unwrap();
}

/// Plays the first legal move for `token`, `n` times in turn with `other`.
async fn play_first(app: &Router, id: &str, tokens: [&str; 2], n: usize) {
    for i in 0..n {
        let (_, g) = call(app, "GET", &format!("/api/games/{id}"), None, None).await;
        let body = json!({ "move": g["legal_moves"][0], "ply": g["ply"] });
        let uri = format!("/api/games/{id}/moves");
        let (status, v) = call(
            app,
            "POST",
            &uri,
            Some(tokens[i % 2]),
            Some(&body.to_string()),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{v}");
    }
}

/// The README's screenshots of the playtest server, written to
/// `docs/screenshots/` (`cargo test -p murus-serve --test whole_game --
/// --ignored`): a player's page in the middle of a standard game with a
/// stack chosen and its targets lit, and the summary of a few games and
/// their feedback.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "writes the README's screenshots"]
async fn readme_screenshots() {
    let server = Server::in_memory().unwrap();
    server.add_shipped().unwrap();
    let app = server.router();
    let said = [
        (
            4,
            3,
            true,
            "The walls make a real race of it; I want to play again as the Gauls.",
        ),
        (
            3,
            2,
            false,
            "Not sure when a sacrifice is allowed: the sheet's example helped.",
        ),
        (5, 4, true, "Catapults would make the endgame shorter."),
    ];
    for (i, (fun, clarity, again, text)) in said.iter().enumerate() {
        let (id, romans, gauls) = new_game(&app, "standard").await;
        play_first(&app, &id, [&romans, &gauls], 6 + 4 * i).await;
        let loser = if i == 1 { &romans } else { &gauls };
        let uri = format!("/api/games/{id}/resign");
        let (status, v) = call(&app, "POST", &uri, Some(loser), None).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let body = json!({ "fun": fun, "clarity": clarity, "again": again, "text": text });
        let uri = format!("/api/games/{id}/feedback");
        let (status, v) = call(&app, "POST", &uri, Some(&romans), Some(&body.to_string())).await;
        assert_eq!(status, StatusCode::OK, "{v}");
    }
    let (id, romans, gauls) = new_game(&app, "standard").await;
    play_first(&app, &id, [&romans, &gauls], 6).await;
    let (_, g) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await;
    let from = g["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["from"].as_str().unwrap_or_default().to_string())
        .max_by_key(|f| {
            g["legal"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|m| m["from"] == json!(f))
                .count()
        })
        .unwrap();
    let addr = listen(app.clone()).await;
    let play = format!("http://{addr}/play/{id}?token={romans}");
    let summary = format!("http://{addr}/rules/standard/summary");
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/screenshots");
    tokio::task::spawn_blocking(move || {
        let mut b = Browser::open("about:blank");
        // Laid out in the window the picture shows, before the page loads.
        b.screenshot(1000, 700, 0.72);
        b.navigate(&play);
        b.until(&format!(
            "{READY} && document.querySelector('#board.active')"
        ));
        b.click_cell(&from);
        b.until("document.querySelector('#board .cell.target')");
        b.eval("window.scrollTo(0, 0)");
        std::fs::write(
            dir.join("playtest-player.png"),
            b.screenshot(1000, 700, 0.72),
        )
        .unwrap();
        b.navigate(&summary);
        b.until("document.querySelector('[data-key=comments]')");
        std::fs::write(
            dir.join("playtest-summary.png"),
            b.screenshot(1000, 700, 1.0),
        )
        .unwrap();
        let errors = b.errors();
        assert!(errors.is_empty(), "{errors:#?}");
    })
    .await
    .unwrap();
}
