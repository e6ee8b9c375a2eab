//! [`Variant`]: a compiled rule file, hiding the bitboard width.

use std::fmt;
use std::sync::Arc;

use murus_dsl::rules::{Rules, Timing};
use murus_dsl::{Diagnostic, Geometry, ShapeKind};

use crate::bits::Bits;
use crate::core::{Engine, Outcome, Phase, Pos, Reason};
use crate::draw::DrawTracker;
use crate::moves::{Move, MoveKind};

/// The variants shipped in `variants/`, embedded in the binary: `(name, source)`.
pub const BUILTIN: &[(&str, &str)] = &[
    ("standard", include_str!("../../../variants/standard.mg")),
    ("houdini", include_str!("../../../variants/houdini.mg")),
    ("escape", include_str!("../../../variants/escape.mg")),
    (
        "checkerboard",
        include_str!("../../../variants/checkerboard.mg"),
    ),
    ("small", include_str!("../../../variants/small.mg")),
    ("large", include_str!("../../../variants/large.mg")),
    ("advanced", include_str!("../../../variants/advanced.mg")),
    (
        "advanced-delayed",
        include_str!("../../../variants/advanced-delayed.mg"),
    ),
    ("pie", include_str!("../../../variants/pie.mg")),
    ("hex", include_str!("../../../variants/hex.mg")),
    (
        "hex3-escape",
        include_str!("../../../variants/hex3-escape.mg"),
    ),
    ("escape4", include_str!("../../../variants/escape4.mg")),
];

/// A bitboard word the facade knows how to wrap.
pub trait Word: Bits {
    #[doc(hidden)]
    fn wrap(pos: Pos<Self>) -> Position;
    #[doc(hidden)]
    fn unwrap(pos: &Position) -> Option<&Pos<Self>>;
}

impl Word for u64 {
    fn wrap(pos: Pos<u64>) -> Position {
        Position(Repr::Narrow(pos))
    }
    fn unwrap(pos: &Position) -> Option<&Pos<u64>> {
        match &pos.0 {
            Repr::Narrow(p) => Some(p),
            Repr::Wide(_) => None,
        }
    }
}

impl Word for u128 {
    fn wrap(pos: Pos<u128>) -> Position {
        Position(Repr::Wide(pos))
    }
    fn unwrap(pos: &Position) -> Option<&Pos<u128>> {
        match &pos.0 {
            Repr::Wide(p) => Some(p),
            Repr::Narrow(_) => None,
        }
    }
}

/// Code that runs on a variant's engine at its own bitboard width, so hot
/// loops (search, playouts) are monomorphised once per call.
pub trait EngineTask {
    type Output;
    fn run<B: Word>(self, engine: &Engine<B>) -> Self::Output;
}

#[derive(Clone, Debug)]
enum Imp {
    Narrow(Box<Engine<u64>>),
    Wide(Box<Engine<u128>>),
}

/// A position of some variant. Use it only with the variant that made it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position(Repr);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Repr {
    Narrow(Pos<u64>),
    Wide(Pos<u128>),
}

/// Runs `$body` with `$e` bound to the engine and `$p` to the position.
macro_rules! with {
    ($v:expr, $pos:expr, |$e:ident, $p:ident| $body:expr) => {
        match (&$v.imp, &$pos.0) {
            (Imp::Narrow($e), Repr::Narrow($p)) => $body,
            (Imp::Wide($e), Repr::Wide($p)) => $body,
            _ => panic!("a position was used with a variant of another board size"),
        }
    };
}

/// A compiled variant: rules, engine tables, and everything that needs
/// names (notation, position strings, drawings).
#[derive(Clone, Debug)]
pub struct Variant {
    rules: Arc<Rules>,
    source: Arc<str>,
    imp: Imp,
}

/// A position string that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid position string{}: {message}", .column.map(|c| format!(" at column {c}")).unwrap_or_default())]
pub struct PositionError {
    /// What is wrong.
    pub message: String,
    /// 1-based column in the string, where one can be named.
    pub column: Option<usize>,
}

fn perr(message: impl Into<String>, column: Option<usize>) -> PositionError {
    PositionError {
        message: message.into(),
        column,
    }
}

