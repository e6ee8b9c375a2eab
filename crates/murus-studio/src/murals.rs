//! The Murals panel: browse `puzzles/`, edit a puzzle on the board or as
//! text (the two stay in sync), validate live, solve/count/generate in the
//! background, step or animate a solution, and play by hand with undo and
//! hints.

use std::path::{Path, PathBuf};

use egui::{Color32, RichText};
use murus_mural::generate::{self, Options, Rating};
use murus_mural::{Count, Hint, Hooks, Mode, MuralMove, Puzzle, Solution, State, Status};
use serde::{Deserialize, Serialize};

use crate::board::{self, Scene};
use crate::worker::Job;
use crate::{Command, Message, files, theme};

/// Display colours of mural colours, by index (as the mural crate's rules).
pub const PALETTE: [u32; 4] = [0xe8dcc0, 0x5b3a29, 0x3a6ea5, 0xa53a3a];
/// Letters offered for new colours.
pub const LETTERS: [char; 4] = ['r', 'g', 'b', 'y'];

/// The puzzle shown before any file is opened.
pub const EXAMPLE: &str = r#"title = "Leapfrog"
author = "Murus Studio"
board = "5x1"
colours = ["r"]
sacrifice = false
start = "1r2r22"
targets = ["a1", "c1", "d1", "e1"]
"#;

/// What Murals keeps across restarts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct MuralsSaved {
    pub text: String,
    /// File the text belongs to (empty: not saved).
    pub path: String,
    pub disk_text: String,
    pub save_name: String,
    /// Solver budget in nodes.
    pub budget: u64,
    pub gen_board: String,
    pub gen_colours: usize,
    pub gen_sacrifice: bool,
    pub gen_difficulty: String,
    pub gen_seed: u64,
}

impl Default for MuralsSaved {
    fn default() -> Self {
        MuralsSaved {
            text: EXAMPLE.into(),
            path: String::new(),
            disk_text: String::new(),
            save_name: "my-mural.toml".into(),
            budget: 5_000_000,
            gen_board: "5x5".into(),
            gen_colours: 1,
            gen_sacrifice: false,
            gen_difficulty: "any".into(),
            gen_seed: 1,
        }
    }
}

/// What a click on the board does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    /// Paint stacks with the brush.
    Stacks,
    /// Toggle target cells.
    Targets,
    /// Play by hand.
    Play,
    /// Step through the solution.
    Solution,
}

#[derive(Debug)]
enum Msg {
    Progress(u64, u32),
    Solved(Solution),
    Counted(Count, Option<Rating>),
    Hint(Result<Hint, Status>),
    Generated(Result<Vec<(Puzzle, Rating)>, String>),
}

/// The file state an edit can be undone to: the text and the file it
/// belongs to (opening another puzzle is undoable too).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Snapshot {
    text: String,
    path: String,
    disk_text: String,
}

/// A diagnostic of the puzzle text.
#[derive(Clone, Debug)]
pub struct Problem {
    pub line: usize,
    pub col: usize,
    pub message: String,
}

/// The Murals panel.
#[derive(Debug)]
pub struct MuralsPanel {
    pub saved: MuralsSaved,
    /// The puzzle being edited: the text's, or the last one painted.
    pub model: Option<Puzzle>,
    /// Problems of the current text (empty: valid).
    pub problems: Vec<Problem>,
    pub tool: Tool,
    /// `None` erases; `Some((colour, height))` paints.
    pub brush: Option<(u8, u8)>,
    job: Option<Job<Msg>>,
    job_label: String,
    pub progress: (u64, u32),
    pub solution: Option<Solution>,
    pub step: usize,
    pub animating: bool,
    last_anim: f64,
    pub count: Option<(Count, Option<Rating>)>,
    /// Hand play: moves made and the state now.
    pub played: Vec<MuralMove>,
    pub play_state: Option<State>,
    pub selected: Option<usize>,
    pub hint: Option<MuralMove>,
    pub message: Option<Message>,
    files: Vec<PathBuf>,
    board_text: String,
    /// The folder puzzles are browsed in (`puzzles/`).
    pub dir: PathBuf,
    /// Example mode: show a solution half played.
    demo: bool,
    /// Edits to undo and redo (painting, board changes, typing, opening,
    /// generating), oldest first.
    undo: Vec<Snapshot>,
    redo: Vec<Snapshot>,
    /// The state as of the last validation, pushed on `undo` by the next edit.
    shadow: Snapshot,
    /// The last recorded edit was typing (a run of typing is one step).
    typing: bool,
}

