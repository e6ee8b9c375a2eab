//! The designer's words (`introduction`, `caption`): text for the rules
//! sheet and the report page, which play ignores. Checked for an empty
//! paragraph or caption, a figure no sheet has, and a figure captioned
//! twice.

use super::Lowerer;
use super::items::Once;
use super::text::join_or;
use crate::ast::*;
use crate::diagnostic::{Diagnostic, Span};
use crate::rules::{About, FIGURES};
use crate::suggest::closest;

impl Lowerer {
    /// The introduction's paragraphs and the captions, each text trimmed.
    pub(super) fn lower_about(
        &mut self,
        introduction: Once<'_, Spanned<Vec<Str>>>,
        captions: &[&Spanned<Caption>],
    ) -> About {
        let mut about = About::default();
        for paragraph in introduction.iter().flat_map(|(i, _)| &i.value) {
            if paragraph.value.trim().is_empty() {
                self.push(
                    Diagnostic::error(paragraph.span, "an empty paragraph").with_note(
                        "each string of `introduction` is a paragraph: give it some text or leave it out",
                    ),
                );
            } else {
                about.introduction.push(paragraph.value.trim().to_string());
            }
        }
        let mut seen: Vec<(&str, Span)> = Vec::new();
        for caption in captions {
            let Caption { figure, text } = &caption.value;
            let name = figure.value.as_str();
            if !FIGURES.contains(&name) {
                let names: Vec<String> = FIGURES.iter().map(|f| format!("`{f}`")).collect();
                let mut d = Diagnostic::error(figure.span, format!("no figure is named `{name}`"))
                    .with_note(format!(
                        "a caption names a figure of the rules sheet: {}",
                        join_or(&names)
                    ));
                if let Some(near) = closest(name, FIGURES.iter().copied()) {
                    d = d.with_help(format!("did you mean `{near}`?"));
                }
                self.push(d);
                continue;
            }
            if let Some(&(_, first)) = seen.iter().find(|(f, _)| *f == name) {
                self.push(
                    Diagnostic::error(figure.span, format!("`{name}` has two captions"))
                        .with_label(first, "first captioned here")
                        .with_note("a figure has one caption: keep one of them"),
                );
                continue;
            }
            seen.push((name, figure.span));
            if text.value.trim().is_empty() {
                self.push(
                    Diagnostic::error(text.span, format!("the caption of `{name}` is empty"))
                        .with_note("write the caption's text, or leave the `caption` out"),
                );
                continue;
            }
            about
                .captions
                .push((name.to_string(), text.value.trim().to_string()));
        }
        about
    }
}
