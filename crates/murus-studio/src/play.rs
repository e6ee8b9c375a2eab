//! The Play panel: humans and bots, click-to-move, move list, undo/redo,
//! records and positions, and a set-up mode that explains what is wrong.

use egui::RichText;
use murus_ai::{Bot, BotSpec};
use murus_engine::{Game, GameRecord, Move, Position, Variant};
use serde::{Deserialize, Serialize};

use crate::board::{self, Scene};
use crate::worker::Job;
use crate::{Command, Message, theme};

/// Seat choices offered in the seat menus (a custom spec can be typed).
pub const SEAT_CHOICES: [&str; 8] = [
    "human",
    "easy",
    "medium",
    "hard",
    "random",
    "greedy",
    "alphabeta:20000",
    "mcts:2000",
];

/// What Play keeps across restarts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PlaySaved {
    /// Source of the variant being played.
    pub variant_source: String,
    /// Per seat (colour at the start): `human` or a bot spec.
    pub seats: Vec<String>,
    /// The game so far.
    pub start: Option<String>,
    pub moves: Vec<String>,
    pub flipped: bool,
    pub record_path: String,
    /// Seeds the bots; bumped for every bot move.
    pub seed: u64,
}

impl Default for PlaySaved {
    fn default() -> Self {
        PlaySaved {
            variant_source: Variant::standard().source().to_string(),
            seats: vec!["human".into(), "easy".into()],
            start: None,
            moves: Vec::new(),
            flipped: false,
            record_path: "game.json".into(),
            seed: 1,
        }
    }
}

#[derive(Debug)]
struct BotReply {
    mv: Option<Move>,
    nodes: u64,
}

#[derive(Debug)]
struct Thinking {
    job: Job<BotReply>,
    ply: usize,
    label: String,
}

/// The position editor.
#[derive(Debug)]
pub struct Setup {
    pub stacks: Vec<Option<(usize, u8)>>,
    pub turn: usize,
    /// `None` erases; `Some((player, height))` paints.
    pub brush: Option<(usize, u8)>,
    /// What is wrong (errors) or suspicious (warnings) with the set-up.
    pub problems: Vec<(bool, String)>,
    /// The position, when the set-up is legal.
    pub position: Option<Position>,
}

/// The Play panel.
#[derive(Debug)]
pub struct PlayPanel {
    pub saved: PlaySaved,
    pub variant: Variant,
    pub game: Game,
    pub redo: Vec<Move>,
    pub selected: Option<usize>,
    /// Moves that share the clicked origin and target, offered as buttons.
    pub choices: Vec<Move>,
    pub message: Option<Message>,
    pub position_text: String,
    pub record_text: String,
    pub move_text: String,
    pub setup: Option<Setup>,
    /// Bots wait while paused.
    pub paused: bool,
    thinking: Option<Thinking>,
    /// Nodes searched by the last bot move.
    pub last_bot: Option<String>,
}

impl PlayPanel {
    pub fn new(saved: PlaySaved) -> PlayPanel {
        let (variant, note) = match Variant::compile(&saved.variant_source) {
            Ok(v) => (v, None),
            Err(_) => (
                Variant::standard(),
                Some(Message::error(
                    "the saved variant no longer compiles; playing the standard game",
                )),
            ),
        };
        let mut panel = PlayPanel {
            game: Game::new(&variant),
            variant,
            saved,
            redo: Vec::new(),
            selected: None,
            choices: Vec::new(),
            message: note,
            position_text: String::new(),
            record_text: String::new(),
            move_text: String::new(),
            setup: None,
            paused: false,
            thinking: None,
            last_bot: None,
        };
        panel.fit_seats();
        let record = GameRecord {
            variant: panel.variant.name().to_string(),
            start: panel.saved.start.clone(),
            moves: panel.saved.moves.clone(),
            result: None,
            tags: Default::default(),
        };
        if let Ok(game) = Game::from_record(&panel.variant, &record) {
            panel.game = game;
        }
        panel.position_text = panel.variant.position_string(panel.game.position());
        panel
    }

    /// Keeps one seat per player.
    fn fit_seats(&mut self) {
        let n = self.variant.player_count();
        self.saved.seats.resize(n, "human".into());
    }

    /// Updates the saved state from the game.
    pub fn sync_saved(&mut self) {
        let record = self.game.record();
        self.saved.start = record.start;
        self.saved.moves = record.moves;
        self.saved.variant_source = self.variant.source().to_string();
    }

