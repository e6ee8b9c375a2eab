//! Lowering: from the syntax tree to validated [`Rules`].
//!
//! One `lower_x` per construct. Each checks what it can and records every
//! problem it finds, then carries on, so one compile reports as many errors
//! as possible. A construct whose inputs are already known to be broken (no
//! board, no stack limit, a player without a forward direction) skips the
//! checks that depend on them instead of piling up follow-on errors.

use std::collections::HashMap;

use crate::ast::*;
use crate::diagnostic::{Diagnostic, Span};
use crate::geometry::{Geometry, Relative, ShapeKind};
use crate::rules::{
    Breakthrough, CatapultRule, DrawRules, MAX_HEIGHT, MAX_PLAYERS, Opening, PlayerRules, Rules,
    SacrificeRule, SowRule, Timing, WinRules,
};

/// Lowers a parsed file. Returns the rules when there was no error, and every
/// diagnostic (errors and warnings) in source order.
pub(crate) fn lower(file: &RuleFile) -> (Option<Rules>, Vec<Diagnostic>) {
    let mut l = Lowerer::default();
    let rules = l.lower_file(file);
    let mut diags = l.diags;
    diags.sort_by_key(|d| d.span.start);
    let ok = !diags.iter().any(Diagnostic::is_error);
    (rules.filter(|_| ok), diags)
}

/// A top-level item that may appear once, with the head it was written at.
type Once<'a, T> = Option<(&'a T, Span)>;

/// A block statement seen once so far, with where it was written.
type Field<'a, T> = Option<(&'a T, Span)>;

/// The kinds of height a block names, each with its own bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum HeightOf {
    /// A stack that may sow (`sow { heights … }`).
    Sowing,
    /// An own stack a sown stone may land on (`onto own H`).
    OwnTarget,
    /// An enemy stack a thrown stone may land on (`onto enemy H`).
    EnemyTarget,
    /// The stack that sacrifices (`A against …`).
    Attacker,
    /// The enemy stack a sacrifice hits (`… against T`).
    SacrificeTarget,
    /// The height that makes a catapult (`catapult { height H }`).
    Catapult,
}

impl HeightOf {
    /// The lowest allowed height.
    fn min(self) -> u32 {
        match self {
            // A sowing drops one stone on the next cell at least, and a
            // catapult throws one stone and keeps at least one.
            HeightOf::Sowing | HeightOf::Catapult => 2,
            _ => 1,
        }
    }

    /// The highest allowed height under stack limit `limit`.
    fn max(self, limit: u8) -> u32 {
        let limit = u32::from(limit);
        match self {
            // A stone lands on it, so it must be below the limit.
            HeightOf::OwnTarget => limit.saturating_sub(1),
            _ => limit,
        }
    }

    /// The message (and note) for a height below [`HeightOf::min`].
    fn too_low(self, h: u32) -> (String, Option<&'static str>) {
        match self {
            HeightOf::Sowing => (
                format!("a stack of {h} cannot sow"),
                Some("sowing moves a stack's stones one per cell, so it needs at least 2 stones"),
            ),
            HeightOf::Catapult => (
                format!("catapult height {h} is too low"),
                Some("a catapult throws one stone and keeps the rest, so it needs at least 2"),
            ),
            _ => (
                format!("a stack of height {h} does not exist"),
                Some("heights start at 1"),
            ),
        }
    }

    /// The message for a height above [`HeightOf::max`].
    fn too_high(self, h: u32, limit: u8) -> String {
        match self {
            HeightOf::Sowing => format!("sowing height {h} exceeds the stack limit of {limit}"),
            HeightOf::OwnTarget => {
                format!("an own stack of {h} cannot receive a stone: the stack limit is {limit}")
            }
            HeightOf::EnemyTarget => {
                format!("enemy stack height {h} exceeds the stack limit of {limit}")
            }
            HeightOf::Attacker => {
                format!("attacker height {h} exceeds the stack limit of {limit}")
            }
            HeightOf::SacrificeTarget => {
                format!("target height {h} exceeds the stack limit of {limit}")
            }
            HeightOf::Catapult => {
                format!("catapult height {h} exceeds the stack limit of {limit}")
            }
        }
    }
}

/// The file's items, sorted by kind.
#[derive(Default)]
struct Items<'a> {
    variant: Once<'a, Spanned<Str>>,
    title: Once<'a, Spanned<Str>>,
    board: Once<'a, Spanned<Board>>,
    players: Vec<&'a Player>,
    turns: Once<'a, Spanned<Vec<Name>>>,
    setup: Once<'a, Block<SetupLine>>,
    stack_limit: Once<'a, Spanned<Number>>,
    sow: Once<'a, Block<SowField>>,
    sacrifice: Once<'a, Block<SacrificeField>>,
    catapult: Once<'a, Block<CatapultField>>,
    win: Once<'a, Block<WinField>>,
    draw: Once<'a, Block<DrawField>>,
    opening: Once<'a, Block<PieLine>>,
}

/// What lowering knows about one player so far.
#[derive(Clone, Debug)]
struct PlayerInfo {
    name: String,
    head: Span,
    letter: Option<char>,
    colour: Option<u32>,
    home: Option<Vec<usize>>,
    forward: Option<usize>,
    /// The `forward` statement, for whole-file checks that blame it.
    forward_span: Option<Span>,
}

impl PlayerInfo {
    /// `the Romans (`r`)`, for messages.
    fn describe(&self) -> String {
        match self.letter {
            Some(l) => format!("the {} (`{l}`)", self.name),
            None => format!("the {}", self.name),
        }
    }
}

#[derive(Default)]
struct Lowerer {
    diags: Vec<Diagnostic>,
    /// Where to point for something missing from the file: the `variant`
    /// statement if there is one, else the start of the file.
    anchor: Span,
    geometry: Option<Geometry>,
    limit: Option<u8>,
    limit_span: Option<Span>,
    /// Players in turn order.
    players: Vec<PlayerInfo>,
    /// Two players share a letter: a letter that matches no player is then
    /// probably the one that was meant, so it is not reported again.
    duplicate_letters: bool,
    /// The `directions` statements of `sow` and `catapult`, for whole-file
    /// checks that point at them.
    sow_directions: Option<Span>,
    catapult_directions: Option<Span>,
    /// The `from` sets of the pie lines, by player.
    pie_from: [Option<Span>; 2],
}

impl Lowerer {
    fn error(&mut self, span: Span, message: impl Into<String>) -> &mut Diagnostic {
        self.push(Diagnostic::error(span, message))
    }

    fn warning(&mut self, span: Span, message: impl Into<String>) -> &mut Diagnostic {
        self.push(Diagnostic::warning(span, message))
    }

    fn push(&mut self, d: Diagnostic) -> &mut Diagnostic {
        self.diags.push(d);
        let last = self.diags.len() - 1;
        &mut self.diags[last]
    }

    fn has_errors(&self) -> bool {
        self.diags.iter().any(Diagnostic::is_error)
    }

    /// A number's value, or an error when it does not fit.
    fn num(&mut self, n: &Number) -> Option<u32> {
        if n.value.is_none() {
            self.error(n.span, "number too large")
                .notes
                .push(format!("numbers in a rule file are at most {}", u32::MAX));
        }
        n.value
    }

    /// "missing `board`" at the anchor, with an example.
    fn missing(&mut self, what: &str, example: &str) {
        let anchor = self.anchor;
        self.error(anchor, format!("missing `{what}`"))
            .notes
            .push(format!(
                "every variant declares it, for example:\n{example}"
            ));
    }

    /// An error about a height above the stack limit, labelled at the limit.
    fn over_limit(&mut self, span: Span, message: String) {
        let mut d = Diagnostic::error(span, message);
        if let Some(s) = self.limit_span {
            d = d.with_label(s, "the stack limit is set here");
        }
        self.push(d);
    }

    fn letters_note(&self) -> String {
        let letters: Vec<String> = self
            .players
            .iter()
            .filter_map(|p| p.letter.map(|l| format!("`{l}` ({})", p.name)))
            .collect();
        if letters.is_empty() {
            "no player letter is declared".to_string()
        } else {
            format!("the players are {}", join_and(&letters))
        }
    }

    /// The index (in turn order) of the player with this letter, or an
    /// "unknown player" error.
    fn player_index(&mut self, name: &Name) -> Option<usize> {
        let found = self
            .players
            .iter()
            .position(|p| p.letter.is_some_and(|l| name.value.chars().eq([l])));
        if found.is_none() && !self.duplicate_letters {
            let note = self.letters_note();
            self.error(name.span, format!("unknown player `{}`", name.value))
                .notes
                .push(note);
        }
        found
    }

    // -----------------------------------------------------------------------
    // The file
    // -----------------------------------------------------------------------

