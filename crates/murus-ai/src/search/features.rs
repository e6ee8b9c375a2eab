//! The parts of the search that can be turned off one at a time.

/// The parts of the search that can be turned off one at a time, to measure
/// what each is worth (`docs/ai.md`, and the UGI option `ablate`). All are
/// on by default.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SearchFeatures {
    /// Late-move reductions: quiet moves late in the order are searched
    /// less deep first, and again at full depth only if they look good.
    pub lmr: bool,
    /// History ordering: quiet moves that caused cut-offs elsewhere in the
    /// tree are tried earlier.
    pub history: bool,
    /// Breakthrough threats: a side that can break through at once wins
    /// (no search below), and a node on the horizon whose opponent
    /// threatens to break through is searched one ply further, so that the
    /// threat is parried or seen to win.
    pub threats: bool,
    /// Reverse futility pruning: a node near the horizon whose static
    /// value beats beta by a margin per ply returns it without a search.
    pub rfp: bool,
    /// A bonus for the side to move in the evaluation.
    pub tempo: bool,
}

impl SearchFeatures {
    /// Every feature on: the default search.
    pub const ALL: SearchFeatures = SearchFeatures {
        lmr: true,
        history: true,
        threats: true,
        rfp: true,
        tempo: true,
    };
    /// The features' names, as `ablate` takes them.
    pub const NAMES: [&'static str; 5] = ["lmr", "history", "threats", "rfp", "tempo"];

    /// Every feature but those named in `off`, a comma-separated list of
    /// [`SearchFeatures::NAMES`] (empty or `none`: every feature).
    pub fn without(off: &str) -> Result<SearchFeatures, String> {
        let mut f = SearchFeatures::ALL;
        for name in off.split(',').map(str::trim).filter(|w| !w.is_empty()) {
            match name {
                "none" => {}
                "lmr" => f.lmr = false,
                "history" => f.history = false,
                "threats" => f.threats = false,
                "rfp" => f.rfp = false,
                "tempo" => f.tempo = false,
                other => {
                    return Err(format!(
                        "unknown search feature `{other}`: expected a comma-separated list of {}",
                        SearchFeatures::NAMES.join(", ")
                    ));
                }
            }
        }
        Ok(f)
    }
}

impl Default for SearchFeatures {
    fn default() -> Self {
        SearchFeatures::ALL
    }
}