    /// Starts a new game of `variant`.
    pub fn set_variant(&mut self, variant: Variant) {
        self.thinking = None;
        self.variant = variant;
        self.fit_seats();
        self.new_game();
    }

    pub fn new_game(&mut self) {
        self.thinking = None;
        self.game = Game::new(&self.variant);
        self.after_change();
        self.redo.clear();
        self.setup = None;
    }

    /// Opens a game given as moves in notation (from the lab).
    pub fn open_moves(&mut self, variant: Variant, moves: &[String], label: &str) {
        self.thinking = None;
        let record = GameRecord {
            variant: variant.name().to_string(),
            start: None,
            moves: moves.to_vec(),
            result: None,
            tags: Default::default(),
        };
        match Game::from_record(&variant, &record) {
            Ok(game) => {
                self.variant = variant;
                self.fit_seats();
                for s in &mut self.saved.seats {
                    *s = "human".into();
                }
                self.game = game;
                self.redo.clear();
                self.after_change();
                self.message = Some(Message::info(format!("opened {label}")));
            }
            Err(e) => self.message = Some(Message::error(format!("cannot open {label}: {e}"))),
        }
    }

    fn after_change(&mut self) {
        self.selected = None;
        self.choices.clear();
        self.position_text = self.variant.position_string(self.game.position());
        self.sync_saved();
    }

    /// Plays a move made by a human (clears redo unless it is the redo move).
    pub fn play_move(&mut self, m: Move) -> bool {
        if !self.game.play(m) {
            return false;
        }
        if self.redo.last() == Some(&m) {
            self.redo.pop();
        } else {
            self.redo.clear();
        }
        self.thinking = None;
        self.after_change();
        true
    }

    fn seat_is_bot(&self, player: usize) -> Option<String> {
        let seat = self.game.seat_of(player);
        let spec = self.saved.seats.get(seat)?;
        (spec != "human").then(|| spec.clone())
    }

    fn has_human(&self) -> bool {
        self.saved.seats.iter().any(|s| s == "human")
    }

    /// Takes back one move, and more until a human is to move (when one plays).
    pub fn undo(&mut self) {
        self.thinking = None;
        while let Some(m) = self.game.undo() {
            self.redo.push(m);
            let turn = self.variant.turn(self.game.position());
            if !self.has_human() || self.seat_is_bot(turn).is_none() {
                break;
            }
        }
        self.paused = !self.has_human() || self.paused;
        self.after_change();
    }

    pub fn redo(&mut self) {
        self.thinking = None;
        if let Some(&m) = self.redo.last() {
            self.play_move(m);
        }
    }

    /// Whether a bot is thinking.
    pub fn is_thinking(&self) -> bool {
        self.thinking.is_some()
    }

    /// Receives bot moves and starts bots whose turn it is.
    pub fn drive_bots(&mut self, ctx: &egui::Context) {
        if let Some(t) = &mut self.thinking {
            let replies = t.job.poll();
            let finished = t.job.is_finished();
            let ply = t.ply;
            if let Some(reply) = replies.into_iter().next() {
                self.thinking = None;
                if ply == self.game.ply()
                    && let Some(m) = reply.mv
                    && self.game.play(m)
                {
                    self.redo.clear();
                    self.after_change();
                    self.last_bot = Some(format!(
                        "{} ({} nodes)",
                        self.variant.move_to_string(m),
                        reply.nodes
                    ));
                }
            } else if finished {
                self.thinking = None;
            } else {
                // Keep the spinner turning.
                ctx.request_repaint_after(std::time::Duration::from_millis(50));
            }
            return;
        }
        if self.paused || self.setup.is_some() || self.game.outcome().is_some() {
            return;
        }
        let turn = self.variant.turn(self.game.position());
        let Some(spec_text) = self.seat_is_bot(turn) else {
            return;
        };
        let spec: BotSpec = match spec_text.parse() {
            Ok(s) => s,
            Err(e) => {
                self.message = Some(Message::error(e.to_string()));
                self.paused = true;
                return;
            }
        };
        self.saved.seed = self.saved.seed.wrapping_add(1);
        let seed = self.saved.seed;
        let variant = self.variant.clone();
        let pos = *self.game.position();
        let job = Job::spawn("murus-bot", ctx, move |r| {
            let mut bot = Bot::new(spec, seed);
            bot.set_stop(r.cancel_flag());
            let mv = bot.choose(&variant, &pos);
            r.send(BotReply {
                mv,
                nodes: bot.last_nodes,
            });
        });
        let name = &self.variant.rules().players[turn].name;
        self.thinking = Some(Thinking {
            job,
            ply: self.game.ply(),
            label: format!("{name} ({spec}) is thinking…"),
        });
    }

