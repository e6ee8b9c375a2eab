//! "Share for playtesting…" (Play and Rules): a window that puts the
//! variant in front of people through a playtest server (murus-serve),
//! either one the studio starts (on this machine's loopback, its games
//! kept in the data folder's `playtest/`) or one already running
//! (`murus serve`, perhaps on another machine, with its password). The
//! rules are sent as text, a game is made with a person or a bot at each
//! seat, and the seats' links and the spectators' are shown and copied.
//!
//! The network calls and the server's start run on a worker; the window
//! only shows where they are.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use egui::RichText;
use murus_engine::Variant;
use murus_serve::share::{LocalServer, SharedGame, Target, share};

use crate::places::Places;
use crate::worker::{Waker, Worker, no_waker};

/// Which server the game is made on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ServerChoice {
    /// One the studio runs (started when first needed, kept while the
    /// studio runs).
    InStudio,
    /// One running at the address given.
    Running,
}

/// What the worker tells.
#[derive(Debug)]
pub enum Done {
    /// The studio's server is up.
    Started(LocalServer),
    /// The game is made.
    Shared(SharedGame),
    /// Why not, in words.
    Failed(String),
}

/// The addresses the studio's own server tries, in order: the port
/// `murus serve` uses and the nine after it (so that links stay the same
/// from one session to the next), then any free port.
pub fn local_addrs() -> Vec<SocketAddr> {
    (8080..=8089)
        .chain([0])
        .map(|port| SocketAddr::from(([127, 0, 0, 1], port)))
        .collect()
}

/// The share window and the studio's playtest server.
#[derive(Debug)]
pub struct Share {
    /// The variant being shared; the window is open while it is set.
    variant: Option<Variant>,
    choice: ServerChoice,
    url: String,
    password: String,
    /// `human` or a bot level, a seat each.
    seats: Vec<String>,
    data: PathBuf,
    addrs: Vec<SocketAddr>,
    local: Option<LocalServer>,
    worker: Worker<Done>,
    shared: Option<(String, SharedGame)>,
    error: Option<String>,
    /// Text to put on the clipboard at the next frame.
    to_copy: Option<String>,
}

impl Default for Share {
    fn default() -> Self {
        Share::with_waker(no_waker())
    }
}

impl Share {
    /// The window, closed; its work wakes the UI with `waker`.
    pub fn with_waker(waker: Waker) -> Share {
        Share {
            variant: None,
            choice: ServerChoice::InStudio,
            url: "http://127.0.0.1:8080/".to_string(),
            password: String::new(),
            seats: Vec::new(),
            data: Places::user().data().join("playtest"),
            addrs: local_addrs(),
            local: None,
            worker: Worker::new(waker),
            shared: None,
            error: None,
            to_copy: None,
        }
    }

    /// Keeps the studio's server's games in `places`' data folder
    /// (`playtest/`).
    pub fn set_places(&mut self, places: &Places) {
        self.data = places.data().join("playtest");
    }

    /// The addresses the studio's server tries (tests: any free port).
    pub fn set_local_addrs(&mut self, addrs: Vec<SocketAddr>) {
        self.addrs = addrs;
    }

    /// Opens the window for `v`: a person at every seat, the server as
    /// last chosen.
    pub fn open(&mut self, v: Variant) {
        self.seats = vec!["human".to_string(); v.player_count()];
        self.variant = Some(v);
        self.shared = None;
        self.error = None;
    }

    /// Whether the window is open.
    pub fn is_open(&self) -> bool {
        self.variant.is_some()
    }

    /// The studio's server, once started.
    pub fn local(&self) -> Option<&LocalServer> {
        self.local.as_ref()
    }

    /// The game last made and its links.
    pub fn shared(&self) -> Option<&SharedGame> {
        self.shared.as_ref().map(|(_, g)| g)
    }

    /// Why the last share failed.
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    /// Whether a share is going on.
    pub fn is_running(&self) -> bool {
        self.worker.is_running()
    }

    /// Chooses the server: the studio's own, or one running at `url` with
    /// `password` (empty: none).
    pub fn choose(&mut self, choice: ServerChoice, url: &str, password: &str) {
        self.choice = choice;
        self.url = url.to_string();
        self.password = password.to_string();
    }

    /// Sets seat `seat` to `kind` (`human` or a bot level).
    pub fn set_seat(&mut self, seat: usize, kind: &str) {
        if let Some(s) = self.seats.get_mut(seat) {
            *s = kind.to_string();
        }
    }

    /// Reads what the worker told.
    pub fn poll(&mut self) {
        for done in self.worker.poll() {
            match done {
                Done::Started(server) => self.local = Some(server),
                Done::Shared(game) => {
                    let title = self
                        .variant
                        .as_ref()
                        .map_or_else(String::new, |v| v.rules().title.clone());
                    self.to_copy = Some(game.links_text(&title));
                    self.shared = Some((title, game));
                }
                Done::Failed(why) => self.error = Some(why),
            }
        }
    }

