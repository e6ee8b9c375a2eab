//! Feedback that belongs to the state it describes.
//!
//! A panel keeps one [`Feedback`]. Every change of the state it shows (a
//! move, an edit, a restart, a switch of variant or puzzle) calls
//! [`Feedback::changed`], which makes every older message stale; a stale
//! message is never shown. A message set after the change ("position
//! loaded") describes the new state and stays until the next change.
//!
//! ```
//! use murus_studio::feedback::Feedback;
//!
//! let mut f = Feedback::default();
//! f.error("`a1-a9` is not legal here");
//! assert!(f.current().is_some());
//! f.changed(); // a legal move was played
//! assert!(f.current().is_none());
//! ```

use egui::RichText;

use crate::theme;

/// How a message reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    /// Plain news.
    Info,
    /// Good news (solved, saved, valid).
    Success,
    /// Something looks wrong but nothing was refused.
    Warning,
    /// Something was refused or failed.
    Error,
}

/// A line of feedback shown in a panel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    pub tone: Tone,
    pub text: String,
}

impl Message {
    pub fn info(text: impl Into<String>) -> Message {
        Message {
            tone: Tone::Info,
            text: text.into(),
        }
    }
    pub fn success(text: impl Into<String>) -> Message {
        Message {
            tone: Tone::Success,
            text: text.into(),
        }
    }
    pub fn warning(text: impl Into<String>) -> Message {
        Message {
            tone: Tone::Warning,
            text: text.into(),
        }
    }
    pub fn error(text: impl Into<String>) -> Message {
        Message {
            tone: Tone::Error,
            text: text.into(),
        }
    }
    /// Whether the message reports a failure.
    pub fn is_error(&self) -> bool {
        self.tone == Tone::Error
    }
    /// The text in the theme's colour for its tone.
    pub fn rich_text(&self, ui: &egui::Ui) -> RichText {
        let text = RichText::new(&self.text);
        match self.tone {
            Tone::Info => text,
            Tone::Success => text.color(theme::success(ui)),
            Tone::Warning => text.color(theme::warning(ui)),
            Tone::Error => text.color(theme::error(ui)),
        }
    }
    /// Draws the message as a wrapping label.
    pub fn show(&self, ui: &mut egui::Ui) -> egui::Response {
        ui.add(egui::Label::new(self.rich_text(ui)).wrap())
    }

    /// Draws the message wrapped in at most `rows` rows, for an area of
    /// fixed height: a longer one ends in "…", and hovering it shows it
    /// whole (never cut off unseen).
    pub fn show_rows(&self, ui: &mut egui::Ui, rows: usize) -> egui::Response {
        let mut job = egui::text::LayoutJob::default();
        self.rich_text(ui).append_to(
            &mut job,
            ui.style(),
            egui::FontSelection::Default,
            egui::Align::Min,
        );
        job.wrap = egui::text::TextWrapping {
            max_rows: rows.max(1),
            overflow_character: Some('…'),
            ..egui::text::TextWrapping::default()
        };
        ui.add(egui::Label::new(job).wrap().show_tooltip_when_elided(true))
    }
}

/// The current message of a panel, tied to the state it was given in.
#[derive(Clone, Debug, Default)]
pub struct Feedback {
    /// Counts changes of the state.
    revision: u64,
    message: Option<(u64, Message)>,
}

impl Feedback {
    /// The state changed: older messages no longer apply.
    pub fn changed(&mut self) {
        self.revision += 1;
    }
    /// Sets the message about the current state.
    pub fn set(&mut self, message: impl Into<Message>) {
        self.message = Some((self.revision, message.into()));
    }
    pub fn info(&mut self, text: impl Into<String>) {
        self.set(Message::info(text));
    }
    pub fn success(&mut self, text: impl Into<String>) {
        self.set(Message::success(text));
    }
    pub fn warning(&mut self, text: impl Into<String>) {
        self.set(Message::warning(text));
    }
    pub fn error(&mut self, text: impl Into<String>) {
        self.set(Message::error(text));
    }
    /// Removes the message.
    pub fn clear(&mut self) {
        self.message = None;
    }
    /// The message, unless the state changed since it was set.
    pub fn current(&self) -> Option<&Message> {
        self.message
            .as_ref()
            .filter(|(r, _)| *r == self.revision)
            .map(|(_, m)| m)
    }
    /// The current message's text.
    pub fn text(&self) -> Option<&str> {
        self.current().map(|m| m.text.as_str())
    }
}

/// `n` and its noun, agreed, the thousands set apart as every report sets
/// them ([`murus_lab::text::grouped`]): "1 node", "12 288 nodes".
pub fn count(n: u64, one: &str, many: &str) -> String {
    let noun = if n == 1 { one } else { many };
    format!("{} {noun}", murus_lab::text::grouped(n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_agree_with_their_noun_and_set_thousands_apart() {
        assert_eq!(count(1, "node", "nodes"), "1 node");
        assert_eq!(count(0, "node", "nodes"), "0 nodes");
        assert_eq!(count(12_288, "node", "nodes"), "12 288 nodes");
        assert_eq!(count(5_000_000, "win", "wins"), "5 000 000 wins");
    }

    #[test]
    fn a_change_makes_older_messages_stale_but_not_newer_ones() {
        let mut f = Feedback::default();
        assert_eq!(f.text(), None);
        f.info("position loaded");
        assert_eq!(f.text(), Some("position loaded"));
        f.changed();
        assert_eq!(f.text(), None);
        f.error("no");
        f.error("still no");
        assert_eq!(f.text(), Some("still no"));
        f.clear();
        assert_eq!(f.text(), None);
    }
}
