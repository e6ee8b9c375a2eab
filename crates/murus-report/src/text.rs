//! Figures in words, as every front end shows them: shares as
//! percentages with one decimal, counts with their thousands set apart,
//! and intervals in one notation, `[lo, hi]` after the figure (`61.3%
//! [56.4, 65.9]`, `+80 [+21, +142]` Elo), the bounds written as the
//! figure is.

use std::fmt::Display;

/// A share as a percentage with one decimal: `52.3%`.
pub fn percent(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

/// An interval of bounds already written: `[56.4, 65.9]`, `[+21, +142]`.
pub fn interval(lo: impl Display, hi: impl Display) -> String {
    format!("[{lo}, {hi}]")
}

/// A share and its 95% interval: `61.3% [56.4, 65.9]` (the bounds as
/// percentages with one decimal, the sign written once).
pub fn percent_interval(rate: f64, ci: [f64; 2]) -> String {
    format!(
        "{} {}",
        percent(rate),
        interval(
            format!("{:.1}", ci[0] * 100.0),
            format!("{:.1}", ci[1] * 100.0)
        )
    )
}

/// A count with its thousands set apart: `12 345`.
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(' ');
        }
        out.push(c);
    }
    out
}

/// An end reason's key (`breakthrough-sow`, or a reason's own word such as
/// `reduced`) in words: "breakthrough by sowing", "reduction"; the endings
/// people give read "resignation", "a draw agreed", "the clock" (a loss on
/// time: "Romans won by the clock").
pub fn reason_words(key: &str) -> &str {
    match key {
        "breakthrough-sow" => "breakthrough by sowing",
        "breakthrough-throw" => "breakthrough by a throw",
        "breakthrough-delayed" => "delayed breakthrough",
        "ply-cap" => "the ply cap",
        "reduced" => "reduction",
        // The endings people give (games of the playtest server).
        "agreement" => "a draw agreed",
        "time" => "the clock",
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_grouped_by_thousands_and_shares_have_one_decimal() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1234), "1 234");
        assert_eq!(grouped(1_000_000), "1 000 000");
        assert_eq!(percent(0.5234), "52.3%");
        assert_eq!(
            percent_interval(0.613, [0.5641, 0.659]),
            "61.3% [56.4, 65.9]"
        );
        assert_eq!(interval("+21", "+142"), "[+21, +142]");
    }

    #[test]
    fn end_reasons_read_as_nouns() {
        // "Gauls won by reduction", never "won by reduced".
        assert_eq!(reason_words("reduced"), "reduction");
        assert_eq!(reason_words("ply-cap"), "the ply cap");
        assert_eq!(reason_words("breakthrough"), "breakthrough");
        assert_eq!(reason_words("resignation"), "resignation");
        assert_eq!(reason_words("agreement"), "a draw agreed");
        assert_eq!(reason_words("time"), "the clock");
    }
}
