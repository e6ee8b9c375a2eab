//! The studio application: four panels behind tabs, background work polled
//! in [`eframe::App::logic`], and panel commands applied after the frame.

use std::time::Instant;

use egui::RichText;
use murus_engine::Variant;

use crate::dialog::Answer;
use crate::files::{FileDialogs, Picker};
use crate::launch::{Host, Launch, Scripted};
use crate::play::{Replacement, Seat};
use crate::training::TrainedBots;
use crate::worker::{Waker, no_waker, repaint_waker};
use crate::{Command, STORAGE_KEY, Saved, Tab, Then, files, lab, murals, play, rules, share};

/// The studio.
#[derive(Debug)]
pub struct StudioApp {
    pub tab: Tab,
    pub play: play::PlayPanel,
    pub rules: rules::RulesPanel,
    pub lab: lab::LabPanel,
    pub murals: murals::MuralsPanel,
    /// "Share for playtesting…" and the studio's playtest server.
    pub share: share::Share,
    /// The trained bots Play and Lab offer, looked up in the Rules panel's
    /// training folder.
    trained: TrainedBots,
    /// The Open and Save dialogs the panels ask for.
    dialogs: FileDialogs<Then>,
    /// Why the last dialog asked for was not shown (another was open),
    /// said until that one closes.
    refused: Option<String>,
    scripted: Scripted,
}

impl StudioApp {
    /// The app as eframe creates it: restores the saved state.
    pub fn new(cc: &eframe::CreationContext<'_>, launch: Launch) -> StudioApp {
        let saved = if launch.fresh {
            Saved::default()
        } else {
            cc.storage
                .and_then(|s| eframe::get_value::<Saved>(s, STORAGE_KEY))
                .unwrap_or_default()
        };
        let mut app = StudioApp::with_waker(saved, repaint_waker(&cc.egui_ctx));
        app.apply_launch(&cc.egui_ctx, launch);
        app
    }

    /// An app from saved state whose background work wakes nobody (tests
    /// build it this way and step its frames).
    pub fn from_saved(saved: Saved) -> StudioApp {
        StudioApp::with_waker(saved, no_waker())
    }

    /// An app from saved state whose background work calls `waker` when
    /// it reports: the models' workers are given it once, here.
    pub fn with_waker(saved: Saved, waker: Waker) -> StudioApp {
        StudioApp {
            tab: saved.tab,
            play: play::PlayPanel::with_waker(saved.play, waker.clone()),
            rules: rules::RulesPanel::with_waker(saved.rules, waker.clone()),
            lab: lab::LabPanel::with_waker(saved.lab, waker.clone()),
            murals: murals::MuralsPanel::with_waker(saved.murals, waker.clone()),
            share: share::Share::with_waker(waker.clone()),
            trained: TrainedBots::default(),
            dialogs: FileDialogs::new(files::system_picker(), waker),
            refused: None,
            scripted: Scripted::default(),
        }
    }

    /// Takes the user's files from `places` (tests give a scratch data
    /// folder, so that nothing is written into the user's).
    pub fn set_places(&mut self, places: &crate::places::Places) {
        self.rules
            .model_mut()
            .shelf_mut()
            .set_places(places.clone());
        self.murals
            .model_mut()
            .files_mut()
            .shelf_mut()
            .set_places(places.clone());
        self.share.set_places(places);
    }

    /// `--check-open-puzzle NAME`, without a window: a fresh studio (state
    /// as on a first start) draws Murals, which lists the shipped puzzle
    /// `NAME` (a file name, `.toml` optional), opens it ready to play and
    /// draws it; Rules lists the shipped variants. What it found, in a
    /// sentence, or why it failed.
    pub fn check_open_puzzle(name: &str) -> Result<String, String> {
        let mut app = StudioApp::from_saved(Saved::default());
        app.tab = Tab::Murals;
        let ctx = egui::Context::default();
        let draw = |app: &mut StudioApp| {
            let mut out = ctx.run_ui(egui::RawInput::default(), |ui| app.frame(ui));
            // Nothing is painted: the font atlas is not uploaded anywhere.
            out.textures_delta.clear();
        };
        draw(&mut app);
        let file = if name.ends_with(".toml") {
            name.to_string()
        } else {
            format!("{name}.toml")
        };
        let shelf = app.murals.model().files().shelf();
        if !shelf.shipped().iter().any(|n| *n == file) {
            return Err(format!(
                "Murals does not list a shipped puzzle `{name}` ({} listed, {} of the user's in {})",
                shelf.shipped().len(),
                shelf.files().len(),
                shelf.places().puzzles().display()
            ));
        }
        app.murals
            .model_mut()
            .request(murals::Pending::OpenShipped(file.clone()));
        draw(&mut app);
        let m = app.murals.model().document();
        let puzzle = m
            .puzzle()
            .filter(|_| m.is_valid() && m.is_shipped(&file))
            .ok_or_else(|| format!("Murals did not open `{name}`: {:?}", m.problems()))?;
        let variants = murus_engine::BUILTIN.len();
        if app.rules.model().editor().compiled_variant().is_none() {
            app.rules.model_mut().compile_now();
        }
        let rules = app
            .rules
            .model()
            .editor()
            .compiled_variant()
            .map(Variant::name);
        if rules.is_none() {
            return Err("Rules does not compile its first text".into());
        }
        Ok(format!(
            "opened {file}: \u{201c}{}\u{201d} on {}, ready to play; {} shipped puzzles listed; \
             Rules offers {variants} shipped variants and starts on a copy of {}",
            puzzle.title,
            puzzle.board.text,
            app.murals.model().files().shelf().shipped().len(),
            rules.unwrap_or_default()
        ))
    }

