//! The layout-stability harness (issue 38): for each panel, a list of state
//! changes (a run starts or ends, analysis goes on or off, diagnostics
//! appear, long text arrives) after each of which every named button keeps
//! its rectangle. A button that changed role in place, or moved because a
//! message above it grew, fails here.
//!
//! New panels join by adding a module under `layout/` with one test that
//! calls [`check`] on its [`Panel`].

use egui::Rect;

use super::*;

mod analysis;
mod lab;
mod murals;
mod play;
mod rules;

/// A harness in some state.
pub type H = Harness<'static, StudioApp>;

/// One panel: how to open it, the buttons that must not move, and the
/// changes to put it through, in order.
pub struct Panel {
    pub name: &'static str,
    /// The panel opened, in the state the first change starts from.
    pub open: fn() -> H,
    /// Buttons (exact labels) shown in every state, each in one place.
    pub buttons: &'static [&'static str],
    pub changes: Vec<Change>,
}

/// A state change: what it is called in a failure, and how to make it.
pub struct Change {
    pub name: &'static str,
    pub apply: fn(&mut H),
}

impl Change {
    pub fn new(name: &'static str, apply: fn(&mut H)) -> Change {
        Change { name, apply }
    }
}

/// Each named button's rectangle, or a failure naming the missing one.
fn rects(h: &H, panel: &Panel, after: &str) -> Vec<Rect> {
    panel
        .buttons
        .iter()
        .map(|label| {
            let node = h
                .query_all_by_label(label)
                .find(|n| n.accesskit_node().role() == egui::accesskit::Role::Button)
                .unwrap_or_else(|| {
                    panic!(
                        "{}: no button {label:?} {after} (a button is shown in every state, \
                         disabled where it does not apply)",
                        panel.name
                    )
                });
            node.rect()
        })
        .collect()
}

/// Puts `panel` through its changes and fails, naming the change and the
/// button, if any named button is missing or moved.
pub fn check(panel: Panel) {
    let mut h = (panel.open)();
    steps(&mut h, 3);
    let mut before = rects(&h, &panel, "when opened");
    let mut moved = Vec::new();
    for change in &panel.changes {
        (change.apply)(&mut h);
        steps(&mut h, 3);
        let after = rects(&h, &panel, &format!("after {}", change.name));
        for ((label, a), b) in panel.buttons.iter().zip(&before).zip(&after) {
            if (a.min - b.min).length() > 0.5 || (a.size() - b.size()).length() > 0.5 {
                moved.push(format!("{label:?} after {}: {a:?} -> {b:?}", change.name));
            }
        }
        before = after;
    }
    assert!(
        moved.is_empty(),
        "{}: buttons moved:\n{}",
        panel.name,
        moved.join("\n")
    );
}