/// A move that cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The text is not a move in notation.
    #[error("`{text}` is not a move: {reason}")]
    Malformed { text: String, reason: String },
    /// The text is a move, but not a legal one here.
    #[error("`{text}` is not legal here{}", legal_list(.legal))]
    Illegal { text: String, legal: Vec<String> },
}

fn legal_list(legal: &[String]) -> String {
    if legal.is_empty() {
        "; there are no legal moves (the game is over)".to_string()
    } else {
        format!("; legal moves: {}", legal.join(" "))
    }
}

impl Variant {
    /// Compiles rule-file text.
    pub fn compile(source: &str) -> Result<Variant, Vec<Diagnostic>> {
        let compiled = murus_dsl::compile(source)?;
        Ok(Variant::from_rules(compiled.rules, source))
    }

    /// Wraps already validated rules.
    pub fn from_rules(rules: Rules, source: &str) -> Variant {
        let rules = Arc::new(rules);
        let imp = if rules.geometry.slots() <= u64::SLOTS {
            Imp::Narrow(Box::new(Engine::new(rules.clone())))
        } else {
            Imp::Wide(Box::new(Engine::new(rules.clone())))
        };
        Variant {
            rules,
            source: source.into(),
            imp,
        }
    }

    /// A shipped variant by name (`standard`, `advanced`, …).
    pub fn builtin(name: &str) -> Option<Variant> {
        let (_, src) = BUILTIN.iter().find(|(n, _)| *n == name)?;
        Variant::compile(src).ok()
    }

    /// The standard game, from the embedded `variants/standard.mg`.
    pub fn standard() -> Variant {
        Variant::builtin("standard").expect("the embedded standard variant compiles")
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }
    /// The rule-file text it was compiled from.
    pub fn source(&self) -> &str {
        &self.source
    }
    /// The variant's short name.
    pub fn name(&self) -> &str {
        &self.rules.name
    }
    /// The board.
    pub fn geometry(&self) -> &Geometry {
        &self.rules.geometry
    }
    /// Number of players.
    pub fn player_count(&self) -> usize {
        self.rules.players.len()
    }
    /// The letter of player `p`.
    pub fn letter(&self, p: usize) -> char {
        self.rules.players[p].letter
    }
    /// The player with this letter.
    pub fn player_by_letter(&self, letter: char) -> Option<usize> {
        self.rules.players.iter().position(|p| p.letter == letter)
    }

    /// Runs `task` on the engine at its native width.
    pub fn run<T: EngineTask>(&self, task: T) -> T::Output {
        match &self.imp {
            Imp::Narrow(e) => task.run(e),
            Imp::Wide(e) => task.run(e),
        }
    }

    /// The start position.
    pub fn start(&self) -> Position {
        match &self.imp {
            Imp::Narrow(e) => Position(Repr::Narrow(e.start())),
            Imp::Wide(e) => Position(Repr::Wide(e.start())),
        }
    }

    /// The legal moves, in generation order.
    pub fn legal_moves(&self, pos: &Position) -> Vec<Move> {
        with!(self, pos, |e, p| {
            let mut v = e.move_list();
            e.legal_moves(p, &mut v);
            v
        })
    }

    /// Whether `m` is legal in `pos`.
    pub fn is_legal(&self, pos: &Position, m: Move) -> bool {
        self.legal_moves(pos).contains(&m)
    }

    /// Plays `m`, which must be legal in `pos`.
    pub fn play(&self, pos: &Position, m: Move) -> Position {
        let mut next = *pos;
        match (&self.imp, &mut next.0) {
            (Imp::Narrow(e), Repr::Narrow(p)) => e.apply(p, m),
            (Imp::Wide(e), Repr::Wide(p)) => e.apply(p, m),
            _ => panic!("a position was used with a variant of another board size"),
        }
        next
    }

    /// The result, if the game is over at `pos`.
    pub fn outcome(&self, pos: &Position) -> Option<Outcome> {
        with!(self, pos, |e, p| e.outcome(p))
    }

