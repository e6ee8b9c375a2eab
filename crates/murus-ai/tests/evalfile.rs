//! Evaluation files: what is written reads back the same, and anything
//! else (truncated, corrupt, another variant's, a later version, random
//! bytes) is a clear error, never a panic.

use murus_ai::Trained;
use murus_ai::eval::Weights;
use murus_ai::evalfile::{EvalFile, EvalFileError, rules_digest, source_digest};
use murus_ai::nnue::{Network, Shape, Trainer};
use murus_engine::Variant;
use proptest::prelude::*;

fn network_file() -> EvalFile {
    let v = Variant::standard();
    let shape = Shape {
        slots: 56,
        players: 2,
        heights: 2,
    };
    let net: Network = Trainer::new(shape, 8, 4).quantize();
    EvalFile::new(&v, "a test network", Trained::Network(net))
}

/// A four-player network (format version 2).
fn four_player_file() -> EvalFile {
    let v = Variant::builtin("escape4").unwrap();
    let shape = Shape {
        slots: 64,
        players: 4,
        heights: 2,
    };
    EvalFile::new(
        &v,
        "four players",
        Trained::Network(Trainer::new(shape, 4, 4).quantize()),
    )
}

/// A network correcting the features (format version 2).
fn correction_file() -> EvalFile {
    let EvalFile {
        variant_sha256,
        trained: Trained::Network(net),
        ..
    } = network_file()
    else {
        unreachable!("a network")
    };
    let Trained::Weights(w) = weights_file().trained else {
        unreachable!("weights")
    };
    EvalFile {
        variant_sha256,
        note: "a correction".into(),
        trained: Trained::Hybrid(w, net),
    }
}

fn weights_file() -> EvalFile {
    EvalFile {
        variant_sha256: rules_digest(&Variant::builtin("hex").unwrap()),
        note: String::new(),
        trained: Trained::Weights(Weights {
            material: 1,
            towers: -2,
            catapults: 3,
            mobility: 4,
            advancement: 5,
            siege: 6,
            blockers: 7,
            threats: -8,
        }),
    }
}

#[test]
fn files_read_back_as_written() {
    for (file, version) in [
        (network_file(), 1u32),
        (weights_file(), 1),
        (four_player_file(), 2),
        (correction_file(), 2),
    ] {
        let bytes = file.to_bytes();
        assert_eq!(&bytes[..8], b"MURUSEVL");
        assert_eq!(
            bytes[8..12],
            version.to_le_bytes(),
            "the oldest version that holds it"
        );
        assert_eq!(EvalFile::from_bytes(&bytes), Ok(file));
    }
}

#[test]
fn a_multi_player_network_in_a_version_1_file_is_refused() {
    let mut bytes = four_player_file().to_bytes();
    bytes[8..12].copy_from_slice(&1u32.to_le_bytes());
    let err = EvalFile::from_bytes(&bytes).unwrap_err();
    assert!(
        matches!(&err, EvalFileError::Corrupt(m) if m.contains("4 players in a version 1 file")),
        "{err}"
    );
}

#[test]
fn every_truncation_is_an_error() {
    for file in [
        network_file(),
        weights_file(),
        four_player_file(),
        correction_file(),
    ] {
        let bytes = file.to_bytes();
        for n in 0..bytes.len() {
            let r = EvalFile::from_bytes(&bytes[..n]);
            assert!(r.is_err(), "{n} of {} bytes read", bytes.len());
        }
    }
    let bytes = weights_file().to_bytes();
    assert_eq!(
        EvalFile::from_bytes(&bytes[..20]),
        Err(EvalFileError::Truncated("the variant's digest"))
    );
    assert_eq!(
        EvalFile::from_bytes(&bytes[..3]),
        Err(EvalFileError::Truncated("the magic"))
    );
    assert_eq!(
        EvalFile::from_bytes(b"hello"),
        Err(EvalFileError::NotEvalFile)
    );
}

#[test]
fn a_changed_byte_is_corruption() {
    let bytes = network_file().to_bytes();
    // Past the header, in the weights: only the checksum can tell.
    let mut bad = bytes.clone();
    bad[200] ^= 0x10;
    assert_eq!(
        EvalFile::from_bytes(&bad),
        Err(EvalFileError::Corrupt("the checksum does not match".into()))
    );
    let mut longer = bytes.clone();
    longer.insert(100, 0);
    assert!(EvalFile::from_bytes(&longer).is_err());
}