impl MuralsPanel {
    pub fn new(saved: MuralsSaved) -> MuralsPanel {
        let mut p = MuralsPanel {
            saved,
            model: None,
            problems: Vec::new(),
            tool: Tool::Stacks,
            brush: Some((0, 2)),
            job: None,
            job_label: String::new(),
            progress: (0, 0),
            solution: None,
            step: 0,
            animating: false,
            last_anim: 0.0,
            count: None,
            played: Vec::new(),
            play_state: None,
            selected: None,
            hint: None,
            message: None,
            files: Vec::new(),
            board_text: String::new(),
            dir: PathBuf::from("puzzles"),
            demo: false,
            undo: Vec::new(),
            redo: Vec::new(),
            shadow: Snapshot::default(),
            typing: false,
        };
        p.shadow = p.snapshot();
        p.refresh_files();
        p.validate();
        p
    }

    /// Re-reads the list of puzzles in [`MuralsPanel::dir`].
    pub fn refresh_files(&mut self) {
        self.files = files::list(&self.dir, "toml");
    }

    pub fn is_busy(&self) -> bool {
        self.job.is_some()
    }

    pub fn is_dirty(&self) -> bool {
        self.saved.text != self.saved.disk_text
    }

    /// Whether the text is what the model writes (so painting keeps the
    /// user's text: painting is refused while the text has its own errors).
    fn in_sync(&self) -> bool {
        self.model
            .as_ref()
            .is_some_and(|m| m.to_toml() == self.saved.text)
    }

    fn snapshot(&self) -> Snapshot {
        Snapshot {
            text: self.saved.text.clone(),
            path: self.saved.path.clone(),
            disk_text: self.saved.disk_text.clone(),
        }
    }

    /// Whether there is an edit to undo / to redo.
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Takes back the last edit of the puzzle (text, board, file opened).
    pub fn undo_edit(&mut self) {
        if let Some(prev) = self.undo.pop() {
            self.redo.push(self.snapshot());
            self.restore(prev);
        }
    }

    /// Makes again the last edit undone.
    pub fn redo_edit(&mut self) {
        if let Some(next) = self.redo.pop() {
            self.undo.push(self.snapshot());
            self.restore(next);
        }
    }

    fn restore(&mut self, s: Snapshot) {
        self.saved.text = s.text;
        self.saved.path = s.path;
        self.saved.disk_text = s.disk_text;
        self.shadow = self.snapshot();
        self.typing = false;
        self.model = None;
        self.revalidate();
    }

    /// Records the change since the last validation as one undo step (a run
    /// of typing counts once).
    fn record(&mut self, typing: bool) {
        if self.saved.text == self.shadow.text {
            return;
        }
        if !(typing && self.typing) {
            self.undo.push(self.shadow.clone());
        }
        self.redo.clear();
        self.typing = typing;
        self.shadow = self.snapshot();
    }

    /// Re-reads the text after an edit (recorded for undo).
    pub fn validate(&mut self) {
        self.record(false);
        self.revalidate();
    }

    /// Re-reads the text: problems, and the model when it is valid.
    fn revalidate(&mut self) {
        match Puzzle::from_toml(&self.saved.text) {
            Ok(p) => {
                self.problems.clear();
                self.board_text = p.board.text.clone();
                self.model = Some(p);
            }
            Err(diags) => {
                let text = &self.saved.text;
                self.problems = diags
                    .iter()
                    .map(|d| {
                        let (line, col) = d.line_col(text);
                        Problem {
                            line,
                            col,
                            message: d.message.clone(),
                        }
                    })
                    .collect();
            }
        }
        self.reset_runs();
    }

