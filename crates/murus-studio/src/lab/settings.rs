//! The Lab's settings, kept across restarts: the variant, the bots and
//! games of self-play, the folders, the mode shown, and the balance and
//! comparison settings.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use murus_lab::VariantId;

use super::balance::BalanceSaved;
use super::compare::CompareSaved;

/// The variant choice that means "what the Rules editor compiled".
pub const FROM_RULES: &str = "(rules editor)";

/// Where runs are kept unless the saved state says otherwise: `lab-runs`
/// in eframe's storage folder (`~/.local/share/murusstudio/lab-runs` on
/// Linux), or in the working folder where there is none.
pub fn default_runs_dir() -> PathBuf {
    eframe::storage_dir("Murus Studio")
        .map_or_else(|| PathBuf::from("lab-runs"), |d| d.join("lab-runs"))
}

/// What Lab keeps across restarts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct LabSaved {
    /// A shipped variant's name, [`FROM_RULES`], or the path of a `.mg`
    /// file.
    pub variant: String,
    /// Bot spec per seat (a shorter list repeats).
    pub bots: Vec<String>,
    pub games: u64,
    pub seed: u64,
    /// Folder for exports.
    pub export_dir: String,
    /// Folder whose `.mg` files the variant list offers, beside the shipped
    /// variants and the user's ([`crate::places::variant_files`]).
    pub variants_dir: String,
    /// Folder that keeps every run, game by game: the history, and what a
    /// restart offers to resume. Balance checks are kept in its `balance`
    /// folder.
    pub runs_dir: String,
    /// What the panel shows: self-play, the balance check, or variants
    /// compared.
    pub mode: LabMode,
    /// The balance check's settings (Compare uses them too).
    pub balance: BalanceSaved,
    pub compare: CompareSaved,
    /// The designer's report's budget.
    pub report_budget: murus_lab::designer::Budget,
}

/// What the Lab panel shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum LabMode {
    /// Bots of the user's choice play a batch.
    #[default]
    SelfPlay,
    /// Is the variant fair at every level of play?
    Balance,
    /// Variants (rules files, or a sweep's rows) side by side.
    Compare,
    /// The designer's report of a variant.
    Report,
}

impl LabMode {
    pub const ALL: [LabMode; 4] = [
        LabMode::SelfPlay,
        LabMode::Balance,
        LabMode::Compare,
        LabMode::Report,
    ];

    /// The name its switch shows.
    pub fn name(self) -> &'static str {
        match self {
            LabMode::SelfPlay => "Self-play",
            LabMode::Balance => "Balance",
            LabMode::Compare => "Compare variants",
            LabMode::Report => "Report",
        }
    }
}

impl Default for LabSaved {
    fn default() -> Self {
        LabSaved {
            variant: "standard".into(),
            bots: vec!["greedy".into(), "random".into()],
            games: 100,
            seed: 1,
            export_dir: "lab-out".into(),
            variants_dir: crate::places::Places::user()
                .variants()
                .display()
                .to_string(),
            runs_dir: default_runs_dir().display().to_string(),
            mode: LabMode::default(),
            balance: BalanceSaved::default(),
            compare: CompareSaved::default(),
            report_budget: murus_lab::designer::Budget::default(),
        }
    }
}

/// Where a run's rules come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source<'a> {
    /// A shipped variant.
    Builtin(&'a str),
    /// What the Rules editor compiled.
    Rules,
    /// A `.mg` file.
    File(&'a Path),
}

impl LabSaved {
    /// Where the chosen variant comes from.
    pub fn source(&self) -> Source<'_> {
        if self.variant == FROM_RULES {
            Source::Rules
        } else if murus_engine::BUILTIN
            .iter()
            .any(|(n, _)| *n == self.variant)
        {
            Source::Builtin(&self.variant)
        } else {
            Source::File(Path::new(&self.variant))
        }
    }

    /// The chosen variant as a list shows it: a file by its name.
    pub fn variant_label(&self) -> String {
        match self.source() {
            Source::File(p) => p.file_name().map_or_else(
                || self.variant.clone(),
                |n| n.to_string_lossy().into_owned(),
            ),
            _ => self.variant.clone(),
        }
    }

    /// Gives each of `players` seats a bot (a new seat gets the last
    /// one's).
    pub fn fit_seats(&mut self, players: usize) {
        if self.bots.len() != players {
            let fill = self.bots.last().cloned().unwrap_or_else(|| "random".into());
            self.bots.resize(players, fill);
        }
    }
}

/// The variant choice that gives the rules `id` names, from where they
/// came (`origin`: a shipped variant's name or a file's path), if it still
/// gives them.
pub fn origin_of(origin: &str, id: &VariantId) -> Option<String> {
    let same = |source: &str| murus_lab::source_sha256(source) == id.source_sha256;
    let builtin = murus_engine::BUILTIN
        .iter()
        .any(|(n, src)| *n == origin && same(src));
    let file = || {
        origin.ends_with(".mg") && std::fs::read_to_string(origin).is_ok_and(|source| same(&source))
    };
    (builtin || file()).then(|| origin.to_string())
}
