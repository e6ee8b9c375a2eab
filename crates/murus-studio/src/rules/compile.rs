//! The Rules panel's background jobs, without egui: compiling the text
//! (diagnostics ready to list) and counting the start position's moves
//! (perft). Each runs on any thread; the model runs them on its workers.

use std::ops::Range;
use std::time::Instant;

use murus_dsl::Severity;
use murus_engine::Variant;
use murus_engine::job::Handler;

/// One diagnostic, ready to list.
#[derive(Clone, Debug)]
pub struct DiagView {
    pub error: bool,
    pub line: usize,
    pub col: usize,
    pub message: String,
    /// The byte range it points at.
    pub span: Range<usize>,
    /// The rustc-style rendering, help included (shown on hover).
    pub rendered: String,
}

impl DiagView {
    /// `3:14: error: …`
    pub fn title(&self) -> String {
        let sev = if self.error { "error" } else { "warning" };
        format!("{}:{}: {sev}: {}", self.line, self.col, self.message)
    }

    /// Whether the diagnostic points at byte `byte` of its source of
    /// `len` bytes (an empty span at the end of the file points at the last
    /// byte).
    pub fn covers(&self, byte: usize, len: usize) -> bool {
        let s = &self.span;
        s.contains(&byte)
            || (s.is_empty() && (s.start == byte || (s.start >= len && byte + 1 == len)))
    }
}

/// A finished compilation.
#[derive(Debug)]
pub struct Compiled {
    /// The text that was compiled.
    pub source: String,
    pub diags: Vec<DiagView>,
    /// The variant, if the text compiles.
    pub variant: Option<Variant>,
    pub millis: f64,
}

impl Compiled {
    /// The spans to underline in the text compiled: `(bytes, is_error)`.
    pub fn marks(&self) -> Vec<(Range<usize>, bool)> {
        self.diags
            .iter()
            .map(|d| (d.span.clone(), d.error))
            .collect()
    }

    /// The diagnostic that points at byte `byte` of the text compiled
    /// (errors before warnings).
    pub fn diagnostic_at(&self, byte: usize) -> Option<&DiagView> {
        let len = self.source.len();
        let at = |error: bool| {
            self.diags
                .iter()
                .find(|d| d.error == error && d.covers(byte, len))
        };
        at(true).or_else(|| at(false))
    }
}

/// A compilation to run (on any thread): the text and the file name the
/// diagnostics name.
#[derive(Clone, Debug)]
pub struct CompileRequest {
    pub source: String,
    pub file: String,
}

impl CompileRequest {
    /// Compiles the text.
    pub fn run(self) -> Compiled {
        let CompileRequest { source, file } = self;
        let t = Instant::now();
        let (variant, diags) = match murus_dsl::compile(&source) {
            Ok(c) => {
                let warnings = c.warnings.clone();
                (Some(Variant::from_rules(c.rules, &source)), warnings)
            }
            Err(d) => (None, d),
        };
        let diags = diags
            .iter()
            .map(|d| {
                let (line, col) = d.line_col(&source);
                DiagView {
                    error: d.severity == Severity::Error,
                    line,
                    col,
                    message: d.message.clone(),
                    span: d.span.range(),
                    rendered: d.render(&file, &source),
                }
            })
            .collect();
        Compiled {
            source,
            diags,
            variant,
            millis: t.elapsed().as_secs_f64() * 1e3,
        }
    }
}

/// A perft run to do (on any thread).
#[derive(Clone, Debug)]
pub struct PerftRequest {
    pub variant: Variant,
    pub depth: u32,
}

impl PerftRequest {
    /// Counts the start position's move paths for depths 1 to `depth`,
    /// reporting a line per depth as progress ("perft 3: 8 902 (0.1 ms)"), or
    /// "cancelled" once the handler says stop.
    pub fn run(&self, handler: &impl Handler<String>) {
        let start = self.variant.start();
        for d in 1..=self.depth {
            if handler.stop() {
                handler.progress(&"cancelled".to_string());
                return;
            }
            let t = Instant::now();
            let n = self.variant.perft(&start, d);
            handler.progress(&format!(
                "perft {d}: {} ({:.1} ms)",
                murus_lab::text::grouped(n),
                t.elapsed().as_secs_f64() * 1e3
            ));
        }
    }
}
