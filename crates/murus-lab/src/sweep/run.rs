//! Playing a sweep: every combination of its shard, compiled, and its
//! balance check run (or its diagnostics kept), kept on disk combination by
//! combination.

use std::collections::BTreeMap;
use std::path::Path;

use murus_dsl::Diagnostic;
use murus_engine::Variant;
use murus_engine::job::Handler;

use super::SweepError;
use super::rank::{rank, row_of};
use super::space::{Space, label, space};
use crate::balance::{self, BalanceConfig, CheckProgress};
use crate::folder::{Differences, Mode, RunFolder, Settings, Shard, Sharded, Spec};
use crate::record::{VariantId, source_sha256};
use crate::report::{FORMAT, Skipped, SweepReport, SweepSpec};
use crate::write::sweep_files;

/// A sweep.
#[derive(Clone, Debug)]
pub struct SweepConfig {
    /// Values to sweep instead of the declared ones: `("files", [7, 9])`.
    pub set: Vec<(String, Vec<u32>)>,
    /// The balance check of each combination, every one with the same seed
    /// (its `shard` is not used: a sweep shards by combination, so each
    /// check plays whole and may stop by precision).
    pub balance: BalanceConfig,
    /// `(k, n)`: play only the combinations numbered `k - 1` modulo `n`
    /// (`k` from 1 to `n`, as selfplay's shards).
    pub shard: Option<(u64, u64)>,
    /// `--train`: each combination without a trained evaluation first
    /// trains one on this many positions ([`crate::train::train_if_generic`],
    /// kept in its folder, `combos/NAME/train`), so that every row's bots
    /// play with a trained evaluation (or the generic features where no
    /// candidate won its match).
    pub train: Option<u64>,
}

/// Where a sweep stands.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepStage {
    /// The combination being played (`files=8,ranks=7`).
    pub label: String,
    /// Combinations of this sweep (its shard) finished before it.
    pub done: u64,
    /// Combinations of this sweep (its shard).
    pub of: u64,
}

/// Where a sweep stands: what its [`Handler`] hears when a combination
/// starts and as its check's games finish.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepProgress {
    /// The combination being played.
    pub combination: SweepStage,
    /// Where its balance check stands, once it has started (a combination
    /// that does not compile has none).
    pub check: Option<CheckProgress>,
}

/// A combination's balance check as the sweep's handler hears it.
struct Combination<'a> {
    outer: &'a dyn Handler<SweepProgress>,
    stage: SweepStage,
}

impl Handler<CheckProgress> for Combination<'_> {
    fn stop(&self) -> bool {
        self.outer.stop()
    }
    fn progress(&self, p: &CheckProgress) {
        self.outer.progress(&SweepProgress {
            combination: self.stage.clone(),
            check: Some(p.clone()),
        });
    }
}

/// The file a sweep folder holds its spec in, written first.
pub const SPEC_FILE: &str = "sweep-run.json";
/// The folder of the combinations' checks.
pub const COMBOS: &str = "combos";

/// The variant name a rule file declares (`variant "NAME"`).
fn declared_name(source: &str) -> Option<String> {
    murus_dsl::parse(source)
        .ok()?
        .items
        .iter()
        .find_map(|i| match i {
            murus_dsl::ast::Item::Variant(s) => Some(s.value.value.clone()),
            _ => None,
        })
}

/// The spec of a sweep of `source` (named `file`) over `space`.
pub fn spec_of(
    file: &str,
    source: &str,
    space: &Space,
    balance: &BalanceConfig,
    shard: Option<(u64, u64)>,
) -> SweepSpec {
    let name = declared_name(source).unwrap_or_else(|| {
        Path::new(file)
            .file_stem()
            .map_or_else(|| file.to_string(), |s| s.to_string_lossy().into_owned())
    });
    SweepSpec {
        format: FORMAT,
        variant: VariantId {
            name,
            source_sha256: source_sha256(source),
            rules_key: family_key(source, space),
        },
        engine_version: env!("CARGO_PKG_VERSION").to_string(),
        parameters: space.params.iter().map(|(n, _)| n.clone()).collect(),
        values: space
            .params
            .iter()
            .map(|(_, v)| v.iter().map(|&x| i64::from(x)).collect())
            .collect(),
        combinations: space.len(),
        levels: balance.levels.iter().map(|l| l.name.clone()).collect(),
        stopping: balance.stopping,
        openings: balance.openings,
        seed: balance.seed,
        skill_games: balance.skill_games,
        max_plies: balance.max_plies,
        shard: shard.map(|(k, n)| Shard { k, n }),
        train: None,
    }
}

