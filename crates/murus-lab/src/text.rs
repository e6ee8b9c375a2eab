//! Figures in words, as every front end shows them, at the path they had
//! before the report types had a crate of their own (`murus_report::text`).

pub use murus_report::text::{grouped, interval, percent, percent_interval, reason_words};
