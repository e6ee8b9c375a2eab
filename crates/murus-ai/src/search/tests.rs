use super::*;
use murus_engine::{EngineTask, Position, Variant, Word};
use rand::SeedableRng;

/// The value a search finds in a standard position given as a string,
/// along a line that starts there under the given ply cap.
fn value(position: &str, ply_cap: Option<u32>) -> i32 {
    struct Task(Position, Option<u32>);
    impl EngineTask for Task {
        type Output = i32;
        fn run<B: Word>(self, e: &Engine<B>) -> i32 {
            let pos = B::unwrap(&self.0).expect("a standard position");
            let mut line = DrawTracker::new(e.rules().draw, pos.hash()).with_ply_cap(self.1);
            let table = Table::new(12);
            let mut s = Searcher::new(e, &table, &mut line, 100_000, &());
            s.run(pos, &mut SmallRng::seed_from_u64(1)).value
        }
    }
    let v = Variant::standard();
    let pos = v.parse_position(position).unwrap();
    v.run(Task(pos, ply_cap))
}

/// Standard game, Romans to move: b3-b5 sows onto the wall on b5 and
/// makes a tower there, which breaks through next move (north or
/// north-east); the Gauls' lone tower on h7 cannot block both. No move
/// wins at once: a win in three plies.
const WIN_IN_THREE: &str = "7g2/8/1r16/8/1r26/8/8 r";

#[test]
fn a_win_from_the_table_counts_its_plies_from_where_it_is_met() {
    struct Task(Position);
    impl EngineTask for Task {
        type Output = (i32, i32);
        fn run<B: Word>(self, e: &Engine<B>) -> (i32, i32) {
            let pos = B::unwrap(&self.0).expect("a standard position");
            let table = Table::new(12);
            let mut line = DrawTracker::new(e.rules().draw, pos.hash());
            let mut s = Searcher::new(e, &table, &mut line, u64::MAX, &());
            let root = s.run(pos, &mut SmallRng::seed_from_u64(1));
            // The same position two plies deeper, with the table the
            // first search filled: the win is two plies further away.
            let deeper = s.search(pos, 3, 2, -WIN - 1, WIN + 1, pos.turn());
            (root.value, deeper)
        }
    }
    let v = Variant::standard();
    let pos = v.parse_position(WIN_IN_THREE).unwrap();
    assert_eq!(v.run(Task(pos)), (WIN - 3, WIN - 5));
}

#[test]
fn the_ply_cap_is_a_draw_unless_the_rules_end_the_game_first() {
    assert_eq!(value(WIN_IN_THREE, None), WIN - 3);
    // The cap one or two plies away: the win comes too late, and every
    // line is a draw.
    assert_eq!(value(WIN_IN_THREE, Some(1)), 0);
    assert_eq!(value(WIN_IN_THREE, Some(2)), 0);
    // A breakthrough on the cap's own ply still wins: the rules' own
    // results come before the draws.
    assert_eq!(value(WIN_IN_THREE, Some(3)), WIN - 3);
    // The Romans break through at once (a5-a7).
    let win_in_one = "4g2g2g2g2/8/r27/8/8/8/2r25 r";
    assert_eq!(value(win_in_one, Some(1)), WIN - 1);
}
