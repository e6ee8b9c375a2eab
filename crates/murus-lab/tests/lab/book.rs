//! Opening books: every bad book in `tests/lab/books/errors/` is refused with
//! its diagnostics (snapshotted), and a run's games open with their round's
//! line, recorded in the run's provenance, which a resume must match.

use std::sync::Arc;

use murus_ai::BotSpec;
use murus_engine::Variant;
use murus_lab::balance::{BalanceConfig, Stopping, merge_balance, parse_levels, run_balance};
use murus_lab::{Book, Config, LabError, Mode, Partial, RunDir, run};

use crate::util::temp;

#[test]
fn bad_books_are_refused_with_the_place_and_the_problem() {
    let v = Variant::standard();
    insta::glob!("books/errors/*.txt", |path| {
        let text = std::fs::read_to_string(path).expect("readable");
        let name = format!(
            "errors/{}",
            path.file_name().expect("a file").to_string_lossy()
        );
        let e = Book::parse(&name, &text, &v).expect_err("every error case is refused");
        let LabError::Book { ref rendered, .. } = e else {
            panic!("{name}: not a book error: {e}");
        };
        let message = e.to_string();
        assert!(message.starts_with(&format!("{name}:")), "{message}");
        insta::assert_snapshot!(format!("{message}\n\n{rendered}"));
    });
}

/// A book of `lines` openings of `variant`, each two plies long and each
/// different: the `k`-th legal first move, then the first legal reply.
fn book_text(v: &Variant, lines: usize) -> String {
    let start = v.start();
    let first = v.legal_moves(&start);
    let mut text = String::from("# generated\n");
    for k in 0..lines {
        let m = first[k % first.len()];
        let next = v.play(&start, m);
        let reply = v.legal_moves(&next)[0];
        text.push_str(&format!(
            "{} {}\n",
            v.move_to_string(m),
            v.move_to_string(reply)
        ));
    }
    text
}

fn texts(v: &Variant, moves: &[murus_engine::Move]) -> Vec<String> {
    moves.iter().map(|&m| v.move_to_string(m)).collect()
}

#[test]
fn each_round_of_games_opens_with_its_book_line_and_rounds_cycle_through_the_lines() {
    for name in ["standard", "hex3-escape"] {
        let v = Variant::builtin(name).unwrap();
        let players = v.player_count() as u64;
        let book = Arc::new(Book::parse("two.txt", &book_text(&v, 2), &v).unwrap());
        assert_ne!(book.line(0), book.line(1));
        // Three rounds: lines 0, 1, then 0 again.
        let games = 3 * players;
        let config = Config::new(&v, vec![BotSpec::Random], games, 9)
            .with_threads(2)
            .with_book(book.clone());
        assert!(config.record_moves);
        let mut played = run(&v, &config, &()).unwrap();
        played.sort_by_key(|g| g.stats.index);
        assert_eq!(played.len() as u64, games);
        for g in &played {
            let round = g.stats.index / players;
            let line = texts(&v, book.line(round as usize % 2));
            assert_eq!(
                g.moves[..line.len()],
                line[..],
                "{name}: game {} (round {round}) opens with line {}",
                g.stats.index,
                round % 2
            );
            assert!(
                g.moves.len() > line.len(),
                "{name}: the bots play on after the book"
            );
        }
        // The report, its JSON and its CSV name the book.
        let report = config.report(&murus_lab::stats_of(&played));
        let json = report.to_json();
        assert!(
            json.contains("\"book\": {\n    \"name\": \"two.txt\""),
            "{json}"
        );
        let csv = murus_lab::write::report_csv(&report);
        assert!(csv.contains("provenance,book,two.txt\n"), "{csv}");
        assert!(
            csv.contains(&format!("provenance,book_sha256,{}\n", book.id().sha256)),
            "{csv}"
        );
    }
}

#[test]
fn a_book_wins_over_random_openings_in_either_order() {
    let v = Variant::standard();
    let book = Arc::new(Book::parse("b.txt", "d1-d3\n", &v).unwrap());
    for config in [
        Config::new(&v, vec![BotSpec::Random], 4, 1)
            .with_openings(6)
            .with_book(book.clone()),
        Config::new(&v, vec![BotSpec::Random], 4, 1)
            .with_book(book.clone())
            .with_openings(6),
    ] {
        assert_eq!(config.provenance().openings, 0);
        assert_eq!(config.provenance().book.as_ref(), Some(book.id()));
        let setup = config.setup(3);
        assert_eq!(setup.openings, 0, "no random plies after the book's");
        assert_eq!(setup.book_line.as_deref(), Some(book.line(0)));
    }
    // Without a book nothing changes: no book in the setup or the files.
    let plain = Config::new(&v, vec![BotSpec::Random], 4, 1).with_openings(6);
    assert_eq!(plain.setup(0).book_line, None);
    assert_eq!(plain.setup(0).openings, 6);
    let spec = serde_json::to_string(&plain.run_spec()).unwrap();
    assert!(!spec.contains("book"), "{spec}");
    let report = plain.report(&[]).to_json();
    assert!(!report.contains("book"), "{report}");
}

#[test]
fn a_book_of_another_board_stops_the_run_with_an_error_not_a_panic() {
    let large = Variant::builtin("large").unwrap();
    let small = Variant::builtin("small").unwrap();
    // `i1` is on the large board's ninth file: the small board has seven.
    let book = Arc::new(Book::parse("large.txt", "i1-i3\n", &large).unwrap());
    let config = Config::new(&small, vec![BotSpec::Random], 4, 1).with_book(book);
    let e = murus_lab::spawn(&small, config.clone(), None, ())
        .unwrap()
        .join()
        .unwrap_err();
    assert!(
        e.to_string()
            .contains("the opening book's move at ply 1 is not legal here"),
        "{e}"
    );
    // In the foreground alike.
    let e = run(&small, &config, &()).unwrap_err();
    assert!(e.to_string().contains("is not legal here"), "{e}");
}