    /// Whether `m` removes stones from the board (no earlier position can
    /// occur again after it).
    pub fn is_capture(&self, pos: &Position, m: Move) -> bool {
        with!(self, pos, |e, p| e.is_capture(p, m))
    }

    /// Whether the game is over at `pos`, reached along `line`: the rules'
    /// own result first, then the draw rules (see [`Engine::judge`]).
    pub fn end_of_game(&self, pos: &Position, line: &DrawTracker) -> Option<Outcome> {
        with!(self, pos, |e, p| e.end_of_game(p, line))
    }

    /// Leaf count `depth` plies ahead.
    pub fn perft(&self, pos: &Position, depth: u32) -> u64 {
        with!(self, pos, |e, p| e.perft(p, depth))
    }

    /// Leaf count below each legal move.
    pub fn perft_divide(&self, pos: &Position, depth: u32) -> Vec<(Move, u64)> {
        let depth = depth.max(1);
        self.legal_moves(pos)
            .into_iter()
            .map(|m| (m, self.perft(&self.play(pos, m), depth - 1)))
            .collect()
    }

    /// The player to move.
    pub fn turn(&self, pos: &Position) -> usize {
        with!(self, pos, |_e, p| p.turn())
    }
    /// The opening phase.
    pub fn phase(&self, pos: &Position) -> Phase {
        with!(self, pos, |_e, p| p.phase())
    }
    /// Whether player `player` has been eliminated.
    pub fn is_out(&self, pos: &Position, player: usize) -> bool {
        with!(self, pos, |_e, p| p.is_out(player))
    }
    /// The incrementally kept Zobrist hash.
    pub fn hash(&self, pos: &Position) -> u64 {
        with!(self, pos, |_e, p| p.hash())
    }
    /// The Zobrist hash recomputed from scratch.
    pub fn hash_from_scratch(&self, pos: &Position) -> u64 {
        with!(self, pos, |e, p| e.hash_of(p))
    }
    /// The stack on a cell: `(player, height)`.
    pub fn stack(&self, pos: &Position, slot: usize) -> Option<(usize, u8)> {
        with!(self, pos, |_e, p| p.stack(slot))
    }
    /// Stones player `player` has on the board.
    pub fn stone_count(&self, pos: &Position, player: usize) -> u32 {
        with!(self, pos, |_e, p| p.stone_count(player))
    }

    // ----- notation -------------------------------------------------------

    /// A move in notation: `a1-c3`, `b4xc5`, `d5xxd4`, `d4*f6`, `d1:b2,g2`, `swap`.
    pub fn move_to_string(&self, m: Move) -> String {
        let g = self.geometry();
        let (from, to) = (g.name(m.from as usize), g.name(m.to as usize));
        match m.kind {
            MoveKind::Sow => format!("{from}-{to}"),
            MoveKind::Sacrifice => {
                let lose = self
                    .rules
                    .sacrifices
                    .get(m.aux as usize)
                    .map_or(1, |s| s.lose);
                format!("{from}{}{to}", "x".repeat(lose as usize))
            }
            MoveKind::Throw => format!("{from}*{to}"),
            MoveKind::Split => {
                let (a, b) = (m.to.min(m.aux), m.to.max(m.aux));
                format!("{from}:{},{}", g.name(a as usize), g.name(b as usize))
            }
            MoveKind::Swap => "swap".to_string(),
        }
    }

    /// Reads a move in notation and checks that it is legal in `pos`.
    pub fn parse_move(&self, pos: &Position, text: &str) -> Result<Move, MoveError> {
        let canonical = self.canonical_move(text)?;
        let legal = self.legal_moves(pos);
        legal
            .iter()
            .copied()
            .find(|&m| self.move_to_string(m) == canonical)
            .ok_or_else(|| MoveError::Illegal {
                text: text.trim().to_string(),
                legal: legal.iter().map(|&m| self.move_to_string(m)).collect(),
            })
    }