    /// Shows file dialogs with `picker` (tests answer them with paths of
    /// their own).
    pub fn set_picker(&mut self, picker: Picker) {
        self.dialogs.set_picker(picker);
    }

    /// The file dialogs (tests wait for them).
    pub fn dialogs_mut(&mut self) -> &mut FileDialogs<Then> {
        &mut self.dialogs
    }

    /// Frame-time statistics of `--bench-frames`.
    pub fn frame_stats(&self) -> &crate::FrameStats {
        &self.scripted.stats
    }

    fn apply_launch(&mut self, ctx: &egui::Context, launch: Launch) {
        if let Some(tab) = launch.panel {
            self.tab = tab;
        }
        if launch.demo || launch.bench_frames.is_some() {
            self.demo(ctx, launch.bench_frames.is_some() && launch.bench_load);
        }
        self.scripted = Scripted::new(launch);
    }

    /// Example content for screenshots; with `busy`, a bot thinking and a
    /// lab run going at once (the frame-time benchmark's load).
    fn demo(&mut self, ctx: &egui::Context, busy: bool) {
        let play = self.play.model_mut();
        play.open(|_| Ok(Replacement::switch(Variant::standard())));
        play.set_seat(0, Seat::Human);
        play.set_seat(1, Seat::Human);
        play.act(|g| {
            for m in ["b1-b3", "c7-c5", "e1-e3", "f7-f5", "d1-d3", "e7-e5"] {
                g.play_text(m);
            }
            // A variation with a glyph and a comment, then back to the end
            // of the main line.
            g.cursor_mut().jump_to(3);
            if g.play_text("g7-g5") {
                let n = g.cursor().node();
                g.set_glyph(n, Some(murus_engine::Glyph::Interesting));
                g.set_comment(n, "the other wing first");
            }
            g.cursor_mut().jump_to(0);
            g.cursor_mut().jump_to(6);
        });
        let c1 = play.game().cursor().variant().geometry().parse_cell("c1");
        if let Some(c1) = c1 {
            play.click(c1);
        }
        let rules = self.rules.model_mut();
        rules.request(rules::FileAction::CopyBuiltin("standard".into()));
        let text = rules.editor().text().replace("home rank 7", "home rank 9");
        rules.set_text(text, 0.0);
        // Demo runs go to a scratch folder (emptied first), not the user's
        // history.
        let scratch = std::env::temp_dir().join("murus-studio-demo-runs");
        let _ = std::fs::remove_dir_all(&scratch);
        self.lab.edit(|lab| {
            lab.runs_dir = scratch.display().to_string();
            if busy {
                lab.games = 100_000;
                lab.bots = vec!["random".into()];
            } else {
                lab.games = 40;
                lab.bots = vec!["greedy".into(), "random".into()];
            }
        });
        if busy {
            if let Ok(hard) = "hard".parse::<Seat>() {
                self.play.model_mut().set_seat(0, hard.clone());
                self.play.model_mut().set_seat(1, hard);
            }
        } else {
            self.play.demo_analysis();
        }
        self.lab.start(None);
        ctx.request_repaint();
        self.murals.demo();
    }

    /// Everything to persist now.
    pub fn saved(&mut self) -> Saved {
        Saved {
            tab: self.tab,
            play: self.play.saved(),
            rules: self.rules.model().saved(),
            lab: self.lab.model.saved().clone(),
            murals: self.murals.saved().clone(),
        }
    }