#[test]
fn a_run_resumes_only_with_the_same_book() {
    let v = Variant::standard();
    let dir = temp!("resume");
    let a = Arc::new(Book::parse("openings.txt", "d1-d3\n", &v).unwrap());
    // The same name, another text.
    let b = Arc::new(Book::parse("openings.txt", "d1-d3\nc1-c3\n", &v).unwrap());
    let config = |book: &Arc<Book>| {
        Config::new(&v, vec![BotSpec::Random], 6, 2)
            .with_threads(1)
            .with_book(book.clone())
    };
    drop(
        RunDir::open(&dir, &config(&a).run_spec(), Mode::New)
            .unwrap()
            .0,
    );
    let run_json = std::fs::read_to_string(dir.join("run.json")).unwrap();
    assert!(run_json.contains(&a.id().sha256), "{run_json}");
    let e = RunDir::open(&dir, &config(&b).run_spec(), Mode::Resume).unwrap_err();
    let LabError::Mismatch { differences, .. } = &e else {
        panic!("not a mismatch: {e}");
    };
    assert_eq!(
        differences,
        &[format!(
            "opening book {} there, {} asked",
            a.id().describe(),
            b.id().describe()
        )]
    );
    assert!(e.to_string().contains("(1 line, sha256 "), "{e}");
    // No book asked of a run that has one: refused too.
    let plain = Config::new(&v, vec![BotSpec::Random], 6, 2);
    let e = RunDir::open(&dir, &plain.run_spec(), Mode::Resume).unwrap_err();
    assert!(e.to_string().contains(" there, none asked"), "{e}");
    // The same book resumes.
    assert!(RunDir::open(&dir, &config(&a).run_spec(), Mode::Resume).is_ok());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `config` with every round opened from `book`.
fn with_book(config: &BalanceConfig, book: &Arc<Book>) -> BalanceConfig {
    BalanceConfig {
        book: Some(book.clone()),
        ..config.clone()
    }
}

fn check(shard: Option<(u64, u64)>) -> BalanceConfig {
    BalanceConfig {
        levels: parse_levels("random,easy").unwrap(),
        stopping: Stopping::Games(4),
        openings: 4,
        seed: 3,
        threads: 2,
        shard,
        skill_games: 2,
        max_plies: Some(80),
        book: None,
    }
}

#[test]
fn a_balance_check_opens_levels_and_skill_matches_from_its_book() {
    let v = Variant::standard();
    let book = Arc::new(Book::parse("b.txt", &book_text(&v, 3), &v).unwrap());
    let dir = temp!("balance");
    let report = run_balance(
        &v,
        &with_book(&check(None), &book),
        Some((&dir, Mode::New)),
        &(),
    )
    .unwrap();
    assert_eq!(report.book.as_ref(), Some(book.id()));
    assert_eq!(report.openings, 0, "the book wins over random plies");
    for l in &report.levels {
        assert_eq!(
            l.report.provenance.book.as_ref(),
            Some(book.id()),
            "{}",
            l.level
        );
    }
    let json = std::fs::read_to_string(dir.join("balance.json")).unwrap();
    assert!(json.contains("\"book\": {"), "{json}");
    // The skill match's games open from the book too.
    let games = std::fs::read_to_string(dir.join("skill/easy-vs-random/games.jsonl")).unwrap();
    let mut count = 0;
    for line in games.lines() {
        let g: murus_lab::GameResult = serde_json::from_str(line).unwrap();
        let opening = texts(&v, book.line((g.stats.index / 2) as usize));
        assert_eq!(g.moves[..opening.len()], opening[..]);
        count += 1;
    }
    assert_eq!(count, 2);
    // Resuming it with another book is refused, naming the difference.
    let other = Arc::new(Book::parse("b.txt", &book_text(&v, 2), &v).unwrap());
    let e = run_balance(
        &v,
        &with_book(&check(None), &other),
        Some((&dir, Mode::Resume)),
        &(),
    )
    .unwrap_err();
    assert!(e.to_string().contains("opening book b.txt (3 lines"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn shards_of_checks_with_different_books_do_not_merge() {
    let v = Variant::standard();
    let a = Arc::new(Book::parse("a.txt", &book_text(&v, 2), &v).unwrap());
    let b = Arc::new(Book::parse("a.txt", &book_text(&v, 3), &v).unwrap());
    let (one, two) = (temp!("shard1"), temp!("shard2"));
    let mut config = check(Some((1, 2)));
    config.skill_games = 0;
    run_balance(&v, &with_book(&config, &a), Some((&one, Mode::New)), &()).unwrap();
    config.shard = Some((2, 2));
    run_balance(&v, &with_book(&config, &b), Some((&two, Mode::New)), &()).unwrap();
    let e = merge_balance(&[&one, &two], None, Partial::Refuse).unwrap_err();
    assert!(
        e.to_string().contains(&format!(
            "opening book {} there, {} here",
            a.id().describe(),
            b.id().describe()
        )),
        "{e}"
    );
    // The same book's shards merge, and the merge keeps it.
    let three = temp!("shard3");
    run_balance(&v, &with_book(&config, &a), Some((&three, Mode::New)), &()).unwrap();
    let merged = merge_balance(&[&one, &three], None, Partial::Refuse).unwrap();
    assert_eq!(merged.book.as_ref(), Some(a.id()));
    for d in [one, two, three] {
        std::fs::remove_dir_all(&d).unwrap();
    }
}
