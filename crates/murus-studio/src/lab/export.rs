//! The Lab's exports of the shown run: its report as JSON, CSV or SVG, or
//! its games (`games.jsonl`) with the three reports, written on a worker of
//! their own ([`LabExports`]) so that a large run's export never holds up
//! the window: while it writes, the panel says what and how far (the
//! games done of a `games.jsonl`) with a Cancel button; then the message
//! names the whole path written.
//!
//! What to write is taken from the run when asked ([`ExportJob`]: the
//! report and the games are the worker's own copy), so a run started
//! meanwhile changes nothing written. Each file is written whole or not at
//! all, by murus-lab ([`murus_lab::folder::write_files`]); the report
//! files are murus-lab's ([`murus_lab::write::report_files`]), and the games
//! log the lines `murus selfplay` writes (one game's JSON a line).

use std::path::{Path, PathBuf};

use egui::Ui;
use murus_lab::report::grouped;
use murus_lab::{GameResult, Report};

use super::job::JobError;
use crate::Feedback;
use crate::worker::{Reporter, Waker, Worker, no_waker};

/// What an export writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Export {
    /// `report.json`.
    Json,
    /// `report.csv`.
    Csv,
    /// `report.svg`, murus-lab's chart.
    Svg,
    /// `games.jsonl` and the three report files.
    All,
}

impl Export {
    /// The buttons that ask for each, in their order.
    pub const BUTTONS: [(&'static str, Export); 4] = [
        ("Export JSON", Export::Json),
        ("Export CSV", Export::Csv),
        ("Export SVG", Export::Svg),
        ("Export all", Export::All),
    ];
}

/// The games log's name.
const GAMES_FILE: &str = "games.jsonl";
/// Games serialised between two looks at the cancel flag.
const CHUNK: usize = 500;

/// An export to write: what, where, and the run's report and games as
/// they were when asked.
#[derive(Clone, Debug)]
pub struct ExportJob {
    pub what: Export,
    /// The export folder (created if missing).
    pub dir: PathBuf,
    pub report: Report,
    /// The games ([`Export::All`] only; empty otherwise).
    pub games: Vec<GameResult>,
}

impl ExportJob {
    /// What it writes, in words: `report.csv`, `games.jsonl and the
    /// reports`.
    fn describe(&self) -> &'static str {
        match self.what {
            Export::Json => "report.json",
            Export::Csv => "report.csv",
            Export::Svg => "report.svg",
            Export::All => "games.jsonl and the reports",
        }
    }

    /// Writes the files (a worker's task), telling `r` the games done;
    /// the message to show. A cancel while the games are written leaves
    /// nothing written; one between files keeps those written before.
    fn write(self, r: &Reporter<ExportMsg>) -> Result<String, ExportError> {
        let dir = whole_path(&self.dir);
        let reports = murus_lab::write::report_files(&self.report);
        let mut files: Vec<(&str, String)> = Vec::new();
        match self.what {
            Export::Json => files.push(reports[0].clone()),
            Export::Csv => files.push(reports[1].clone()),
            Export::Svg => files.push(reports[2].clone()),
            Export::All => {
                let Some(log) = games_text(&self.games, r) else {
                    return Err(ExportError::Cancelled {
                        written: 0,
                        of: 0,
                        dir,
                    });
                };
                files.push((GAMES_FILE, log));
                files.extend(reports);
            }
        }
        for (i, file) in files.iter().enumerate() {
            if r.cancelled() {
                return Err(ExportError::Cancelled {
                    written: i,
                    of: files.len(),
                    dir,
                });
            }
            murus_lab::folder::write_files(&dir, std::slice::from_ref(file))
                .map_err(JobError::from)?;
        }
        Ok(match self.what {
            Export::All => format!(
                "exported {} and the reports to {}",
                GAMES_FILE,
                dir.display()
            ),
            _ => format!("exported {}", dir.join(files[0].0).display()),
        })
    }
}

/// Why an export wrote nothing, or not all.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// There is nothing to export now, or a file was not written (the
    /// error names it).
    #[error(transparent)]
    Job(#[from] JobError),
    /// The user cancelled it: `written` of its `of` files stay in `dir`.
    #[error("export cancelled: {}", cancelled(*.written, *.of, dir))]
    Cancelled {
        written: usize,
        of: usize,
        dir: PathBuf,
    },
}