    fn apply(&mut self, commands: Vec<Command>) {
        for c in commands {
            match c {
                Command::PlayVariant(v) => {
                    self.play.request_variant(v);
                    self.tab = Tab::Play;
                }
                Command::OpenGame {
                    variant,
                    moves,
                    label,
                } => {
                    self.play.open_moves(variant, &moves, &label);
                    self.tab = Tab::Play;
                }
                Command::ReportVariant(v) => {
                    self.lab.edit(|s| {
                        s.variant = lab::FROM_RULES.to_string();
                        s.mode = lab::LabMode::Report;
                    });
                    self.lab.start_report(Some(&v));
                    self.tab = Tab::Lab;
                }
                Command::Share(v) => self.share.open(v),
                Command::Show(t) => self.tab = t,
                // Refused while a dialog is open (the desktop's may be
                // behind the window): the first keeps its answer, and the
                // user is told why the second did not open.
                Command::Pick { request, then } => {
                    let title = request.title.clone();
                    if let Err(busy) = self.dialogs.ask(request, then) {
                        self.refused = Some(format!(
                            "\u{201c}{title}\u{201d} did not open: {} is open (answer or close it first)",
                            busy.what
                        ));
                    }
                }
            }
        }
    }

    /// Does what a picked file was asked for.
    fn picked(&mut self, then: Then, path: &std::path::Path) {
        match then {
            Then::OpenRules => {
                self.rules
                    .model_mut()
                    .request(rules::FileAction::Open(path.to_path_buf()));
                self.tab = Tab::Rules;
            }
            Then::SaveRules => self.rules.model_mut().save_to(path),
            Then::OpenRecord => self.play.open_record(path),
            Then::SaveRecord => self.play.save_record(path),
            Then::OpenPosition => self.play.open_position(path),
            Then::SavePosition => self.play.save_position(path),
            Then::ExportDiagram => self.play.export_diagram(path),
            Then::ExportGif => self.play.export_gif(path),
            Then::RulesSheet => {
                self.rules.model_mut().write_sheet(path);
            }
            Then::PuzzleSheet => self
                .murals
                .model_mut()
                .start(murals::Task::Sheet(path.to_path_buf())),
            Then::OpenMural => {
                self.murals
                    .model_mut()
                    .request(murals::Pending::Open(path.to_path_buf()));
                self.tab = Tab::Murals;
            }
            Then::SaveMural => self.murals.model_mut().save_to_chosen(path),
        }
    }

    /// The work in no file, by panel, in words ("2 unsaved moves"): the
    /// one count the tab titles (a `*`) and their hover texts show.
    pub fn unsaved_work(&self) -> Vec<(Tab, String)> {
        let mut work = Vec::new();
        let play = self.play.model().game();
        if play.is_dirty() {
            let (moves, notes) = (play.unsaved_moves(), play.unsaved_notes());
            let words: Vec<String> = [
                (moves, "unsaved move", "unsaved moves"),
                (
                    notes,
                    "unsaved glyph or comment",
                    "unsaved glyphs and comments",
                ),
            ]
            .into_iter()
            .filter(|(n, _, _)| *n > 0)
            .map(|(n, one, many)| crate::feedback::count(n as u64, one, many))
            .collect();
            work.push((Tab::Play, words.join(" and ")));
        }
        if self.rules.model().editor().is_dirty() {
            work.push((
                Tab::Rules,
                format!("unsaved changes to {}", self.rules.model().editor().title()),
            ));
        }
        if self.murals.model().document().is_dirty() {
            work.push((Tab::Murals, "an unsaved puzzle".to_string()));
        }
        work
    }

    /// Why the last file dialog asked for did not open, while the one in
    /// its way is open.
    pub fn refused_dialog(&self) -> Option<&str> {
        self.refused.as_deref()
    }

    /// Whether background work is running (a bot, a lab run, a solver…).
    pub fn busy(&self) -> bool {
        self.play.is_thinking()
            || self.play.is_analysing()
            || self.play.exports().is_running()
            || self.lab.is_running()
            || self.murals.is_busy()
            || self.rules.is_busy()
    }

    /// Collects the results of background work and starts what is due
    /// (bots whose turn it is, debounced compilations), whichever panel is
    /// shown.
    pub fn poll(&mut self, ctx: &egui::Context) {
        self.lab.poll();
        let now = ctx.input(|i| i.time);
        if let Some(wait) = self.rules.poll(now) {
            ctx.request_repaint_after(wait);
        }
        self.murals.poll(ctx);
        self.play.poll();
        self.share.poll();
        for (then, path) in self.dialogs.poll() {
            self.picked(then, &path);
        }
    }

