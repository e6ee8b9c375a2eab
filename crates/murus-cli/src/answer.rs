//! One printer for every subcommand's answer, as text or as JSON, and one
//! path for errors to stderr and the exit code.
//!
//! A subcommand is a function that returns its answer, a value implementing
//! [`Answer`]; [`print`] writes it to stdout in the format asked for, its
//! notes to stderr, and hands back the exit code the answer calls for. An
//! error goes up to `main` and [`fail`] instead. Diagnostics of bad input
//! (rules, puzzles, books) go to stderr where they are found, rendered like
//! rustc's, before the error that ends the command.

use std::io::{self, Write};
use std::process::ExitCode;

use anyhow::Result;
use serde::Serialize;

/// What a subcommand hands back: printed as text for people, as JSON for
/// programs (with the keys in alphabetical order), with notes for stderr
/// and an exit code of its own.
pub trait Answer: Serialize {
    /// Writes the answer as text.
    fn text(&self, out: &mut dyn Write) -> io::Result<()>;

    /// Writes the answer as JSON: one object on one line, unless the
    /// answer is written another way (one line an item, pretty-printed).
    fn json(&self, out: &mut dyn Write) -> io::Result<()> {
        json_line(self, out)
    }

    /// What goes to stderr beside the answer (a timing, a note), whole
    /// lines ending with a newline; nothing by default.
    fn notes(&self) -> String {
        String::new()
    }

    /// How the process ends after this answer: success, unless the answer
    /// reports a failure of its own (a file with errors, a verdict not
    /// proven within its budget).
    fn exit_code(&self) -> ExitCode {
        ExitCode::SUCCESS
    }
}

/// How an answer is printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// For people.
    Text,
    /// For programs (`--json`).
    Json,
}

impl Format {
    /// JSON when `json` (the subcommand's `--json` flag) is set, else text.
    pub fn json_if(json: bool) -> Format {
        if json { Format::Json } else { Format::Text }
    }
}

/// Prints `answer` on `out` in `format`, its notes on stderr, and returns
/// the exit code it calls for.
pub fn print<A: Answer>(answer: &A, format: Format, out: &mut impl Write) -> Result<ExitCode> {
    match format {
        Format::Text => answer.text(out)?,
        Format::Json => answer.json(out)?,
    }
    out.flush()?;
    eprint!("{}", answer.notes());
    Ok(answer.exit_code())
}

/// Writes `value` as JSON on one line, its keys in alphabetical order.
pub fn json_line<T: Serialize + ?Sized>(value: &T, out: &mut dyn Write) -> io::Result<()> {
    let value = serde_json::to_value(value)?;
    writeln!(out, "{value}")
}

/// Writes `value` as indented JSON, its keys in alphabetical order.
pub fn json_pretty<T: Serialize + ?Sized>(value: &T, out: &mut dyn Write) -> io::Result<()> {
    let value = serde_json::to_value(value)?;
    writeln!(out, "{}", serde_json::to_string_pretty(&value)?)
}

/// Serialises an optional value as the text it displays as, or `null`.
pub fn as_text_or_null<T: std::fmt::Display, S: serde::Serializer>(
    value: &Option<T>,
    s: S,
) -> std::result::Result<S::Ok, S::Error> {
    match value {
        Some(v) => s.collect_str(v),
        None => s.serialize_none(),
    }
}

/// The exit code of a command that failed with `e`, after saying why on
/// stderr. A closed pipe (`murus moves … | head -1`) is not a failure.
pub fn fail(e: &anyhow::Error) -> ExitCode {
    let closed_pipe = e.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    });
    if closed_pipe {
        return ExitCode::SUCCESS;
    }
    eprintln!("error: {}", message(e));
    ExitCode::FAILURE
}

/// The error and its causes, `: ` between them, each said once: a cause
/// that the text before already ends with (`a.json: No such file or
/// directory`, whose cause is the OS error) is not repeated.
fn message(e: &anyhow::Error) -> String {
    let mut text = e.to_string();
    for cause in e.chain().skip(1) {
        let cause = cause.to_string();
        if !text.ends_with(&cause) {
            text.push_str(": ");
            text.push_str(&cause);
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize)]
    struct Two {
        zeta: u32,
        alpha: &'static str,
    }

    impl Answer for Two {
        fn text(&self, out: &mut dyn Write) -> io::Result<()> {
            writeln!(out, "{} {}", self.alpha, self.zeta)
        }
        fn exit_code(&self) -> ExitCode {
            ExitCode::from(2)
        }
    }

    #[test]
    fn the_printer_writes_text_or_json_with_sorted_keys_and_returns_the_answers_exit_code() {
        let two = Two {
            zeta: 1,
            alpha: "a",
        };
        let mut out = Vec::new();
        let code = print(&two, Format::Text, &mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "a 1\n");
        assert_eq!(code, ExitCode::from(2));
        let mut out = Vec::new();
        print(&two, Format::Json, &mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "{\"alpha\":\"a\",\"zeta\":1}\n"
        );
    }

    #[test]
    fn an_error_says_each_cause_once() {
        /// An error that names its file and says its cause too, as the
        /// lab's `LabError::Io` does.
        #[derive(Debug)]
        struct Named {
            path: String,
            source: io::Error,
        }
        impl std::fmt::Display for Named {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "{}: {}", self.path, self.source)
            }
        }
        impl std::error::Error for Named {
            fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
                Some(&self.source)
            }
        }
        let named = Named {
            path: "a.json".into(),
            source: io::Error::new(io::ErrorKind::NotFound, "not there"),
        };
        let e = anyhow::Error::from(named).context("reading the run");
        assert_eq!(message(&e), "reading the run: a.json: not there");
        let e = anyhow::Error::from(io::Error::other("disk full")).context("writing");
        assert_eq!(message(&e), "writing: disk full");
    }

    #[test]
    fn a_closed_pipe_is_not_a_failure() {
        let pipe = anyhow::Error::from(io::Error::from(io::ErrorKind::BrokenPipe));
        assert_eq!(fail(&pipe.context("writing")), ExitCode::SUCCESS);
        assert_eq!(fail(&anyhow::anyhow!("bad")), ExitCode::FAILURE);
    }
}