    fn lower_file(&mut self, file: &RuleFile) -> Option<Rules> {
        let items = self.collect_items(file);
        self.anchor = items.variant.map_or(Span::point(0), |(_, s)| s);

        let name = self.lower_variant(items.variant);
        let title = items.title.map(|(t, _)| t.value.value.clone());
        self.lower_board(items.board);
        self.lower_stack_limit(items.stack_limit);
        self.lower_players(&items.players);
        if let Some((turns, _)) = items.turns {
            self.lower_turns(turns);
        }
        let setup = self.lower_setup(items.setup);
        let sow = items.sow.map(|(b, _)| self.lower_sow(b));
        let sacrifices = match items.sacrifice {
            Some((b, _)) => self.lower_sacrifice(b),
            None => Some(Vec::new()),
        };
        let catapult = items.catapult.map(|(b, _)| self.lower_catapult(b));
        let has_sow = items.sow.is_some();
        let has_catapult = items.catapult.is_some();
        let win = self.lower_win(items.win, has_sow, has_catapult);
        let draw = items
            .draw
            .map_or(Some(DrawRules::default()), |(b, _)| self.lower_draw(b));
        let opening = match items.opening {
            Some((b, _)) => self.lower_opening(b),
            None => Some(Opening::None),
        };

        if self.has_errors() {
            return None;
        }
        let assembled = (|| {
            let players = self
                .players
                .iter()
                .map(|p| {
                    Some(PlayerRules {
                        name: p.name.clone(),
                        letter: p.letter?,
                        colour: p.colour?,
                        home: p.home.clone()?,
                        forward: p.forward?,
                    })
                })
                .collect::<Option<Vec<_>>>()?;
            let name = name?;
            Some(Rules {
                title: title.unwrap_or_else(|| name.clone()),
                name,
                geometry: self.geometry.clone()?,
                players,
                setup: setup?,
                stack_limit: self.limit?,
                sow: sow.map_or(Some(None), |s| s.map(Some))?,
                sacrifices: sacrifices?,
                catapult: catapult.map_or(Some(None), |c| c.map(Some))?,
                win: win?,
                draw: draw?,
                opening: opening?,
            })
        })();
        if let Some(rules) = &assembled {
            self.check_homes_reachable(rules);
            self.check_pie_towers(rules);
        }
        if assembled.is_none() {
            // A check failed without saying so: a compiler bug, but never a panic.
            let anchor = self.anchor;
            self.error(
                anchor,
                "internal error: the rules are incomplete but no error was reported",
            )
            .notes
            .push("please report this, with the rule file".to_string());
        }
        assembled
    }

