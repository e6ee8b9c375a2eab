//! Murus Studio: the eframe workbench to play, edit rules, run the balance
//! lab and author Murals.
//!
//! The crate is the UI; `murus-studio` (src/main.rs) is a thin shell around
//! [`StudioApp`]. Each panel is a type with a `ui` method that returns
//! [`Command`]s, applied by the app after the frame. Long work (bots, rule
//! compilation, perft, analysis, self-play, training, solving) runs on named
//! threads, one [`worker::Worker`] per kind of task, owned by the model it
//! reports to and given the UI's waker once.
//!
//! ```no_run
//! let options = eframe::NativeOptions::default();
//! eframe::run_native(
//!     "Murus Studio",
//!     options,
//!     Box::new(|cc| Ok(Box::new(murus_studio::StudioApp::new(cc, murus_studio::Launch::default())))),
//! )
//! .unwrap();
//! ```

pub mod app;
pub mod board;
pub mod dialog;
pub mod feedback;
pub mod files;
pub mod history;
pub mod lab;
pub mod launch;
pub mod layout;
pub mod murals;
pub mod places;
pub mod play;
pub mod rules;
pub mod share;
pub mod syntax;
pub mod theme;
pub mod training;
pub mod worker;

pub use app::StudioApp;
pub use feedback::{Feedback, Message, Tone};
pub use launch::{FrameStats, Launch};

use murus_engine::Variant;
use serde::{Deserialize, Serialize};

/// The four panels.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Tab {
    #[default]
    Play,
    Rules,
    Lab,
    Murals,
}

impl Tab {
    pub const ALL: [Tab; 4] = [Tab::Play, Tab::Rules, Tab::Lab, Tab::Murals];

    pub fn name(self) -> &'static str {
        match self {
            Tab::Play => "Play",
            Tab::Rules => "Rules",
            Tab::Lab => "Lab",
            Tab::Murals => "Murals",
        }
    }

    /// Parses a panel name (case-insensitive).
    pub fn parse(name: &str) -> Option<Tab> {
        Tab::ALL
            .into_iter()
            .find(|t| t.name().eq_ignore_ascii_case(name.trim()))
    }
}

/// What a panel asks the app to do after the frame.
#[derive(Debug)]
pub enum Command {
    /// Start a new game of this variant in Play.
    PlayVariant(Variant),
    /// Make the designer's report of this variant (the Rules editor's) in
    /// the Lab.
    ReportVariant(Variant),
    /// Open a game (moves in notation) of a variant in Play.
    OpenGame {
        variant: Variant,
        moves: Vec<String>,
        label: String,
    },
    /// Open "Share for playtesting…" for this variant.
    Share(Variant),
    /// Show a panel.
    Show(Tab),
    /// Ask the user for a file, and do `then` with it.
    Pick {
        request: files::PickRequest,
        then: Then,
    },
}

/// What the app does with a file the user picked in a dialog.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Then {
    /// Open it in the Rules editor.
    OpenRules,
    /// Save the Rules editor's text to it.
    SaveRules,
    /// Open the game record in Play.
    OpenRecord,
    /// Save Play's game record to it.
    SaveRecord,
    /// Load the position it holds in Play.
    OpenPosition,
    /// Save Play's position string to it.
    SavePosition,
    /// Export Play's board as a diagram (SVG or PNG) to it.
    ExportDiagram,
    /// Export Play's line as an animated GIF to it.
    ExportGif,
    /// Write the Rules editor's rules sheet to it.
    RulesSheet,
    /// Write Murals' puzzle sheet to it.
    PuzzleSheet,
    /// Open the puzzle in Murals (asking first when unsaved work would be
    /// lost).
    OpenMural,
    /// Save Murals' puzzle to it.
    SaveMural,
}

/// Everything the studio keeps across restarts. `#[serde(default)]` on every
/// level so saves from older versions still load.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Saved {
    pub tab: Tab,
    pub play: play::PlaySaved,
    pub rules: rules::RulesSaved,
    pub lab: lab::LabSaved,
    pub murals: murals::MuralsSaved,
}

/// The storage key of [`Saved`].
pub const STORAGE_KEY: &str = "murus-studio";
