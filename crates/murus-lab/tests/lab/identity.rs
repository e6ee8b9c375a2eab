//! A run folder knows what decided its games: the rules by their key (a
//! comment, a new title or another order of statements is the same rules)
//! and the evaluation each bot was given (a file put beside the rules is
//! not). A resume or a merge with the same goes on; with another it is
//! refused, naming what changed.

use std::path::Path;

use murus_ai::eval::Weights;
use murus_ai::{EvalFile, Trained};
use murus_engine::Variant;
use murus_lab::balance::{BalanceConfig, Stopping, parse_levels, run_balance};
use murus_lab::train::{DataDir, DataSpec};
use murus_lab::{Config, LabError, Mode, Partial, RunDir, merge, spawn};

use crate::util::temp;

/// The standard game with its own ply cap: rules of this test alone, with
/// no shipped evaluation.
fn own_rules(cap: u32) -> String {
    Variant::standard()
        .source()
        .replace("plies 300", &format!("plies {cap}"))
}

fn compile(source: &str) -> Variant {
    Variant::compile(source).unwrap()
}

/// The same rules written otherwise: a comment, another title and name,
/// the draw's statements in the other order.
fn rewritten(source: &str, cap: u32) -> String {
    let swapped = source.replace(
        &format!("    repetition 3\n    plies {cap}"),
        &format!("    plies {cap}\n    repetition 3"),
    );
    assert_ne!(swapped, source, "the draw's statements were swapped");
    format!("// my edit\n{swapped}")
        .replace("title \"Murus Gallicus\"", "title \"My Murus\"")
        .replace("variant \"standard\"", "variant \"mine\"")
}

fn config(v: &Variant, bots: &str, games: u64) -> Config {
    Config::new(v, murus_ai::parse_specs(bots).unwrap(), games, 3).with_threads(1)
}

/// Plays `config` into `dir` to the end, the folder new or resumed.
fn play(v: &Variant, config: &Config, dir: &Path, mode: Mode) -> murus_lab::Report {
    let (rd, _) = RunDir::open(dir, &config.run_spec(), mode).unwrap();
    spawn(v, config.clone(), Some(rd), ())
        .unwrap()
        .join()
        .unwrap()
}

/// An evaluation trained on `v`'s rules: fitted weights unlike the
/// defaults.
fn weights_file(v: &Variant) -> EvalFile {
    let w = Weights::from_array([150, 40, 30, 4, 12, 7, 9, 3]);
    EvalFile::new(v, "a test's weights", Trained::Weights(w))
}

#[test]
fn a_resume_with_another_evaluation_is_refused_naming_the_bot_and_both() {
    let v = compile(&own_rules(297));
    let dir = temp!("evaluation");
    let generic = play(&v, &config(&v, "greedy,random", 4), &dir, Mode::New);
    // Rules no file was trained on: every bot was given the generic
    // features, and the folder and its report say so.
    assert_eq!(generic.provenance.evaluations, ["generic", "generic"]);
    let run_json = std::fs::read_to_string(dir.join("run.json")).unwrap();
    assert!(
        run_json.contains("\"evaluations\": [\n    \"generic\",\n    \"generic\"\n  ]"),
        "{run_json}"
    );
    // An evaluation file beside the rules, kept with the variant as the
    // command line keeps it: the same command line now gives the bots
    // another evaluation.
    let file = weights_file(&v);
    let id = file.clone().evaluation().id();
    let v = v.with_evaluation(file.to_bytes());
    let trained = config(&v, "greedy,random", 4);
    assert_eq!(trained.provenance().evaluations, [id.clone(), id.clone()]);
    let e = RunDir::open(&dir, &trained.run_spec(), Mode::Resume).unwrap_err();
    let LabError::Mismatch { differences, .. } = &e else {
        panic!("{e}")
    };
    let short = format!("sha256:{}…", &id[7..19]);
    assert_eq!(
        differences,
        &[
            format!("seat 1 (greedy): evaluation generic there, {short} asked"),
            format!("seat 2 (random): evaluation generic there, {short} asked"),
        ]
    );
    // A new run with it records it, in every report file.
    let other = temp!("evaluation-trained");
    let report = play(&v, &trained, &other, Mode::New);
    assert_eq!(report.provenance.evaluations, [id.clone(), id.clone()]);
    let csv = std::fs::read_to_string(other.join("report.csv")).unwrap();
    assert!(
        csv.contains(&format!("provenance,seat0 evaluation,{id}")),
        "{csv}"
    );
    assert!(
        report
            .summary(|c| c.to_string())
            .contains(&("Evaluation".to_string(), format!("trained, {short}")))
    );
    for d in [dir, other] {
        std::fs::remove_dir_all(d).unwrap();
    }
}