    /// Draws one frame.
    pub fn frame(&mut self, ui: &mut egui::Ui) {
        let start = Instant::now();
        self.scripted.frame_started(start);
        egui::Panel::top("tabs").show(ui, |ui| {
            ui.horizontal(|ui| {
                ui.label(RichText::new("Murus Studio").strong());
                ui.separator();
                let unsaved = self.unsaved_work();
                for t in Tab::ALL {
                    let mut label = t.name().to_string();
                    let work = unsaved.iter().find(|(u, _)| *u == t);
                    if work.is_some() {
                        label.push('*');
                    }
                    let mut tab = ui.selectable_label(self.tab == t, label);
                    if let Some((_, what)) = work {
                        tab = tab.on_hover_text(what);
                    }
                    if tab.clicked() {
                        self.tab = t;
                    }
                }
                ui.separator();
                if !self.dialogs.is_open() {
                    self.refused = None;
                }
                if let Some(why) = &self.refused {
                    ui.label(RichText::new(why).color(crate::theme::warning(ui)));
                }
                if self.play.is_thinking() {
                    ui.spinner();
                    ui.weak("bot thinking");
                }
                if self.lab.is_running() {
                    ui.spinner();
                    ui.weak(format!("lab {:.0}%", self.lab.progress() * 100.0));
                }
                if self.tab != Tab::Lab
                    && self.lab.model.offer().is_some()
                    && ui
                        .button(
                            RichText::new("Lab run interrupted").color(crate::theme::warning(ui)),
                        )
                        .on_hover_text("show the Lab, which offers to resume it")
                        .clicked()
                {
                    self.tab = Tab::Lab;
                }
                let balance_shown =
                    self.tab == Tab::Lab && self.lab.model.saved().mode == lab::LabMode::Balance;
                if !balance_shown
                    && self.lab.balance.offer().is_some()
                    && ui
                        .button(
                            RichText::new("Balance check interrupted")
                                .color(crate::theme::warning(ui)),
                        )
                        .on_hover_text("show the Lab's balance checks, which offer to resume it")
                        .clicked()
                {
                    self.tab = Tab::Lab;
                    self.lab.show(lab::LabMode::Balance);
                }
            });
        });
        let rules = self.rules.model();
        self.trained.sync(
            std::path::Path::new(&rules.training().settings().dir),
            rules.training().runs_ended(),
        );
        let commands = match self.tab {
            Tab::Play => self.play.ui(ui, &mut self.trained),
            Tab::Rules => self.rules.ui(ui),
            Tab::Lab => self.lab.ui(
                ui,
                self.rules.model().editor().compiled_variant(),
                &mut self.trained,
            ),
            Tab::Murals => self.murals.ui(ui),
        };
        self.apply(commands);
        self.share.ui(ui.ctx());
        self.dialogs.show(ui.ctx());
        for (then, path) in self.dialogs.poll() {
            self.picked(then, &path);
        }
        let mut scripted = std::mem::take(&mut self.scripted);
        scripted.frame_ended(start, ui.ctx(), self);
        self.scripted = scripted;
    }
}

impl Host for StudioApp {
    fn settled(&self) -> bool {
        !self.lab.is_running()
            && !self.murals.is_busy()
            && !self.rules.is_busy()
            && !self.play.is_analysing()
            && !self.play.exports().is_running()
    }
    fn fully_loaded(&self) -> bool {
        self.play.is_thinking() && self.lab.is_running()
    }
    fn keep_loaded(&mut self, ctx: &egui::Context) {
        // A finished game starts again, and so does a finished lab run.
        if self.play.model().game().cursor().game().outcome().is_some() {
            let play = self.play.model_mut();
            play.answer(Answer::Go(Replacement::new_game(
                play.game().cursor().variant(),
            )));
        }
        if !self.lab.is_running() {
            self.lab.start(None);
            ctx.request_repaint();
        }
    }
    fn describe(&self) -> String {
        format!(
            "{} board, panel {}",
            self.play.model().game().cursor().variant().name(),
            self.tab.name()
        )
    }
}

impl eframe::App for StudioApp {
    fn logic(&mut self, ctx: &egui::Context, _frame: &mut eframe::Frame) {
        self.poll(ctx);
    }

    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        if self.scripted.measuring()
            && let Some(s) = frame.info().cpu_usage
        {
            self.scripted.stats.frame_ms.push(f64::from(s) * 1e3);
        }
        self.frame(ui);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        if self.scripted.launch.is_scripted() {
            return; // demo content must not overwrite the user's state
        }
        let saved = self.saved();
        eframe::set_value(storage, STORAGE_KEY, &saved);
    }
}
