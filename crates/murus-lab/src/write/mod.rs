//! The writers: the lab's reports as the text of their files, JSON
//! (`to_json`), CSV ([`report_csv`], [`balance_csv`], [`sweep_csv`]) and
//! SVG ([`svg`]). They read the report types ([`crate::report`]) and nothing
//! else of the lab; what plays games and keeps run folders writes their
//! texts to disk.

mod csv;
mod json;
pub mod svg;

pub use csv::{balance_csv, report_csv, sweep_csv};

use crate::report::{BalanceReport, Report, SweepReport};

/// The report files of a run of games: `report.json`, `report.csv` and
/// `report.svg`, each with its text.
pub fn report_files(report: &Report) -> [(&'static str, String); 3] {
    [
        ("report.json", report.to_json()),
        ("report.csv", report_csv(report)),
        ("report.svg", svg::report_svg(report)),
    ]
}

/// The files of a balance check: `balance.json`, `balance.svg` and
/// `balance.csv`, each with its text.
pub fn balance_files(report: &BalanceReport) -> [(&'static str, String); 3] {
    [
        ("balance.json", report.to_json()),
        ("balance.svg", svg::balance_svg(report)),
        ("balance.csv", balance_csv(report)),
    ]
}

/// The files of a sweep: `sweep.json`, `sweep.csv` and `sweep.svg`, each
/// with its text.
pub fn sweep_files(report: &SweepReport) -> [(&'static str, String); 3] {
    [
        ("sweep.json", report.to_json()),
        ("sweep.csv", sweep_csv(report)),
        ("sweep.svg", svg::sweep_svg(report)),
    ]
}