#[test]
fn shards_played_with_other_evaluations_do_not_merge() {
    let v = compile(&own_rules(296));
    let (one, two) = (temp!("merge-one"), temp!("merge-two"));
    let sharded = |k| config(&v, "greedy", 4).with_shard(k, 2).unwrap();
    play(&v, &sharded(1), &one, Mode::New);
    let v = v.clone().with_evaluation(weights_file(&v).to_bytes());
    play(
        &v,
        &config(&v, "greedy", 4).with_shard(2, 2).unwrap(),
        &two,
        Mode::New,
    );
    let e = merge(&[&one, &two], Partial::Refuse)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("is not a shard of the same run")
            && e.contains("seat 1 (greedy): evaluation generic there, sha256:"),
        "{e}"
    );
    for d in [one, two] {
        std::fs::remove_dir_all(d).unwrap();
    }
}

/// Removes the line of `field` from the JSON file `path` (with the comma
/// before it), as a folder written before the field was would read.
fn drop_field(path: &Path, field: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    let serde_json::Value::Object(mut map) = value else {
        panic!("{text}")
    };
    assert!(map.remove(field).is_some(), "{field} in {text}");
    std::fs::write(path, serde_json::to_string_pretty(&map).unwrap() + "\n").unwrap();
}

#[test]
fn a_folder_written_before_evaluations_were_recorded_resumes_with_the_evaluations_of_its_day() {
    let v = compile(&own_rules(295));
    let dir = temp!("legacy-evaluation");
    let first = config(&v, "greedy", 6);
    play(&v, &first, &dir, Mode::New);
    // The field taken out: a folder of an older build.
    drop_field(&dir.join("run.json"), "evaluations");
    // The generic features, as such a build gave these rules: it goes on.
    let resumed = play(&v, &first, &dir, Mode::Resume);
    assert_eq!(resumed.games, 6);
    // A file beside the rules now: refused, naming the bot and both.
    let v = v.clone().with_evaluation(weights_file(&v).to_bytes());
    let now = config(&v, "greedy", 6);
    let e = RunDir::open(&dir, &now.run_spec(), Mode::Resume)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains(&format!(
            "seat 1 (greedy): evaluation {} there, sha256:",
            murus_lab::record::LEGACY_EVALUATIONS
        )),
        "{e}"
    );
    // A shipped evaluation is one such a build gave too.
    let standard = Variant::standard();
    let dir2 = temp!("legacy-shipped");
    let shipped = config(&standard, "greedy", 2);
    assert_ne!(shipped.provenance().evaluations[0], "generic");
    drop(
        RunDir::open(&dir2, &shipped.run_spec(), Mode::New)
            .unwrap()
            .0,
    );
    drop_field(&dir2.join("run.json"), "evaluations");
    assert!(RunDir::open(&dir2, &shipped.run_spec(), Mode::Resume).is_ok());
    for d in [dir, dir2] {
        std::fs::remove_dir_all(d).unwrap();
    }
}

#[test]
fn a_run_resumes_and_its_shards_merge_across_a_rewrite_of_the_same_rules() {
    let source = own_rules(294);
    let (v, edited) = (compile(&source), compile(&rewritten(&source, 294)));
    assert_eq!(v.rules_key(), edited.rules_key());
    assert_ne!(v.source(), edited.source());
    // A whole run, for the bytes.
    let whole = temp!("rewrite-whole");
    let report = play(&v, &config(&v, "random", 8), &whole, Mode::New);
    // Half its games, then the rest with the rules rewritten: it goes on.
    let dir = temp!("rewrite");
    let half = config(&v, "random", 8);
    let (rd, _) = RunDir::open(&dir, &half.run_spec(), Mode::New).unwrap();
    let cancel = murus_engine::job::Cancel::new();
    let stop_at_four = {
        use murus_engine::job::HandlerExt;
        let c = cancel.clone();
        cancel
            .clone()
            .on_progress(move |p: &murus_lab::RunProgress| {
                if p.done >= 4 {
                    c.cancel();
                }
            })
    };
    let _ = spawn(&v, half.clone(), Some(rd), stop_at_four)
        .unwrap()
        .join()
        .unwrap();
    let resumed = play(&edited, &config(&edited, "random", 8), &dir, Mode::Resume);
    assert_eq!(resumed.games, 8);
    let games = |d: &Path| std::fs::read(d.join("games.jsonl")).unwrap();
    assert_eq!(games(&dir), games(&whole));
    // The report names the rules as given now; its figures are the run's.
    assert_eq!(resumed.provenance.variant.name, "mine");
    assert_eq!(resumed.by_seat, report.by_seat);
    // Shards of the two texts merge into the whole run's report.
    let (one, two) = (temp!("rewrite-one"), temp!("rewrite-two"));
    play(
        &v,
        &config(&v, "random", 8).with_shard(1, 2).unwrap(),
        &one,
        Mode::New,
    );
    play(
        &edited,
        &config(&edited, "random", 8).with_shard(2, 2).unwrap(),
        &two,
        Mode::New,
    );
    let (merged, _) = merge(&[&one, &two], Partial::Refuse).unwrap();
    assert_eq!(merged.to_json(), report.to_json());
    // Other rules are still refused, by their key.
    let other = compile(&own_rules(293));
    let e = RunDir::open(&dir, &config(&other, "random", 8).run_spec(), Mode::Resume)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("rules key") && e.contains("(the rules changed)"),
        "{e}"
    );
    for d in [whole, dir, one, two] {
        std::fs::remove_dir_all(d).unwrap();
    }
}