    /// Checks the form of a move and that its cells exist; returns it in the
    /// form [`Variant::move_to_string`] writes.
    fn canonical_move(&self, text: &str) -> Result<String, MoveError> {
        let t = text.trim().to_ascii_lowercase();
        let bad = |reason: &str| MoveError::Malformed {
            text: text.trim().to_string(),
            reason: reason.to_string(),
        };
        if t == "swap" {
            return Ok(t);
        }
        let g = self.geometry();
        let cell = |s: &str| -> Result<usize, MoveError> {
            g.parse_cell(s).ok_or_else(|| {
                if is_cell_shaped(s) {
                    bad(&format!("there is no cell `{s}` on this board"))
                } else {
                    bad(&format!(
                        "`{s}` is not a cell name (a file letter and a rank number, like `c3`)"
                    ))
                }
            })
        };
        if let Some((from, rest)) = t.split_once(':') {
            let Some((a, b)) = rest.split_once(',') else {
                return Err(bad("a split is written `d1:b2,g2`"));
            };
            let (f, a, b) = (cell(from)?, cell(a)?, cell(b)?);
            if a == b {
                return Err(bad("a split drops its two stones on two different cells"));
            }
            let (a, b) = (a.min(b), a.max(b));
            return Ok(format!("{}:{},{}", g.name(f), g.name(a), g.name(b)));
        }
        let lead = leading_cell(&t);
        let trail = trailing_cell(&t[lead..]);
        if lead == 0 || trail == 0 {
            return Err(bad(
                "expected a sowing `a1-c3`, a sacrifice `b4xc5`, a throw `d4*f6`, a split `d1:b2,g2` or `swap`",
            ));
        }
        let from = cell(&t[..lead])?;
        let to = cell(&t[t.len() - trail..])?;
        let sep = &t[lead..t.len() - trail];
        let sep_ok =
            sep == "-" || sep == "*" || (!sep.is_empty() && sep.bytes().all(|b| b == b'x'));
        if !sep_ok {
            return Err(bad(
                "between the two cells write `-` (sow), `x` (sacrifice) or `*` (throw)",
            ));
        }
        Ok(format!("{}{sep}{}", g.name(from), g.name(to)))
    }

    // ----- position strings ------------------------------------------------

    /// The board part of a position string (ranks from the top down,
    /// separated by `/`) for the stacks `stack_at` gives each cell: also how
    /// a set-up that is not yet a position is written.
    pub fn rows_string(&self, stack_at: impl Fn(usize) -> Option<(usize, u8)>) -> String {
        let g = self.geometry();
        let mut rows = Vec::new();
        for y in (0..g.height()).rev() {
            let mut row = String::new();
            let mut run = 0;
            for s in g.rank(y + 1) {
                match stack_at(s) {
                    None => run += 1,
                    Some((p, h)) => {
                        if run > 0 {
                            row += &run.to_string();
                            run = 0;
                        }
                        row.push(self.letter(p));
                        row += &h.to_string();
                    }
                }
            }
            if run > 0 {
                row += &run.to_string();
            }
            rows.push(row);
        }
        rows.join("/")
    }

    /// The position string: ranks from the top down separated by `/`, each a
    /// sequence of stacks (`r2`: a player letter and a height digit) and runs
    /// of empty cells (a decimal count), listing only existing cells; then the
    /// side to move; then optional fields `pie:open|reply|swapped` and
    /// `out:LETTERS` (eliminated players).
    pub fn position_string(&self, pos: &Position) -> String {
        let rows = self.rows_string(|s| self.stack(pos, s));
        let mut out = format!("{rows} {}", self.letter(self.turn(pos)));
        match self.phase(pos) {
            Phase::Normal => {}
            Phase::PieOpen => out += " pie:open",
            Phase::PieReply => out += " pie:reply",
            Phase::PieSwapped => out += " pie:swapped",
        }
        let out_letters: String = (0..self.player_count())
            .filter(|&p| self.is_out(pos, p))
            .map(|p| self.letter(p))
            .collect();
        if !out_letters.is_empty() {
            out += &format!(" out:{out_letters}");
        }
        out
    }

