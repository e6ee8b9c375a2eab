//! The one progress bar of the long runs (selfplay, match, balance, sweep,
//! train): a loop that looks at the run's progress ten times a second
//! until the run has finished, drawn on stderr only when stderr is a
//! terminal and never under `--json` (stdout then holds only the JSON).

use std::io::IsTerminal;
use std::time::Duration;

/// What the bar shows at one look: a line of text before the bar, and
/// `(done, total)`; each `None` keeps what the bar showed.
#[derive(Default)]
pub struct Look {
    pub message: Option<String>,
    pub count: Option<(u64, u64)>,
}

impl Look {
    /// `done` of `total`, with no message.
    pub fn count(done: u64, total: u64) -> Look {
        Look {
            message: None,
            count: Some((done, total)),
        }
    }

    /// `message`, and `done` of `total`.
    pub fn of(message: impl Into<String>, done: u64, total: u64) -> Look {
        Look {
            message: Some(message.into()),
            count: Some((done, total)),
        }
    }
}

/// Draws a bar in `template`'s layout (indicatif's) on stderr, set from
/// `look()` every tenth of a second (a look of `None` changes nothing),
/// until `finished()` and once more after; then clears it. Draws nothing under `--json`
/// (`json`) or when stderr is not a terminal, and returns at once.
pub fn show(
    template: &str,
    json: bool,
    finished: impl Fn() -> bool,
    mut look: impl FnMut() -> Option<Look>,
) {
    if json || !std::io::stderr().is_terminal() {
        return;
    }
    let bar = indicatif::ProgressBar::new(0);
    bar.set_style(indicatif::ProgressStyle::with_template(template).expect("a valid template"));
    // One look after the run has finished, so that a run shorter than a
    // tenth of a second still shows its bar once (at its end).
    loop {
        let over = finished();
        if let Some(l) = look() {
            if let Some(m) = l.message {
                bar.set_message(m);
            }
            if let Some((done, total)) = l.count {
                bar.set_length(total);
                bar.set_position(done.min(total));
            }
        }
        if over {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    bar.finish_and_clear();
}