/// The key of the rules of every combination of `space` together (hex):
/// the SHA-256 of their [`murus_dsl::RulesKey`]s in combination order, so
/// that a comment or a new title in the rule file changes nothing; `None`
/// when a combination does not compile (its diagnostic may depend on the
/// text), and the template is then known by its text.
fn family_key(source: &str, space: &Space) -> Option<String> {
    use sha2::{Digest, Sha256};
    let mut hash = Sha256::new();
    for index in 0..space.len() {
        let variant = Variant::compile_with(source, &space.combination(index)).ok()?;
        hash.update(variant.rules_key().bytes());
    }
    let digest: [u8; 32] = hash.finalize().into();
    Some(murus_dsl::RulesKey::from_bytes(digest).to_hex())
}

/// A job's stop, for training (whose progress a sweep does not show).
struct StopOnly<'a>(&'a dyn Handler<SweepProgress>);

impl Handler<crate::train::TrainProgress> for StopOnly<'_> {
    fn stop(&self) -> bool {
        self.0.stop()
    }
}

/// A sweep resumes, and its shards merge, only with the same spec.
impl Settings for SweepSpec {
    const WHAT: &'static str = "sweep";

    /// Every field of the spec in turn, as `sweep.json` writes it (an
    /// object's fields by their full names), the variant by its rules
    /// (their key where both have one: [`VariantId::same_rules`]).
    fn differences(&self, other: &SweepSpec, here: &'static str) -> Vec<String> {
        let flat = |s: &SweepSpec| -> Vec<(String, String)> {
            let serde_json::Value::Object(map) =
                serde_json::to_value(s).expect("a sweep spec serialises")
            else {
                return Vec::new();
            };
            let text = |v: &serde_json::Value| match v {
                serde_json::Value::String(s) => s.clone(),
                serde_json::Value::Null => "none".into(),
                v => v.to_string(),
            };
            let mut out = Vec::new();
            for (k, v) in map {
                match v {
                    // Compared by `Differences::rules`, in this place.
                    serde_json::Value::Object(_) if k == "variant" => {
                        out.push((k, String::new()));
                    }
                    serde_json::Value::Object(inner) => {
                        for (k2, v2) in inner {
                            out.push((format!("{k} {k2}"), text(&v2)));
                        }
                    }
                    v => out.push((k.replace('_', " "), text(&v))),
                }
            }
            out
        };
        let mut d = Differences::new(here);
        // The rules by their key (where both have one), in the variant's
        // place.
        let (mine, theirs) = (flat(self), flat(other));
        for ((name, x), (_, y)) in mine.iter().zip(&theirs) {
            if name == "variant" {
                d.rules(&self.variant, &other.variant);
                continue;
            }
            d.add(name, x, y);
        }
        d.finish()
    }
}

impl Sharded for SweepSpec {
    fn shard(&mut self) -> &mut Option<Shard> {
        &mut self.shard
    }
}

impl Spec for SweepSpec {
    const FILE: &'static str = SPEC_FILE;
    const FILES: &'static [&'static str] = &["sweep.json", "sweep.csv", "sweep.svg", COMBOS];
    const OUTPUTS: &'static [&'static str] = &["sweep.json", "sweep.csv", "sweep.svg"];
}

