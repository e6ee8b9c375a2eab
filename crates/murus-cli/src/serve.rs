//! `murus serve`: the playtest server (murus-serve) on an address, over a
//! data folder, serving the shipped variants and the rules files given.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;

use crate::load::load_variant;

/// `murus serve`'s arguments.
#[derive(Args)]
pub struct ServeArgs {
    /// Variants to serve besides the shipped ones: names or rules files.
    pub variants: Vec<String>,
    /// The address to listen on; loopback unless told otherwise (port 0:
    /// any free port, printed).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// The folder of the games' database (made if missing).
    #[arg(long, default_value = "murus-playtest")]
    pub data: PathBuf,
    /// A password for the designer's page and calls (the page, uploading
    /// rules, making games), asked by the browser (HTTP Basic, any user
    /// name); players and spectators need none. Without it, the page is
    /// open to whoever reaches the address.
    #[arg(long, value_name = "PASS")]
    pub password: Option<String>,
    /// Write every game of rules version KEY (a rules key or a variant's
    /// name) kept in --data to FILE as one `.mgn` collection, and exit
    /// without serving.
    #[arg(long, num_args = 2, value_names = ["KEY", "FILE"], conflicts_with = "export_run")]
    pub export_mgn: Option<Vec<String>>,
    /// Write the finished games of rules version KEY kept in --data to
    /// OUT_DIR as a lab run folder (run.json, games.jsonl, the reports),
    /// which `murus lab merge` reads, and exit without serving.
    #[arg(long, num_args = 2, value_names = ["KEY", "OUT_DIR"])]
    pub export_run: Option<Vec<String>>,
    /// With --export-mgn: replace FILE if it exists; with --export-run:
    /// replace the run OUT_DIR holds.
    #[arg(long)]
    pub force: bool,
}

/// Serves until Ctrl-C (or SIGTERM).
pub fn serve(a: &ServeArgs) -> Result<ExitCode> {
    if a.password.as_deref().is_some_and(|p| p.trim().is_empty()) {
        anyhow::bail!("--password is empty: give a password, or leave --password out");
    }
    let mut server = murus_serve::Server::open(&a.data)?;
    if let Some(p) = &a.password {
        server = server.with_password(p);
    }
    server.add_shipped()?;
    let mut names = Vec::new();
    for spec in &a.variants {
        let v = load_variant(spec)?;
        names.push(v.name().to_string());
        server.add(v)?;
    }
    if let Some([key, file]) = a.export_mgn.as_deref() {
        return export_mgn(&server, key, std::path::Path::new(file), a.force);
    }
    if let Some([key, dir]) = a.export_run.as_deref() {
        let dir = std::path::Path::new(dir);
        let games = server
            .export_run(key, dir, a.force)
            .with_context(|| format!("--export-run {key}"))?;
        eprintln!(
            "wrote a run folder of {games} finished game{} to {}",
            if games == 1 { "" } else { "s" },
            dir.display()
        );
        return Ok(ExitCode::SUCCESS);
    }
    if a.force {
        anyhow::bail!("--force goes with --export-mgn or --export-run");
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the server's runtime")?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(a.addr)
            .await
            .with_context(|| format!("cannot listen on {}", a.addr))?;
        let addr = listener.local_addr().context("the address listened on")?;
        server.resume_bots()?;
        let extra = if names.is_empty() {
            String::new()
        } else {
            format!(" and {}", names.join(", "))
        };
        let guarded = if a.password.is_some() {
            "; the designer's page needs the password"
        } else {
            ""
        };
        println!(
            "murus serve: http://{addr}/ (the shipped variants{extra}; games kept in {}{guarded})",
            a.data.display()
        );
        use std::io::Write as _;
        let _ = std::io::stdout().flush();
        axum::serve(listener, server.router())
            .with_graceful_shutdown(stopped())
            .await
            .context("the server stopped")
    })?;
    Ok(ExitCode::SUCCESS)
}

/// `--export-mgn KEY FILE`: the games written, a line on stderr saying
/// how many.
fn export_mgn(
    server: &murus_serve::Server,
    key: &str,
    file: &std::path::Path,
    force: bool,
) -> Result<ExitCode> {
    if file.exists() && !force {
        anyhow::bail!("`{}` exists: give --force to replace it", file.display());
    }
    let (text, games) = server
        .export_mgn(key)
        .with_context(|| format!("--export-mgn {key}"))?;
    murus_engine::util::write_atomic(file, text.as_bytes())
        .with_context(|| format!("cannot write `{}`", file.display()))?;
    eprintln!(
        "wrote {games} game{} to {}",
        if games == 1 { "" } else { "s" },
        file.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// Resolves on Ctrl-C or SIGTERM.
async fn stopped() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = term => {}
    }
}
