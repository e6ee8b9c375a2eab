//! [`RulesKey`]: the identity of compiled rules, for whatever must belong to
//! the rules rather than to the text that states them (trained evaluations,
//! run folders, caches).
//!
//! Two rule files that compile to the same game get the same key, whatever
//! their comments, spacing, order of statements, `variant` name, `title`,
//! the designer's `introduction` and `caption`s, player names and
//! colours, or the way directions were written (`forward`
//! with relative names, or absolute names). Anything that changes play
//! changes the key: the board, the players' letters and turn order, homes,
//! the setup, the stack limit, every sowing, sacrifice, catapult, win, draw
//! and opening rule, and the order in which a player's directions and the
//! sacrifice rules are listed (moves are generated in that order, so seeded
//! games replay only with it). `docs/rules-language.md` lists what counts.
//!
//! ```
//! let standard = include_str!("../../../variants/standard.mg");
//! let key = |text: &str| murus_dsl::compile(text).unwrap().rules.key();
//! let retitled = standard.replace("title \"", "// a comment\ntitle \"My ");
//! assert_eq!(key(standard), key(&retitled));
//! assert_ne!(key(standard), key(&standard.replace("repetition 3", "repetition 4")));
//! assert_eq!(key(standard).to_string().len(), 12);
//! ```

use std::fmt::{self, Write as _};

use sha2::{Digest, Sha256};

use crate::geometry::ShapeKind;
use crate::rules::{
    Adjudication, Material, Opening, Rules, SowCapture, Stalemate, Timing, WinRules,
};

/// The SHA-256 of the rules' canonical form ([`Rules::canonical_form`]).
/// Its `Display` is the first 12 hex digits; [`RulesKey::to_hex`] gives all
/// 64.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RulesKey([u8; 32]);

impl RulesKey {
    /// The key's 32 bytes.
    pub fn bytes(&self) -> &[u8; 32] {
        &self.0
    }
    /// A key from its 32 bytes.
    pub fn from_bytes(bytes: [u8; 32]) -> RulesKey {
        RulesKey(bytes)
    }
    /// All 64 hex digits.
    pub fn to_hex(&self) -> String {
        hex(&self.0)
    }
}

/// Bytes as lowercase hex digits, two a byte.
pub fn hex(bytes: &[u8]) -> String {
    bytes
        .iter()
        .fold(String::with_capacity(2 * bytes.len()), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
}

/// The SHA-256 of a text as it is written: what run folders and
/// evaluation files made before rules had keys name a rules source by, and
/// what names an opening book. (The rules themselves go by [`RulesKey`].)
pub fn text_sha256(text: &str) -> [u8; 32] {
    Sha256::digest(text.as_bytes()).into()
}

/// [`text_sha256`] in hex, all 64 digits.
pub fn text_sha256_hex(text: &str) -> String {
    hex(&text_sha256(text))
}

impl fmt::Display for RulesKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hex()[..12])
    }
}

impl fmt::Debug for RulesKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RulesKey({})", self.to_hex())
    }
}

/// Writes `list` as `a,b,c`.
fn list<T: fmt::Display>(out: &mut String, list: impl IntoIterator<Item = T>) {
    for (i, x) in list.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let _ = write!(out, "{x}");
    }
}

/// Writes a set of numbers in increasing order.
fn set<T: fmt::Display + Ord + Copy>(out: &mut String, items: &[T]) {
    let mut sorted = items.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    list(out, sorted);
}

/// Writes each player's list of directions, in its own order.
fn per_player(out: &mut String, name: &str, dirs: &[Vec<usize>]) {
    for (p, d) in dirs.iter().enumerate() {
        let _ = write!(out, "  {name} {p}: ");
        list(out, d);
        out.push('\n');
    }
}