/// What a cancelled export left: `nothing written`, or `2 of 4 files
/// written to DIR`.
fn cancelled(written: usize, of: usize, dir: &Path) -> String {
    if written == 0 {
        "nothing written".into()
    } else {
        format!("{written} of {of} files written to {}", dir.display())
    }
}

/// `path` from the root (the working folder's path before a relative
/// one), so that a message says where the files are wherever the studio
/// was started.
fn whole_path(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

/// The games log: a game's JSON a line, as murus-lab writes it; `None`
/// once the export is cancelled. Tells `r` the games done as it goes.
fn games_text(games: &[GameResult], r: &Reporter<ExportMsg>) -> Option<String> {
    let mut out = String::new();
    for (i, chunk) in games.chunks(CHUNK).enumerate() {
        if r.cancelled() {
            return None;
        }
        for g in chunk {
            out.push_str(&serde_json::to_string(g).expect("a game serialises"));
            out.push('\n');
        }
        r.send(ExportMsg::Games((i * CHUNK + chunk.len()) as u64));
    }
    Some(out)
}

/// What the exports' worker reports: the games written so far, then how
/// it ended (the message to show).
#[derive(Debug)]
pub enum ExportMsg {
    Games(u64),
    Done(Result<String, ExportError>),
}

/// What the export row asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportAsk {
    Export(Export),
    Cancel,
}

/// The Lab's exports: the one being written, on a worker of its own, and
/// the message of the last.
#[derive(Debug)]
pub struct LabExports {
    worker: Worker<ExportMsg>,
    /// What is being written, its games done and of how many.
    writing: Option<(&'static str, u64, u64)>,
    /// How the export ended, once its worker said so.
    done: Option<Result<String, ExportError>>,
    feedback: Feedback,
}

impl Default for LabExports {
    /// Exports whose work wakes nobody (tests).
    fn default() -> Self {
        LabExports::new(no_waker())
    }
}

impl LabExports {
    /// Exports whose work calls `waker` when it reports.
    pub fn new(waker: Waker) -> LabExports {
        LabExports {
            worker: Worker::new(waker),
            writing: None,
            done: None,
            feedback: Feedback::default(),
        }
    }

    /// Starts writing `job` in the background, or (`Err`) says why there
    /// is nothing to write; refused while an export goes on.
    pub fn start(&mut self, job: Result<ExportJob, JobError>) {
        self.feedback.changed();
        let job = match job {
            Ok(j) => j,
            Err(e) => {
                self.feedback.error(e.to_string());
                return;
            }
        };
        let what = job.describe();
        let games = job.games.len() as u64;
        let started = self.worker.start("an export", move |r| {
            let done = job.write(&r);
            r.send(ExportMsg::Done(done));
        });
        match started {
            Ok(()) => {
                self.writing = Some((what, 0, games));
                self.done = None;
            }
            Err(busy) => self.feedback.error(busy.to_string()),
        }
    }

    /// Takes in the worker's news; once the export has ended, its message.
    /// Called every frame; never waits.
    pub fn poll(&mut self) {
        for msg in self.worker.poll() {
            match msg {
                ExportMsg::Games(n) => {
                    if let Some((_, done, _)) = &mut self.writing {
                        *done = n;
                    }
                }
                ExportMsg::Done(d) => self.done = Some(d),
            }
        }
        if self.worker.is_running() || self.writing.take().is_none() {
            return;
        }
        match self.done.take() {
            Some(Ok(m)) => self.feedback.success(m),
            Some(Err(e @ ExportError::Cancelled { .. })) => self.feedback.info(e.to_string()),
            Some(Err(e)) => self.feedback.error(e.to_string()),
            None => self
                .feedback
                .error("the export stopped on an internal error"),
        }
    }

    /// Whether an export is being written.
    pub fn is_running(&self) -> bool {
        self.writing.is_some()
    }

    /// What is being written, in words: `exporting games.jsonl and the
    /// reports: 1 500 of 20 000 games`.
    pub fn status(&self) -> Option<String> {
        let (what, done, of) = self.writing?;
        let cancelling = if self.worker.is_cancelled() {
            "cancelling: "
        } else {
            ""
        };
        Some(if of > 0 {
            format!(
                "{cancelling}exporting {what}: {} of {} games",
                grouped(done),
                grouped(of)
            )
        } else {
            format!("{cancelling}exporting {what}…")
        })
    }

    /// The message of the last export (or of one refused).
    pub fn feedback(&self) -> &Feedback {
        &self.feedback
    }

