use murus_dsl::geometry::Geometry;
use murus_dsl::rules::*;
use murus_engine::Engine;
use std::sync::Arc;
use std::time::Instant;

fn main() {
    let advanced = std::env::args().nth(1).as_deref() == Some("adv");
    let g = Geometry::rect(8, 7).unwrap();
    let all: Vec<usize> = (0..8).collect();
    let limit = if advanced { 3 } else { 2 };
    let win = WinRules {
        breakthrough: Some(Breakthrough {
            timing: Timing::Immediate,
            by_sow: true,
            by_throw: true,
            min_height: 1,
            count: 1,
        }),
        stalemate: Stalemate::Loses,
        occupation: None,
        reduced: None,
        capture: None,
    };
    let players = vec![
        PlayerRules {
            name: "Romans".into(),
            letter: 'r',
            colour: 0,
            home: g.rank(1),
            forward: 0,
            stack_limit: limit,
            win: win.clone(),
        },
        PlayerRules {
            name: "Gauls".into(),
            letter: 'g',
            colour: 0,
            home: g.rank(7),
            forward: 4,
            stack_limit: limit,
            win,
        },
    ];
    let mut setup = vec![];
    for s in g.rank(1) {
        setup.push((s, 0, 2));
    }
    for s in g.rank(7) {
        setup.push((s, 1, 2));
    }
    let mut sacrifices = vec![SacrificeRule {
        attacker: 2,
        target: 1,
        lose: 1,
        remove: 1,
        directions: vec![all.clone(), all.clone()],
    }];
    let mut catapults = Vec::new();
    if advanced {
        sacrifices.push(SacrificeRule {
            attacker: 2,
            target: 3,
            lose: 1,
            remove: 1,
            directions: vec![all.clone(), all.clone()],
        });
        sacrifices.push(SacrificeRule {
            attacker: 2,
            target: 3,
            lose: 2,
            remove: 2,
            directions: vec![all.clone(), all.clone()],
        });
        catapults.push(CatapultRule {
            height: 3,
            directions: vec![vec![6, 7, 0, 1, 2], vec![2, 3, 4, 5, 6]],
            ranges: vec![2, 3],
            onto_empty: true,
            onto_enemy: vec![1, 2, 3],
            wall_on_empty: true,
            hit_removes: 1,
        });
    }
    let rules = Rules {
        name: "standard".into(),
        title: "x".into(),
        geometry: g,
        players,
        turn_order: None,
        setup,
        stack_limit: limit,
        sow: vec![SowRule {
            heights: vec![2],
            directions: vec![all.clone(), all.clone()],
            onto_empty: true,
            onto_own: if advanced { vec![1, 2] } else { vec![1] },
            onto_enemy: Vec::new(),
            on_enemy: SowCapture::Capture,
        }],
        sacrifices,
        catapults,
        steps: Vec::new(),
        draw: DrawRules::default(),
        adjudicate: None,
        opening: Opening::None,
        about: Default::default(),
    };
    let e: Engine<u64> = Engine::new(Arc::new(rules));
    let start = e.start();
    for d in 1..=6 {
        let t = Instant::now();
        let n = e.perft(&start, d);
        let s = t.elapsed().as_secs_f64();
        println!("perft {d} {n} {s:.3}s {:.1} Mnps", n as f64 / s / 1e6);
    }
}