    /// Sorts the items by kind and reports statements given twice.
    fn collect_items<'a>(&mut self, file: &'a RuleFile) -> Items<'a> {
        fn once<'a, T>(l: &mut Lowerer, slot: &mut Once<'a, T>, value: &'a T, item: &Item) {
            match slot {
                Some((_, first)) => {
                    let first = *first;
                    l.push(
                        Diagnostic::error(item.head(), format!("duplicate `{}`", item.keyword()))
                            .with_label(first, "first defined here")
                            .with_note(format!("a variant has one `{}`", item.keyword())),
                    );
                }
                None => *slot = Some((value, item.head())),
            }
        }
        let mut items = Items::default();
        for item in &file.items {
            match item {
                Item::Variant(v) => once(self, &mut items.variant, v, item),
                Item::Title(v) => once(self, &mut items.title, v, item),
                Item::Board(v) => once(self, &mut items.board, v, item),
                Item::Player(p) => items.players.push(p),
                Item::Turns(v) => once(self, &mut items.turns, v, item),
                Item::Setup(v) => once(self, &mut items.setup, v, item),
                Item::StackLimit(v) => once(self, &mut items.stack_limit, v, item),
                Item::Sow(v) => once(self, &mut items.sow, v, item),
                Item::Sacrifice(v) => once(self, &mut items.sacrifice, v, item),
                Item::Catapult(v) => once(self, &mut items.catapult, v, item),
                Item::Win(v) => once(self, &mut items.win, v, item),
                Item::Draw(v) => once(self, &mut items.draw, v, item),
                Item::Opening(v) => once(self, &mut items.opening, v, item),
            }
        }
        items
    }

    // -----------------------------------------------------------------------
    // Variant, board, stack limit
    // -----------------------------------------------------------------------

    fn lower_variant(&mut self, variant: Once<'_, Spanned<Str>>) -> Option<String> {
        let Some((v, _)) = variant else {
            self.error(Span::point(0), "missing `variant`").notes.push(
                "a rule file starts by naming its variant, for example:\nvariant \"standard\""
                    .to_string(),
            );
            return None;
        };
        let name = &v.value;
        let valid = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
        if name.value.is_empty() {
            self.error(name.span, "the variant name is empty")
                .notes
                .push("for example: `variant \"standard\"`".to_string());
            return None;
        }
        if !name.value.chars().all(valid) {
            self.error(name.span, format!("invalid variant name `{}`", name.value))
                .notes
                .push("a variant name may only contain letters, digits, `-` and `_`".to_string());
            return None;
        }
        Some(name.value.clone())
    }

    fn lower_board(&mut self, board: Once<'_, Spanned<Board>>) {
        let Some((board, _)) = board else {
            self.missing("board", "board rect 8 x 7\nor\nboard hex 5");
            return;
        };
        let shape = &board.value.shape;
        let built = match &shape.value {
            Shape::Rect { width, height } => {
                let (w, h) = (self.num(width), self.num(height));
                let (Some(w), Some(h)) = (w, h) else { return };
                Geometry::rect(w, h)
            }
            Shape::Hex { side } => {
                let Some(n) = self.num(side) else { return };
                Geometry::hex(n)
            }
        };
        let mut geometry = match built {
            Ok(g) => g,
            Err(e) => {
                self.error(shape.span, e.to_string()).notes.push(
                    "a board fits in 128 cells, for example `rect 16 x 8`, `rect 11 x 11` or `hex 6`"
                        .to_string(),
                );
                return;
            }
        };
        if let Some(without) = &board.value.without {
            let Some(removed) = eval_cellset(&geometry, without, &mut self.diags) else {
                return;
            };
            for slot in removed {
                geometry.remove(slot);
            }
            if geometry.cell_count() == 0 {
                self.error(without.span, "`without` removes every cell of the board");
                return;
            }
        }
        self.geometry = Some(geometry);
    }

    fn lower_stack_limit(&mut self, limit: Once<'_, Spanned<Number>>) {
        let Some((limit, _)) = limit else {
            self.missing("stack limit", "stack limit 2");
            return;
        };
        let Some(n) = self.num(&limit.value) else {
            return;
        };
        if n == 0 {
            self.error(limit.value.span, "stack limit 0 is too low")
                .notes
                .push("the stack limit is at least 1".to_string());
        } else if n > u32::from(MAX_HEIGHT) {
            self.error(limit.value.span, format!("stack limit {n} is too high"))
                .notes
                .push(format!("the stack limit is at most {MAX_HEIGHT}"));
        } else {
            self.limit = u8::try_from(n).ok();
            self.limit_span = Some(limit.span);
        }
    }

    // -----------------------------------------------------------------------
    // Players and turns
    // -----------------------------------------------------------------------

    fn lower_players(&mut self, players: &[&Player]) {
        match players.len() {
            0 => {
                self.missing(
                    "player",
                    "player \"Romans\" {\n    letter r\n    colour \"#e8dcc0\"\n    home rank 1\n    forward n\n}",
                );
            }
            1 => {
                self.error(players[0].head, "a variant needs at least 2 players, this one has 1")
                    .notes
                    .push("declare each player with `player \"NAME\" { … }`; the first declared moves first".to_string());
            }
            _ => {}
        }
        for extra in players.iter().skip(MAX_PLAYERS) {
            self.error(
                extra.head,
                format!("too many players: a variant has at most {MAX_PLAYERS}"),
            );
        }

        let mut names: HashMap<&str, Span> = HashMap::new();
        let mut letters: HashMap<char, Span> = HashMap::new();
        for p in players {
            let info = self.lower_player(p);
            if p.name.value.is_empty() {
                self.error(p.name.span, "the player name is empty");
            } else if let Some(&first) = names.get(p.name.value.as_str()) {
                self.push(
                    Diagnostic::error(
                        p.name.span,
                        format!("duplicate player name `{}`", p.name.value),
                    )
                    .with_label(first, "first defined here"),
                );
            } else {
                names.insert(&p.name.value, p.name.span);
            }
            if let (Some(letter), Some(span)) = (info.letter, letter_span(p)) {
                if let Some(&first) = letters.get(&letter) {
                    self.duplicate_letters = true;
                    self.push(
                        Diagnostic::error(span, format!("duplicate player letter `{letter}`"))
                            .with_label(first, "first defined here")
                            .with_note("every player needs a letter of its own"),
                    );
                } else {
                    letters.insert(letter, span);
                }
            }
            self.players.push(info);
        }
    }

    fn lower_player(&mut self, p: &Player) -> PlayerInfo {
        let mut info = PlayerInfo {
            name: p.name.value.clone(),
            head: p.head,
            letter: None,
            colour: None,
            home: None,
            forward: None,
            forward_span: None,
        };
        let mut seen: HashMap<&str, Span> = HashMap::new();
        for field in &p.fields {
            let keyword = field.value.keyword();
            if let Some(&first) = seen.get(keyword) {
                self.push(
                    Diagnostic::error(
                        field.span,
                        format!("duplicate `{keyword}` in player `{}`", p.name.value),
                    )
                    .with_label(first, "first defined here"),
                );
                continue;
            }
            seen.insert(keyword, field.span);
            match &field.value {
                PlayerField::Letter(l) => info.letter = l.value.chars().next(),
                PlayerField::Colour(c) => info.colour = self.lower_colour(c),
                PlayerField::Home(set) => info.home = self.lower_home(&p.name.value, set),
                PlayerField::Forward(d) => {
                    info.forward = self.lower_forward(d);
                    info.forward_span = Some(field.span);
                }
            }
        }
        for (keyword, example) in [
            ("letter", "letter r"),
            ("colour", "colour \"#e8dcc0\""),
            ("home", "home rank 1"),
            ("forward", "forward n"),
        ] {
            if !seen.contains_key(keyword) {
                self.error(
                    p.head,
                    format!("missing `{keyword}` in player `{}`", p.name.value),
                )
                .notes
                .push(format!("for example: `{example}`"));
            }
        }
        info
    }

    fn lower_colour(&mut self, c: &Str) -> Option<u32> {
        let hex = c.value.strip_prefix('#').unwrap_or("");
        if hex.len() == 6 && hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            u32::from_str_radix(hex, 16).ok()
        } else {
            self.error(c.span, format!("`{}` is not a colour", c.value))
                .notes
                .push("write a colour as `#` and six hex digits, like `\"#e8dcc0\"`".to_string());
            None
        }
    }

    fn lower_home(&mut self, player: &str, set: &CellSet) -> Option<Vec<usize>> {
        let g = self.geometry.as_ref()?;
        let cells = eval_cellset(g, set, &mut self.diags)?;
        if cells.is_empty() {
            self.error(
                set.span,
                format!("home of {player} has no cell on this board"),
            )
            .notes
            .push("the home is what an opponent must reach to break through".to_string());
            return None;
        }
        Some(cells)
    }

    fn lower_forward(&mut self, d: &Name) -> Option<usize> {
        let g = self.geometry.as_ref()?;
        if let Some(i) = g.direction_index(&d.value) {
            return Some(i);
        }
        let note = format!(
            "the directions of a {} board are {}",
            shape_name(g),
            direction_list(g)
        );
        let message = if Relative::from_name(&d.value).is_some() {
            format!("`forward` is an absolute direction, not `{}`", d.value)
        } else if is_compass(&d.value) {
            format!("a {} board has no direction `{}`", shape_name(g), d.value)
        } else {
            format!("unknown direction `{}`", d.value)
        };
        let help = suggest(&d.value, g.directions().iter().map(|d| d.name));
        let diag = self.error(d.span, message);
        diag.notes.push(note);
        if let Some(s) = help {
            diag.notes.push(format!("help: did you mean `{s}`?"));
        }
        None
    }

    fn lower_turns(&mut self, turns: &Spanned<Vec<Name>>) {
        let mut order: Vec<usize> = Vec::new();
        let mut first_at: HashMap<usize, Span> = HashMap::new();
        let mut ok = true;
        for letter in &turns.value {
            let Some(i) = self.player_index(letter) else {
                ok = false;
                continue;
            };
            if let Some(&first) = first_at.get(&i) {
                self.push(
                    Diagnostic::error(
                        letter.span,
                        format!("player `{}` is listed twice in `turns`", letter.value),
                    )
                    .with_label(first, "first listed here"),
                );
                ok = false;
                continue;
            }
            first_at.insert(i, letter.span);
            order.push(i);
        }
        let missing: Vec<String> = (0..self.players.len())
            .filter(|i| !first_at.contains_key(i) && self.players[*i].letter.is_some())
            .map(|i| self.players[i].describe())
            .collect();
        if !missing.is_empty() {
            self.error(
                turns.span,
                format!("`turns` does not list {}", join_and(&missing)),
            )
            .notes
            .push("`turns` lists every player's letter once, in the order they move".to_string());
            ok = false;
        }
        if ok && order.len() == self.players.len() {
            let old = std::mem::take(&mut self.players);
            self.players = order.into_iter().map(|i| old[i].clone()).collect();
        }
    }

    // -----------------------------------------------------------------------
    // Setup
    // -----------------------------------------------------------------------

    fn lower_setup(
        &mut self,
        setup: Once<'_, Block<SetupLine>>,
    ) -> Option<Vec<(usize, usize, u8)>> {
        let Some((block, _)) = setup else {
            self.missing("setup", "setup {\n    r 2 on rank 1\n    g 2 on rank 7\n}");
            return None;
        };
        if block.fields.is_empty() {
            self.error(block.head, "the setup places no stones")
                .notes
                .push(
                    "add lines like `r 2 on rank 1`: player letter, stack height, cells"
                        .to_string(),
                );
            return None;
        }
        let mut entries: Vec<(usize, usize, u8)> = Vec::new();
        // Cell -> index of the line that set it.
        let mut set_by: HashMap<usize, usize> = HashMap::new();
        let mut ok = true;
        for (index, line) in block.fields.iter().enumerate() {
            let player = self.player_index(&line.value.player);
            let height = self.lower_stack_height(&line.value.height);
            let cells = match &self.geometry {
                Some(g) => eval_cellset(g, &line.value.cells, &mut self.diags),
                None => None,
            };
            let Some(cells) = cells else {
                ok = false;
                continue;
            };
            if cells.is_empty() {
                self.warning(line.value.cells.span, "this line places no stones");
            }
            // Cells already set, grouped by the line that set them first.
            let mut clashes: Vec<(usize, Vec<usize>)> = Vec::new();
            for &cell in &cells {
                match set_by.get(&cell) {
                    Some(&first) => match clashes.iter_mut().find(|(f, _)| *f == first) {
                        Some((_, v)) => v.push(cell),
                        None => clashes.push((first, vec![cell])),
                    },
                    None => {
                        set_by.insert(cell, index);
                    }
                }
            }
            for (first, clash) in clashes {
                ok = false;
                let names = self.cell_names(&clash);
                let message = if clash.len() == 1 {
                    format!("cell {names} is set twice")
                } else {
                    format!("cells {names} are set twice")
                };
                self.push(
                    Diagnostic::error(line.value.cells.span, message)
                        .with_label(block.fields[first].span, "first set here")
                        .with_note("each cell starts with at most one stack"),
                );
            }
            if let (Some(player), Some(height)) = (player, height) {
                entries.extend(cells.iter().map(|&c| (c, player, height)));
            } else {
                ok = false;
            }
        }
        if ok {
            for (i, p) in self.players.iter().enumerate() {
                if !entries.iter().any(|&(_, q, _)| q == i) {
                    let d = Diagnostic::warning(
                        p.head,
                        format!("player {} starts with no stones", p.name),
                    )
                    .with_note("it cannot act on its first turn, so it is stalemated at once");
                    self.diags.push(d);
                }
            }
        }
        entries.sort_unstable();
        ok.then_some(entries)
    }

    /// A setup stack height: 1 ..= the stack limit.
    fn lower_stack_height(&mut self, n: &Number) -> Option<u8> {
        let h = self.num(n)?;
        let limit = self.limit?;
        if h == 0 {
            self.error(n.span, "a stack has at least one stone");
            None
        } else if h > u32::from(limit) {
            self.over_limit(
                n.span,
                format!("stack of {h} exceeds the stack limit of {limit}"),
            );
            None
        } else {
            u8::try_from(h).ok()
        }
    }

    /// `` `a1`, `b1` and `c1` `` (at most five names).
    fn cell_names(&self, cells: &[usize]) -> String {
        let Some(g) = &self.geometry else {
            return String::new();
        };
        let mut names: Vec<String> = cells
            .iter()
            .take(5)
            .map(|&c| format!("`{}`", g.name(c)))
            .collect();
        if cells.len() > 5 {
            names.push(format!("{} more", cells.len() - 5));
        }
        join_and(&names)
    }

    // -----------------------------------------------------------------------
    // Sowing, sacrifice, catapult
    // -----------------------------------------------------------------------

    /// Resolves a direction set for every player (turn order).
    fn lower_dirset(&mut self, set: &DirSet) -> Option<Vec<Vec<usize>>> {
        let g = self.geometry.as_ref()?;
        let players: Vec<(String, Option<usize>)> = self
            .players
            .iter()
            .map(|p| (p.name.clone(), p.forward))
            .collect();
        resolve_dirset(g, set, &players, &mut self.diags)
    }

    /// Records the first occurrence of a block statement; a second one is an
    /// error pointing back at the first.
    fn first<'a, T>(
        &mut self,
        slot: &mut Field<'a, T>,
        value: &'a T,
        span: Span,
        keyword: &str,
        block: &str,
    ) {
        match slot {
            Some((_, first)) => {
                let first = *first;
                self.push(
                    Diagnostic::error(span, format!("duplicate `{keyword}` in `{block}`"))
                        .with_label(first, "first defined here"),
                );
            }
            None => *slot = Some((value, span)),
        }
    }

    /// A required block statement's value, or "missing `heights` in `sow`"
    /// at the block's head.
    fn require<'a, T>(
        &mut self,
        slot: Field<'a, T>,
        head: Span,
        block: &str,
        keyword: &str,
        example: &str,
    ) -> Option<&'a T> {
        if slot.is_none() {
            self.error(head, format!("missing `{keyword}` in `{block}`"))
                .notes
                .push(format!("for example: `{example}`"));
        }
        slot.map(|(value, _)| value)
    }

    /// A height within the bounds of its kind (see [`HeightOf`]); `None`
    /// after an error, or when the stack limit is unknown (already an error).
    fn lower_height(&mut self, n: &Number, of: HeightOf) -> Option<u8> {
        let h = self.num(n)?;
        let limit = self.limit?;
        if h < of.min() {
            let (message, note) = of.too_low(h);
            let d = self.error(n.span, message);
            if let Some(note) = note {
                d.notes.push(note.to_string());
            }
            None
        } else if h > of.max(limit) {
            self.over_limit(n.span, of.too_high(h, limit));
            None
        } else {
            u8::try_from(h).ok()
        }
    }

    /// A list of heights, sorted, repeats dropped with a warning.
    fn lower_heights(&mut self, list: &[Number], of: HeightOf) -> Option<Vec<u8>> {
        let mut ok = true;
        let mut values = Vec::with_capacity(list.len());
        for n in list {
            match self.lower_height(n, of) {
                Some(h) => values.push((h, n.span)),
                None => ok = false,
            }
        }
        ok.then(|| self.sorted_unique(values, "height"))
    }

    /// Sorts values and drops repeats, warning about each repeat.
    fn sorted_unique(&mut self, mut values: Vec<(u8, Span)>, what: &str) -> Vec<u8> {
        let mut seen: Vec<u8> = Vec::with_capacity(values.len());
        for (v, span) in &values {
            if seen.contains(v) {
                self.warning(*span, format!("{what} {v} is listed twice"));
            } else {
                seen.push(*v);
            }
        }
        values.sort_unstable();
        values.dedup_by_key(|(v, _)| *v);
        values.into_iter().map(|(v, _)| v).collect()
    }

    /// `onto TARGET, …` of the sow and catapult blocks: whether empty cells
    /// count, and the sorted heights of the own (sowing) or enemy (throwing)
    /// stacks that do. The grammar allows only the right kind in each block.
    fn lower_targets(&mut self, targets: &[Spanned<Target>]) -> Option<(bool, Vec<u8>)> {
        let mut ok = true;
        let mut empty: Option<Span> = None;
        let mut heights = Vec::with_capacity(targets.len());
        for t in targets {
            let (n, of) = match &t.value {
                Target::Empty => {
                    if empty.is_some() {
                        self.warning(t.span, "`empty` is listed twice");
                    }
                    empty = Some(t.span);
                    continue;
                }
                Target::EnemyAny => {
                    let limit = self.limit.unwrap_or(0);
                    heights.extend((1..=limit).map(|h| (h, t.span)));
                    continue;
                }
                Target::Own(n) => (n, HeightOf::OwnTarget),
                Target::Enemy(n) => (n, HeightOf::EnemyTarget),
            };
            match self.lower_height(n, of) {
                Some(h) => heights.push((h, n.span)),
                None => ok = false,
            }
        }
        // `enemy 1, enemy any` repeats on purpose: no warning for those.
        heights.sort_unstable();
        let any: Vec<Span> = targets
            .iter()
            .filter(|t| t.value == Target::EnemyAny)
            .map(|t| t.span)
            .collect();
        let explicit: Vec<(u8, Span)> = heights
            .iter()
            .copied()
            .filter(|(_, s)| !any.contains(s))
            .collect();
        let mut all: Vec<u8> = self.sorted_unique(explicit, "height");
        all.extend(heights.iter().map(|(h, _)| *h));
        all.sort_unstable();
        all.dedup();
        ok.then_some((empty.is_some(), all))
    }

    fn lower_sow(&mut self, block: &Block<SowField>) -> Option<SowRule> {
        let (mut heights, mut directions, mut onto) = (None, None, None);
        for f in &block.fields {
            let kw = f.value.keyword();
            match &f.value {
                SowField::Heights(v) => self.first(&mut heights, v, f.span, kw, "sow"),
                SowField::Directions(v) => self.first(&mut directions, v, f.span, kw, "sow"),
                SowField::Onto(v) => self.first(&mut onto, v, f.span, kw, "sow"),
            }
        }
        self.sow_directions = directions.map(|(_, span)| span);
        let heights = self.require(heights, block.head, "sow", "heights", "heights 2");
        let directions = self.require(
            directions,
            block.head,
            "sow",
            "directions",
            "directions all",
        );
        let onto = self.require(onto, block.head, "sow", "onto", "onto empty, own 1");

        let heights = heights.and_then(|list| self.lower_heights(list, HeightOf::Sowing));
        let directions = directions.and_then(|set| self.lower_dirset(set));
        let (onto_empty, onto_own) = onto.and_then(|targets| self.lower_targets(targets))?;
        Some(SowRule {
            heights: heights?,
            directions: directions?,
            onto_empty,
            onto_own,
        })
    }

    fn lower_sacrifice(&mut self, block: &Block<SacrificeField>) -> Option<Vec<SacrificeRule>> {
        let mut directions = None;
        for f in &block.fields {
            if let SacrificeField::Directions(set) = &f.value {
                self.first(&mut directions, set, f.span, "directions", "sacrifice");
            }
        }
        // Without `directions`, adjacency is every direction of the board.
        let directions = match directions {
            Some((set, _)) => self.lower_dirset(set),
            None => self.lower_dirset(&DirSet::All(block.head)),
        };

        let mut ok = true;
        let mut rules: Vec<(SacrificeRule, Span)> = Vec::new();
        for f in &block.fields {
            let SacrificeField::Rule(line) = &f.value else {
                continue;
            };
            let Some(rule) = self.lower_sacrifice_rule(line) else {
                ok = false;
                continue;
            };
            let key = |r: &SacrificeRule| (r.attacker, r.target, r.lose);
            if let Some(&(_, first)) = rules.iter().find(|(r, _)| key(r) == key(&rule)) {
                let (a, t, l) = key(&rule);
                self.push(
                    Diagnostic::error(
                        f.span,
                        format!("duplicate sacrifice `{a} against {t}: lose {l}`"),
                    )
                    .with_label(first, "first defined here")
                    .with_note(
                        "a sacrifice is known by its attacker, its target and the stones the \
                         attacker loses",
                    ),
                );
                ok = false;
                continue;
            }
            rules.push((rule, f.span));
        }
        if rules.is_empty() && ok {
            self.warning(block.head, "this `sacrifice` block has no rules")
                .notes
                .push(
                    "add rules like `2 against 1: lose 1, remove 1`, or leave the block out"
                        .to_string(),
                );
        }
        let directions = directions?;
        ok.then(|| {
            rules
                .into_iter()
                .map(|(rule, _)| SacrificeRule {
                    directions: directions.clone(),
                    ..rule
                })
                .collect()
        })
    }

    /// `A against T: lose L, remove R`, without its directions.
    fn lower_sacrifice_rule(&mut self, line: &SacrificeLine) -> Option<SacrificeRule> {
        let attacker = self.lower_height(&line.attacker, HeightOf::Attacker);
        let target = self.lower_height(&line.target, HeightOf::SacrificeTarget);
        let lose = self.lower_taken(&line.lose, attacker, "attacker");
        let remove = self.lower_taken(&line.remove, target, "target");
        Some(SacrificeRule {
            attacker: attacker?,
            target: target?,
            lose: lose?,
            remove: remove?,
            directions: Vec::new(),
        })
    }

    /// Stones taken from a stack of height `from` by a sacrifice: at least
    /// one, at most all of them. `who` is `attacker` or `target`.
    fn lower_taken(&mut self, n: &Number, from: Option<u8>, who: &str) -> Option<u8> {
        let k = self.num(n)?;
        if k == 0 {
            self.error(
                n.span,
                format!("the {who} of a sacrifice loses at least one stone"),
            );
            return None;
        }
        let from = from?;
        if k > u32::from(from) {
            let article = if who.starts_with(['a', 'e', 'i', 'o', 'u']) {
                "an"
            } else {
                "a"
            };
            self.error(
                n.span,
                format!("{article} {who} of {from} cannot lose {k} stones"),
            )
            .notes
            .push(format!(
                "the {who} loses from 1 stone up to its whole height"
            ));
            return None;
        }
        u8::try_from(k).ok()
    }

    fn lower_catapult(&mut self, block: &Block<CatapultField>) -> Option<CatapultRule> {
        let (mut height, mut directions, mut range, mut onto) = (None, None, None, None);
        let (mut on_empty, mut on_enemy) = (None, None);
        for f in &block.fields {
            let kw = f.value.keyword();
            match &f.value {
                CatapultField::Height(v) => self.first(&mut height, v, f.span, kw, "catapult"),
                CatapultField::Directions(v) => {
                    self.first(&mut directions, v, f.span, kw, "catapult");
                }
                CatapultField::Range(v) => self.first(&mut range, v, f.span, kw, "catapult"),
                CatapultField::Onto(v) => self.first(&mut onto, v, f.span, kw, "catapult"),
                CatapultField::OnEmpty(v) => self.first(&mut on_empty, v, f.span, kw, "catapult"),
                CatapultField::OnEnemy(v) => self.first(&mut on_enemy, v, f.span, kw, "catapult"),
            }
        }
        let head = block.head;
        self.catapult_directions = directions.map(|(_, span)| span);
        let height = self.require(height, head, "catapult", "height", "height 3");
        let directions = self.require(
            directions,
            head,
            "catapult",
            "directions",
            "directions forward-left, forward, forward-right",
        );
        let range = self.require(range, head, "catapult", "range", "range 2, 3");
        let onto = self.require(onto, head, "catapult", "onto", "onto empty, enemy any");

        let height = height.and_then(|n| self.lower_height(n, HeightOf::Catapult));
        let directions = directions.and_then(|set| self.lower_dirset(set));
        let ranges = range.and_then(|list| self.lower_ranges(list));
        // What landing does; the defaults are Advanced Murus Gallicus.
        let wall_on_empty = on_empty.is_none_or(|(w, _)| w.value);
        let hit_removes = match on_enemy {
            None => Some(1),
            Some((n, _)) => self.lower_hit(n),
        };
        let (onto_empty, onto_enemy) = onto.and_then(|targets| self.lower_targets(targets))?;
        // A landing rule for a landing `onto` does not allow does nothing.
        for (span, keyword, lands, target) in [
            (on_empty.map(|(_, s)| s), "on empty", onto_empty, "`empty`"),
            (
                on_enemy.map(|(_, s)| s),
                "on enemy",
                !onto_enemy.is_empty(),
                "`enemy H` or `enemy any`",
            ),
        ] {
            if let (Some(span), false) = (span, lands) {
                self.warning(span, format!("`{keyword}` has no effect"))
                    .notes
                    .push(format!(
                        "`onto` lists no {target}, so no stone ever lands there"
                    ));
            }
        }
        Some(CatapultRule {
            height: height?,
            directions: directions?,
            ranges: ranges?,
            onto_empty,
            onto_enemy,
            wall_on_empty,
            hit_removes: hit_removes?,
        })
    }

    /// `on enemy: remove N`: from 1 to the stack limit.
    fn lower_hit(&mut self, n: &Number) -> Option<u8> {
        let k = self.num(n)?;
        let limit = self.limit?;
        if k == 0 {
            self.error(n.span, "a hit removes at least one enemy stone")
                .notes
                .push("the thrown stone always leaves the game with them".to_string());
            return None;
        }
        if k > u32::from(limit) {
            self.over_limit(
                n.span,
                format!("a hit cannot remove {k} stones: the stack limit is {limit}"),
            );
            return None;
        }
        u8::try_from(k).ok()
    }

    /// `range N, …`: from 1 to the longer side of the board, sorted.
    fn lower_ranges(&mut self, list: &[Number]) -> Option<Vec<u8>> {
        let longest = self
            .geometry
            .as_ref()?
            .width()
            .max(self.geometry.as_ref()?.height());
        let mut ok = true;
        let mut values = Vec::with_capacity(list.len());
        for n in list {
            let Some(r) = self.num(n) else {
                ok = false;
                continue;
            };
            if r == 0 {
                self.error(n.span, "a range is at least 1");
                ok = false;
            } else if r as usize > longest {
                self.error(n.span, format!("range {r} is longer than the board"))
                    .notes
                    .push(format!("on this board a range is at most {longest}"));
                ok = false;
            } else {
                values.push((r as u8, n.span));
            }
        }
        ok.then(|| self.sorted_unique(values, "range"))
    }

    // -----------------------------------------------------------------------
    // Winning, drawing, opening
    // -----------------------------------------------------------------------

    fn lower_win(
        &mut self,
        win: Once<'_, Block<WinField>>,
        has_sow: bool,
        has_catapult: bool,
    ) -> Option<WinRules> {
        let Some((block, _)) = win else {
            self.missing(
                "win",
                "win {\n    breakthrough immediate by sow\n    stalemate loses\n}",
            );
            return None;
        };
        let (mut breakthrough, mut stalemate) = (None, None);
        for f in &block.fields {
            let kw = f.value.keyword();
            match &f.value {
                WinField::Breakthrough(v) => self.first(&mut breakthrough, v, f.span, kw, "win"),
                WinField::Stalemate(v) => self.first(&mut stalemate, v, f.span, kw, "win"),
            }
        }
        let stalemate = self.require(stalemate, block.head, "win", "stalemate", "stalemate loses");
        let breakthrough = match breakthrough {
            Some((clause, _)) => Some(self.lower_breakthrough(clause, has_sow, has_catapult)?),
            None => None,
        };
        Some(WinRules {
            breakthrough,
            stalemate: stalemate?.value,
        })
    }

    /// `breakthrough immediate|delayed [by sow, throw]`. Without `by`, every
    /// way the variant has of dropping a stone counts.
    fn lower_breakthrough(
        &mut self,
        clause: &BreakthroughClause,
        has_sow: bool,
        has_catapult: bool,
    ) -> Option<Breakthrough> {
        let Some(list) = &clause.by else {
            return Some(Breakthrough {
                timing: clause.timing.value,
                by_sow: has_sow,
                by_throw: has_catapult,
            });
        };
        let mut sow: Option<Span> = None;
        let mut throw: Option<Span> = None;
        for a in list {
            let (slot, word) = match a.value {
                Arrival::Sow => (&mut sow, "sow"),
                Arrival::Throw => (&mut throw, "throw"),
            };
            if slot.is_some() {
                self.warning(a.span, format!("`{word}` is listed twice"));
            } else {
                *slot = Some(a.span);
            }
        }
        let mut ok = true;
        for (span, present, word, block) in [
            (sow, has_sow, "sow", "sow"),
            (throw, has_catapult, "throw", "catapult"),
        ] {
            if let (Some(span), false) = (span, present) {
                self.error(
                    span,
                    format!("breakthrough `by {word}`, but this variant has no `{block}` block"),
                )
                .notes
                .push(format!("add a `{block} {{ … }}` block, or remove `{word}`"));
                ok = false;
            }
        }
        // A delayed breakthrough looks at the board at the start of a turn,
        // when how a stone arrived is no longer known: it counts every
        // arrival, so a `by` list that leaves one out cannot be honoured.
        if ok && clause.timing.value == Timing::Delayed {
            let left_out = [(sow, has_sow, "sow"), (throw, has_catapult, "throw")]
                .into_iter()
                .find(|&(span, present, _)| present && span.is_none());
            if let Some((_, _, word)) = left_out {
                let span = match (list.first(), list.last()) {
                    (Some(a), Some(b)) => Span::new(a.span.start, b.span.end),
                    _ => clause.timing.span,
                };
                let e = self.error(
                    span,
                    format!("a `delayed` breakthrough counts every arrival, but `by` leaves out `{word}`"),
                );
                e.notes.push(
                    "a delayed win is judged from the board at the start of the turn, where a stone's way of arriving is not kept".into(),
                );
                e.notes.push(
                    "list every arrival the variant has, drop `by`, or use `immediate`".into(),
                );
                ok = false;
            }
        }
        ok.then_some(Breakthrough {
            timing: clause.timing.value,
            by_sow: sow.is_some(),
            by_throw: throw.is_some(),
        })
    }

    fn lower_draw(&mut self, block: &Block<DrawField>) -> Option<DrawRules> {
        let (mut repetition, mut plies) = (None, None);
        for f in &block.fields {
            let kw = f.value.keyword();
            match &f.value {
                DrawField::Repetition(v) => self.first(&mut repetition, v, f.span, kw, "draw"),
                DrawField::Plies(v) => self.first(&mut plies, v, f.span, kw, "draw"),
            }
        }
        let repetition = repetition.map(|(n, _)| {
            self.lower_at_least(
                n,
                2,
                "repetition",
                "`repetition N` draws when a position occurs for the Nth time, so N is at least 2",
            )
        });
        let plies = plies.map(|(n, _)| {
            self.lower_at_least(
                n,
                1,
                "plies",
                "`plies N` draws the game after N plies, so N is at least 1",
            )
        });
        Some(DrawRules {
            repetition: repetition.map_or(Some(None), |r| r.map(Some))?,
            ply_cap: plies.map_or(Some(None), |p| p.map(Some))?,
        })
    }

    /// A count of at least `min`.
    fn lower_at_least(&mut self, n: &Number, min: u32, what: &str, why: &str) -> Option<u32> {
        let v = self.num(n)?;
        if v < min {
            self.error(n.span, format!("{what} {v} is too low"))
                .notes
                .push(why.to_string());
            return None;
        }
        Some(v)
    }

    fn lower_opening(&mut self, block: &Block<PieLine>) -> Option<Opening> {
        let n = self.players.len();
        if n != 2 {
            self.error(
                block.head,
                format!("the pie rule needs exactly two players, this variant has {n}"),
            );
            return None;
        }
        let mut from: [Option<Vec<usize>>; 2] = [None, None];
        let mut to: [Option<Vec<usize>>; 2] = [None, None];
        let mut first_line: [Option<Span>; 2] = [None, None];
        let mut ok = true;
        for line in &block.fields {
            let Some(p) = self.player_index(&line.value.player) else {
                ok = false;
                continue;
            };
            if let Some(first) = first_line[p] {
                self.push(
                    Diagnostic::error(
                        line.value.player.span,
                        format!("duplicate pie line for {}", self.players[p].describe()),
                    )
                    .with_label(first, "first defined here"),
                );
                ok = false;
                continue;
            }
            first_line[p] = Some(line.span);
            let Some(g) = &self.geometry else {
                ok = false;
                continue;
            };
            let f = eval_cellset(g, &line.value.from, &mut self.diags);
            let t = eval_cellset(g, &line.value.to, &mut self.diags);
            if let Some(f) = &f {
                if f.is_empty() {
                    self.error(line.value.from.span, "`from` has no cell on this board")
                        .notes
                        .push("`from` holds the towers that may open".to_string());
                    ok = false;
                }
            }
            if let Some(t) = &t {
                if t.len() < 2 {
                    self.error(
                        line.value.to.span,
                        format!("`to` needs at least two cells, this one has {}", t.len()),
                    )
                    .notes
                    .push(
                        "the opening tower drops one wall on each of two cells of `to`".to_string(),
                    );
                    ok = false;
                }
            }
            from[p] = f;
            to[p] = t;
            self.pie_from[p] = Some(line.value.from.span);
        }
        for (p, line) in first_line.iter().enumerate() {
            if line.is_none() {
                let who = self.players[p].describe();
                let example = match self.players[p].letter {
                    Some(l) => format!("{l} from rank 1 to rank 2"),
                    None => "r from rank 1 to rank 2".to_string(),
                };
                self.error(block.head, format!("missing the pie line for {who}"))
                    .notes
                    .push(format!("for example: `{example}`"));
                ok = false;
            }
        }
        if !ok {
            return None;
        }
        let [Some(f0), Some(f1)] = from else {
            return None;
        };
        let [Some(t0), Some(t1)] = to else {
            return None;
        };
        Some(Opening::Pie {
            from: [f0, f1],
            to: [t0, t1],
        })
    }

    // -----------------------------------------------------------------------
    // Whole-file checks, on rules that passed every other check
    // -----------------------------------------------------------------------

    /// The pie rule's first action splits a tower of exactly 2 stones into
    /// two walls (`d1:b2,g2`): each player needs such a tower on its `from`
    /// cells at the start, or it could never make its first action.
    fn check_pie_towers(&mut self, rules: &Rules) {
        let Opening::Pie { from, .. } = &rules.opening else {
            return;
        };
        for (p, cells) in from.iter().enumerate() {
            let towers = rules
                .setup
                .iter()
                .any(|&(s, q, h)| q == p && h == 2 && cells.contains(&s));
            if towers {
                continue;
            }
            let span = self.pie_from[p].unwrap_or(self.anchor);
            let who = self.players[p].describe();
            self.error(
                span,
                format!("the pie rule needs a tower of 2 of {who} on these cells at the start"),
            )
            .notes
            .push(
                "the pie rule's first action drops the two stones of one tower (a stack of \
                 exactly 2) as walls on two cells; stacks of other heights cannot open"
                    .to_string(),
            );
        }
    }

    /// With a breakthrough, every player that has stones must be able to
    /// reach some other player's home: a home no stone of it can ever reach,
    /// whatever the other stones do, is almost certainly a mistake (a wrong
    /// `forward`, `back` for `forward`, …).
    ///
    /// The search over-approximates what stones can do: blockers, stack
    /// heights and whose turn it is are ignored. A stone moves by sowing
    /// (1 up to the highest sowing height in a sowing direction), by a throw
    /// onto an empty cell (each range in a throwing direction) and by the
    /// pie rule's split (from its `from` cells to its `to` cells). A home is
    /// reached by a move that counts as an arrival for the breakthrough (or,
    /// with a delayed breakthrough, by any stone standing on it).
    fn check_homes_reachable(&mut self, rules: &Rules) {
        let Some(b) = rules.win.breakthrough else {
            return;
        };
        let g = &rules.geometry;
        let dirs = g.directions();
        let delayed = b.timing == Timing::Delayed;
        for p in 0..rules.players.len() {
            let start: Vec<usize> = rules
                .setup
                .iter()
                .filter(|&&(_, q, _)| q == p)
                .map(|&(s, _, _)| s)
                .collect();
            if start.is_empty() {
                continue; // already a warning: the player has no stones
            }
            let mut goal = vec![false; g.slots()];
            for (q, other) in rules.players.iter().enumerate() {
                if q != p {
                    for &s in &other.home {
                        goal[s] = true;
                    }
                }
            }
            // (direction, distance, whether arriving this way breaks through)
            let mut steps: Vec<(usize, i32, bool)> = Vec::new();
            let mut ways: Vec<String> = Vec::new();
            if let Some(sow) = rules
                .sow
                .as_ref()
                .filter(|s| s.onto_empty || !s.onto_own.is_empty())
            {
                let far = sow.heights.iter().copied().max().unwrap_or(0);
                for &d in &sow.directions[p] {
                    for k in 1..=i32::from(far) {
                        steps.push((d, k, b.by_sow));
                    }
                }
                if far > 0 && !sow.directions[p].is_empty() {
                    ways.push(format!(
                        "sowing {} (up to {far} cells)",
                        dir_names(g, &sow.directions[p])
                    ));
                }
            }
            if let Some(cat) = rules
                .catapult
                .as_ref()
                .filter(|c| c.onto_empty && c.wall_on_empty)
            {
                for &d in &cat.directions[p] {
                    for &r in &cat.ranges {
                        steps.push((d, i32::from(r), b.by_throw));
                    }
                }
                if !cat.directions[p].is_empty() && !cat.ranges.is_empty() {
                    let ranges: Vec<String> = cat.ranges.iter().map(u8::to_string).collect();
                    ways.push(format!(
                        "throwing {} ({} cells)",
                        dir_names(g, &cat.directions[p]),
                        join_or(&ranges)
                    ));
                }
            }
            let mut seen = vec![false; g.slots()];
            let mut queue: Vec<usize> = Vec::new();
            let mut reached = false;
            for &s in &start {
                seen[s] = true;
                queue.push(s);
                reached |= delayed && goal[s];
            }
            if let Opening::Pie { from, to } = &rules.opening {
                if p < 2 && start.iter().any(|s| from[p].contains(s)) {
                    for &t in &to[p] {
                        reached |= delayed && goal[t];
                        if !seen[t] {
                            seen[t] = true;
                            queue.push(t);
                        }
                    }
                }
            }
            while let Some(s) = queue.pop() {
                if reached {
                    break;
                }
                for &(d, k, counts) in &steps {
                    let Some(t) = g.step(s, dirs[d], k) else {
                        continue;
                    };
                    if counts && goal[t] {
                        reached = true;
                        break;
                    }
                    if !seen[t] {
                        seen[t] = true;
                        queue.push(t);
                    }
                }
            }
            if reached {
                continue;
            }
            let info = &self.players[p];
            let span = info.forward_span.unwrap_or(info.head);
            let mut d = Diagnostic::error(
                span,
                format!("{} can never reach another player's home", info.describe()),
            );
            if rules.sow.is_some() {
                if let Some(s) = self.sow_directions {
                    d = d.with_label(s, "sowing directions are set here");
                }
            }
            if rules.catapult.is_some() {
                if let Some(s) = self.catapult_directions {
                    d = d.with_label(s, "throwing directions are set here");
                }
            }
            let how = if ways.is_empty() {
                "their stones never move".to_string()
            } else {
                format!("their stones move only by {}", join_and(&ways))
            };
            d.notes.push(format!(
                "`win` has a breakthrough, but {how}: even with no stone in the way, none of \
                 them can land on a home of another player"
            ));
            d.notes.push(
                "help: check `forward` and the `directions` of `sow`/`catapult`, or drop \
                 `breakthrough` for a game won only by stalemate (Escape)"
                    .to_string(),
            );
            self.push(d);
        }
    }
}