/// The first error of `diags`, as its rendering's first line:
/// `FILE:LINE:COL: error: MESSAGE`.
fn headline(diags: &[Diagnostic], file: &str, source: &str) -> String {
    diags
        .iter()
        .find(|d| d.is_error())
        .or(diags.first())
        .map(|d| {
            d.render(file, source)
                .lines()
                .next()
                .unwrap_or_default()
                .to_string()
        })
        .unwrap_or_default()
}

/// Runs a sweep of the rule file `source` (named `file` in diagnostics):
/// every combination of this sweep (its shard's share), in number order,
/// compiled, and its balance check run, or its diagnostics kept. With
/// `out`, each check is kept in `out/combos/LABEL/` as `murus balance
/// --out` keeps one, then `sweep.json`, `sweep.csv` and `sweep.svg` are
/// written there. `out` gives the folder and how to open it: a new sweep
/// ([`Mode::New`], refused where a sweep is kept already), or the sweep
/// kept there ([`Mode::Resume`]: it plays only its missing games; started
/// when the folder keeps none; refused when it keeps a sweep of other
/// settings). A cancel (`progress`) stops after the finished
/// games, marked [`interrupted`](SweepReport::interrupted).
pub fn run_sweep(
    file: &str,
    source: &str,
    config: &SweepConfig,
    out: Option<(&Path, Mode)>,
    handler: &dyn Handler<SweepProgress>,
) -> Result<SweepReport, SweepError> {
    let space = space(source, &config.set)?;
    let mut balance = config.balance.clone();
    balance.shard = None;
    balance.check()?;
    let shard = match config.shard {
        Some((k, n)) => Some(Shard::new(k, n).map_err(crate::error::LabError::Invalid)?),
        None => None,
    };
    let mut spec = spec_of(file, source, &space, &balance, config.shard);
    spec.train = config.train;
    let folder = match out {
        Some((path, mode)) => Some(RunFolder::open(path, &spec, mode)?),
        None => None,
    };
    let mode = out.map_or(Mode::New, |(_, mode)| mode);
    let mine: Vec<u64> = (0..space.len())
        .filter(|&i| shard.is_none_or(|s| s.plays(i)))
        .collect();
    let mut rows = Vec::new();
    let mut skipped = Vec::new();
    let mut interrupted = false;
    for (done, &index) in mine.iter().enumerate() {
        if handler.stop() {
            interrupted = true;
            break;
        }
        let settings = space.combination(index);
        let name = label(&settings);
        let stage = SweepStage {
            label: name.clone(),
            done: done as u64,
            of: mine.len() as u64,
        };
        handler.progress(&SweepProgress {
            combination: stage.clone(),
            check: None,
        });
        let values: BTreeMap<String, i64> = settings
            .iter()
            .map(|(n, v)| (n.clone(), i64::from(*v)))
            .collect();
        match Variant::compile_with(source, &settings) {
            Err(diags) => skipped.push(Skipped {
                index,
                values,
                error: headline(&diags, file, source),
                diagnostics: murus_dsl::render_all(&diags, file, source),
            }),
            Ok(mut variant) => {
                let dir = folder.as_ref().map(|f| f.path().join(COMBOS).join(&name));
                if let Some(positions) = config.train {
                    (variant, _) = crate::train::train_if_generic(
                        &variant,
                        positions,
                        balance.seed,
                        balance.threads,
                        dir.as_ref().map(|d| d.join("train")).as_deref(),
                        &StopOnly(handler),
                    )?;
                    if handler.stop() {
                        interrupted = true;
                        break;
                    }
                }
                let report = balance::run_balance(
                    &variant,
                    &balance,
                    dir.as_deref().map(|d| (d, mode)),
                    &Combination {
                        outer: handler,
                        stage,
                    },
                )?;
                interrupted |= report.interrupted;
                rows.push(row_of(index, values, report));
                if interrupted {
                    break;
                }
            }
        }
    }
    rank(&mut rows);
    let report = SweepReport {
        spec,
        rows,
        skipped,
        interrupted,
        missing_shards: Vec::new(),
    };
    if let Some(f) = &folder {
        f.write_outputs(&sweep_files(&report))?;
    }
    Ok(report)
}
