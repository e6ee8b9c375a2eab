//! A property of the record format over every shipped variant: a random
//! game with random glyphs, comments (with characters that need escaping)
//! and nested variations, each legal from its position, is written, read
//! back to the same record, and replays as the same game.

use murus_dsl::render_all;
use murus_engine::record::{RESIGNATION, TIME, read};
use murus_engine::util::SplitMix64;
use murus_engine::{BUILTIN, Game, Glyph, Record, RecordMove, RecordResult, Variant};
use proptest::prelude::*;

/// The pieces comments are made of: words, and characters the writer must
/// escape or keep (`}`, `\`, newlines, brackets, quotes, non-ASCII).
const PIECES: &[&str] = &[
    "wall", "tower", "}", "{", "\\", "\n", "(", ")", "\"", "[", "%", "1-0", "*", "!?", "é", "  ",
    "a1-a3", "$4", "\\}", ";",
];

struct Gen(SplitMix64);

impl Gen {
    fn below(&mut self, n: usize) -> usize {
        (self.0.next() % n.max(1) as u64) as usize
    }
    fn chance(&mut self, in_: usize) -> bool {
        self.below(in_) == 0
    }
    fn comment(&mut self) -> Option<String> {
        if !self.chance(3) {
            return None;
        }
        let n = 1 + self.below(6);
        let text: String = (0..n).map(|_| PIECES[self.below(PIECES.len())]).collect();
        // Comments are kept trimmed; an empty one is none.
        let text = text.trim().to_string();
        (!text.is_empty()).then_some(text)
    }
    fn glyph(&mut self) -> Option<Glyph> {
        self.chance(3).then(|| Glyph::ALL[self.below(6)])
    }

    /// A line of up to `len` random legal moves from `game`'s position, with
    /// variations down to `depth` more levels.
    fn line(&mut self, game: &Game, len: usize, depth: usize) -> Vec<RecordMove> {
        let mut game = game.clone();
        let mut out = Vec::new();
        for _ in 0..len {
            let legal = game.legal_moves();
            if legal.is_empty() {
                break;
            }
            let m = legal[self.below(legal.len())];
            let v = game.variant().clone();
            let mut rm = RecordMove::new(v.move_to_string(m));
            rm.glyph = self.glyph();
            rm.comment = self.comment();
            if depth > 0 {
                for _ in 0..self.below(3) {
                    if self.chance(2) {
                        let l = 1 + self.below(4);
                        rm.variations.push(self.line(&game, l, depth - 1));
                    }
                }
            }
            assert!(game.play(m));
            out.push(rm);
        }
        out
    }
}

fn record_of(v: &Variant, seed: u64, plies: usize) -> (Record, Game) {
    let mut g = Gen(SplitMix64(seed));
    let start = Game::new(v);
    let moves = g.line(&start, plies, 3);
    let mut record = Record {
        variant: v.name().to_string(),
        comment: g.comment(),
        moves,
        ..Record::default()
    };
    if g.chance(2) {
        record.set_tag("Date", "2026.11.26");
        record.set_tag("Annotator", "a \"quoted\" \\ name");
    }
    // Sometimes the rules are embedded, under a name nobody shipped.
    let v = if g.chance(3) {
        let source = v.source().replacen(
            &format!("variant \"{}\"", v.name()),
            "variant \"homebrew\"",
            1,
        );
        let custom = Variant::compile(&source).expect("a renamed variant compiles");
        record.variant = "homebrew".into();
        custom
    } else {
        v.clone()
    };
    record.embed_rules(&v);
    let game = record.replay(&v).expect("the line is legal");
    record.result = match game.record().result {
        Some(r) => Some(r),
        None if g.chance(2) && v.player_count() == 2 => {
            let winner = 1 - v.turn(game.position());
            // The side to move resigns, or its clock's flag falls.
            let reason = if g.chance(2) { RESIGNATION } else { TIME };
            Some(RecordResult {
                winner: Some(v.letter(winner)),
                reason: reason.into(),
                by: None,
                winner_seat: Some(game.seat_of(winner)),
            })
        }
        None if g.chance(2) => Some(RecordResult {
            winner: None,
            reason: "agreement".into(),
            by: None,
            winner_seat: None,
        }),
        None => None,
    };
    (record, game)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(48), ..ProptestConfig::default() })]

    #[test]
    fn a_record_written_and_read_is_the_same_game(variant in 0..BUILTIN.len(), seed in any::<u64>(), plies in 0usize..40) {
        let v = Variant::compile(BUILTIN[variant].1).expect("shipped variant compiles");
        let (record, game) = record_of(&v, seed, plies);
        let played = if record.rules.is_some() {
            Variant::compile(record.rules.as_deref().unwrap()).unwrap()
        } else {
            v.clone()
        };
        let text = record.write(&played);
        let (back, variant) = read(&text, None)
            .map_err(|d| TestCaseError::fail(format!("{text}\n{}", render_all(&d, "written.mgr", &text))))?;
        prop_assert_eq!(&back, &record, "{}", text);
        prop_assert_eq!(variant.name(), played.name());
        let again = back.replay(&variant).unwrap();
        prop_assert_eq!(again.moves(), game.moves());
        prop_assert_eq!(again.position(), game.position());
        // Written twice, the same text.
        prop_assert_eq!(back.write(&variant), text);
    }
}
