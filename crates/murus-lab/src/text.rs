//! Figures in words, as every front end shows them: shares as
//! percentages with one decimal, counts with their thousands set apart.

/// A share as a percentage with one decimal: `52.3%`.
pub fn percent(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
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
    }
}