    /// Makes the game on the server chosen (starting the studio's first
    /// when it is not up).
    pub fn create(&mut self) {
        let Some(v) = &self.variant else { return };
        self.error = None;
        self.shared = None;
        let source = v.source().to_string();
        let file = format!("{}.mg", v.name());
        let players: Vec<String> = (0..v.player_count()).map(|p| v.player_name(p)).collect();
        let seats = self.seats.clone();
        let target = match self.choice {
            ServerChoice::Running => match Target::new(&self.url, Some(&self.password)) {
                Ok(t) => Some(t),
                Err(e) => {
                    self.error = Some(e.to_string());
                    return;
                }
            },
            ServerChoice::InStudio => self.local.as_ref().map(LocalServer::target),
        };
        let (data, addrs) = (self.data.clone(), self.addrs.clone());
        let started = self.worker.start("a share for playtesting", move |r| {
            let target = match target {
                Some(t) => t,
                None => match LocalServer::start(&data, &addrs) {
                    Ok(server) => {
                        let t = server.target();
                        r.send(Done::Started(server));
                        t
                    }
                    Err(e) => {
                        r.send(Done::Failed(e.to_string()));
                        return;
                    }
                },
            };
            r.send(
                match share(&target, &source, Some(&file), &players, &seats) {
                    Ok(game) => Done::Shared(game),
                    Err(e) => Done::Failed(e.to_string()),
                },
            );
        });
        if let Err(busy) = started {
            self.error = Some(busy.to_string());
        }
    }

    /// Draws the window while it is open.
    pub fn ui(&mut self, ctx: &egui::Context) {
        if let Some(text) = self.to_copy.take() {
            ctx.copy_text(text);
        }
        let Some(v) = self.variant.clone() else {
            return;
        };
        let mut open = true;
        egui::Window::new("Share for playtesting")
            .open(&mut open)
            .collapsible(false)
            .resizable(false)
            .default_width(460.0)
            .show(ctx, |ui| self.contents(ui, &v));
        if !open {
            self.variant = None;
        }
    }

    fn contents(&mut self, ui: &mut egui::Ui, v: &Variant) {
        ui.label(format!(
            "{}: a game for people in their browsers, one secret link a person's seat and one \
             for spectators.",
            v.rules().title
        ));
        ui.separator();
        ui.radio_value(
            &mut self.choice,
            ServerChoice::InStudio,
            "a server in the studio",
        )
        .on_hover_text(format!(
            "listens on this machine only (127.0.0.1) while the studio runs; its games are kept \
             in {}",
            self.data.display()
        ));
        ui.horizontal(|ui| {
            ui.add_space(24.0);
            match &self.local {
                Some(s) => ui.weak(format!("running at {}", s.url())),
                None => ui.weak("started when the game is made"),
            };
        });
        ui.radio_value(
            &mut self.choice,
            ServerChoice::Running,
            "a running server (murus serve)",
        )
        .on_hover_text(
            "for players on other machines: `murus serve --addr 0.0.0.0:8080` where they can \
             reach it",
        );
        let running = self.choice == ServerChoice::Running;
        ui.add_enabled_ui(running, |ui| {
            egui::Grid::new("share-server").show(ui, |ui| {
                let label = ui.label("address");
                ui.add(egui::TextEdit::singleline(&mut self.url).desired_width(260.0))
                    .labelled_by(label.id);
                ui.end_row();
                let label = ui.label("password");
                ui.add(
                    egui::TextEdit::singleline(&mut self.password)
                        .password(true)
                        .hint_text("if started with --password")
                        .desired_width(260.0),
                )
                .labelled_by(label.id);
                ui.end_row();
            });
        });
        ui.separator();
        egui::Grid::new("share-seats").show(ui, |ui| {
            for (p, kind) in self.seats.iter_mut().enumerate() {
                ui.label(v.player_name(p));
                egui::ComboBox::from_id_salt(("share-seat", p))
                    .selected_text(seat_words(kind))
                    .show_ui(ui, |ui| {
                        for k in std::iter::once("human").chain(murus_ai::LEVELS.map(|(n, _)| n)) {
                            ui.selectable_value(kind, k.to_string(), seat_words(k));
                        }
                    });
                ui.end_row();
            }
        });
        ui.horizontal(|ui| {
            let busy = self.worker.is_running();
            if ui
                .add_enabled(!busy, egui::Button::new("Create game"))
                .clicked()
            {
                self.create();
            }
            if busy {
                ui.spinner();
                ui.weak("making the game …");
            }
        });
        if let Some(e) = &self.error {
            ui.label(RichText::new(e).color(crate::theme::warning(ui)));
        }
        if let Some((title, game)) = &self.shared {
            ui.separator();
            let mut copy = None;
            egui::Grid::new("share-links").show(ui, |ui| {
                for seat in &game.seats {
                    ui.label(&seat.player);
                    match &seat.url {
                        Some(url) => {
                            ui.hyperlink_to(short_link(url), url);
                            if ui.small_button("Copy").clicked() {
                                copy = Some(url.clone());
                            }
                        }
                        None => {
                            ui.weak(format!("the {} bot, on the server", seat.kind));
                        }
                    }
                    ui.end_row();
                }
                ui.label("Spectators");
                ui.hyperlink_to(short_link(&game.spectate_url), &game.spectate_url);
                if ui.small_button("Copy").clicked() {
                    copy = Some(game.spectate_url.clone());
                }
                ui.end_row();
            });
            ui.horizontal(|ui| {
                ui.weak("The links are copied: paste them to the players.");
                if ui.button("Copy all links").clicked() {
                    copy = Some(game.links_text(title));
                }
            });
            ui.hyperlink_to("Playtest summary of these rules", &game.summary_url);
            if let Some(text) = copy {
                ui.ctx().copy_text(text);
            }
        }
    }

    /// The data folder of the studio's server.
    pub fn data(&self) -> &Path {
        &self.data
    }
}

fn seat_words(kind: &str) -> String {
    if kind == "human" {
        "a person".to_string()
    } else {
        format!("bot: {kind}")
    }
}

/// A link with its secret cut short, for showing (the whole is copied).
fn short_link(url: &str) -> String {
    match url.split_once("token=") {
        Some((head, token)) => format!("{head}token={}…", &token[..token.len().min(8)]),
        None => url.to_string(),
    }
}
