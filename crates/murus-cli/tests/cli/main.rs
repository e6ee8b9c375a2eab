//! The `murus` command line, driven through the real binary: one test
//! binary (it links once), one module a subject, and the helpers they
//! share in `util`.

mod util;

mod analyze;
mod balance;
mod basics;
mod bench_serve;
mod bots;
mod check_params;
mod cluster;
mod diagram;
mod lab;
mod mural;
mod record;
mod report;
mod run_options;
mod serve;
mod serve_export;
mod serve_export_run;
mod sheet;
mod solve;
mod sweep;
mod train;
mod ugi;
