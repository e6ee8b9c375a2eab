//! The rules-language text of a mural: its board statement, and a variant
//! whose moves are the mural's (stack limit 2, sowing onto empty cells and
//! own walls, sacrifice when allowed, no way to win), so that the rules
//! compiler reads mural boards and the engine replays mural moves.

/// Default display colours by colour index.
const PALETTE: [&str; 4] = ["#e8dcc0", "#5b3a29", "#3a6ea5", "#a53a3a"];

/// Turns `5x5` into `rect 5 x 5`; other text is the rules language's own
/// board statement, with or without the word `board`.
pub fn board_statement(text: &str) -> String {
    let t = text.trim();
    let t = t.strip_prefix("board").map_or(t, str::trim_start);
    if let Some((w, h)) = t.split_once(['x', 'X', '×']) {
        if let (Ok(w), Ok(h)) = (w.trim().parse::<u32>(), h.trim().parse::<u32>()) {
            return format!("rect {w} x {h}");
        }
    }
    t.to_string()
}

/// A rules-language source for a mural board with these colours: stack
/// limit 2, towers sow onto empty cells and own walls, optional sacrifice,
/// and no way to win, so the engine can replay a mural's moves.
pub fn rules_source(board: &str, colours: &[char], sacrifice: bool) -> String {
    let statement = board_statement(board);
    let hex = statement.starts_with("hex");
    let forward = if hex { "ne" } else { "n" };
    let mut s = format!("variant \"mural\"\ntitle \"Mural\"\nboard {statement}\n");
    // The language wants two players at least: pad with an idle one.
    let mut colours = colours.to_vec();
    if colours.len() < 2 {
        let spare = ['z', 'y']
            .into_iter()
            .find(|c| !colours.contains(c))
            .unwrap_or('x');
        colours.push(spare);
    }
    for (i, c) in colours.iter().enumerate() {
        s.push_str(&format!(
            "player \"{c}\" {{ letter {c} colour \"{}\" home all forward {forward} }}\n",
            PALETTE[i % PALETTE.len()]
        ));
    }
    if let Some(c) = colours.first() {
        // Towers on every cell: no mural holds more stones, so the engine
        // never finds a position with stones the setup did not give.
        s.push_str(&format!("setup {{ {c} 2 on all }}\n"));
    }
    s.push_str("stack limit 2\nsow { heights 2 directions all onto empty, own 1 }\n");
    if sacrifice {
        s.push_str("sacrifice { directions all 2 against 1: lose 1, remove 1 }\n");
    }
    s.push_str("win { stalemate draws }\n");
    s
}
