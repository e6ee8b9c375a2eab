//! Evaluation files: a trained evaluation for one variant, in a small,
//! versioned binary format.
//!
//! | bytes | what |
//! |---|---|
//! | 8 | the magic `MURUSEVL` |
//! | 4 | the format's version (little-endian `u32`: 1 or 2, below) |
//! | 32 | the rules the evaluation was trained on: their [`RulesKey`] (older files: the SHA-256 of their source text) |
//! | 4 + n | a note in UTF-8 (how it was trained), its length first |
//! | 1 | the kind: 1 the generic features' weights, 2 a network, 3 a network correcting the features |
//! | … | the kind's payload (below) |
//! | 8 | an FNV-1a checksum of every byte before it |
//!
//! Weights: eight `i32` in the order of [`Weights`]' fields. A network
//! correcting the features: the weights, then the network. Network: the
//! board's slots, players, tallest stack and hidden units (`u32` each),
//! then the first layer's weights and biases and the output weights (`i16`
//! each) and the output biases (`i32` each), in [`Network`]'s order.
//! Numbers are little-endian.
//!
//! Versions: 1 holds weights and two-player networks; 2 adds networks of
//! three and four players, whose output layer has a row per (side to
//! move, player) ([`Shape::outputs`]), and networks correcting the
//! features (kind 3). A file is written in the oldest
//! version that holds it, so a build that reads only version 1 still reads
//! every two-player file, and refuses a newer network by its version
//! rather than misreading it.
//!
//! Reading checks everything before the evaluation is used: the magic, the
//! version (a later version is an error that names it), the length of every
//! part, the checksum, and that a network's shape is the variant's. A file
//! trained on other rules is refused ([`EvalFile::check_variant`]): the
//! evaluation would read positions it was not trained on. Files name the
//! rules by their [`RulesKey`], so a comment, a new title or statements in
//! another order keep a file usable; files written before the key named the
//! SHA-256 of the rules' source text, and still load for exactly that text.
//!
//! [`RulesKey`]: murus_dsl::RulesKey

use std::sync::{Arc, OnceLock};

use murus_dsl::key::hex;
use murus_engine::Variant;
use murus_engine::text::plural;
use murus_engine::util::fnv1a;
use sha2::{Digest, Sha256};

use crate::eval::Weights;
use crate::nnue::{Network, Shape};

/// The first bytes of every evaluation file.
pub const MAGIC: &[u8; 8] = b"MURUSEVL";
/// The newest version this build reads and writes.
pub const VERSION: u32 = 2;

/// The oldest version that holds `trained`.
fn version_for(trained: &Trained) -> u32 {
    match trained {
        Trained::Network(n) if n.shape.players > 2 => 2,
        Trained::Hybrid(..) => 2,
        _ => 1,
    }
}
/// The file name extension of evaluation files.
pub const EXTENSION: &str = "eval";

/// A trained evaluation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Trained {
    /// The generic features with fitted weights.
    Weights(Weights),
    /// A network.
    Network(Network),
    /// A network that learns a correction to the generic features: the
    /// value is the features' (with these weights) plus the network's.
    Hybrid(Weights, Network),
}

/// The evaluation a bot uses.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Evaluation {
    /// The generic features with their default weights
    /// ([`Weights::for_engine`]).
    #[default]
    Generic,
    /// A trained evaluation.
    Trained(Arc<Trained>),
}

impl Evaluation {
    /// The network, if this is one.
    pub fn network(&self) -> Option<&Network> {
        match self {
            Evaluation::Trained(t) => match t.as_ref() {
                Trained::Network(n) | Trained::Hybrid(_, n) => Some(n),
                Trained::Weights(_) => None,
            },
            Evaluation::Generic => None,
        }
    }

    /// The weights of the generic features, if these are fitted ones (or
    /// those a hybrid adds its network to).
    pub fn weights(&self) -> Option<Weights> {
        match self {
            Evaluation::Trained(t) => match t.as_ref() {
                Trained::Weights(w) | Trained::Hybrid(w, _) => Some(*w),
                Trained::Network(_) => None,
            },
            Evaluation::Generic => None,
        }
    }

    /// Whether the network's value is added to the generic features'
    /// ([`Trained::Hybrid`]) rather than standing alone.
    pub fn adds_features(&self) -> bool {
        matches!(self, Evaluation::Trained(t) if matches!(t.as_ref(), Trained::Hybrid(..)))
    }