    fn reset_runs(&mut self) {
        self.job = None;
        self.solution = None;
        self.count = None;
        self.step = 0;
        self.animating = false;
        self.played.clear();
        self.play_state = None;
        self.selected = None;
        self.hint = None;
    }

    /// Replaces the text with the model's and revalidates.
    fn write_model(&mut self) {
        if let Some(m) = &self.model {
            self.saved.text = m.to_toml();
            self.validate();
        }
    }

    /// Opens a puzzle file.
    pub fn open(&mut self, path: &Path) {
        match std::fs::read_to_string(path) {
            Ok(text) => {
                self.saved.text = text.clone();
                self.saved.disk_text = text;
                self.saved.path = path.display().to_string();
                self.model = None;
                self.validate();
                self.message = Some(Message::info(format!("opened {}", path.display())));
            }
            Err(e) => self.message = Some(Message::error(format!("{}: {e}", path.display()))),
        }
    }

    fn save_to(&mut self, path: PathBuf) {
        match files::write(&path, &self.saved.text) {
            Ok(done) => {
                self.saved.disk_text = self.saved.text.clone();
                self.saved.path = path.display().to_string();
                self.shadow = self.snapshot();
                self.message = Some(done);
                self.refresh_files();
            }
            Err(e) => self.message = Some(e),
        }
    }

    /// Example content for screenshots: the first puzzle, solved.
    pub fn demo(&mut self, ctx: &egui::Context) {
        if let Some(f) = self.files.first().cloned() {
            self.open(&f);
        }
        self.demo = true;
        self.start_solve(ctx);
    }

    /// Runs a search of the solver's on a worker thread, with its progress
    /// and cancel hooks wired to the panel.
    fn spawn_search(
        &mut self,
        ctx: &egui::Context,
        thread: &str,
        label: &str,
        p: Puzzle,
        run: impl FnOnce(&Puzzle, Hooks) -> Msg + Send + 'static,
    ) {
        self.job_label = label.into();
        self.progress = (0, 0);
        self.job = Some(Job::spawn(thread, ctx, move |r| {
            let cancel = r.cancel_flag();
            let progress = |n: u64, b: u32| {
                r.send(Msg::Progress(n, b));
            };
            let hooks = Hooks {
                cancel: Some(&cancel),
                progress: Some(&progress),
            };
            r.send(run(&p, hooks));
        }));
    }

    /// Solves the puzzle from its start in the background.
    pub fn start_solve(&mut self, ctx: &egui::Context) {
        let Some(p) = self.valid_puzzle() else { return };
        let budget = self.saved.budget;
        self.solution = None;
        self.step = 0;
        self.tool = Tool::Solution;
        self.spawn_search(ctx, "murus-solve", "solving", p, move |p, hooks| {
            Msg::Solved(murus_mural::solve(
                p,
                &p.start,
                Mode::Optimal,
                budget,
                hooks,
            ))
        });
    }

    fn start_count(&mut self, ctx: &egui::Context) {
        let Some(p) = self.valid_puzzle() else { return };
        let budget = self.saved.budget;
        self.count = None;
        self.spawn_search(ctx, "murus-count", "counting", p, move |p, hooks| {
            let c = murus_mural::count(p, &p.start, budget, hooks);
            let rating = generate::rate(p, &c);
            Msg::Counted(c, rating)
        });
    }

    fn start_hint(&mut self, ctx: &egui::Context) {
        let (Some(p), Some(state)) = (self.valid_puzzle(), self.play_state.clone()) else {
            return;
        };
        let budget = self.saved.budget;
        self.job_label = "looking for a hint".into();
        self.job = Some(Job::spawn("murus-hint", ctx, move |r| {
            r.send(Msg::Hint(murus_mural::hint_for(&p, &state, budget)));
        }));
    }

    fn start_generate(&mut self, ctx: &egui::Context) {
        let opts = Options {
            board: self.saved.gen_board.clone(),
            colours: self.saved.gen_colours,
            sacrifice: self.saved.gen_sacrifice,
            difficulty: (self.saved.gen_difficulty != "any")
                .then(|| self.saved.gen_difficulty.clone()),
            seed: self.saved.gen_seed,
            budget: self.saved.budget.min(2_000_000),
        };
        self.job_label = "generating".into();
        self.job = Some(Job::spawn("murus-generate", ctx, move |r| {
            r.send(Msg::Generated(generate::generate(&opts, 1)));
        }));
    }