/// The span of a player's `letter` value, if it declares one.
fn letter_span(p: &Player) -> Option<Span> {
    p.fields.iter().find_map(|f| match &f.value {
        PlayerField::Letter(l) => Some(l.span),
        _ => None,
    })
}

/// `a`, `a and b`, `a, b and c`.
fn join_and(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

fn join_or(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// `s, sw and se`: absolute direction names for a resolved list.
fn dir_names(g: &Geometry, list: &[usize]) -> String {
    let names: Vec<String> = list
        .iter()
        .filter_map(|&d| g.directions().get(d))
        .map(|d| format!("`{}`", d.name))
        .collect();
    join_and(&names)
}

fn shape_name(g: &Geometry) -> &'static str {
    match g.kind() {
        ShapeKind::Rect => "rect",
        ShapeKind::Hex => "hex",
    }
}

/// `` `n`, `ne`, … and `nw` ``
fn direction_list(g: &Geometry) -> String {
    let names: Vec<String> = g
        .directions()
        .iter()
        .map(|d| format!("`{}`", d.name))
        .collect();
    join_and(&names)
}

/// The candidate a mistyped name most likely meant: `north` means `n`, and
/// `forwrd` means `forward`.
fn suggest<'a>(name: &str, candidates: impl Iterator<Item = &'a str> + Clone) -> Option<&'a str> {
    let lower = name.to_ascii_lowercase();
    let abbreviation: String = lower
        .split(['-', '_'])
        .flat_map(|part| match part {
            "north" => Some('n'),
            "south" => Some('s'),
            "east" => Some('e'),
            "west" => Some('w'),
            _ => None,
        })
        .collect();
    let exact = |word: &str| candidates.clone().find(|c| *c == word);
    exact(&lower)
        .or_else(|| exact(&abbreviation))
        .or_else(|| crate::parser::closest(&lower, candidates.clone()))
}

