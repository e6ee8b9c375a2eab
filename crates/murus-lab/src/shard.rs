//! Shard `K/N` of a run ([`Shard`]), at the path it had before the report
//! types had a crate of their own (`murus_report::shard`).

pub use murus_report::shard::Shard;
