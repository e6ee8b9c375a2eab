//! `murus serve --export-run`: the finished games kept in a data folder
//! written as a lab run folder, without serving, that `murus lab merge`
//! reads (replaying every game) and reports.

use serde_json::{Value, json};

use crate::serve::{request, start};
use crate::serve_export::resigned_game;
use crate::util::{TempDir, murus, stderr, stdout};

#[cfg(unix)]
#[test]
fn serve_exports_the_finished_games_as_a_run_folder_that_lab_merge_reports() {
    let data = TempDir::new("serve-export-run");
    let (child, addr) = start(&data);
    resigned_game(&addr, 2);
    resigned_game(&addr, 3);
    // One drawn by agreement: offered, then accepted.
    let body = json!({"variant": "standard", "seats": ["human", "human"]}).to_string();
    let (status, made) = request(&addr, "POST", "/api/games", None, &body);
    assert_eq!(status, 201, "{made}");
    let id = made["id"].as_str().unwrap();
    for seat in 0..2 {
        let token = made["seats"][seat]["token"].as_str().unwrap();
        let uri = format!("/api/games/{id}/draw");
        let (status, g): (u16, Value) = request(&addr, "POST", &uri, Some(token), "");
        assert_eq!(status, 200, "{g}");
    }
    // One still going on: left out.
    let (status, _) = request(&addr, "POST", "/api/games", None, &body);
    assert_eq!(status, 201);
    crate::util::signal(&child, "TERM");
    let out = crate::util::finish(child);
    assert!(out.status.success(), "{}", stderr(&out));

    let run = data.join("run");
    let export = |extra: &[&str]| {
        let mut args = vec!["serve", "--data", data.to_str().unwrap()];
        args.extend(["--export-run", "standard", run.to_str().unwrap()]);
        args.extend(extra);
        murus(&args)
    };
    let out = export(&[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("wrote a run folder of 3 finished games to"),
        "{}",
        stderr(&out)
    );
    assert!(
        stdout(&out).is_empty(),
        "it does not serve: {}",
        stdout(&out)
    );
    let games = std::fs::read_to_string(run.join("games.jsonl")).unwrap();
    assert_eq!(games.lines().count(), 3, "{games}");
    // Written once; again only with --force.
    let out = export(&[]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("give --force"), "{}", stderr(&out));
    assert!(export(&["--force"]).status.success());

    // The lab reads it as one of its runs: every game replayed, reported.
    let merged = data.join("merged");
    let out = murus(&[
        "lab",
        "merge",
        run.to_str().unwrap(),
        "--out",
        merged.to_str().unwrap(),
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let report: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(report["games"], 3, "{report}");
    assert_eq!(report["end_reasons"]["resignation"], 2, "{report}");
    assert_eq!(report["end_reasons"]["agreement"], 1, "{report}");
    assert_eq!(report["bots"], json!(["human", "human"]), "{report}");
    let out = murus(&["lab", "merge", run.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("standard: 3 games"), "{text}");
    assert!(text.contains("Seat 1 (human)"), "{text}");
    assert!(text.contains("Draws            1 (33.3%)"), "{text}");
    assert!(
        text.contains("Endings          agreement 1, resignation 2"),
        "{text}"
    );

    // An edited line is refused by the lab's replay check.
    let edited = games.replacen("\"agreement\"", "\"stalemate\"", 1);
    std::fs::write(run.join("games.jsonl"), edited).unwrap();
    let out = murus(&["lab", "merge", run.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("not a game of these rules"),
        "{}",
        stderr(&out)
    );
}
