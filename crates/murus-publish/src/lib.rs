//! What Murus learns, handed on (issue 23, publishing; the designer's
//! report page of issue 24, [`report_html`]). Position
//! diagrams as SVG and PNG for any board the rules language makes (rectangles with
//! cells removed and hexagons, two to four players, stacks of any height,
//! with arrows for moves, marks, highlights and a caption: [`Diagram`]),
//! and the compiled rules in English, laid out as a rulebook
//! ([`rules_in_words`]).
//!
//! The SVG is a stable contract that other tools and tests read: each stack
//! is an element with `class="stack"` and the attributes `data-cell` (the
//! cell's name), `data-player` (the player's letter) and `data-height`;
//! each arrow is an element with `class="arrow"` and `data-move` (the move
//! in notation); a mark `class="mark"` and a highlight `class="highlight"`
//! carry `data-cell`; so does a heat map's cell `class="shade"`
//! ([`Diagram::shade`]).

pub mod diagram;
pub mod figures;
pub mod html;
pub mod mural_sheet;
pub mod report_page;
pub mod sheet;
pub mod words;

pub use diagram::{Diagram, DiagramError, Shade, Theme, game_gif};
pub use figures::{Figure, FigureKind, Search, find_figures};
pub use mural_sheet::{MuralSheetError, MuralSheetOptions, mural_sheet_html};
pub use report_page::{
    report_files, report_html, tactics_records, tactics_sheet_html, write_report,
};
pub use sheet::{SheetError, SheetOptions, rules_sheet_html};
pub use words::{Group, Rule, Rulebook, Section, rulebook_text, rules_in_words, rules_text};