    /// Reads a position string (see [`Variant::position_string`]).
    ///
    /// Besides its form, the string must describe a position the rules can
    /// reach: no player holds more stones than the setup gives it, and in
    /// an immediate-breakthrough game at most one player, not the one to
    /// move, stands on an opponent's home.
    pub fn parse_position(&self, text: &str) -> Result<Position, PositionError> {
        let trimmed = text.trim();
        self.read_position(trimmed).map_err(|mut e| {
            // Columns are found as byte offsets; report them in characters.
            e.column = e.column.map(|c| {
                let mut at = (c - 1).min(trimmed.len());
                while !trimmed.is_char_boundary(at) {
                    at -= 1;
                }
                trimmed[..at].chars().count() + 1
            });
            e
        })
    }

    /// [`Variant::parse_position`] on a trimmed string, with byte columns.
    fn read_position(&self, text: &str) -> Result<Position, PositionError> {
        let g = self.geometry();
        if text.is_empty() {
            return Err(perr("the string is empty", None));
        }
        let letters = {
            let l: Vec<String> = self
                .rules
                .players
                .iter()
                .map(|p| format!("`{}`", p.letter))
                .collect();
            match l.split_last() {
                Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
                _ => l.concat(),
            }
        };
        let board_end = text.find(char::is_whitespace).unwrap_or(text.len());
        let board = &text[..board_end];
        let rows: Vec<&str> = board.split('/').collect();
        if rows.len() != g.height() {
            return Err(perr(
                format!(
                    "expected {} ranks separated by `/`, found {}",
                    g.height(),
                    rows.len()
                ),
                None,
            ));
        }
        let mut stacks = Vec::new();
        let mut col = 1;
        for (i, row) in rows.iter().enumerate() {
            let rank = g.height() - i;
            let cells = g.rank(rank);
            let mut k = 0;
            let bytes = row.as_bytes();
            let mut j = 0;
            while j < bytes.len() {
                // `j` is always on a character boundary here: everything
                // consumed so far is ASCII.
                let c = row[j..].chars().next().unwrap_or('?');
                let at = Some(col + j);
                if c.is_ascii_digit() {
                    let start = j;
                    while j < bytes.len() && bytes[j].is_ascii_digit() {
                        j += 1;
                    }
                    let run: usize = row[start..j]
                        .parse()
                        .map_err(|_| perr("run of empty cells too long", at))?;
                    if run == 0 {
                        return Err(perr("a run of empty cells must be at least 1", at));
                    }
                    k += run;
                    if k > cells.len() {
                        return Err(perr(
                            format!("rank {rank} has more than its {} cells", cells.len()),
                            at,
                        ));
                    }
                    continue;
                }
                let Some(p) = self.player_by_letter(c) else {
                    return Err(perr(
                        format!(
                            "`{c}` is neither a count of empty cells nor a player letter: {letters}"
                        ),
                        at,
                    ));
                };
                let Some(h) = bytes.get(j + 1).filter(|b| b.is_ascii_digit()) else {
                    return Err(perr(
                        format!("`{c}` must be followed by the stack's height, as in `{c}2`"),
                        at,
                    ));
                };
                let h = h - b'0';
                if h == 0 || h > self.rules.stack_limit {
                    return Err(perr(
                        format!(
                            "a stack of {h} is not allowed: heights run from 1 to the stack limit {}",
                            self.rules.stack_limit
                        ),
                        Some(col + j + 1),
                    ));
                }
                if k >= cells.len() {
                    return Err(perr(
                        format!("rank {rank} has more than its {} cells", cells.len()),
                        at,
                    ));
                }
                stacks.push((cells[k], p, h));
                k += 1;
                j += 2;
            }
            if k != cells.len() {
                return Err(perr(
                    format!("rank {rank} describes {k} cells but has {}", cells.len()),
                    Some(col + row.len()),
                ));
            }
            col += row.len() + 1;
        }
        let mut fields = text[board_end..].split_whitespace();
        let col_of = |f: &str| Some(f.as_ptr() as usize - text.as_ptr() as usize + 1);
        let Some(side) = fields.next() else {
            return Err(perr(
                format!("the side to move is missing: add a space and {letters}"),
                None,
            ));
        };
        let turn = side
            .chars()
            .next()
            .filter(|_| side.chars().count() == 1)
            .and_then(|c| self.player_by_letter(c))
            .ok_or_else(|| {
                perr(
                    format!("`{side}` is not a side to move: expected {letters}"),
                    col_of(side),
                )
            })?;
        let mut phase = Phase::Normal;
        let mut out = 0u8;
        for f in fields {
            if let Some(v) = f.strip_prefix("pie:") {
                if !matches!(self.rules.opening, murus_dsl::rules::Opening::Pie { .. }) {
                    return Err(perr("this variant has no pie rule", col_of(f)));
                }
                phase = match v {
                    "open" => Phase::PieOpen,
                    "reply" => Phase::PieReply,
                    "swapped" => Phase::PieSwapped,
                    _ => {
                        return Err(perr(
                            format!("`{f}`: the pie phase is `open`, `reply` or `swapped`"),
                            col_of(f),
                        ));
                    }
                };
                let due = if phase == Phase::PieOpen { 0 } else { 1 };
                if turn != due {
                    return Err(perr(
                        format!("in phase `{v}` the side to move is `{}`", self.letter(due)),
                        col_of(f),
                    ));
                }
            } else if let Some(v) = f.strip_prefix("out:") {
                for c in v.chars() {
                    let p = self.player_by_letter(c).ok_or_else(|| {
                        perr(
                            format!("`{c}` in `{f}` is not a player letter: {letters}"),
                            col_of(f),
                        )
                    })?;
                    out |= 1 << p;
                }
                if out & (1 << turn) != 0 {
                    return Err(perr("the side to move cannot be eliminated", col_of(f)));
                }
                if self.player_count() <= 2 {
                    return Err(perr(
                        "players are eliminated only in games of three or four",
                        col_of(f),
                    ));
                }
            } else {
                return Err(perr(
                    format!("unknown field `{f}`: expected `pie:…` or `out:…`"),
                    col_of(f),
                ));
            }
        }
        // Stones never increase (sowing and throwing move them, captures
        // remove them, the pie rule's split keeps them), so no player can
        // have more than its setup gives it. A player the setup gives no
        // stone at all is not checked: such variants (a mural's rules, used to
        // check moves from any start) describe no starting material for it.
        for (p, player) in self.rules.players.iter().enumerate() {
            let given: u32 = self
                .rules
                .setup
                .iter()
                .filter(|&&(_, q, _)| q == p)
                .map(|&(_, _, h)| u32::from(h))
                .sum();
            let has: u32 = stacks
                .iter()
                .filter(|&&(_, q, _)| q == p)
                .map(|&(_, _, h)| u32::from(h))
                .sum();
            if given > 0 && has > given {
                return Err(perr(
                    format!(
                        "impossible position: the {} (`{}`) have {has} stones, but the setup gives them {given} and stones are never added",
                        player.name, player.letter
                    ),
                    None,
                ));
            }
        }
        // In an immediate-breakthrough game, a stone on a goal means its
        // owner won on the turn it got there.
        let mut winner = None;
        if let Some(b) = self
            .rules
            .win
            .breakthrough
            .filter(|b| b.timing == Timing::Immediate)
        {
            for p in 0..self.player_count() {
                let on_goal = stacks.iter().any(|&(s, q, _)| {
                    q == p
                        && self
                            .rules
                            .players
                            .iter()
                            .enumerate()
                            .any(|(o, pl)| o != p && pl.home.contains(&s))
                });
                if on_goal {
                    if p == turn {
                        return Err(perr(
                            format!(
                                "impossible position: {} already stand on an opponent's home, so they won before it was their turn",
                                self.rules.players[p].name
                            ),
                            None,
                        ));
                    }
                    if winner.is_some() {
                        return Err(perr(
                            "impossible position: two players stand on an opponent's home",
                            None,
                        ));
                    }
                    let reason = if b.by_sow {
                        Reason::BreakthroughSow
                    } else {
                        Reason::BreakthroughThrow
                    };
                    winner = Some(Outcome {
                        winner: Some(p),
                        reason,
                    });
                }
            }
        }
        let pos = match &self.imp {
            Imp::Narrow(e) => Position(Repr::Narrow(finish(e, &stacks, turn, phase, out, winner))),
            Imp::Wide(e) => Position(Repr::Wide(finish(e, &stacks, turn, phase, out, winner))),
        };
        Ok(pos)
    }