#[test]
fn a_folder_without_a_rules_key_compares_the_text_as_before() {
    let source = own_rules(292);
    let (v, edited) = (compile(&source), compile(&rewritten(&source, 292)));
    let dir = temp!("no-key");
    let c = config(&v, "random", 2);
    drop(RunDir::open(&dir, &c.run_spec(), Mode::New).unwrap().0);
    let path = dir.join("run.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let key = format!(",\n    \"rules_key\": \"{}\"", v.rules_key().to_hex());
    assert!(text.contains(&key), "{text}");
    std::fs::write(&path, text.replace(&key, "")).unwrap();
    // The same text resumes; another text is refused by its digest.
    assert!(RunDir::open(&dir, &c.run_spec(), Mode::Resume).is_ok());
    let e = RunDir::open(&dir, &config(&edited, "random", 2).run_spec(), Mode::Resume)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("variant standard there, mine asked")
            && e.contains("variant source sha256 (the rules changed)"),
        "{e}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_balance_check_and_training_data_resume_across_a_rewrite_of_the_same_rules() {
    let source = own_rules(291);
    let (v, edited) = (compile(&source), compile(&rewritten(&source, 291)));
    let check = BalanceConfig {
        levels: parse_levels("random").unwrap(),
        stopping: Stopping::Games(4),
        openings: 0,
        seed: 1,
        threads: 1,
        shard: None,
        skill_games: 0,
        max_plies: None,
        book: None,
    };
    let dir = temp!("rewrite-check");
    let first = run_balance(&v, &check, Some((&dir, Mode::New)), &()).unwrap();
    let again = run_balance(&edited, &check, Some((&dir, Mode::Resume)), &()).unwrap();
    assert_eq!(
        again.levels[0].report.by_seat,
        first.levels[0].report.by_seat
    );
    let data = temp!("rewrite-data");
    let bot = "alphabeta:50".parse().unwrap();
    drop(DataDir::open(&data, &DataSpec::new(&v, &bot, 1), Mode::New).unwrap());
    let spec = std::fs::read_to_string(data.join("train.json")).unwrap();
    assert!(spec.contains("\"evaluation\": \"generic\""), "{spec}");
    assert!(DataDir::open(&data, &DataSpec::new(&edited, &bot, 1), Mode::Resume).is_ok());
    let other = compile(&own_rules(290));
    let e = DataDir::open(&data, &DataSpec::new(&other, &bot, 1), Mode::Resume)
        .unwrap_err()
        .to_string();
    assert!(e.contains("rules key"), "{e}");
    for d in [dir, data] {
        std::fs::remove_dir_all(d).unwrap();
    }
}

#[test]
fn a_sweep_resumes_across_a_comment_in_its_rule_file_and_refuses_other_rules() {
    use murus_lab::sweep::{SweepConfig, run_sweep};
    let template = own_rules(289).replace(
        "board rect 8 x 7",
        "param files = 7, 8\nboard rect $files x 7",
    );
    let config = SweepConfig {
        set: Vec::new(),
        balance: BalanceConfig {
            levels: parse_levels("random").unwrap(),
            stopping: Stopping::Games(2),
            openings: 0,
            seed: 1,
            threads: 1,
            shard: None,
            skill_games: 0,
            max_plies: None,
            book: None,
        },
        shard: None,
        train: None,
    };
    let dir = temp!("sweep");
    let first = run_sweep("t.mg", &template, &config, Some((&dir, Mode::New)), &()).unwrap();
    assert_eq!(
        first.spec.variant.rules_key.as_ref().map(String::len),
        Some(64)
    );
    let commented = format!("// tried on Tuesday\n{template}");
    let again = run_sweep("t.mg", &commented, &config, Some((&dir, Mode::Resume)), &()).unwrap();
    // The same games, their reports naming the rules' text as given now.
    let games = |r: &murus_lab::sweep::SweepReport| -> Vec<_> {
        r.rows
            .iter()
            .map(|row| {
                let level = &row.balance.levels[0].report;
                (
                    row.rank,
                    row.tier,
                    level.by_seat.clone(),
                    level.length.clone(),
                )
            })
            .collect()
    };
    assert_eq!(games(&again), games(&first));
    let other = template.replace("plies 289", "plies 288");
    let e = run_sweep("t.mg", &other, &config, Some((&dir, Mode::Resume)), &())
        .unwrap_err()
        .to_string();
    assert!(e.contains("holds a different sweep: rules key"), "{e}");
    std::fs::remove_dir_all(dir).unwrap();
}