    /// What the evaluation is, for run folders and reports to record which
    /// one a bot used: `generic` for the generic features with their default
    /// weights, else `sha256:` and the 64 hex digits of the SHA-256 of the
    /// trained numbers as an evaluation file stores them (its kind and
    /// payload, without the note or the rules it names). The same network
    /// has the same id in any file, copied or renamed, and before it is
    /// saved; another network has another.
    pub fn id(&self) -> String {
        match self {
            Evaluation::Generic => "generic".into(),
            Evaluation::Trained(t) => {
                let mut bytes = Vec::new();
                write_trained(&mut bytes, t);
                let digest: [u8; 32] = Sha256::digest(&bytes).into();
                format!("sha256:{}", hex(&digest))
            }
        }
    }

    /// One line that says which evaluation this is: `generic features`, or
    /// `trained: network (64 hidden) (shipped standard.eval,
    /// sha256:1a2b3c4d5e6f…)` (the shipped file named when it is one).
    pub fn summary(&self) -> String {
        if let Evaluation::Generic = self {
            return "generic features".into();
        }
        let id = self.id();
        let shipped = shipped()
            .iter()
            .find(|(_, e, _)| e == self)
            .map(|(_, _, name)| format!("shipped {name}.{EXTENSION}, "))
            .unwrap_or_default();
        format!("trained: {} ({shipped}{}…)", self.describe(), &id[..19])
    }

    /// A few words for reports: `generic`, `weights`, `network (64 hidden)`.
    pub fn describe(&self) -> String {
        match self {
            Evaluation::Generic => "generic".into(),
            Evaluation::Trained(t) => match t.as_ref() {
                Trained::Weights(_) => "fitted weights".into(),
                Trained::Network(n) => format!("network ({} hidden)", n.hidden),
                Trained::Hybrid(_, n) => {
                    format!("network ({} hidden) correcting the features", n.hidden)
                }
            },
        }
    }
}

/// A file's content: the evaluation and what it was trained on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalFile {
    /// The rules it was trained on: their key ([`rules_digest`]), or, in
    /// files written before rules had keys, the SHA-256 of their source
    /// text ([`source_digest`]).
    pub variant_sha256: [u8; 32],
    /// How it was trained, in words.
    pub note: String,
    pub trained: Trained,
}

/// Why an evaluation file cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EvalFileError {
    #[error("not a Murus evaluation file (it does not start with `MURUSEVL`)")]
    NotEvalFile,
    #[error(
        "evaluation file format version {0}; this build reads version {VERSION} and older: update Murus"
    )]
    FutureVersion(u32),
    #[error("the file is truncated: it ends inside {0}")]
    Truncated(&'static str),
    #[error("the file is corrupt: {0}")]
    Corrupt(String),
    /// `found` names the rules the file was trained on, `expected` these
    /// rules' key (12 hex digits each).
    #[error(
        "this evaluation was trained on other rules (rules {found}…); these rules are {expected}… — train one for them with `murus train`"
    )]
    WrongVariant { expected: String, found: String },
}

/// What an evaluation file written now names: the variant's
/// [`RulesKey`](murus_dsl::RulesKey).
pub fn rules_digest(variant: &Variant) -> [u8; 32] {
    *variant.rules_key().bytes()
}

/// The SHA-256 of a rules source: what evaluation files written before
/// rules had keys name (still accepted for exactly that text). The rules
/// language's one copy.
pub use murus_dsl::key::text_sha256 as source_digest;

/// What a file trained on `variant`'s rules may name: their key, or (older
/// files) the SHA-256 of their text.
fn digests(variant: &Variant) -> [[u8; 32]; 2] {
    [rules_digest(variant), source_digest(variant.source())]
}

fn hex8(d: &[u8; 32]) -> String {
    hex(&d[..6])
}

/// Writes `trained` as a file holds it: its kind, then its numbers.
fn write_trained(out: &mut Vec<u8>, trained: &Trained) {
    let weights = |out: &mut Vec<u8>, w: &Weights| {
        for x in w.to_array() {
            out.extend_from_slice(&x.to_le_bytes());
        }
    };
    let network = |out: &mut Vec<u8>, n: &Network| {
        for x in [n.shape.slots, n.shape.players, n.shape.heights, n.hidden] {
            out.extend_from_slice(&(x as u32).to_le_bytes());
        }
        for x in n.w1.iter().chain(&n.b1).chain(&n.w2) {
            out.extend_from_slice(&x.to_le_bytes());
        }
        for x in &n.b2 {
            out.extend_from_slice(&x.to_le_bytes());
        }
    };
    match trained {
        Trained::Weights(w) => {
            out.push(1);
            weights(out, w);
        }
        Trained::Network(n) => {
            out.push(2);
            network(out, n);
        }
        Trained::Hybrid(w, n) => {
            out.push(3);
            weights(out, w);
            network(out, n);
        }
    }
}

