//! `murus ugi`: the engine protocol on stdin and stdout.

use std::io;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;

use crate::load::load_variant;

/// `murus ugi`'s arguments.
#[derive(Args)]
pub struct UgiArgs {
    /// The variant to start on (`setoption name variant` changes it).
    #[arg(default_value = "standard")]
    pub variant: String,
}

/// `murus ugi`: serves the protocol until `quit` or the end of stdin. Its
/// answers are the protocol's lines, written as they come (the search
/// thread writes too), not one value at the end; a rule file's diagnostics
/// go to stderr.
pub fn ugi(a: &UgiArgs) -> Result<ExitCode> {
    let v = load_variant(&a.variant)?;
    let load = Box::new(|spec: &str| load_variant(spec).map_err(|e| format!("{e:#}")));
    let server = murus_ai::ugi::Server::new(v, load, Box::new(io::stderr()));
    server.serve(io::stdin().lock(), io::stdout())?;
    Ok(ExitCode::SUCCESS)
}