#[test]
fn a_correction_in_a_version_1_file_is_refused() {
    let mut bytes = correction_file().to_bytes();
    bytes[8..12].copy_from_slice(&1u32.to_le_bytes());
    let err = EvalFile::from_bytes(&bytes).unwrap_err();
    assert!(
        matches!(&err, EvalFileError::Corrupt(m) if m.contains("correcting the features in a version 1 file")),
        "{err}"
    );
}

#[test]
fn a_later_version_is_named() {
    let mut bytes = weights_file().to_bytes();
    bytes[8..12].copy_from_slice(&3u32.to_le_bytes());
    let err = EvalFile::from_bytes(&bytes).unwrap_err();
    assert_eq!(err, EvalFileError::FutureVersion(3));
    assert!(err.to_string().contains("version 3"), "{err}");
}

#[test]
fn another_variants_file_is_refused() {
    let file = weights_file();
    let hex = Variant::builtin("hex").unwrap();
    assert_eq!(file.check_variant(&hex), Ok(()));
    let err = file.check_variant(&Variant::standard()).unwrap_err();
    assert!(matches!(err, EvalFileError::WrongVariant { .. }));
    assert!(err.to_string().contains("trained on other rules"), "{err}");
    assert!(err.to_string().contains("murus train"), "{err}");
}

/// The standard game's text with a comment, a new title and its statements
/// in another order: the same rules.
fn standard_rewritten() -> Variant {
    let text = include_str!("../../../variants/standard.mg");
    let (head, rest) = text.split_at(text.find("stack limit").unwrap());
    let edited = format!(
        "// my copy\n{rest}\n{}",
        head.replace("title \"", "title \"My ")
    );
    assert_ne!(edited, text);
    Variant::compile(&edited).expect("the edited standard game compiles")
}

#[test]
fn an_evaluation_belongs_to_the_rules_not_the_text() {
    let standard = Variant::standard();
    let edited = standard_rewritten();
    assert_eq!(edited.rules_key(), standard.rules_key());
    // The shipped evaluation is the edited text's own, and its file fits.
    let own = murus_ai::Evaluation::for_variant(&standard);
    assert!(matches!(own, murus_ai::Evaluation::Trained(_)));
    assert_eq!(murus_ai::Evaluation::for_variant(&edited), own);
    let shipped = EvalFile::from_bytes(include_bytes!("../../../variants/standard.eval")).unwrap();
    assert_eq!(shipped.check_variant(&edited), Ok(()));
    // A file written now names the rules, so it fits any text of them.
    let file = network_file();
    assert_eq!(file.variant_sha256, *standard.rules_key().bytes());
    assert_eq!(file.check_variant(&edited), Ok(()));
    // A real change of rules is another game: refused, and no evaluation.
    let text =
        include_str!("../../../variants/standard.mg").replace("repetition 3", "repetition 4");
    let other = Variant::compile(&text).unwrap();
    assert_eq!(
        murus_ai::Evaluation::for_variant(&other),
        murus_ai::Evaluation::Generic
    );
    let err = shipped.check_variant(&other).unwrap_err();
    assert!(err.to_string().contains("trained on other rules"), "{err}");
}

#[test]
fn a_file_written_before_rules_had_keys_loads_for_exactly_its_text() {
    let standard = Variant::standard();
    let mut old = network_file();
    old.variant_sha256 = source_digest(standard.source());
    let old = EvalFile::from_bytes(&old.to_bytes()).unwrap();
    assert_eq!(old.check_variant(&standard), Ok(()));
    // It named the text, so another text of the same rules cannot tell.
    assert!(old.check_variant(&standard_rewritten()).is_err());
}

