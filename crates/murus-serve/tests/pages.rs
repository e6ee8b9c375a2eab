//! The player's and the spectators' pages, the board they show, the legal
//! moves with their cells, and the rules sheet they link to; and the
//! spectators' page loaded in headless Chromium from a server on a real
//! port, building the board and the move list from the API.

use axum::Router;
use axum::http::StatusCode;
use serde_json::{Value, json};

mod common;

use common::{Browser, fetch, json_of, listen, new_game, server};

/// Plays the first legal move for `token`; the game after it.
async fn play_first(app: &Router, id: &str, token: &str) -> Value {
    let g = json_of(app, &format!("/api/games/{id}")).await;
    let m = g["legal_moves"][0].as_str().unwrap();
    let body = json!({ "move": m, "ply": g["ply"] }).to_string();
    let uri = format!("/api/games/{id}/moves");
    let (status, _, text) = fetch(app, "POST", &uri, Some(token), Some(&body)).await;
    assert_eq!(status, StatusCode::OK, "{text}");
    serde_json::from_str(&text).unwrap()
}

#[tokio::test]
async fn the_game_lists_each_legal_move_with_the_cells_a_player_clicks() {
    let app = server().router();
    let (id, romans, _) = new_game(&app, "standard").await;
    let g = json_of(&app, &format!("/api/games/{id}")).await;
    let legal = g["legal"].as_array().unwrap();
    assert_eq!(legal.len(), g["legal_moves"].as_array().unwrap().len());
    assert_eq!(g["last_move_cells"], json!([]));
    for (m, text) in legal.iter().zip(g["legal_moves"].as_array().unwrap()) {
        assert_eq!(&m["move"], text);
        // A sowing at the start: from its stack to its farthest cell.
        let (from, to) = text.as_str().unwrap().split_once('-').unwrap();
        assert_eq!(m["from"], from, "{m}");
        assert_eq!(m["to"], json!([to]), "{m}");
    }
    let after = play_first(&app, &id, &romans).await;
    let first = legal[0]["move"].as_str().unwrap();
    let cells = after["last_move_cells"].as_array().unwrap();
    assert_eq!(cells.first().unwrap(), &legal[0]["from"], "{first}");
    assert_eq!(cells.last().unwrap(), &legal[0]["to"][0], "{first}");
    assert!(cells.len() >= 2);
}

#[tokio::test]
async fn a_pie_rule_split_names_both_cells_and_a_swap_none() {
    let app = server().router();
    let (id, romans, gauls) = new_game(&app, "pie").await;
    play_first(&app, &id, &romans).await;
    let g = json_of(&app, &format!("/api/games/{id}")).await;
    let legal = g["legal"].as_array().unwrap();
    let swap = legal.iter().find(|m| m["move"] == "swap");
    let split = legal
        .iter()
        .find(|m| m["move"].as_str().unwrap().contains(':'));
    // The pie rule's answers, if this variant's second move offers them.
    if let Some(swap) = swap {
        assert_eq!(swap["from"], Value::Null);
        assert_eq!(swap["to"], json!([]));
    }
    if let Some(split) = split {
        let text = split["move"].as_str().unwrap();
        let (tower, cells) = text.split_once(':').unwrap();
        let (a, b) = cells.split_once(',').unwrap();
        assert_eq!(split["from"], tower);
        assert_eq!(split["to"], json!([a, b]));
    }
    assert!(swap.is_some() || split.is_some(), "{g}");
    let _ = gauls;
}

