//! Valid rule files made from a seed, for property tests over variants
//! nobody shipped: square or hex boards of several sizes, two to four
//! players, stack limits 2 to 4, sowing of one or two heights (sometimes
//! onto enemy stacks, capturing them or removing stones), sacrifices
//! on or off, catapults on or off (ranges, targets, what a landing does;
//! sometimes a second catapult, sideways or of another height),
//! breakthroughs immediate or delayed and by sowing, throwing or both, or
//! none at all, occupation and reduction (two players on a rectangle),
//! turn orders that repeat players or have a first round,
//! stalemate that loses or draws, adjudication at the ply cap (by stones,
//! towers or stacks on a rank), a win by taking a few enemy stones
//! (`capture N stones`), step vectors (`(1, 2) mirrored`) on rectangles and hex boards,
//! and the pie rule; and rules of one
//! player's own (`for g`, `for r`): a lower stack limit, another sowing,
//! other sacrifices or none, catapults for one side, other win rules.

/// A small generator (xorshift), so that a file depends on its seed alone.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// A number in `low..=high`.
    fn range(&mut self, low: u32, high: u32) -> u32 {
        low + (self.next() % u64::from(high - low + 1)) as u32
    }
    /// True with probability `percent` / 100.
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

/// One player of a generated file: its letter, home and setup cells, and
/// the direction it faces (towards the board's middle).
struct Seat {
    letter: char,
    home: String,
    setup: String,
    forward: &'static str,
}

/// The seats of `players` players: on a rectangle of `w` files and `h`
/// ranks, the south and north ranks, then the west and east files (corners
/// left to nobody when the sides meet); on a hexagon, its south and north
/// edges, or three edges apart.
fn seats(hex: bool, players: u32, w: u32, h: u32) -> Vec<Seat> {
    let last = (b'a' + w as u8 - 1) as char;
    let seat = |letter, cells: String, forward| Seat {
        letter,
        home: cells.clone(),
        setup: cells,
        forward,
    };
    if hex {
        return match players {
            2 => vec![
                seat('r', "edge s".into(), "ne"),
                seat('g', "edge n".into(), "sw"),
            ],
            _ => vec![
                seat('r', "edge s".into(), "ne"),
                seat('g', "edge ne".into(), "w"),
                seat('b', "edge nw".into(), "se"),
            ],
        };
    }
    if players == 2 {
        return vec![
            seat('r', "rank 1".into(), "n"),
            seat('g', format!("rank {h}"), "s"),
        ];
    }
    let ranks = |r: u32| format!("rank {r} - file a - file {last}");
    let files = |f: char| format!("file {f} - rank 1 - rank {h}");
    let mut out = vec![
        seat('r', ranks(1), "n"),
        seat('b', files('a'), "e"),
        seat('g', ranks(h), "s"),
    ];
    if players == 4 {
        out.push(seat('h', files(last), "w"));
    }
    out
}

