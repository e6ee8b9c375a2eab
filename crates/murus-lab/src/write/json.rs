//! The reports as pretty JSON with a final newline (`report.json`,
//! `balance.json`, `sweep.json`).

use crate::report::{BalanceReport, Report, SweepReport};

impl Report {
    /// The report as pretty JSON with a final newline.
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).expect("a report serialises");
        s.push('\n');
        s
    }
}

impl BalanceReport {
    /// The report as pretty JSON with a final newline.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("reports serialise") + "\n"
    }
}

impl SweepReport {
    /// The report as pretty JSON with a final newline.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("sweep reports serialise") + "\n"
    }
}