#[tokio::test]
async fn the_board_is_the_diagram_with_a_cell_each_and_the_last_move_shaded() {
    let app = server().router();
    let (id, romans, _) = new_game(&app, "standard").await;
    let uri = format!("/api/games/{id}/board.svg");
    let (status, kind, svg) = fetch(&app, "GET", &uri, None, None).await;
    assert_eq!(status, StatusCode::OK, "{svg}");
    assert_eq!(kind, "image/svg+xml");
    assert!(svg.starts_with("<svg"), "{svg}");
    assert!(svg.contains(r#"class="cell" data-cell="a1""#), "{svg}");
    assert!(svg.contains(r#"class="cell" data-cell="h7""#), "{svg}");
    assert!(!svg.contains("class=\"highlight\""), "no move yet");
    let after = play_first(&app, &id, &romans).await;
    let (_, _, svg) = fetch(&app, "GET", &uri, None, None).await;
    for cell in after["last_move_cells"].as_array().unwrap() {
        let shaded = format!(
            r#"class="highlight" data-cell="{}""#,
            cell.as_str().unwrap()
        );
        assert!(svg.contains(&shaded), "{shaded} in {svg}");
    }
    let (status, kind, text) = fetch(&app, "GET", "/api/games/nope/board.svg", None, None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(kind, "application/json");
    assert!(text.contains("no game `nope` here"), "{text}");
}

#[tokio::test]
async fn the_watch_page_has_no_controls_and_the_play_page_knows_its_seat() {
    let app = server().router();
    let (id, _, gauls) = new_game(&app, "standard").await;

    let (status, kind, page) = fetch(&app, "GET", &format!("/watch/{id}"), None, None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(kind, "text/html; charset=utf-8");
    assert!(page.contains(&format!(r#"data-game="{id}""#)), "{page}");
    assert!(page.contains(r#"data-mode="watch""#), "{page}");
    assert!(page.contains(r#"name="viewport""#), "{page}");
    assert!(page.contains(r#"<script src="/assets/play.js""#), "{page}");
    assert!(!page.contains(r#"id="resign""#), "{page}");
    assert!(!page.contains(r#"id="draw""#), "{page}");
    assert!(page.contains(r#"<li data-letter="g">Gauls</li>"#), "{page}");
    let rules = json_of(&app, &format!("/api/games/{id}")).await["rules_key"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        page.contains(&format!(r#"href="/rules/{rules}/sheet""#)),
        "{page}"
    );

    let (status, _, page) = fetch(
        &app,
        "GET",
        &format!("/play/{id}?token={gauls}"),
        None,
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains(r#"data-mode="play" data-seat="1""#), "{page}");
    assert!(page.contains(r#"id="resign""#), "{page}");
    assert!(page.contains(r#"id="draw""#), "{page}");
    // The token is never written into the page: the script reads it from
    // the address.
    assert!(!page.contains(&gauls));

    // A wrong token, and none: a spectator's page that says why.
    let (status, _, page) = fetch(
        &app,
        "GET",
        &format!("/play/{id}?token={}", "0".repeat(64)),
        None,
        None,
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert!(page.contains(r#"data-mode="watch""#), "{page}");
    assert!(page.contains("no seat&#39;s of this game"), "{page}");
    assert!(!page.contains(r#"id="resign""#), "{page}");
    let (status, _, page) = fetch(&app, "GET", &format!("/play/{id}"), None, None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains(r#"data-mode="watch""#), "{page}");
    assert!(page.contains("has no seat&#39;s token"), "{page}");
}

#[tokio::test]
async fn an_unknown_game_is_a_404_page_with_its_id_escaped() {
    let app = server().router();
    for page in ["play", "watch"] {
        let uri = format!("/{page}/%3Cscript%3Ealert(1)%3C%2Fscript%3E");
        let (status, kind, text) = fetch(&app, "GET", &uri, None, None).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{text}");
        assert_eq!(kind, "text/html; charset=utf-8");
        assert!(text.contains("No such game"), "{text}");
        assert!(text.contains("&lt;script&gt;alert(1)"), "{text}");
        assert!(!text.contains("<script>alert"), "{text}");
    }
}

#[tokio::test]
async fn a_rules_files_title_and_names_are_escaped_on_the_page() {
    let s = server();
    let source = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../variants/standard.mg"
    ))
    .unwrap()
    .replace(
        "title \"Murus Gallicus\"",
        "title \"<img src=x onerror=alert(1)> & 'co'\"",
    )
    // Rules of their own: the same rules retitled are the version kept
    // before, the shipped one, with its title.
    .replace("plies 300", "plies 299");
    let v = murus_engine::Variant::compile(&source).unwrap();
    let key = s.add(v).unwrap();
    let app = s.router();
    let (id, _, _) = new_game(&app, &key).await;
    let (_, _, page) = fetch(&app, "GET", &format!("/watch/{id}"), None, None).await;
    assert!(
        page.contains("<h1>&lt;img src=x onerror=alert(1)&gt; &amp; &#39;co&#39;</h1>"),
        "{page}"
    );
    assert!(!page.contains("<img"), "{page}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rules_sheet_opens_by_key_or_name() {
    let app = server().router();
    let (id, _, _) = new_game(&app, "standard").await;
    let key = json_of(&app, &format!("/api/games/{id}")).await["rules_key"]
        .as_str()
        .unwrap()
        .to_string();
    for uri in [
        format!("/rules/{key}/sheet"),
        "/rules/standard/sheet".into(),
    ] {
        let (status, kind, page) = fetch(&app, "GET", &uri, None, None).await;
        assert_eq!(status, StatusCode::OK, "{uri}");
        assert_eq!(kind, "text/html; charset=utf-8");
        assert!(page.contains("<h1>Murus Gallicus</h1>"), "{page}");
        assert!(page.contains(r#"data-kind="sacrifice""#));
        assert!(!page.contains("<script"));
    }
    let (status, _, page) = fetch(&app, "GET", "/rules/%3Cb%3E/sheet", None, None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(page.contains("`&lt;b&gt;`"), "{page}");
}

#[tokio::test]
async fn the_pages_script_and_style_are_served_from_the_server() {
    let app = server().router();
    let (status, kind, js) = fetch(&app, "GET", "/assets/play.js", None, None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(kind, "text/javascript; charset=utf-8");
    assert!(js.contains("EventSource"));
    // User text is never put in the page as HTML.
    assert!(!js.contains("innerHTML"));
    let (status, kind, _) = fetch(&app, "GET", "/assets/play.css", None, None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(kind, "text/css; charset=utf-8");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_watch_page_in_a_browser_builds_the_board_and_the_move_list_from_the_api() {
    let server = server();
    let app = server.router();
    let (id, romans, gauls) = new_game(&app, "standard").await;
    let mut moves = Vec::new();
    for token in [&romans, &gauls, &romans] {
        let g = play_first(&app, &id, token).await;
        moves.push(g["moves"].as_array().unwrap().last().unwrap().clone());
    }
    let addr = listen(app.clone()).await;
    let url = format!("http://{addr}/watch/{id}");
    let (dom, live) = tokio::task::spawn_blocking(move || {
        let mut b = Browser::open(&url);
        let dom =
            b.until("document.querySelector('#board svg') && document.querySelector('#moves li')");
        let live = b.until("document.getElementById('live').textContent === 'live'");
        (dom, live)
    })
    .await
    .unwrap();
    // The board, fetched and put in the page.
    assert!(dom.contains(r#"data-cell="a1""#), "{dom}");
    assert!(dom.contains(r#"class="highlight""#), "{dom}");
    // The move list as records number it.
    let (a, b, c) = (
        moves[0].as_str().unwrap(),
        moves[1].as_str().unwrap(),
        moves[2].as_str().unwrap(),
    );
    let first = format!(
        r#"<li><span class="num">1.</span> <span class="ply">{a}</span> <span class="ply">{b}</span></li>"#
    );
    let second =
        format!(r#"<li><span class="num">2.</span> <span class="ply last">{c}</span></li>"#);
    assert!(dom.contains(&first), "{first} in {dom}");
    assert!(dom.contains(&second), "{second} in {dom}");
    assert!(dom.contains("Gauls (g) to move."), "{dom}");
    assert!(
        dom.contains("Romans (r): human · Gauls (g): human"),
        "{dom}"
    );
    assert!(!dom.contains(r#"id="resign""#));
    assert!(live.contains(r#"<span id="live">live</span>"#), "{live}");
}

/// Game `id`'s first legal move as a player makes it: its text, the cell
/// of its stack and the first cell that finishes it.
async fn first_legal(app: &Router, id: &str) -> (String, String, String) {
    let g = json_of(app, &format!("/api/games/{id}")).await;
    let m = &g["legal"][0];
    let text = |v: &Value| v.as_str().unwrap().to_string();
    (text(&m["move"]), text(&m["from"]), text(&m["to"][0]))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_clicks_a_stack_then_a_target_and_the_spectator_sees_the_move() {
    let server = server();
    let app = server.router();
    let (id, romans, _) = new_game(&app, "standard").await;
    let (text, from, to) = first_legal(&app, &id).await;
    let addr = listen(app.clone()).await;
    let play = format!("http://{addr}/play/{id}?token={romans}");
    let watch = format!("http://{addr}/watch/{id}");
    let (f, t) = (from.clone(), to.clone());
    let (picked, played, watched) = tokio::task::spawn_blocking(move || {
        let mut spectator = Browser::open(&watch);
        spectator.until("document.querySelector('#board svg') && document.getElementById('live').textContent === 'live'");
        let mut player = Browser::open(&play);
        player.until("document.querySelector('#board.active svg') && document.getElementById('live').textContent === 'live'");
        player.click_cell(&f);
        let picked = player.until("document.querySelector('#board .cell.target')");
        player.click_cell(&t);
        let played = player.until("document.querySelector('#moves li')");
        let watched = spectator.until("document.querySelector('#moves li')");
        (picked, played, watched)
    })
    .await
    .unwrap();
    assert!(
        picked.contains(&format!(r#"data-cell="{from}" fill="#))
            && picked.contains(&format!(r#"class="cell origin" data-cell="{from}""#)),
        "{picked}"
    );
    assert!(
        picked.contains(&format!(r#"class="cell target" data-cell="{to}""#)),
        "{picked}"
    );
    let listed = format!(r#"<span class="ply last">{text}</span>"#);
    assert!(played.contains(&listed), "{played}");
    assert!(played.contains("Gauls (g) to move: waiting."), "{played}");
    // The spectator's page heard of it over the event stream.
    assert!(watched.contains(&listed), "{watched}");
    let g = json_of(&app, &format!("/api/games/{id}")).await;
    assert_eq!(g["moves"], json!([text]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_the_game_a_player_sends_the_feedback_form_and_the_designer_reads_it() {
    let server = server();
    let app = server.router();
    let (id, romans, gauls) = new_game(&app, "standard").await;
    let addr = listen(app.clone()).await;
    let play = format!("http://{addr}/play/{id}?token={romans}");
    let resign = format!("/api/games/{id}/resign");
    let opened = tokio::task::spawn_blocking(move || {
        let mut b = Browser::open(&play);
        b.until("document.querySelector('#board svg') && document.getElementById('live').textContent === 'live'");
        let hidden = b.eval("document.getElementById('feedback').hidden");
        (b, hidden)
    })
    .await
    .unwrap();
    // The Gauls resign: the Romans' page hears of it and offers the form.
    let (status, _, _) = fetch(&app, "POST", &resign, Some(&gauls), None).await;
    assert_eq!(status, StatusCode::OK);
    let (hidden, form, said) = tokio::task::spawn_blocking(move || {
        let (mut b, hidden) = opened;
        let form = b.until("!document.getElementById('feedback').hidden");
        b.eval(
            "(() => { const f = document.getElementById('feedback'); \
             f.elements.fun.value = '5'; f.elements.clarity.value = '2'; \
             f.elements.again.checked = true; \
             f.elements.text.value = '<i>the endgame</i> dragged'; \
             f.querySelector('button').click(); return true; })()",
        );
        let said =
            b.until("document.getElementById('feedback-said').textContent.startsWith('Thank you')");
        (hidden, form, said)
    })
    .await
    .unwrap();
    assert_eq!(hidden, json!(true), "no form while the game goes on");
    assert!(form.contains("How was it?"), "{form}");
    assert!(said.contains("your answers are kept"), "{said}");
    let s = json_of(&app, "/api/rules/standard/summary").await;
    assert_eq!(s["feedback"]["answers"], 1, "{s}");
    assert_eq!(s["feedback"]["fun"], 5.0);
    assert_eq!(s["feedback"]["clarity"], 2.0);
    assert_eq!(s["feedback"]["again"], 1);
    assert_eq!(
        s["feedback"]["comments"],
        json!(["<i>the endgame</i> dragged"])
    );
    // A spectator's page has no form.
    let (_, _, watch) = fetch(&app, "GET", &format!("/watch/{id}"), None, None).await;
    assert!(!watch.contains("How was it?"));
}

#[tokio::test]
async fn the_summary_page_shows_the_figures_and_every_comment_as_text() {
    let app = server().router();
    let (id, romans, gauls) = new_game(&app, "standard").await;
    play_first(&app, &id, &romans).await;
    let resign = format!("/api/games/{id}/resign");
    let (status, _, _) = fetch(&app, "POST", &resign, Some(&gauls), None).await;
    assert_eq!(status, StatusCode::OK);
    let feedback = format!("/api/games/{id}/feedback");
    let said = json!({"fun": 4, "clarity": 3, "again": true,
                      "text": "<script>alert(1)</script> & more"})
    .to_string();
    let (status, _, text) = fetch(&app, "POST", &feedback, Some(&romans), Some(&said)).await;
    assert_eq!(status, StatusCode::OK, "{text}");
    let (status, kind, page) = fetch(&app, "GET", "/rules/standard/summary", None, None).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert_eq!(kind, "text/html; charset=utf-8");
    for shown in [
        "<h1>Playtest summary: standard</h1>",
        r#"<td data-key="games">1</td>"#,
        r#"<td data-key="finished">1</td>"#,
        r#"<td data-key="first_player">1 of 1 decided: 100.0% (95% interval"#,
        r#"<td data-key="lengths">1</td>"#,
        "<li>resignation: 1</li>",
        r#"<td data-key="fun">4.00</td>"#,
        r#"<td data-key="again">1 of 1</td>"#,
        "<li>&lt;script&gt;alert(1)&lt;/script&gt; &amp; more</li>",
    ] {
        assert!(page.contains(shown), "{shown} in {page}");
    }
    assert!(!page.contains("<script>"), "{page}");
    let (status, _, page) = fetch(&app, "GET", "/rules/nonesuch/summary", None, None).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{page}");
    // Behind the password, as the designer's page is.
    let guarded = server().with_password("sesame").router();
    let (status, _, _) = fetch(&guarded, "GET", "/rules/standard/summary", None, None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_a_phone_sized_screen_the_player_page_fits_and_a_move_is_played_by_taps() {
    let server = server();
    let app = server.router();
    let (id, romans, _) = new_game(&app, "standard").await;
    let (text, from, to) = first_legal(&app, &id).await;
    let addr = listen(app.clone()).await;
    let play = format!("http://{addr}/play/{id}?token={romans}");
    let (fits, cell_width, played) = tokio::task::spawn_blocking(move || {
        let mut b = Browser::open(&play);
        // A phone held upright: 375 × 740 CSS pixels.
        b.call(
            "Emulation.setDeviceMetricsOverride",
            json!({ "width": 375, "height": 740, "deviceScaleFactor": 2, "mobile": true }),
            true,
        );
        b.reload();
        b.until("document.querySelector('#board.active svg') && document.getElementById('live').textContent === 'live'");
        let fits = b.eval(
            "(() => { const w = window.innerWidth; \
             const board = document.querySelector('#board svg').getBoundingClientRect(); \
             const wide = [...document.querySelectorAll('button, input, a')].filter((e) => e.offsetParent && e.getBoundingClientRect().right > w + 1).length; \
             return w === 375 && document.documentElement.scrollWidth <= w && board.width > 300 && board.right <= w && wide === 0; })()",
        );
        let cell_width = b.eval(
            "document.querySelector('#board .cell').getBoundingClientRect().width",
        );
        b.click_cell(&from);
        b.until("document.querySelector('#board .cell.target')");
        b.click_cell(&to);
        let played = b.until("document.querySelector('#moves li')");
        let errors = b.errors();
        assert!(errors.is_empty(), "{errors:#?}");
        (fits, cell_width, played)
    })
    .await
    .unwrap();
    assert_eq!(fits, json!(true), "the page is wider than the phone");
    assert!(
        cell_width.as_f64().unwrap() >= 36.0,
        "a cell is too small to tap: {cell_width}"
    );
    assert!(
        played.contains(&format!(r#"<span class="ply last">{text}</span>"#)),
        "{played}"
    );
    let g = json_of(&app, &format!("/api/games/{id}")).await;
    assert_eq!(g["moves"], json!([text]));
}