/// A valid rule file, different for each seed.
pub fn rule_file(seed: u64) -> String {
    let mut rng = Rng(seed | 1);
    for _ in 0..4 {
        rng.next();
    }
    let hex = rng.chance(25);
    let players = if hex {
        rng.range(2, 3)
    } else {
        rng.range(2, 4)
    };
    let (w, h, board) = if hex {
        let side = rng.range(3, 5);
        (2 * side - 1, 2 * side - 1, format!("board hex {side}"))
    } else {
        let w = rng.range(if players > 2 { 5 } else { 3 }, 9);
        let h = rng.range(if players > 2 { 5 } else { 4 }, 9);
        (w, h, format!("board rect {w} x {h}"))
    };
    let limit = rng.range(2, 4);
    let catapult = limit >= 3 && rng.chance(60);
    // Sometimes only the first player has the catapults (the others then
    // reach homes by sowing only).
    let catapult_for_r = catapult && rng.chance(30);
    let mut text = format!("variant \"generated-{seed:x}\"\n{board}\n");
    let seats = seats(hex, players, w, h);
    for (i, s) in seats.iter().enumerate() {
        text += &format!(
            "player \"P{i}\" {{ letter {} colour \"#123456\" home {} forward {} }}\n",
            s.letter, s.home, s.forward
        );
    }
    // Sometimes a turn order that repeats players, or has a first round.
    if rng.chance(25) {
        let order = match players {
            2 => ["r g g r", "r then g g r r", "r g r"][rng.range(0, 2) as usize],
            3 => ["r b g g b r", "r then b g g r b"][rng.range(0, 1) as usize],
            _ => "r b g h h g b r",
        };
        text += &format!("turns {order}\n");
    }
    text += "setup {\n";
    for s in &seats {
        text += &format!("    {} 2 on {}\n", s.letter, s.setup);
    }
    text += &format!("}}\nstack limit {limit}\n");
    // Sometimes the second player's stacks stay lower: sowing onto its own
    // stacks stops at its limit (and it has no catapult of that height).
    if limit >= 3 && (!catapult || catapult_for_r) && rng.chance(30) {
        text += &format!("stack limit {} for g\n", rng.range(2, limit - 1));
    }
    // Sowing: towers always; taller stacks sometimes.
    let mut heights = vec![2];
    if limit >= 3 && !catapult && rng.chance(30) {
        heights.push(3);
    }
    let mut onto = vec!["empty".to_string()];
    for k in 1..limit {
        if k == 1 || rng.chance(50) {
            onto.push(format!("own {k}"));
        }
    }
    // Sometimes sowing captures: onto enemy walls (or any enemy stack),
    // taking them or removing stones with the sown one.
    let mut sow_landing = String::new();
    if rng.chance(25) {
        onto.push(
            if rng.chance(50) {
                "enemy 1"
            } else {
                "enemy any"
            }
            .to_string(),
        );
        if rng.chance(50) {
            sow_landing = format!(" on enemy: remove {}", rng.range(1, limit));
        } else if rng.chance(50) {
            sow_landing = " on enemy: capture".to_string();
        }
    }
    let directions = if rng.chance(70) {
        "all"
    } else if hex {
        "forward, forward-left, forward-right"
    } else {
        "forward, forward-left, forward-right, left, right"
    };
    text += &format!(
        "sow {{ heights {} directions {directions}{SOW_STEP} onto {}{sow_landing} }}\n",
        heights
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(", "),
        onto.join(", ")
    );
    // Sometimes the second player sows only forward, onto empty cells and
    // own walls.
    if rng.chance(25) {
        text += "sow for g { heights 2 directions forward, forward-left, forward-right \
                 onto empty, own 1 }\n";
    }
    // Sometimes the second player sacrifices only forward, or not at all.
    if rng.chance(20) {
        text += if rng.chance(50) {
            "sacrifice for g { }\n"
        } else {
            "sacrifice for g { directions forward, forward-left, forward-right \
             2 against 1: lose 1, remove 1 }\n"
        };
    }
    if rng.chance(75) {
        text += &format!(
            "sacrifice {{\n    directions all{SACRIFICE_STEP}\n    2 against 1: lose 1, remove 1\n"
        );
        if limit >= 3 && rng.chance(50) {
            text += &format!("    2 against {limit}: lose 1, remove 1\n");
        }
        text += &format!("{SACRIFICE}}}\n");
    }
    let mut wall = true;
    if catapult {
        let ranges: Vec<String> = (1..=3)
            .filter(|_| rng.chance(60))
            .map(|r| r.to_string())
            .collect();
        let ranges = if ranges.is_empty() {
            "2".to_string()
        } else {
            ranges.join(", ")
        };
        // A second catapult needs throws of its own: the first then
        // throws only forward (and the second sideways, or is shorter).
        let second = rng.chance(40);
        let directions = if hex || second {
            "forward, forward-left, forward-right"
        } else if rng.chance(50) {
            "left, forward-left, forward, forward-right, right"
        } else {
            "all"
        };
        let targets = if rng.chance(70) {
            "empty, enemy any"
        } else {
            "empty"
        };
        wall = rng.chance(80);
        let whose = if catapult_for_r { " for r" } else { "" };
        text += &format!(
            "catapult{whose} {{ height {limit} directions {directions}{CATAPULT_STEP} range {ranges} onto {targets} \
             on empty: {} on enemy: remove {} }}\n",
            if wall { "wall" } else { "lost" },
            rng.range(1, limit)
        );
        if second {
            // Another height throws anywhere; the same height throws
            // where the first does not.
            let (height, directions) = if limit == 4 && rng.chance(50) {
                (3, "all")
            } else if hex {
                (limit, "back-left, back, back-right")
            } else {
                (limit, "left, right")
            };
            let own_wall = rng.chance(70);
            text += &format!(
                "catapult{whose} {{ height {height} directions {directions} range {} onto {} \
                 on empty: {} on enemy: remove {} }}\n",
                rng.range(1, 2),
                if rng.chance(50) {
                    "empty, enemy 1"
                } else {
                    "empty, enemy any"
                },
                if own_wall { "wall" } else { "lost" },
                rng.range(1, limit)
            );
        }
    }
    // Sometimes only a tower (or taller) breaks through, or only two or
    // three stones on opponents' homes at once.
    let tall = match rng.range(0, 9) {
        0 | 1 => "height 2 ",
        2 => "count 2 ",
        3 => "height 2 count 3 ",
        _ => "",
    };
    let breakthrough = match rng.range(0, 5) {
        0 => String::new(),
        1 => format!("breakthrough delayed {tall}"),
        _ => {
            let by = match (catapult && wall && !catapult_for_r, rng.range(0, 2)) {
                (true, 0) => "by sow, throw",
                (true, 1) => "by throw",
                _ => "by sow",
            };
            format!("breakthrough immediate {by} {tall}")
        }
    };
    let stalemate = if rng.chance(80) { "loses" } else { "draws" };
    // Two-player rectangles sometimes win by occupying the middle rank or
    // lose by running short of stones or towers.
    let mut more = String::new();
    if players == 2 && !hex {
        if rng.chance(30) {
            more += &format!("occupy rank {} count {} ", h / 2 + 1, rng.range(1, w));
        }
        if rng.chance(30) {
            more += &if rng.chance(50) {
                format!("reduced to {} stones ", rng.range(1, 2 * w - 1))
            } else {
                format!("reduced to {} towers ", rng.range(0, w - 1))
            };
        }
    }
    text += &format!("win {{ {breakthrough}{more}{CAPTURE}stalemate {stalemate} }}\n");
    // Sometimes the second player wins by other rules: another
    // breakthrough (by sowing, or none), another stalemate, a reduction.
    if rng.chance(30) {
        let breakthrough = match rng.range(0, 2) {
            0 => String::new(),
            1 => format!("breakthrough delayed {tall}"),
            _ => "breakthrough immediate by sow ".to_string(),
        };
        let reduced = if players == 2 && !hex && rng.chance(40) {
            format!("reduced to {} stones ", rng.range(1, w))
        } else {
            String::new()
        };
        let stalemate = if rng.chance(50) { "loses" } else { "draws" };
        text += &format!("win for g {{ {breakthrough}{reduced}stalemate {stalemate} }}\n");
    }
    text += &format!(
        "draw {{ repetition 3 plies {}{ADJUDICATE} }}\n",
        rng.range(40, 200)
    );
    if players == 2 && !hex && rng.chance(20) {
        text += &format!(
            "opening pie {{ r from rank 1 to rank 2 g from rank {h} to rank {} }}\n",
            h - 1
        );
    }
    // Sometimes a game at the ply cap goes to the player with the most
    // stones, towers or stacks on the middle rank, or to the second player
    // (drawn last, so that the files before it stay as they were).
    let adjudicate = match rng.range(0, 9) {
        0 => " adjudicate by stones",
        1 => " adjudicate by towers",
        2 if !hex => &format!(" adjudicate by stacks on rank {}", h / 2 + 1),
        3 => " adjudicate for g",
        _ => "",
    };
    // Sometimes taking a few enemy stones wins.
    let capture = match rng.range(0, 5) {
        0 => format!("capture {} stones ", rng.range(1, 6)),
        _ => String::new(),
    };
    // Sometimes a tower takes a whole enemy tower.
    let tower = if limit >= 3 && rng.chance(50) {
        "    2 against 2: lose 1, remove 2\n"
    } else {
        ""
    };
    // Sometimes the sowing, throws and sacrifices also go along step
    // vectors: a knight's leaps, or two of them (on `all`, written out, so
    // that the steps can follow); on a hex board a knight's (`(1, 2)`, 12
    // leaps) or the leap between two neighbouring directions (`(1, 1)`).
    let steps = rng.chance(30);
    let (a, b) = match (hex, rng.chance(50)) {
        (false, true) => (1, 2),
        (false, false) => (2, 1),
        (true, true) => (1, 2),
        (true, false) => (1, 1),
    };
    // The mirror image in the forward line: `(-a, b)` on a rectangle,
    // `(-a, a + b)` on a hex board, whose axes are 60° apart.
    let mirror = if hex { (-a, a + b) } else { (-a, b) };
    let sow_step = match (steps, rng.chance(50)) {
        (false, _) => String::new(),
        (true, true) => format!(", ({a}, {b}) mirrored"),
        (true, false) => format!(", ({a}, {b}), ({}, {})", mirror.0, mirror.1),
    };
    let one_step = |on: bool| match on {
        true => format!(", ({a}, {b})"),
        false => String::new(),
    };
    let catapult_step = one_step(steps && rng.chance(50));
    let sacrifice_step = one_step(steps && rng.chance(50));
    let mut text = text
        .replacen(ADJUDICATE, adjudicate, 1)
        .replacen(CAPTURE, &capture, 1)
        .replacen(SACRIFICE, tower, 1);
    for (mark, step) in [
        (SOW_STEP, sow_step),
        (CATAPULT_STEP, catapult_step),
        (SACRIFICE_STEP, sacrifice_step),
    ] {
        if !step.is_empty() {
            let every = if hex { EVERY_HEX } else { EVERY };
            text = text.replacen(&format!("all{mark}"), &format!("{every}{mark}"), 1);
        }
        text = text.replacen(mark, &step, 1);
    }
    text
}

/// `all` on a rectangle, written out.
const EVERY: &str = "n, ne, e, se, s, sw, w, nw";
/// `all` on a hex board, written out.
const EVERY_HEX: &str = "ne, e, se, sw, w, nw";
/// Where the step vectors of the sowing, the first catapult and the
/// shared sacrifice go, once drawn.
const SOW_STEP: &str = "@sow-step@";
const CATAPULT_STEP: &str = "@catapult-step@";
const SACRIFICE_STEP: &str = "@sacrifice-step@";

/// Where the shared `sacrifice` block's last line goes, once it is drawn.
const SACRIFICE: &str = "@sacrifice@";

/// Where the shared `win` block's `capture` goes, once it is drawn.
const CAPTURE: &str = "@capture@";

/// Where the `draw` block's `adjudicate` goes, once it is drawn.
const ADJUDICATE: &str = "@adjudicate@";