/// Whether a name is a compass direction of some board.
fn is_compass(name: &str) -> bool {
    matches!(name, "n" | "ne" | "e" | "se" | "s" | "sw" | "w" | "nw")
}

// ---------------------------------------------------------------------------
// Cell sets
// ---------------------------------------------------------------------------

/// Evaluates a cell set on a board, left to right. Returns the sorted cells,
/// or `None` after reporting every term that names something not on the
/// board.
pub(crate) fn eval_cellset(
    g: &Geometry,
    set: &CellSet,
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<usize>> {
    let mut member = vec![false; g.slots()];
    let mut ok = true;
    let terms =
        std::iter::once((SetOp::Union, &set.first)).chain(set.rest.iter().map(|(op, t)| (*op, t)));
    for (op, term) in terms {
        let Some(cells) = eval_term(g, term, diags) else {
            ok = false;
            continue;
        };
        for c in cells {
            if let Some(m) = member.get_mut(c) {
                *m = op == SetOp::Union;
            }
        }
    }
    ok.then(|| (0..member.len()).filter(|&s| member[s]).collect())
}

fn eval_term(
    g: &Geometry,
    term: &Spanned<CellTerm>,
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<usize>> {
    match &term.value {
        CellTerm::All => Some(g.cells().collect()),
        CellTerm::Rank(n) => {
            let Some(r) = n.value else {
                diags.push(Diagnostic::error(n.span, "number too large"));
                return None;
            };
            let r = r as usize;
            if r == 0 || r > g.height() {
                diags.push(Diagnostic::error(
                    term.span,
                    format!("rank {r} is not on this board (ranks 1–{})", g.height()),
                ));
                return None;
            }
            Some(g.rank(r))
        }
        CellTerm::File(name) => {
            let last = (b'a' + (g.width() as u8).saturating_sub(1)) as char;
            let mut chars = name.value.chars();
            let index = match (chars.next(), chars.next()) {
                (Some(c @ 'a'..='z'), None) => Some(c as usize - 'a' as usize),
                _ => None,
            };
            match index {
                Some(i) if i < g.width() => Some(g.file(i)),
                _ => {
                    diags.push(Diagnostic::error(
                        term.span,
                        format!("file {} is not on this board (files a–{last})", name.value),
                    ));
                    None
                }
            }
        }
        CellTerm::Edge(name) => match g.edge(&name.value) {
            Some(cells) => Some(cells),
            None => {
                let names: Vec<String> = g.edge_names().iter().map(|e| format!("`{e}`")).collect();
                let mut d = Diagnostic::error(name.span, format!("unknown edge `{}`", name.value))
                    .with_note(format!(
                        "the edges of a {} board are {}",
                        shape_name(g),
                        join_and(&names)
                    ));
                if let Some(s) = suggest(&name.value, g.edge_names().iter().copied()) {
                    d = d.with_help(format!("did you mean `{s}`?"));
                }
                diags.push(d);
                None
            }
        },
        CellTerm::Cells(names) => {
            let mut ok = true;
            let mut cells = Vec::with_capacity(names.len());
            for name in names {
                match g.parse_cell(&name.value) {
                    Some(c) => cells.push(c),
                    None => {
                        ok = false;
                        diags.push(
                            Diagnostic::error(
                                name.span,
                                format!("cell `{}` is not on this board", name.value),
                            )
                            .with_note(cell_hint(g, &name.value)),
                        );
                    }
                }
            }
            ok.then_some(cells)
        }
    }
}

/// Explains which cells exist near a name that is not on the board.
fn cell_hint(g: &Geometry, name: &str) -> String {
    let rank: Option<usize> = name
        .trim_start_matches(|c: char| c.is_ascii_alphabetic())
        .parse()
        .ok();
    let last_file = (b'a' + (g.width() as u8).saturating_sub(1)) as char;
    let row = rank.map(|r| g.rank(r)).unwrap_or_default();
    match (row.first(), row.last()) {
        (Some(&a), Some(&b)) if g.kind() == ShapeKind::Hex || a != b => format!(
            "rank {} of this board runs from `{}` to `{}`",
            rank.unwrap_or(0),
            g.name(a),
            g.name(b)
        ),
        _ => format!(
            "cells are named by file and rank; this board has files a–{last_file} and ranks 1–{}",
            g.height()
        ),
    }
}

// ---------------------------------------------------------------------------
// Directions
// ---------------------------------------------------------------------------

/// A direction name resolved against the board's shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum DirName {
    Absolute(usize),
    /// Clockwise steps from the player's forward direction.
    Relative(usize),
}

/// Resolves a direction set for each player (`(name, forward)` in turn
/// order) into absolute direction indices, keeping the order written and
/// dropping repeats with a warning.
pub(crate) fn resolve_dirset(
    g: &Geometry,
    set: &DirSet,
    players: &[(String, Option<usize>)],
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<Vec<usize>>> {
    let n = g.directions().len();
    let hex = g.kind() == ShapeKind::Hex;
    let same_for_all = |dirs: Vec<usize>| Some(vec![dirs; players.len()]);
    let names: &[Name] = match set {
        DirSet::All(_) => return same_for_all((0..n).collect()),
        DirSet::Orthogonal(_) if hex => return same_for_all((0..n).collect()),
        DirSet::Orthogonal(_) => return same_for_all(vec![0, 2, 4, 6]),
        DirSet::Diagonal(span) if hex => {
            diags.push(
                Diagnostic::error(*span, "a hex board has no diagonal directions").with_note(
                    "its six directions all go to a neighbouring cell: use `all` or name them",
                ),
            );
            return None;
        }
        DirSet::Diagonal(_) => return same_for_all(vec![1, 3, 5, 7]),
        DirSet::List(names) => names,
    };

    let mut resolved: Vec<(DirName, &Name)> = Vec::with_capacity(names.len());
    let mut ok = true;
    for name in names {
        let dir = if let Some(i) = g.direction_index(&name.value) {
            DirName::Absolute(i)
        } else if let Some(rel) = Relative::from_name(&name.value) {
            match rel.steps(g.kind()) {
                Some(steps) => DirName::Relative(steps),
                None => {
                    diags.push(
                        Diagnostic::error(name.span, format!("a hex board has no `{}`", name.value))
                            .with_note(
                                "on a hex board the relative directions are `forward`, `forward-right`, \
                                 `back-right`, `back`, `back-left` and `forward-left`",
                            ),
                    );
                    ok = false;
                    continue;
                }
            }
        } else {
            let relative: Vec<String> = Relative::ALL
                .iter()
                .filter(|(r, _)| r.steps(g.kind()).is_some())
                .map(|(_, n)| format!("`{n}`"))
                .collect();
            let message = if is_compass(&name.value) {
                format!(
                    "a {} board has no direction `{}`",
                    shape_name(g),
                    name.value
                )
            } else {
                format!("unknown direction `{}`", name.value)
            };
            let mut d = Diagnostic::error(name.span, message)
                .with_note(format!(
                    "the directions of a {} board are {}",
                    shape_name(g),
                    direction_list(g)
                ))
                .with_note(format!(
                    "relative to a player's forward direction: {}",
                    join_and(&relative)
                ));
            let candidates = g.directions().iter().map(|d| d.name).chain(
                Relative::ALL
                    .iter()
                    .filter(|(r, _)| r.steps(g.kind()).is_some())
                    .map(|(_, n)| *n),
            );
            if let Some(s) = suggest(&name.value, candidates) {
                d = d.with_help(format!("did you mean `{s}`?"));
            }
            diags.push(d);
            ok = false;
            continue;
        };
        if let Some((_, first)) = resolved.iter().find(|(_, n)| n.value == name.value) {
            diags.push(
                Diagnostic::warning(
                    name.span,
                    format!("direction `{}` is listed twice", name.value),
                )
                .with_label(first.span, "first listed here"),
            );
            continue;
        }
        resolved.push((dir, name));
    }
    if !ok {
        return None;
    }

    let mut out = Vec::with_capacity(players.len());
    for (player, forward) in players {
        let mut dirs: Vec<usize> = Vec::with_capacity(resolved.len());
        let mut first_name: Vec<&Name> = Vec::with_capacity(resolved.len());
        for (dir, name) in &resolved {
            let index = match *dir {
                DirName::Absolute(i) => i,
                // Without a forward direction (already an error) nothing
                // relative can be resolved.
                DirName::Relative(steps) => (((*forward)?) + steps) % n,
            };
            if let Some(k) = dirs.iter().position(|&d| d == index) {
                diags.push(
                    Diagnostic::warning(
                        name.span,
                        format!(
                            "`{}` and `{}` are the same direction for the {player}",
                            first_name[k].value, name.value
                        ),
                    )
                    .with_label(first_name[k].span, "same direction"),
                );
                continue;
            }
            dirs.push(index);
            first_name.push(name);
        }
        out.push(dirs);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(g: &Geometry, cells: &[usize]) -> Vec<String> {
        cells.iter().map(|&c| g.name(c)).collect()
    }

    /// Parses `home SET` inside a minimal player block and evaluates SET.
    fn cells(g: &Geometry, set: &str) -> Result<Vec<String>, Vec<Diagnostic>> {
        let src = format!("player \"P\" {{ home {set} }}");
        let file = crate::parser::parse(&src).map_err(|d| vec![d])?;
        let Item::Player(p) = &file.items[0] else {
            panic!("not a player")
        };
        let PlayerField::Home(set) = &p.fields[0].value else {
            panic!("not a home")
        };
        let mut diags = Vec::new();
        match eval_cellset(g, set, &mut diags) {
            Some(c) => Ok(names(g, &c)),
            None => Err(diags),
        }
    }

    #[test]
    fn cell_sets_evaluate_left_to_right() {
        let g = Geometry::rect(8, 7).unwrap();
        assert_eq!(
            cells(&g, "rank 1 - file a - file h").unwrap(),
            ["b1", "c1", "d1", "e1", "f1", "g1"]
        );
        assert_eq!(cells(&g, "cells h1 a1 a1").unwrap(), ["a1", "h1"]);
        assert_eq!(cells(&g, "file a - rank 1 + cells a1").unwrap().len(), 7);
        assert_eq!(cells(&g, "rank 1 + rank 1").unwrap().len(), 8);
        assert_eq!(cells(&g, "all - rank 1 - rank 7").unwrap().len(), 40);
        assert_eq!(
            cells(&g, "edge w").unwrap(),
            ["a1", "a2", "a3", "a4", "a5", "a6", "a7"]
        );
        // Difference then union differs from union then difference.
        assert_eq!(cells(&g, "cells a1 - cells a1 + cells a1").unwrap(), ["a1"]);
        assert!(
            cells(&g, "cells a1 + cells a1 - cells a1")
                .unwrap()
                .is_empty()
        );
    }

    #[test]
    fn cell_sets_report_every_bad_term() {
        let g = Geometry::rect(8, 7).unwrap();
        let errs = cells(&g, "rank 9 + file j + edge x + cells a1 i9 a8").unwrap_err();
        let messages: Vec<&str> = errs.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "rank 9 is not on this board (ranks 1–7)",
                "file j is not on this board (files a–h)",
                "unknown edge `x`",
                "cell `i9` is not on this board",
                "cell `a8` is not on this board",
            ]
        );
        assert!(cells(&g, "rank 0").is_err());
        assert!(cells(&g, "rank 99999999999").is_err());
    }

    #[test]
    fn hex_cell_sets() {
        let g = Geometry::hex(5).unwrap();
        assert_eq!(cells(&g, "rank 1").unwrap(), ["e1", "f1", "g1", "h1", "i1"]);
        assert_eq!(cells(&g, "edge s + edge sw").unwrap().len(), 9);
        assert_eq!(cells(&g, "all").unwrap().len(), 61);
        let err = cells(&g, "cells a1").unwrap_err();
        assert_eq!(
            err[0].notes,
            ["rank 1 of this board runs from `e1` to `i1`"]
        );
    }

    /// The side-3 drawing in docs/rules-language.md ("Hex boards").
    #[test]
    fn hex_side_3_matches_the_documented_drawing() {
        let g = Geometry::hex(3).unwrap();
        assert_eq!(g.cell_count(), 19);
        let rows: Vec<String> = (1..=5)
            .rev()
            .map(|r| cells(&g, &format!("rank {r}")).unwrap().join(" "))
            .collect();
        assert_eq!(
            rows,
            [
                "a5 b5 c5",
                "a4 b4 c4 d4",
                "a3 b3 c3 d3 e3",
                "b2 c2 d2 e2",
                "c1 d1 e1"
            ]
        );
        for (edge, expected) in [
            ("s", "c1 d1 e1"),
            ("sw", "c1 a3 b2"),
            ("nw", "a3 a4 a5"),
            ("n", "a5 b5 c5"),
            ("ne", "e3 d4 c5"),
            ("se", "e1 e2 e3"),
        ] {
            let mut want: Vec<&str> = expected.split(' ').collect();
            want.sort_by_key(|n| g.parse_cell(n));
            assert_eq!(cells(&g, &format!("edge {edge}")).unwrap(), want, "{edge}");
        }
        let c3 = g.parse_cell("c3").unwrap();
        let around: Vec<String> = g
            .directions()
            .iter()
            .map(|d| g.name(g.step(c3, *d, 1).unwrap()))
            .collect();
        // ne, e, se, sw, w, nw
        assert_eq!(around, ["c4", "d3", "d2", "c2", "b3", "b4"]);
    }

    fn dirs(
        g: &Geometry,
        set: &str,
        forwards: &[usize],
    ) -> Result<Vec<Vec<&'static str>>, Vec<Diagnostic>> {
        let src = format!("sow {{ directions {set} }}");
        let file = crate::parser::parse(&src).map_err(|d| vec![d])?;
        let Item::Sow(b) = &file.items[0] else {
            panic!("not sow")
        };
        let SowField::Directions(set) = &b.fields[0].value else {
            panic!("not directions")
        };
        let players: Vec<(String, Option<usize>)> = forwards
            .iter()
            .map(|&f| ("P".to_string(), Some(f)))
            .collect();
        let mut diags = Vec::new();
        match resolve_dirset(g, set, &players, &mut diags) {
            Some(v) => Ok(v
                .into_iter()
                .map(|d| d.into_iter().map(|i| g.directions()[i].name).collect())
                .collect()),
            None => Err(diags),
        }
    }

    #[test]
    fn relative_directions_resolve_per_player_on_squares() {
        let g = Geometry::rect(8, 7).unwrap();
        let (n, s, e) = (0, 4, 2);
        let fan = "left, forward-left, forward, forward-right, right";
        assert_eq!(
            dirs(&g, fan, &[n, s]).unwrap(),
            [
                vec!["w", "nw", "n", "ne", "e"],
                vec!["e", "se", "s", "sw", "w"]
            ]
        );
        assert_eq!(
            dirs(&g, "back, back-left, back-right", &[e]).unwrap(),
            [vec!["w", "nw", "sw"]]
        );
        assert_eq!(
            dirs(&g, "orthogonal", &[n]).unwrap(),
            [vec!["n", "e", "s", "w"]]
        );
        assert_eq!(
            dirs(&g, "diagonal", &[n]).unwrap(),
            [vec!["ne", "se", "sw", "nw"]]
        );
        assert_eq!(dirs(&g, "all", &[n, s]).unwrap()[1].len(), 8);
        // Repeats are dropped (with a warning).
        assert_eq!(
            dirs(&g, "forward, n, s", &[n, s]).unwrap(),
            [vec!["n", "s"], vec!["s", "n"]]
        );
    }

    #[test]
    fn relative_directions_resolve_on_hex() {
        let g = Geometry::hex(5).unwrap();
        let ne = g.direction_index("ne").unwrap();
        let w = g.direction_index("w").unwrap();
        assert_eq!(
            dirs(&g, "forward-left, forward, forward-right, back", &[ne, w]).unwrap(),
            [vec!["nw", "ne", "e", "sw"], vec!["sw", "w", "nw", "e"]]
        );
        assert_eq!(dirs(&g, "orthogonal", &[ne]).unwrap()[0].len(), 6);
        for bad in ["left", "right", "diagonal", "n", "north"] {
            assert!(dirs(&g, bad, &[ne]).is_err(), "{bad}");
        }
    }
}
