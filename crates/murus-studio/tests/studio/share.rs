//! "Share for playtesting…" in Play and Rules: a playtest server started
//! by the studio, or one running, a game made there and its links copied.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use murus_serve::share::{LocalServer, Target};
use murus_studio::{StudioApp, Tab};
use serde_json::Value;

use crate::{app, click, field, harness, scratch_dir, shows, steps, until};

fn any_port() -> Vec<std::net::SocketAddr> {
    vec!["127.0.0.1:0".parse().unwrap()]
}

/// Steps until a frame copies text to the clipboard (at most 30 s): the
/// text. (Call it straight after the click: every frame after it is read.)
fn copied_within(h: &mut Harness<'_, StudioApp>) -> String {
    let t = std::time::Instant::now();
    loop {
        h.step();
        let copied = h
            .output()
            .platform_output
            .commands
            .iter()
            .find_map(|c| match c {
                egui::OutputCommand::CopyText(t) => Some(t.clone()),
                _ => None,
            });
        if let Some(text) = copied {
            return text;
        }
        if let Some(e) = h.state().share.error() {
            panic!("the share failed: {e}");
        }
        assert!(t.elapsed().as_secs() < 30, "nothing copied");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

#[test]
fn play_shares_its_variant_on_a_server_the_studio_starts_and_copies_the_links() {
    let mut a = app(Tab::Play);
    a.share.set_local_addrs(any_port());
    let mut h = harness(a);
    steps(&mut h, 2);
    click(&mut h, "Share for playtesting…");
    assert!(h.state().share.is_open());
    assert!(shows(&h, "started when the game is made"));
    h.get_by_label("Create game").click();
    let text = copied_within(&mut h);
    let server = h.state().share.local().expect("the studio's server runs");
    let url = server.url();
    let target = server.target();
    assert!(server.data().ends_with("playtest"));
    assert!(server.data().is_dir(), "its games kept in the data folder");
    let game = h.state().share.shared().unwrap().clone();
    let white = game.seats[0].url.clone().unwrap();
    let black = game.seats[1].url.clone().unwrap();
    assert!(text.contains(&format!("Romans: {white}")), "{text}");
    assert!(text.contains(&format!("Gauls: {black}")), "{text}");
    assert!(
        text.contains(&format!("Spectators: {url}/watch/{}", game.id)),
        "{text}"
    );
    assert!(white.starts_with(&format!("{url}/play/{}?token=", game.id)));
    assert_ne!(white, black, "a secret a seat");
    // The links are shown (the token cut short) and the server answers.
    steps(&mut h, 2);
    assert!(shows(&h, "running at http://127.0.0.1:"));
    assert!(shows(&h, "Spectators"));
    let shown = target.get(&format!("/api/games/{}", game.id)).unwrap();
    assert_eq!(shown["variant"], Value::from("standard"));
    assert_eq!(shown["ply"], Value::from(0));
    // A second game goes to the same server.
    h.get_by_label("Create game").click();
    copied_within(&mut h);
    assert_eq!(h.state().share.local().unwrap().url(), url);
    assert_ne!(h.state().share.shared().unwrap().id, game.id);
}

#[test]
fn rules_shares_the_edited_rules_with_a_running_server_a_bot_at_one_seat() {
    let running = LocalServer::start(&scratch_dir("running-server"), &any_port()).unwrap();
    let mut a = app(Tab::Rules);
    a.share.set_local_addrs(any_port());
    let mut h = harness(a);
    steps(&mut h, 2);
    h.state_mut()
        .rules
        .model_mut()
        .request(murus_studio::rules::FileAction::CopyBuiltin("hex".into()));
    until(&mut h, 20, "the hex compilation", |h| {
        h.state()
            .rules
            .model()
            .editor()
            .compiled_variant()
            .is_some_and(|v| v.name() == "hex")
    });
    click(&mut h, "Share for playtesting…");
    click(&mut h, "a running server (murus serve)");
    // An address that is no server's is said, and nothing is started.
    // Typed into the address field (emptied first).
    h.state_mut()
        .share
        .choose(murus_studio::share::ServerChoice::Running, "", "");
    steps(&mut h, 1);
    field(&h, "address").click();
    steps(&mut h, 1);
    field(&h, "address").type_text("https://example.org/");
    steps(&mut h, 2);
    click(&mut h, "Create game");
    let e = h.state().share.error().unwrap().to_string();
    assert!(e.contains("is not a server's address"), "{e}");
    assert!(shows(&h, "is not a server's address"));
    assert!(h.state().share.local().is_none());
    h.state_mut().share.choose(
        murus_studio::share::ServerChoice::Running,
        &format!("{}/", running.url()),
        "",
    );
    h.state_mut().share.set_seat(1, "easy");
    h.get_by_label("Create game").click();
    let text = copied_within(&mut h);
    assert!(
        h.state().share.local().is_none(),
        "no server of the studio's"
    );
    let game = h.state().share.shared().unwrap().clone();
    assert_eq!(game.server, running.url());
    assert!(game.seats[1].url.is_none(), "the bot's seat has no link");
    assert_eq!(
        text.lines().filter(|l| l.contains("/play/")).count(),
        1,
        "{text}"
    );
    let shown = Target::new(&running.url(), None)
        .unwrap()
        .get(&format!("/api/games/{}", game.id))
        .unwrap();
    assert_eq!(shown["variant"], Value::from("hex"));
    assert_eq!(shown["seats"][1]["kind"], Value::from("easy"));
    steps(&mut h, 2);
    assert!(shows(&h, "the easy bot, on the server"));
}