/// The largest network a file may hold (inputs × hidden), so that a
/// corrupt header cannot ask for an absurd allocation.
const MAX_PARAMETERS: u64 = 1 << 26;

impl EvalFile {
    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&version_for(&self.trained).to_le_bytes());
        out.extend_from_slice(&self.variant_sha256);
        out.extend_from_slice(&(self.note.len() as u32).to_le_bytes());
        out.extend_from_slice(self.note.as_bytes());
        write_trained(&mut out, &self.trained);
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads a file's bytes; never panics, whatever they are.
    pub fn from_bytes(bytes: &[u8]) -> Result<EvalFile, EvalFileError> {
        if !bytes.starts_with(MAGIC) {
            return Err(if !bytes.is_empty() && MAGIC.starts_with(bytes) {
                EvalFileError::Truncated("the magic")
            } else {
                EvalFileError::NotEvalFile
            });
        }
        let mut r = Reader { bytes, at: 8 };
        let version = r.u32("the version")?;
        if version > VERSION {
            return Err(EvalFileError::FutureVersion(version));
        }
        if version == 0 {
            return Err(EvalFileError::Corrupt("format version 0".into()));
        }
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        let variant_sha256: [u8; 32] = r
            .take(32, "the variant's digest")?
            .try_into()
            .unwrap_or([0; 32]);
        let note_len = r.u32("the note")? as usize;
        let note = String::from_utf8(r.take(note_len, "the note")?.to_vec())
            .map_err(|_| EvalFileError::Corrupt("the note is not UTF-8".into()))?;
        let kind = r.take(1, "the kind")?[0];
        let trained = match kind {
            1 => Trained::Weights(r.weights()?),
            2 => Trained::Network(r.network(version)?),
            3 if version < 2 => {
                return Err(EvalFileError::Corrupt(format!(
                    "a network correcting the features in a version {version} file (version 2 brought them)"
                )));
            }
            3 => {
                let w = r.weights()?;
                Trained::Hybrid(w, r.network(version)?)
            }
            k => return Err(EvalFileError::Corrupt(format!("unknown kind {k}"))),
        };
        if r.at + 8 > bytes.len() {
            return Err(EvalFileError::Truncated("the checksum"));
        }
        if r.at + 8 < bytes.len() {
            return Err(EvalFileError::Corrupt(format!(
                "{} after the evaluation",
                plural((bytes.len() - r.at - 8) as u64, "byte")
            )));
        }
        let expected = u64::from_le_bytes(sum.try_into().unwrap_or([0; 8]));
        if fnv1a(body) != expected {
            return Err(EvalFileError::Corrupt("the checksum does not match".into()));
        }
        Ok(EvalFile {
            variant_sha256,
            note,
            trained,
        })
    }

    /// A file of `trained`, trained on `variant`'s rules (named by their
    /// key), with `note` saying how.
    pub fn new(variant: &Variant, note: impl Into<String>, trained: Trained) -> EvalFile {
        EvalFile {
            variant_sha256: rules_digest(variant),
            note: note.into(),
            trained,
        }
    }

    /// Refuses a file trained on other rules than `variant`'s: it must name
    /// their key (or, written before rules had keys, the SHA-256 of exactly
    /// `variant`'s source text).
    pub fn check_variant(&self, variant: &Variant) -> Result<(), EvalFileError> {
        if digests(variant).contains(&self.variant_sha256) {
            Ok(())
        } else {
            Err(EvalFileError::WrongVariant {
                expected: hex8(&rules_digest(variant)),
                found: hex8(&self.variant_sha256),
            })
        }
    }

    /// The evaluation for a bot.
    pub fn evaluation(self) -> Evaluation {
        Evaluation::Trained(Arc::new(self.trained))
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, what: &'static str) -> Result<&'a [u8], EvalFileError> {
        // The last eight bytes are the checksum, never content.
        let end = self
            .at
            .checked_add(n)
            .filter(|&e| e + 8 <= self.bytes.len());
        match end {
            Some(end) => {
                let s = &self.bytes[self.at..end];
                self.at = end;
                Ok(s)
            }
            None => Err(EvalFileError::Truncated(what)),
        }
    }
    fn u32(&mut self, what: &'static str) -> Result<u32, EvalFileError> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn i32(&mut self, what: &'static str) -> Result<i32, EvalFileError> {
        let b = self.take(4, what)?;
        Ok(i32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// The features' eight weights.
    fn weights(&mut self) -> Result<Weights, EvalFileError> {
        let mut a = [0i32; 8];
        for x in &mut a {
            *x = self.i32("the weights")?;
        }
        Ok(Weights::from_array(a))
    }

    /// A network: its shape, checked before anything is allocated, then
    /// its layers.
    fn network(&mut self, version: u32) -> Result<Network, EvalFileError> {
        let slots = self.u32("the network's shape")? as usize;
        let players = self.u32("the network's shape")? as usize;
        let heights = self.u32("the network's shape")? as usize;
        let hidden = self.u32("the network's shape")? as usize;
        let shape = Shape {
            slots,
            players,
            heights,
        };
        let inputs = (slots as u64) * (players as u64) * (heights as u64);
        if !(1..=4).contains(&players)
            || heights == 0
            || slots == 0
            || !(1..=crate::nnue::MAX_HIDDEN).contains(&hidden)
            || inputs.saturating_mul(hidden as u64) > MAX_PARAMETERS
            || inputs > u64::from(u16::MAX)
        {
            return Err(EvalFileError::Corrupt(format!(
                "a network of {}, {}, stacks of {heights} and {}",
                plural(slots as u64, "slot"),
                plural(players as u64, "player"),
                plural(hidden as u64, "hidden unit")
            )));
        }
        if version < 2 && players > 2 {
            return Err(EvalFileError::Corrupt(format!(
                "a network of {players} players in a version {version} file (version 2 brought them)"
            )));
        }
        let mut i16s = |n: usize, what| -> Result<Vec<i16>, EvalFileError> {
            let raw = self.take(n * 2, what)?;
            Ok(raw
                .chunks_exact(2)
                .map(|c| i16::from_le_bytes([c[0], c[1]]))
                .collect())
        };
        let w1 = i16s(shape.inputs() * hidden, "the first layer")?;
        let b1 = i16s(hidden, "the first layer")?;
        let w2 = i16s(shape.outputs() * hidden, "the output layer")?;
        let mut b2 = Vec::with_capacity(shape.outputs());
        for _ in 0..shape.outputs() {
            b2.push(self.i32("the output layer")?);
        }
        Ok(Network {
            shape,
            hidden,
            w1,
            b1,
            w2,
            b2,
        })
    }
}

/// The shipped evaluations once read, by variant source digest.
type Shipped = ([u8; 32], Evaluation, &'static str);
static SHIPPED_READ: OnceLock<Vec<Shipped>> = OnceLock::new();

/// The shipped evaluations ([`murus_engine::BUILTIN_EVALUATIONS`]): the
/// rules each names, the evaluation, and its variant's name.
fn shipped() -> &'static [Shipped] {
    SHIPPED_READ.get_or_init(|| {
        murus_engine::BUILTIN_EVALUATIONS
            .iter()
            .filter_map(|&(name, bytes)| Some((name, EvalFile::from_bytes(bytes).ok()?)))
            .map(|(name, f)| (f.variant_sha256, f.evaluation(), name))
            .collect()
    })
}

impl Evaluation {
    /// The evaluation bots use by default on `variant`: the one kept with
    /// it ([`Variant::with_evaluation`]: a rules file's own `.eval`, or one
    /// just trained) if it reads and was trained on these rules, else a
    /// shipped one trained on its rules (whatever the comments, title or
    /// order of the rule file's text), else the generic features. Nothing
    /// outside `variant` counts: two variants of the same rules, one with
    /// an evaluation kept and one without, are played each with its own.
    pub fn for_variant(variant: &Variant) -> Evaluation {
        let kept = variant
            .kept_evaluation()
            .and_then(|bytes| EvalFile::from_bytes(bytes).ok())
            .filter(|f| f.check_variant(variant).is_ok());
        if let Some(file) = kept {
            return file.evaluation();
        }
        let digests = digests(variant);
        shipped()
            .iter()
            .find(|(d, _, _)| digests.contains(d))
            .map_or(Evaluation::Generic, |(_, e, _)| e.clone())
    }
}