#[test]
fn an_evaluation_is_identified_by_its_numbers() {
    use murus_ai::Evaluation;
    assert_eq!(Evaluation::Generic.id(), "generic");
    assert_eq!(Evaluation::Generic.summary(), "generic features");
    let own = Evaluation::for_variant(&Variant::standard());
    let id = own.id();
    assert!(id.starts_with("sha256:") && id.len() == 7 + 64, "{id}");
    let summary = own.summary();
    assert!(summary.starts_with("trained: "), "{summary}");
    assert!(
        summary.contains(&format!("(shipped standard.eval, {}…)", &id[..19])),
        "{summary}"
    );
    // The same numbers under another note and rules digest: the same id.
    let mut copy = EvalFile::from_bytes(include_bytes!("../../../variants/standard.eval")).unwrap();
    copy.note = "a copy".into();
    copy.variant_sha256 = [7; 32];
    assert_eq!(copy.evaluation().id(), id);
    // Other numbers: another id, and no shipped file named.
    let other = network_file().evaluation();
    assert_ne!(other.id(), id);
    assert!(!other.summary().contains("shipped"), "{}", other.summary());
    assert_ne!(
        Evaluation::for_variant(&Variant::builtin("advanced").unwrap()).id(),
        id
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
        let _ = EvalFile::from_bytes(&bytes);
    }

    #[test]
    fn damaged_files_never_panic_and_never_read_as_another(
        at in 0usize..10_000,
        xor in 1u8..=255,
        cut in 0usize..10_000,
    ) {
        let good = network_file();
        let mut bytes = good.to_bytes();
        let i = at % bytes.len();
        bytes[i] ^= xor;
        let n = bytes.len() - cut % 64;
        bytes.truncate(n);
        if let Ok(read) = EvalFile::from_bytes(&bytes) {
            prop_assert_eq!(read, good);
        }
    }
}

/// Every `variants/NAME.eval` reads, fits `NAME.mg` beside it, and is the
/// one the binary embeds: the variant's own evaluation is that file's; and
/// every shipped variant has one.
#[test]
fn every_shipped_evaluation_is_embedded_and_fits_its_variant() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../variants");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "eval") {
            continue;
        }
        seen += 1;
        let bytes = std::fs::read(&path).unwrap();
        let file = EvalFile::from_bytes(&bytes).unwrap_or_else(|e| panic!("{path:?}: {e}"));
        let source = std::fs::read_to_string(path.with_extension("mg")).unwrap();
        let variant = Variant::compile(&source).unwrap();
        assert_eq!(file.variant_sha256, rules_digest(&variant), "{path:?}");
        match murus_ai::Evaluation::for_variant(&variant) {
            murus_ai::Evaluation::Trained(t) => assert_eq!(*t, file.trained, "{path:?}"),
            murus_ai::Evaluation::Generic => {
                panic!("{path:?} is not embedded (murus_engine::BUILTIN_EVALUATIONS)")
            }
        }
    }
    assert!(seen >= 3, "found {seen} shipped evaluations");
    // Every shipped variant has its trained evaluation.
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "mg") {
            assert!(
                path.with_extension("eval").is_file(),
                "{path:?} has no trained evaluation beside it"
            );
        }
    }
}

/// A network correcting the features adds its value to theirs: one whose
/// own value is always 0 plays as the generic features do, move for move,
/// and one that says something plays otherwise.
#[test]
fn a_correction_worth_nothing_plays_as_the_generic_features() {
    use murus_ai::{Bot, BotSpec, Evaluation};
    use murus_engine::{Engine, EngineTask, Game, Word};
    use std::sync::Arc;
    struct ShapeOf;
    impl EngineTask for ShapeOf {
        type Output = (Shape, murus_ai::eval::Weights);
        fn run<B: Word>(self, e: &Engine<B>) -> Self::Output {
            (Shape::of(e), murus_ai::eval::Weights::for_engine(e))
        }
    }
    for name in ["standard", "escape"] {
        let v = Variant::builtin(name).unwrap();
        let (shape, weights) = v.run(ShapeOf);
        let play = |evaluation: Evaluation| {
            let mut bot = Bot::new(
                BotSpec::AlphaBeta {
                    nodes: 3000,
                    eval: None,
                },
                7,
            );
            bot.set_evaluation(evaluation);
            let mut game = Game::new(&v);
            for _ in 0..16 {
                if game.outcome().is_some() {
                    break;
                }
                let m = bot.choose_in_game(&game).unwrap();
                game.play(m);
            }
            game.record().moves
        };
        let hybrid = |net: Network| Evaluation::Trained(Arc::new(Trained::Hybrid(weights, net)));
        let mut nothing = Trainer::new(shape, 8, 1).quantize();
        nothing.w2.fill(0);
        nothing.b2.fill(0);
        let generic = play(Evaluation::Generic);
        assert_eq!(play(hybrid(nothing)), generic, "{name}");
        let mut something = Trainer::new(shape, 8, 1).quantize();
        something.b2.fill(0);
        for w in &mut something.w2 {
            *w = w.saturating_mul(40);
        }
        assert_ne!(play(hybrid(something)), generic, "{name}");
    }
}