/// One player's (or every player's) win rules, each line after `win `
/// starting with `whose`.
fn write_win(out: &mut String, whose: &str, win: &WinRules) {
    match win.breakthrough {
        Some(b) => {
            let timing = match b.timing {
                Timing::Immediate => "immediate",
                Timing::Delayed => "delayed",
            };
            let _ = write!(
                out,
                "win {whose}breakthrough {timing} sow {} throw {}",
                b.by_sow, b.by_throw
            );
            // Written only when set, so that older rules keep their keys.
            if b.min_height > 1 {
                let _ = write!(out, " height {}", b.min_height);
            }
            if b.count > 1 {
                let _ = write!(out, " count {}", b.count);
            }
        }
        None => {
            let _ = write!(out, "win {whose}breakthrough none");
        }
    }
    let stalemate = match win.stalemate {
        Stalemate::Loses => "loses",
        Stalemate::Draws => "draws",
    };
    let _ = writeln!(out, " stalemate {stalemate}");
    // Written only when present, so that older rules keep their keys.
    if let Some(o) = &win.occupation {
        let _ = write!(out, "win {whose}occupy ");
        list(out, &o.cells);
        let _ = writeln!(out, " count {}", o.count);
    }
    if let Some(r) = win.reduced {
        let what = match r.material {
            Material::Stones => "stones",
            Material::Towers => "towers",
        };
        let _ = writeln!(out, "win {whose}reduced to {} {what}", r.at_most);
    }
    if let Some(n) = win.capture {
        let _ = writeln!(out, "win {whose}capture {n} stones");
    }
}

impl Rules {
    /// The rules written out in a fixed order, with every name, title,
    /// colour and comment left out and every set sorted: the text the
    /// [`RulesKey`] hashes. Cells are slot numbers, directions indices into
    /// [`crate::Geometry::directions`], players indices in turn order.
    ///
    /// The form is versioned by its first line; a change to it changes every
    /// key, so it changes only with the rules language.
    pub fn canonical_form(&self) -> String {
        let mut out = String::from("murus rules v1\n");
        let g = &self.geometry;
        let kind = match g.kind() {
            ShapeKind::Rect => "rect",
            ShapeKind::Hex => "hex",
        };
        let _ = write!(out, "board {kind} {}x{} cells ", g.width(), g.height());
        list(&mut out, g.cells());
        out.push('\n');
        for (p, player) in self.players.iter().enumerate() {
            let _ = write!(out, "player {p} letter {} home ", player.letter);
            set(&mut out, &player.home);
            out.push('\n');
        }
        // Written only when present, so that older rules keep their keys.
        if let Some(t) = &self.turn_order {
            out.push_str("turns first ");
            list(&mut out, &t.first);
            out.push_str(" cycle ");
            list(&mut out, &t.cycle);
            out.push('\n');
        }
        let mut setup = self.setup.clone();
        setup.sort_unstable();
        out.push_str("setup ");
        list(
            &mut out,
            setup.iter().map(|(cell, p, h)| format!("{cell}:{p}:{h}")),
        );
        let _ = writeln!(out, "\nstack limit {}", self.stack_limit);
        // Players' own limits, written only where they differ, so that older
        // rules keep their keys.
        for (p, player) in self.players.iter().enumerate() {
            if player.stack_limit != self.stack_limit {
                let _ = writeln!(out, "stack limit for {p}: {}", player.stack_limit);
            }
        }
        // The step vectors the direction indices past the board's stand for,
        // written only when there are some, so that older rules keep their
        // keys.
        if !self.steps.is_empty() {
            out.push_str("steps ");
            list(
                &mut out,
                self.steps.iter().map(|(dx, dy)| format!("({dx},{dy})")),
            );
            out.push('\n');
        }
        // Each rule with its players' directions: one shared rule is written
        // as before there were players' own.
        for sow in &self.sow {
            out.push_str("sow heights ");
            set(&mut out, &sow.heights);
            let _ = write!(out, " onto empty {} own ", sow.onto_empty);
            set(&mut out, &sow.onto_own);
            // Written only when present, so that older rules keep their keys.
            if !sow.onto_enemy.is_empty() {
                out.push_str(" enemy ");
                set(&mut out, &sow.onto_enemy);
                match sow.on_enemy {
                    SowCapture::Capture => out.push_str(" on enemy capture"),
                    SowCapture::Remove(n) => {
                        let _ = write!(out, " on enemy remove {n}");
                    }
                }
            }
            out.push('\n');
            per_player(&mut out, "directions", &sow.directions);
        }
        for s in &self.sacrifices {
            let _ = writeln!(
                out,
                "sacrifice {} against {} lose {} remove {}",
                s.attacker, s.target, s.lose, s.remove
            );
            per_player(&mut out, "directions", &s.directions);
        }
        // One catapult is written as it was before several were allowed, so
        // that the keys of older files stay as they were.
        for c in &self.catapults {
            let _ = write!(out, "catapult height {} range ", c.height);
            set(&mut out, &c.ranges);
            let _ = write!(out, " onto empty {} enemy ", c.onto_empty);
            set(&mut out, &c.onto_enemy);
            let _ = writeln!(
                out,
                " on empty wall {} on enemy remove {}",
                c.wall_on_empty, c.hit_removes
            );
            per_player(&mut out, "directions", &c.directions);
        }
        // Shared win rules are written as before there were players' own.
        match self.shared_win() {
            Some(win) => write_win(&mut out, "", win),
            None => {
                for (p, player) in self.players.iter().enumerate() {
                    write_win(&mut out, &format!("for {p}: "), &player.win);
                }
            }
        }
        let _ = writeln!(
            out,
            "draw repetition {:?} plies {:?}",
            self.draw.repetition, self.draw.ply_cap
        );
        // Written only when present, so that older rules keep their keys.
        match &self.adjudicate {
            None => {}
            Some(Adjudication::Material(Material::Stones)) => out.push_str("adjudicate stones\n"),
            Some(Adjudication::Material(Material::Towers)) => out.push_str("adjudicate towers\n"),
            Some(Adjudication::Player(p)) => {
                let _ = writeln!(out, "adjudicate for {p}");
            }
            Some(Adjudication::Stacks(cells)) => {
                out.push_str("adjudicate stacks on ");
                list(&mut out, cells);
                out.push('\n');
            }
        }
        match &self.opening {
            Opening::None => out.push_str("opening none\n"),
            Opening::Pie { from, to } => {
                for p in 0..2 {
                    let _ = write!(out, "opening pie {p} from ");
                    set(&mut out, &from[p]);
                    out.push_str(" to ");
                    set(&mut out, &to[p]);
                    out.push('\n');
                }
            }
        }
        out
    }