    // ----- drawing ---------------------------------------------------------

    /// The position drawn as text, with cell names on the edges.
    pub fn render(&self, pos: &Position) -> String {
        let g = self.geometry();
        let mut out = String::new();
        let token = |s: usize| match self.stack(pos, s) {
            Some((p, h)) => format!("{}{h}", self.letter(p)),
            None => ".".to_string(),
        };
        match g.kind() {
            ShapeKind::Rect => {
                let files: String = (0..g.width())
                    .map(|x| format!("{:<3}", (b'a' + x as u8) as char))
                    .collect();
                let files = format!("    {}\n", files.trim_end());
                out += &files;
                for y in (0..g.height()).rev() {
                    let mut line = String::new();
                    for x in 0..g.width() {
                        let s = y * g.width() + x;
                        let t = if g.exists(s) { token(s) } else { String::new() };
                        line += &format!("{t:<3}");
                    }
                    out += &format!("{:>2}  {line}{}\n", y + 1, y + 1);
                }
                out += &files;
            }
            ShapeKind::Hex => {
                // Cell (x, y) is drawn 4x + 2y characters in: each rank sits
                // half a cell right of the rank below.
                let col = |s: usize| {
                    let (x, y) = g.coords(s);
                    4 * x + 2 * y
                };
                let left = g.cells().map(col).min().unwrap_or(0);
                for y in (0..g.height()).rev() {
                    let cells = g.rank(y + 1);
                    let (Some(&first), Some(&last)) = (cells.first(), cells.last()) else {
                        continue;
                    };
                    let mut line = " ".repeat(col(first) - left);
                    for &s in &cells {
                        line += &format!("{:<4}", token(s));
                    }
                    let range = format!("{}-{}", g.name(first), g.name(last));
                    out += &format!(
                        "{:>2}  {:<w$}  {range}\n",
                        y + 1,
                        line.trim_end(),
                        w = 4 * g.width()
                    );
                }
            }
        }
        let turn = self.turn(pos);
        let player = &self.rules.players[turn];
        match self.outcome(pos) {
            Some(o) => {
                let who = o
                    .winner
                    .map_or("nobody".to_string(), |w| self.rules.players[w].name.clone());
                out += &format!("Game over: {who} won by {}\n", o.reason.as_str());
            }
            None => {
                out += &format!("{} ({}) to move", player.name, player.letter);
                match self.phase(pos) {
                    Phase::Normal => {}
                    Phase::PieOpen => out += " (pie rule: special first move)",
                    Phase::PieReply => out += " (pie rule: swap or special first move)",
                    Phase::PieSwapped => out += " (pie rule: seats swapped, special first move)",
                }
                out.push('\n');
            }
        }
        out
    }
}

