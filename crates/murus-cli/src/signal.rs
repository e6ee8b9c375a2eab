//! Ctrl-C, SIGTERM and SIGHUP: one handler for the whole command line.
//!
//! A cluster stops a job with SIGTERM (Slurm's time limit, `scancel`,
//! preemption, a Kubernetes eviction), a closed terminal sends SIGHUP, a
//! user presses Ctrl-C (SIGINT). A long command (a lab run, a balance
//! check, a sweep, training, mural generation) asks for [`stop`] before it
//! starts: its work stops at its next check of the flag, its finished work
//! is kept (and on disk), its report is written marked interrupted, and it
//! exits with [`INTERRUPTED`]. A second signal ends the process at once,
//! with the same code: what a run finished is on disk already.
//!
//! The handler is installed once per process, by the first call of
//! [`stop`], and only by commands that look at the flag: a command that
//! does not (a deep `perft`, `ugi`) is ended by Ctrl-C as usual.

use std::process::ExitCode;
use std::sync::OnceLock;

use murus_engine::job::Cancel;

/// The exit code of a command stopped by Ctrl-C, SIGTERM or SIGHUP: 130
/// (128 + SIGINT, as shells report Ctrl-C) whichever signal it was, so that
/// scripts test one code for "stopped, finished work kept".
pub const INTERRUPTED: u8 = 130;

/// The exit code of a command stopped by a signal.
pub fn interrupted() -> ExitCode {
    ExitCode::from(INTERRUPTED)
}

/// The flag the signals set, shared by everything that asks for it.
static STOP: OnceLock<Cancel> = OnceLock::new();

/// The cancel flag that Ctrl-C, SIGTERM and SIGHUP set; the first call
/// installs the handler. The work that polls it stops at its own pace.
pub fn stop() -> Cancel {
    STOP.get_or_init(|| {
        let cancel = Cancel::new();
        let on_signal = cancel.clone();
        let installed = ctrlc::set_handler(move || {
            if on_signal.is_cancelled() {
                // The second signal: the user (or the scheduler) insists.
                std::process::exit(i32::from(INTERRUPTED));
            }
            on_signal.cancel();
        });
        if let Err(e) = installed {
            eprintln!("warning: a signal will end the process at once: {e}");
        }
        cancel
    })
    .clone()
}