    fn click(&mut self, cell: usize) {
        if let Some(setup) = &mut self.setup {
            setup.stacks[cell] = setup.brush;
            self.revalidate_setup();
            return;
        }
        if self.game.outcome().is_some() {
            self.message = Some(Message::info("the game is over: undo or start a new game"));
            return;
        }
        let turn = self.variant.turn(self.game.position());
        if self.seat_is_bot(turn).is_some() {
            self.message = Some(Message::info("it is a bot's turn"));
            return;
        }
        let legal = self.game.legal_moves();
        if let Some(from) = self.selected {
            let hits: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|m| m.origin() == Some(from) && m.targets().any(|t| t == cell))
                .collect();
            match hits.len() {
                0 => {}
                1 => {
                    self.play_move(hits[0]);
                    return;
                }
                _ => {
                    self.choices = hits;
                    return;
                }
            }
        }
        self.choices.clear();
        let origin = legal.iter().any(|m| m.origin() == Some(cell));
        self.selected = if origin && self.selected != Some(cell) {
            Some(cell)
        } else {
            None
        };
    }

    fn targets(&self) -> Vec<usize> {
        let Some(from) = self.selected else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for m in self.game.legal_moves() {
            if m.origin() == Some(from) {
                out.extend(m.targets());
            }
        }
        out
    }

    fn revalidate_setup(&mut self) {
        let Some(setup) = &mut self.setup else { return };
        let v = &self.variant;
        let text = setup_string(v, &setup.stacks, setup.turn);
        setup.problems.clear();
        setup.position = None;
        // Stone counts, read from the painted cells so they are reported
        // even when the engine refuses the position.
        let mut counts = vec![0u32; v.player_count()];
        for &(p, h) in setup.stacks.iter().flatten() {
            if let Some(c) = counts.get_mut(p) {
                *c += u32::from(h);
            }
        }
        let mut warnings = Vec::new();
        for (p, &c) in counts.iter().enumerate() {
            if c == 0 {
                warnings.push((
                    false,
                    format!("{} have no stones", v.rules().players[p].name),
                ));
            }
        }
        let start = v.start();
        let start_equal = (0..v.player_count())
            .map(|p| v.stone_count(&start, p))
            .all(|c| c == v.stone_count(&start, 0));
        if start_equal && counts.iter().any(|&c| c != counts[0]) {
            warnings.push((
                false,
                format!(
                    "stone counts differ ({}): in play every capture removes as many stones of each side",
                    counts
                        .iter()
                        .enumerate()
                        .map(|(p, c)| format!("{} {c}", v.rules().players[p].name))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ));
        }
        match v.parse_position(&text) {
            Err(e) => {
                setup.problems.push((true, e.message().to_string()));
                setup.problems.extend(warnings);
            }
            Ok(pos) => {
                setup.problems.extend(warnings);
                if let Some(o) = v.outcome(&pos) {
                    setup.problems.push((
                        false,
                        format!("the game is already over: {}", outcome_text(v, o)),
                    ));
                } else if v.legal_moves(&pos).is_empty() {
                    setup
                        .problems
                        .push((false, "the side to move has no legal move".to_string()));
                }
                setup.position = Some(pos);
            }
        }
    }

    /// Draws the panel and returns commands for the app.
    pub fn ui(&mut self, ui: &mut egui::Ui) -> Vec<Command> {
        let mut commands = Vec::new();
        egui::Panel::left("play-controls")
            .default_size(230.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| self.controls(ui, &mut commands));
            });
        egui::Panel::right("play-moves")
            .default_size(260.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| self.side(ui));
            });
        egui::CentralPanel::default().show(ui, |ui| self.centre(ui));
        commands
    }

    fn controls(&mut self, ui: &mut egui::Ui, commands: &mut Vec<Command>) {
        ui.heading("Game");
        ui.label(format!("Variant: {}", self.variant.rules().title));
        ui.horizontal_wrapped(|ui| {
            for (name, src) in murus_engine::BUILTIN {
                if ui
                    .selectable_label(self.variant.name() == *name, *name)
                    .on_hover_text(format!("new game of {name}"))
                    .clicked()
                {
                    match Variant::compile(src) {
                        Ok(v) => self.set_variant(v),
                        Err(_) => self.message = Some(Message::error("variant does not compile")),
                    }
                }
            }
        });
        ui.separator();
        ui.heading("Seats");
        for p in 0..self.variant.player_count() {
            let name = self.variant.rules().players[p].name.clone();
            let col = board::colour(self.variant.rules().players[p].colour);
            ui.horizontal(|ui| {
                let (r, painter) =
                    ui.allocate_painter(egui::vec2(12.0, 12.0), egui::Sense::hover());
                painter.circle_filled(r.rect.center(), 6.0, col);
                let seat = &mut self.saved.seats[p];
                egui::ComboBox::from_label(&name)
                    .selected_text(seat.as_str())
                    .show_ui(ui, |ui| {
                        for c in SEAT_CHOICES {
                            ui.selectable_value(seat, c.to_string(), c);
                        }
                    });
            });
            let seat = &mut self.saved.seats[p];
            if seat != "human" {
                let label = format!("{name} bot spec");
                ui.add(egui::TextEdit::singleline(seat).hint_text(label.as_str()))
                    .on_hover_text("random, greedy, alphabeta:N, mcts:N, easy, medium or hard");
                if let Err(e) = seat.parse::<BotSpec>() {
                    ui.colored_label(theme::error(ui), e.to_string());
                }
            }
        }
        ui.checkbox(&mut self.paused, "Pause bots");
        ui.separator();
        ui.horizontal_wrapped(|ui| {
            if ui.button("New game").clicked() {
                self.new_game();
            }
            if ui
                .add_enabled(self.game.ply() > 0, egui::Button::new("Undo"))
                .clicked()
            {
                self.undo();
            }
            if ui
                .add_enabled(!self.redo.is_empty(), egui::Button::new("Redo"))
                .clicked()
            {
                self.redo();
            }
            if ui.button("Flip board").clicked() {
                self.saved.flipped = !self.saved.flipped;
            }
        });
        if self.game.legal_moves().contains(&Move::SWAP) && ui.button("Swap (pie rule)").clicked() {
            self.play_move(Move::SWAP);
        }
        ui.horizontal(|ui| {
            ui.add(
                egui::TextEdit::singleline(&mut self.move_text)
                    .hint_text("type a move, e.g. a1-a3")
                    .desired_width(120.0),
            );
            if ui.button("Play move").clicked() {
                let mut probe = self.game.clone();
                match probe.play_str(&self.move_text) {
                    Ok(m) => {
                        self.play_move(m);
                        self.move_text.clear();
                    }
                    Err(e) => self.message = Some(Message::error(e.to_string())),
                }
            }
        });
        ui.separator();
        ui.heading("Set-up");
        if self.setup.is_none() {
            if ui.button("Set up a position").clicked() {
                self.thinking = None;
                let stacks = board::stacks_of(&self.variant, self.game.position());
                self.setup = Some(Setup {
                    stacks,
                    turn: self.variant.turn(self.game.position()),
                    brush: Some((0, 2)),
                    problems: Vec::new(),
                    position: None,
                });
                self.revalidate_setup();
            }
        } else {
            self.setup_controls(ui);
        }
        let _ = commands;
    }

    fn setup_controls(&mut self, ui: &mut egui::Ui) {
        let v = self.variant.clone();
        let limit = v.rules().stack_limit;
        let mut changed = false;
        let mut start = None;
        let mut cancel = false;
        if let Some(setup) = &mut self.setup {
            ui.label("Click cells to paint; right-click erases.");
            ui.radio_value(&mut setup.brush, None, "Brush: erase");
            for p in 0..v.player_count() {
                ui.horizontal_wrapped(|ui| {
                    for h in 1..=limit {
                        let label =
                            format!("{} {}", v.rules().players[p].name, board::height_name(h));
                        ui.radio_value(&mut setup.brush, Some((p, h)), label);
                    }
                });
            }
            let before = setup.turn;
            egui::ComboBox::from_label("Side to move")
                .selected_text(v.rules().players[setup.turn].name.as_str())
                .show_ui(ui, |ui| {
                    for p in 0..v.player_count() {
                        ui.selectable_value(&mut setup.turn, p, v.rules().players[p].name.as_str());
                    }
                });
            changed |= before != setup.turn;
            ui.horizontal_wrapped(|ui| {
                if ui.button("Clear board").clicked() {
                    setup.stacks.iter_mut().for_each(|s| *s = None);
                    changed = true;
                }
                if ui.button("Start position").clicked() {
                    setup.stacks = board::stacks_of(&v, &v.start());
                    changed = true;
                }
            });
            if setup.problems.is_empty() {
                ui.colored_label(theme::success(ui), "Set-up is legal");
            }
            for (error, text) in &setup.problems {
                let (c, tag) = if *error {
                    (theme::error(ui), "error")
                } else {
                    (theme::warning(ui), "warning")
                };
                ui.colored_label(c, format!("{tag}: {text}"));
            }
            ui.horizontal(|ui| {
                if ui
                    .add_enabled(
                        setup.position.is_some(),
                        egui::Button::new("Start from this set-up"),
                    )
                    .clicked()
                {
                    start = setup.position;
                }
                if ui.button("Cancel set-up").clicked() {
                    cancel = true;
                }
            });
        }
        if changed {
            self.revalidate_setup();
        }
        if let Some(pos) = start {
            self.game = Game::from_position(&self.variant, pos);
            self.redo.clear();
            self.setup = None;
            self.after_change();
        }
        if cancel {
            self.setup = None;
        }
    }

    fn side(&mut self, ui: &mut egui::Ui) {
        ui.heading("Moves");
        let moves = self.game.moves().to_vec();
        let letters: Vec<char> = (0..self.variant.player_count())
            .map(|p| self.variant.letter(p))
            .collect();
        egui::ScrollArea::vertical()
            .id_salt("move-list")
            .max_height(220.0)
            .stick_to_bottom(true)
            .show(ui, |ui| {
                if moves.is_empty() {
                    ui.weak("no moves yet");
                }
                let mut pos = *self.game.start();
                for (i, m) in moves.iter().enumerate() {
                    let who = letters[self.variant.turn(&pos)];
                    let text = format!("{}. {who} {}", i + 1, self.variant.move_to_string(*m));
                    let last = i + 1 == moves.len();
                    ui.label(if last {
                        RichText::new(text).strong()
                    } else {
                        RichText::new(text)
                    });
                    pos = self.variant.play(&pos, *m);
                }
            });
        if !self.redo.is_empty() {
            ui.weak(format!("{} move(s) to redo", self.redo.len()));
        }
        ui.separator();
        ui.heading("Position");
        ui.add(
            egui::TextEdit::multiline(&mut self.position_text)
                .hint_text("position string")
                .desired_rows(2)
                .font(egui::TextStyle::Monospace),
        );
        ui.horizontal(|ui| {
            if ui.button("Copy position").clicked() {
                ui.ctx()
                    .copy_text(self.variant.position_string(self.game.position()));
            }
            if ui.button("Load position").clicked() {
                match self.variant.parse_position(&self.position_text) {
                    Ok(pos) => {
                        self.thinking = None;
                        self.game = Game::from_position(&self.variant, pos);
                        self.redo.clear();
                        self.after_change();
                        self.message = Some(Message::info("position loaded"));
                    }
                    // The text stays as typed so it can be fixed.
                    Err(e) => self.message = Some(Message::error(e.to_string())),
                }
            }
        });
        ui.separator();
        ui.heading("Record");
        ui.horizontal(|ui| {
            ui.add(
                egui::TextEdit::singleline(&mut self.saved.record_path)
                    .hint_text("record file")
                    .desired_width(140.0),
            );
            if ui.button("Save record").clicked() {
                let record = self.game.record();
                let text =
                    serde_json::to_string_pretty(&record).unwrap_or_else(|_| record.to_json());
                match std::fs::write(&self.saved.record_path, text) {
                    Ok(()) => {
                        self.message =
                            Some(Message::info(format!("saved {}", self.saved.record_path)));
                    }
                    Err(e) => {
                        self.message =
                            Some(Message::error(format!("{}: {e}", self.saved.record_path)));
                    }
                }
            }
            if ui.button("Open record").clicked() {
                match std::fs::read_to_string(&self.saved.record_path) {
                    Ok(text) => {
                        self.record_text = text;
                        self.load_record_text();
                    }
                    Err(e) => {
                        self.message =
                            Some(Message::error(format!("{}: {e}", self.saved.record_path)));
                    }
                }
            }
        });
        ui.add(
            egui::TextEdit::multiline(&mut self.record_text)
                .hint_text("paste a record (JSON) here")
                .desired_rows(3)
                .font(egui::TextStyle::Monospace),
        );
        ui.horizontal(|ui| {
            if ui.button("Load record text").clicked() {
                self.load_record_text();
            }
            if ui.button("Copy record").clicked() {
                ui.ctx().copy_text(self.game.record().to_json());
            }
        });
    }

    fn load_record_text(&mut self) {
        let record = match GameRecord::from_json(&self.record_text) {
            Ok(r) => r,
            Err(e) => {
                self.message = Some(Message::error(e.to_string()));
                return;
            }
        };
        let variant = if record.variant == self.variant.name() {
            Some(self.variant.clone())
        } else {
            Variant::builtin(&record.variant)
        };
        let Some(variant) = variant else {
            self.message = Some(Message::error(format!(
                "unknown variant `{}` (open it in Rules and press Play this variant first)",
                record.variant
            )));
            return;
        };
        match Game::from_record(&variant, &record) {
            Ok(game) => {
                self.thinking = None;
                self.variant = variant;
                self.fit_seats();
                self.game = game;
                self.redo.clear();
                self.after_change();
                self.message = Some(Message::info("record loaded"));
            }
            Err(e) => self.message = Some(Message::error(e.to_string())),
        }
    }

    fn centre(&mut self, ui: &mut egui::Ui) {
        // Status line: result banner, thinking, or whose turn.
        let v = &self.variant;
        if let Some(o) = self.game.outcome() {
            let text = outcome_text(v, o);
            egui::Frame::new()
                .fill(theme::banner(ui))
                .inner_margin(8.0)
                .corner_radius(4.0)
                .show(ui, |ui| {
                    ui.label(
                        RichText::new(text)
                            .size(20.0)
                            .color(theme::on_banner(ui))
                            .strong(),
                    );
                });
        } else if let Some(t) = &self.thinking {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label(format!(
                    "{} {:.1} s",
                    t.label,
                    t.job.started.elapsed().as_secs_f32()
                ));
                if ui.button("Move now").clicked() {
                    t.job.cancel();
                }
            });
        } else if self.setup.is_some() {
            ui.label(RichText::new("Set-up mode").strong());
        } else {
            let turn = v.turn(self.game.position());
            let p = &v.rules().players[turn];
            ui.label(format!("{} to move (ply {})", p.name, self.game.ply() + 1));
        }
        if let Some(msg) = &self.message {
            msg.show(ui);
        }
        if !self.choices.is_empty() {
            ui.horizontal_wrapped(|ui| {
                ui.label("Choose:");
                let mut chosen = None;
                for &m in &self.choices {
                    if ui.button(self.variant.move_to_string(m)).clicked() {
                        chosen = Some(m);
                    }
                }
                if let Some(m) = chosen {
                    self.play_move(m);
                }
            });
        }
        let stacks = match &self.setup {
            Some(s) => s.stacks.clone(),
            None => board::stacks_of(&self.variant, self.game.position()),
        };
        let last: Vec<usize> = match (&self.setup, self.game.moves().last()) {
            (None, Some(&m)) => self.variant.move_cells(m),
            _ => Vec::new(),
        };
        let targets = self.targets();
        let colours = board::player_colours(self.variant.rules());
        let r = board::show(
            ui,
            &Scene {
                id_salt: "play",
                geometry: self.variant.geometry(),
                stacks: &stacks,
                colours: &colours,
                flipped: self.saved.flipped,
                selected: self.selected,
                targets: &targets,
                last_move: &last,
                marks: &[],
                max_cell: 96.0,
            },
        );
        if let Some(c) = r.clicked {
            self.click(c);
        }
        if let Some(c) = r.secondary
            && let Some(setup) = &mut self.setup
        {
            setup.stacks[c] = None;
            self.revalidate_setup();
        }
    }
}

/// "Romans win by breakthrough (sow)", "Draw by repetition".
pub fn outcome_text(v: &Variant, o: murus_engine::Outcome) -> String {
    let by = o.reason.by().map(|b| format!(" ({b})")).unwrap_or_default();
    match o.winner {
        Some(w) => format!(
            "{} win by {}{by}",
            v.rules().players[w].name,
            o.reason.as_str()
        ),
        None => format!("Draw by {}", o.reason.as_str()),
    }
}

/// A position string for painted stacks (see `Variant::position_string`).
pub fn setup_string(v: &Variant, stacks: &[Option<(usize, u8)>], turn: usize) -> String {
    let rows = v.rows_string(|s| stacks.get(s).copied().flatten());
    format!("{rows} {}", v.letter(turn))
}