    fn valid_puzzle(&mut self) -> Option<Puzzle> {
        if !self.problems.is_empty() {
            self.message = Some(Message::error("fix the puzzle's problems first"));
            return None;
        }
        self.model.clone()
    }

    /// Collects background results; advances an animation.
    pub fn poll(&mut self, ctx: &egui::Context) {
        if let Some(job) = &mut self.job {
            let msgs = job.poll();
            let finished = job.is_finished();
            let cancelled = job.is_cancelled();
            for m in msgs {
                match m {
                    Msg::Progress(n, b) => self.progress = (n, b),
                    Msg::Solved(s) => {
                        self.message = Some(match s.status {
                            Status::Solved => Message::info(format!(
                                "solved in {} moves ({} nodes)",
                                s.moves.len(),
                                s.nodes
                            )),
                            Status::Unsolvable => Message::error("no solution exists"),
                            Status::Unproven if cancelled => Message::error("cancelled"),
                            Status::Unproven => Message::error(format!(
                                "no answer within {} nodes: raise the budget",
                                s.nodes
                            )),
                        });
                        self.step = if self.demo { s.moves.len() / 2 } else { 0 };
                        self.solution = Some(s);
                    }
                    Msg::Counted(c, r) => self.count = Some((c, r)),
                    Msg::Hint(h) => {
                        self.hint = None;
                        self.message = Some(match h {
                            Ok(Hint::Move(m)) => {
                                self.hint = Some(m);
                                let name = self.model.as_ref().map(|p| m.notation(&p.board));
                                Message::info(format!("hint: {}", name.unwrap_or_default()))
                            }
                            Ok(Hint::Solved) => Message::info("solved: no move is left to play"),
                            Ok(Hint::Unsolvable) => Message::error(
                                "this position cannot be solved any more: undo some moves",
                            ),
                            Err(_) => Message::error("no hint within the budget"),
                        });
                    }
                    Msg::Generated(g) => match g {
                        Ok(mut list) if !list.is_empty() => {
                            let (p, rating) = list.remove(0);
                            self.saved.text = p.to_toml();
                            self.saved.path.clear();
                            self.validate();
                            self.message = Some(Message::info(format!(
                                "generated a {} puzzle ({} moves)",
                                rating.band, rating.length
                            )));
                            self.saved.gen_seed += 1;
                        }
                        Ok(_) => self.message = Some(Message::error("nothing generated")),
                        Err(e) => self.message = Some(Message::error(e)),
                    },
                }
            }
            if finished {
                self.job = None;
            } else {
                ctx.request_repaint_after(std::time::Duration::from_millis(100));
            }
        }
        if self.animating {
            let now = ctx.input(|i| i.time);
            let len = self.solution.as_ref().map_or(0, |s| s.moves.len());
            if now - self.last_anim > 0.6 {
                self.last_anim = now;
                if self.step < len {
                    self.step += 1;
                } else {
                    self.animating = false;
                }
            }
            ctx.request_repaint_after(std::time::Duration::from_millis(100));
        }
    }

    /// The state after `step` moves of the solution.
    fn solution_state(&self, p: &Puzzle) -> (State, Option<MuralMove>) {
        let mut s = p.start.clone();
        let mut last = None;
        if let Some(sol) = &self.solution {
            for &m in sol.moves.iter().take(self.step) {
                s.apply(m);
                last = Some(m);
            }
        }
        (s, last)
    }

