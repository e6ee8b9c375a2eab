//! The Play panel under the layout harness.

use super::*;

fn open() -> H {
    harness(app(Tab::Play))
}

#[test]
fn the_play_panels_buttons_keep_their_places() {
    check(Panel {
        name: "Play",
        open,
        buttons: &["New game", "Export diagram…", "Export GIF…"],
        changes: vec![
            Change::new("a move", |h| click_move(h, "b1", "b3")),
            Change::new("a reply", |h| click_move(h, "c7", "c5")),
        ],
    });
}