fn finish<B: Word>(
    e: &Engine<B>,
    stacks: &[(usize, usize, u8)],
    turn: usize,
    phase: Phase,
    out: u8,
    winner: Option<Outcome>,
) -> Pos<B> {
    let mut pos = e.make(stacks, turn, phase, out);
    if winner.is_some() {
        pos.status = winner;
    }
    pos
}

fn is_cell_shaped(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() >= 2 && b[0].is_ascii_lowercase() && b[1..].iter().all(u8::is_ascii_digit)
}

/// Length of a leading `[a-z][0-9]+`, or 0.
fn leading_cell(s: &str) -> usize {
    let b = s.as_bytes();
    if b.is_empty() || !b[0].is_ascii_lowercase() {
        return 0;
    }
    let digits = b[1..].iter().take_while(|c| c.is_ascii_digit()).count();
    if digits == 0 { 0 } else { 1 + digits }
}

/// Length of a trailing `[a-z][0-9]+`, or 0.
fn trailing_cell(s: &str) -> usize {
    let b = s.as_bytes();
    let digits = b.iter().rev().take_while(|c| c.is_ascii_digit()).count();
    if digits == 0 || digits == b.len() || !b[b.len() - digits - 1].is_ascii_lowercase() {
        return 0;
    }
    digits + 1
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