    /// The rules' key: the SHA-256 of [`Rules::canonical_form`].
    pub fn key(&self) -> RulesKey {
        RulesKey(Sha256::digest(self.canonical_form().as_bytes()).into())
    }
}

#[cfg(test)]
mod tests {
    use crate::compile;

    const STANDARD: &str = include_str!("../../../variants/standard.mg");

    fn form(text: &str) -> String {
        compile(text).expect("compiles").rules.canonical_form()
    }

    #[test]
    fn the_canonical_form_of_the_standard_game_reads_as_its_rules() {
        let f = form(STANDARD);
        assert!(
            f.starts_with("murus rules v1\nboard rect 8x7 cells 0,1,2,"),
            "{f}"
        );
        assert!(
            f.contains("player 0 letter r home 0,1,2,3,4,5,6,7\n"),
            "{f}"
        );
        assert!(f.contains("setup 0:0:2,1:0:2,"), "{f}");
        assert!(f.contains("\nstack limit 2\n"), "{f}");
        assert!(f.contains("sacrifice 2 against 1 lose 1 remove 1\n"), "{f}");
        assert!(f.contains("win breakthrough immediate sow true throw false stalemate loses\n"));
        assert!(
            f.contains("draw repetition Some(3) plies Some(300)\n"),
            "{f}"
        );
        assert!(!f.contains("Romans") && !f.contains("standard"), "{f}");
    }
}