    pub fn ui(&mut self, ui: &mut egui::Ui) -> Vec<Command> {
        egui::Panel::left("murals-tools")
            .default_size(250.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical()
                    .id_salt("murals-tools-scroll")
                    .show(ui, |ui| self.tools(ui));
            });
        egui::Panel::right("murals-text")
            .default_size(330.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical()
                    .id_salt("murals-text-scroll")
                    .show(ui, |ui| self.text(ui));
            });
        egui::CentralPanel::default().show(ui, |ui| self.centre(ui));
        Vec::new()
    }

    fn tools(&mut self, ui: &mut egui::Ui) {
        ui.heading("Puzzles");
        let mut open = None;
        if self.files.is_empty() {
            ui.weak("no puzzles/ folder here");
        }
        egui::ScrollArea::vertical()
            .id_salt("murals-files")
            .max_height(170.0)
            .show(ui, |ui| {
                for f in &self.files {
                    let name = f
                        .file_stem()
                        .map(|n| n.to_string_lossy().to_string())
                        .unwrap_or_default();
                    let current = self.saved.path == f.display().to_string();
                    if ui.selectable_label(current, name).clicked() {
                        open = Some(f.clone());
                    }
                }
            });
        if let Some(f) = open {
            if self.is_dirty()
                && !self.saved.text.trim().is_empty()
                && self.saved.path != f.display().to_string()
            {
                // Keep the unsaved text reachable: it stays in "Unsaved" below.
                self.message = Some(Message::info(
                    "the previous text was unsaved; it is in the clipboard",
                ));
                ui.ctx().copy_text(self.saved.text.clone());
            }
            self.open(&f);
        }
        ui.separator();
        ui.heading("Edit");
        ui.horizontal(|ui| {
            if ui
                .add_enabled(self.can_undo(), egui::Button::new("Undo edit"))
                .clicked()
            {
                self.undo_edit();
            }
            if ui
                .add_enabled(self.can_redo(), egui::Button::new("Redo edit"))
                .clicked()
            {
                self.redo_edit();
            }
        });
        let synced = self.in_sync();
        if !synced {
            ui.colored_label(
                theme::warning(ui),
                "The text has errors: fix it to paint on the board.",
            );
        }
        ui.add_enabled_ui(synced, |ui| {
            ui.horizontal_wrapped(|ui| {
                ui.selectable_value(&mut self.tool, Tool::Stacks, "Paint stacks");
                ui.selectable_value(&mut self.tool, Tool::Targets, "Toggle targets");
            });
            if let Some(m) = self.model.clone() {
                ui.radio_value(&mut self.brush, None, "Erase");
                for (c, letter) in m.colours.iter().enumerate() {
                    ui.horizontal(|ui| {
                        ui.radio_value(
                            &mut self.brush,
                            Some((c as u8, 1)),
                            format!("{letter} wall"),
                        );
                        ui.radio_value(
                            &mut self.brush,
                            Some((c as u8, 2)),
                            format!("{letter} tower"),
                        );
                    });
                }
                ui.horizontal(|ui| {
                    if m.colours.len() < 4 && ui.button("Add colour").clicked() {
                        if let Some(model) = &mut self.model
                            && let Some(l) = LETTERS.iter().find(|l| !model.colours.contains(l))
                        {
                            model.colours.push(*l);
                        }
                        self.write_model();
                    }
                });
                let mut sac = m.sacrifice;
                if ui.checkbox(&mut sac, "Sacrifice allowed").changed() {
                    if let Some(model) = &mut self.model {
                        model.sacrifice = sac;
                    }
                    self.write_model();
                }
                ui.horizontal(|ui| {
                    let l = ui.label("Board");
                    ui.add(egui::TextEdit::singleline(&mut self.board_text).desired_width(110.0))
                        .labelled_by(l.id);
                    if ui.button("Apply board").clicked() {
                        self.apply_board();
                    }
                });
            }
        });
        ui.separator();
        ui.heading("Solver");
        ui.horizontal(|ui| {
            let l = ui.label("Budget");
            ui.add(
                egui::DragValue::new(&mut self.saved.budget)
                    .range(1_000..=1_000_000_000)
                    .speed(10_000),
            )
            .labelled_by(l.id);
        });
        let ctx = ui.ctx().clone();
        ui.horizontal_wrapped(|ui| {
            let idle = self.job.is_none();
            if ui.add_enabled(idle, egui::Button::new("Solve")).clicked() {
                self.start_solve(&ctx);
            }
            if ui
                .add_enabled(idle, egui::Button::new("Count solutions"))
                .clicked()
            {
                self.start_count(&ctx);
            }
            if ui
                .add_enabled(idle, egui::Button::new("Play by hand"))
                .clicked()
                && let Some(p) = self.valid_puzzle()
            {
                self.play_state = Some(p.start.clone());
                self.played.clear();
                self.tool = Tool::Play;
                self.hint = None;
            }
        });
        if let Some(job) = &self.job {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label(format!(
                    "{}… {} nodes, depth {}",
                    self.job_label, self.progress.0, self.progress.1
                ));
            });
            if ui.button("Cancel").clicked() {
                job.cancel();
            }
        }
        if let Some((c, rating)) = &self.count {
            ui.label(RichText::new("Solutions").strong());
            match c.status {
                Status::Solved => {
                    ui.label(format!(
                        "{} minimal solution set(s) of {} moves",
                        c.sets,
                        c.length.unwrap_or(0)
                    ));
                    ui.label(match c.orderings {
                        Some(o) => format!("{o} move orders"),
                        None => "too many move orders to count".into(),
                    });
                    ui.label(format!(
                        "{} of {} first moves lead nowhere",
                        c.dead_first_moves, c.first_moves
                    ));
                }
                Status::Unsolvable => {
                    ui.colored_label(theme::error(ui), "unsolvable");
                }
                Status::Unproven => {
                    ui.colored_label(theme::error(ui), "budget ran out");
                }
            }
            if let Some(r) = rating {
                ui.label(format!("Difficulty: {} (score {:.1})", r.band, r.score));
            }
        }
        ui.separator();
        ui.heading("Generate");
        ui.horizontal(|ui| {
            let l = ui.label("Board");
            ui.add(egui::TextEdit::singleline(&mut self.saved.gen_board).desired_width(80.0))
                .labelled_by(l.id);
        });
        ui.horizontal(|ui| {
            let l = ui.label("Colours");
            ui.add(egui::DragValue::new(&mut self.saved.gen_colours).range(1..=3))
                .labelled_by(l.id);
            ui.checkbox(&mut self.saved.gen_sacrifice, "with sacrifice");
        });
        egui::ComboBox::from_label("Difficulty")
            .selected_text(self.saved.gen_difficulty.as_str())
            .show_ui(ui, |ui| {
                for d in ["any", "easy", "medium", "hard"] {
                    ui.selectable_value(&mut self.saved.gen_difficulty, d.to_string(), d);
                }
            });
        if ui
            .add_enabled(self.job.is_none(), egui::Button::new("Generate"))
            .clicked()
        {
            self.start_generate(&ctx);
        }
    }

    fn apply_board(&mut self) {
        let text = self.board_text.trim().to_string();
        match murus_mural::Board::parse(&text) {
            Ok(b) => {
                if let Some(m) = &mut self.model {
                    // Keep stacks and targets on cells that still exist.
                    let mut start = State::empty(b.slots());
                    let mut targets = vec![false; b.slots()];
                    for s in m.board.geometry.cells() {
                        if let Some(t) = b.parse_cell(&m.board.name(s)) {
                            start.set(t, m.start.get(s));
                            targets[t] = m.targets[s];
                        }
                    }
                    m.board = b;
                    m.start = start;
                    m.targets = targets;
                }
                self.write_model();
            }
            Err(e) => self.message = Some(Message::error(format!("board `{text}`: {e}"))),
        }
    }

    fn text(&mut self, ui: &mut egui::Ui) {
        ui.heading("Puzzle file");
        let dirty = if self.is_dirty() { " (unsaved)" } else { "" };
        let name = if self.saved.path.is_empty() {
            "untitled.toml".to_string()
        } else {
            self.saved.path.clone()
        };
        ui.label(format!("{name}{dirty}"));
        let l = ui.label("Puzzle text");
        let r = ui
            .add(
                egui::TextEdit::multiline(&mut self.saved.text)
                    .code_editor()
                    .desired_rows(14)
                    .desired_width(f32::INFINITY),
            )
            .labelled_by(l.id);
        if r.changed() {
            self.record(true);
            self.revalidate();
        }
        if self.problems.is_empty() {
            ui.colored_label(theme::success(ui), "Valid puzzle");
        } else {
            for p in &self.problems {
                ui.colored_label(
                    theme::error(ui),
                    format!("{}:{}: error: {}", p.line, p.col, p.message),
                );
            }
        }
        ui.horizontal_wrapped(|ui| {
            let can_save = !self.saved.path.is_empty();
            if ui
                .add_enabled(can_save, egui::Button::new("Save puzzle"))
                .clicked()
            {
                self.save_to(PathBuf::from(&self.saved.path));
            }
            ui.add(
                egui::TextEdit::singleline(&mut self.saved.save_name)
                    .hint_text("file name in puzzles/")
                    .desired_width(110.0),
            );
            if ui.button("Save puzzle as").clicked() {
                match files::save_as_path(&self.dir, &self.saved.save_name, "toml", "my-mural.toml")
                {
                    Ok(path) => self.save_to(path),
                    Err(e) => self.message = Some(e),
                }
            }
        });
        if let Some(m) = &self.message {
            m.show(ui);
        }
    }

    fn centre(&mut self, ui: &mut egui::Ui) {
        let Some(p) = self.model.clone() else {
            ui.weak("The puzzle text has errors; the board appears once it reads.");
            return;
        };
        ui.label(RichText::new(&p.title).heading());
        let (state, last) = match self.tool {
            Tool::Solution => self.solution_state(&p),
            Tool::Play => (
                self.play_state.clone().unwrap_or_else(|| p.start.clone()),
                self.played.last().copied(),
            ),
            _ => (p.start.clone(), None),
        };
        match self.tool {
            Tool::Solution => self.solution_controls(ui, &p),
            Tool::Play => self.play_controls(ui, &p, &state),
            _ => {
                ui.label(match self.tool {
                    Tool::Targets => "Click cells to toggle targets.",
                    _ => "Click cells to paint; right-click erases.",
                });
            }
        }
        let stacks: Vec<Option<(usize, u8)>> = (0..p.board.slots())
            .map(|s| state.get(s).map(|(c, h)| (c as usize, h)))
            .collect();
        let colours: Vec<Color32> = (0..p.colours.len().max(1))
            .map(|c| board::colour(PALETTE[c % 4]))
            .collect();
        let marks = p.target_cells();
        let last_cells: Vec<usize> = last
            .map(|m| m.cells().iter().map(|&c| c as usize).collect())
            .unwrap_or_default();
        let mut targets: Vec<usize> = Vec::new();
        if self.tool == Tool::Play {
            if let Some(sel) = self.selected {
                let mut moves = Vec::new();
                state.moves(&p.board, p.sacrifice, &mut moves);
                for m in moves.into_iter().filter(|m| m.from() == sel) {
                    targets.push(move_target(m));
                }
            }
            if let Some(h) = self.hint {
                targets.push(move_target(h));
            }
        }
        let selected = if self.tool == Tool::Play {
            self.selected.or(self.hint.map(MuralMove::from))
        } else {
            None
        };
        let r = board::show(
            ui,
            &Scene {
                id_salt: "murals",
                geometry: &p.board.geometry,
                stacks: &stacks,
                colours: &colours,
                flipped: false,
                selected,
                targets: &targets,
                last_move: &last_cells,
                marks: &marks,
                max_cell: 90.0,
            },
        );
        if let Some(c) = r.clicked {
            self.click(c, false);
        }
        if let Some(c) = r.secondary {
            self.click(c, true);
        }
    }

    fn click(&mut self, cell: usize, erase: bool) {
        match self.tool {
            Tool::Stacks | Tool::Targets => {
                if !self.in_sync() {
                    self.message = Some(Message::error("fix the text's errors before painting"));
                    return;
                }
                let brush = if erase { None } else { self.brush };
                let tool = self.tool;
                if let Some(m) = &mut self.model {
                    if tool == Tool::Stacks {
                        m.start.set(cell, brush);
                    } else if let Some(t) = m.targets.get_mut(cell) {
                        *t = !*t;
                    }
                }
                self.write_model();
            }
            Tool::Play => {
                let (Some(p), Some(state)) = (self.model.clone(), self.play_state.clone()) else {
                    return;
                };
                let mut moves = Vec::new();
                state.moves(&p.board, p.sacrifice, &mut moves);
                if let Some(sel) = self.selected
                    && let Some(&m) = moves
                        .iter()
                        .find(|m| m.from() == sel && move_target(**m) == cell)
                {
                    let mut s = state;
                    s.apply(m);
                    self.played.push(m);
                    self.play_state = Some(s);
                    self.selected = None;
                    self.hint = None;
                    return;
                }
                self.selected = (moves.iter().any(|m| m.from() == cell)
                    && self.selected != Some(cell))
                .then_some(cell);
            }
            Tool::Solution => {}
        }
    }

    fn solution_controls(&mut self, ui: &mut egui::Ui, p: &Puzzle) {
        let Some(sol) = &self.solution else {
            if self.job.is_none() {
                ui.label("Press Solve to find a shortest solution.");
            }
            return;
        };
        if sol.status != Status::Solved {
            return;
        }
        let len = sol.moves.len();
        let names: Vec<String> = sol.moves.iter().map(|m| m.notation(&p.board)).collect();
        ui.horizontal_wrapped(|ui| {
            if ui.button("First").clicked() {
                self.step = 0;
                self.animating = false;
            }
            if ui
                .add_enabled(self.step > 0, egui::Button::new("Step back"))
                .clicked()
            {
                self.step -= 1;
                self.animating = false;
            }
            if ui
                .add_enabled(self.step < len, egui::Button::new("Step forward"))
                .clicked()
            {
                self.step += 1;
                self.animating = false;
            }
            if ui.button("Last").clicked() {
                self.step = len;
                self.animating = false;
            }
            let label = if self.animating { "Stop" } else { "Animate" };
            if ui.button(label).clicked() {
                self.animating = !self.animating;
                if self.animating && self.step == len {
                    self.step = 0;
                }
            }
            ui.label(format!("step {} of {len}", self.step));
        });
        ui.horizontal_wrapped(|ui| {
            for (i, n) in names.iter().enumerate() {
                let t = format!("{}. {n}", i + 1);
                let text = if i + 1 == self.step {
                    RichText::new(t).strong().underline()
                } else {
                    RichText::new(t)
                };
                ui.label(text);
            }
        });
    }

    fn play_controls(&mut self, ui: &mut egui::Ui, p: &Puzzle, state: &State) {
        let ctx = ui.ctx().clone();
        ui.horizontal_wrapped(|ui| {
            if ui
                .add_enabled(!self.played.is_empty(), egui::Button::new("Undo move"))
                .clicked()
            {
                self.played.pop();
                let mut s = p.start.clone();
                for &m in &self.played {
                    s.apply(m);
                }
                self.play_state = Some(s);
                self.selected = None;
                self.hint = None;
            }
            if ui.button("Restart").clicked() {
                self.played.clear();
                self.play_state = Some(p.start.clone());
                self.selected = None;
                self.hint = None;
            }
            if ui
                .add_enabled(self.job.is_none(), egui::Button::new("Hint"))
                .clicked()
            {
                self.start_hint(&ctx);
            }
            ui.label(format!("{} moves", self.played.len()));
        });
        if state.is_solved(&p.targets) {
            egui::Frame::new()
                .fill(theme::banner(ui))
                .inner_margin(6.0)
                .show(ui, |ui| {
                    ui.label(
                        RichText::new(format!("Solved in {} moves!", self.played.len()))
                            .color(theme::on_banner(ui))
                            .strong(),
                    );
                });
        } else {
            let mut moves = Vec::new();
            state.moves(&p.board, p.sacrifice, &mut moves);
            if moves.is_empty() {
                ui.colored_label(theme::error(ui), "No move left: undo or restart.");
            }
        }
    }
}

/// The cell a click plays a move to: a sowing's far cell, a sacrifice's target.
fn move_target(m: MuralMove) -> usize {
    match m {
        MuralMove::Sow { far, .. } => far as usize,
        MuralMove::Sacrifice { target, .. } => target as usize,
    }
}