    /// Asks the export going on to stop; its message comes as it stops.
    pub fn cancel(&self) {
        self.worker.stop();
    }

    /// Blocks until the export going on has ended, and takes its message.
    /// For tests: the UI never waits.
    pub fn settle(&mut self) {
        self.worker.wait();
        self.poll();
    }

    /// The export buttons (enabled when `have`: a run's report to write,
    /// and no export going on), then `more` in their row, and under them a
    /// row of its own: while an export is written, what and how far with
    /// Cancel export, else the last export's message. What was clicked, if
    /// anything.
    pub fn ui(&self, ui: &mut Ui, have: bool, more: impl FnOnce(&mut Ui)) -> Option<ExportAsk> {
        let mut asked = None;
        let free = have && !self.is_running();
        ui.horizontal_wrapped(|ui| {
            for (label, what) in Export::BUTTONS {
                let hover = if have {
                    "wait for the export going on"
                } else {
                    "when a run has ended (or is cancelled)"
                };
                if ui
                    .add_enabled(free, egui::Button::new(label))
                    .on_disabled_hover_text(hover)
                    .clicked()
                {
                    asked = Some(ExportAsk::Export(what));
                }
            }
            more(ui);
        });
        crate::layout::reserved_height(ui, ui.spacing().interact_size.y, |ui| {
            if let Some(status) = self.status() {
                ui.horizontal(|ui| {
                    if ui
                        .add_enabled(
                            !self.worker.is_cancelled(),
                            egui::Button::new("Cancel export"),
                        )
                        .clicked()
                    {
                        asked = Some(ExportAsk::Cancel);
                    }
                    ui.spinner();
                    ui.label(status);
                });
            } else if let Some(msg) = self.feedback.current() {
                msg.show(ui);
            }
        });
        asked
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use murus_engine::Variant;
    use murus_lab::{Config, stats_of};

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "murus-studio-lab-export-{}-{name}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    /// A run of `n` games of `small` at random play (the first `played`
    /// played, the rest copies of them).
    fn run(n: usize, played: u64) -> (Report, Vec<GameResult>) {
        let v = Variant::builtin("small").unwrap();
        let config = Config::new(&v, vec![murus_ai::BotSpec::Random], played, 1);
        let games = murus_lab::run(&v, &config, &()).unwrap();
        let report = config.report(&stats_of(&games));
        let games = games.iter().cycle().take(n).cloned().collect();
        (report, games)
    }

    #[test]
    fn export_all_writes_what_murus_lab_writes_and_names_the_whole_folder() {
        let (report, games) = run(7, 7);
        let ours = scratch("ours");
        let mut e = LabExports::default();
        e.start(Ok(ExportJob {
            what: Export::All,
            dir: ours.clone(),
            report: report.clone(),
            games: games.clone(),
        }));
        assert!(e.is_running());
        assert!(e.status().unwrap().starts_with("exporting games.jsonl"));
        e.settle();
        assert!(!e.is_running());
        assert_eq!(
            e.feedback().text(),
            Some(format!("exported games.jsonl and the reports to {}", ours.display()).as_str())
        );
        let labs = scratch("labs");
        murus_lab::write_outputs(&labs, &report, &games).unwrap();
        for f in ["games.jsonl", "report.json", "report.csv", "report.svg"] {
            assert_eq!(
                std::fs::read(ours.join(f)).unwrap(),
                std::fs::read(labs.join(f)).unwrap(),
                "{f}"
            );
        }
        std::fs::remove_dir_all(ours).unwrap();
        std::fs::remove_dir_all(labs).unwrap();
    }

    #[test]
    fn a_cancelled_export_writes_nothing_and_a_refused_one_says_why() {
        let (report, games) = run(5_000, 4);
        let dir = scratch("cancel");
        let mut e = LabExports::default();
        e.start(Ok(ExportJob {
            what: Export::All,
            dir: dir.clone(),
            report,
            games,
        }));
        e.cancel();
        assert!(e.status().unwrap().starts_with("cancelling: "));
        e.settle();
        assert_eq!(
            e.feedback().text(),
            Some("export cancelled: nothing written")
        );
        assert!(!dir.exists());
        e.start(Err(JobError::refused(
            "nothing to export: run the lab first",
        )));
        assert_eq!(
            e.feedback().text(),
            Some("nothing to export: run the lab first")
        );
        assert!(!e.is_running());
    }
}
