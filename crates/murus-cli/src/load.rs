//! Reading what the user names: a variant (a rule file or a shipped
//! variant's name), a position string, moves in notation.

use std::path::Path;

use anyhow::{Context, Result, anyhow, bail};
use murus_engine::{BUILTIN, Game, Outcome, Position, Variant};

/// The rules text of a `.mg` path or of a shipped variant named so, and
/// the path when it is a file.
pub(crate) fn rules_source(spec: &str) -> Result<(String, Option<&Path>)> {
    let path = Path::new(spec);
    if path.exists() || spec.ends_with(".mg") || spec.contains('/') {
        let source = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read rule file `{spec}`"))?;
        return Ok((source, Some(path)));
    }
    if let Some((_, src)) = BUILTIN.iter().find(|(n, _)| *n == spec) {
        return Ok(((*src).to_string(), None));
    }
    let names: Vec<&str> = BUILTIN.iter().map(|(n, _)| *n).collect();
    bail!(
        "unknown variant `{spec}`: not a file, nor a shipped variant ({})",
        names.join(", ")
    )
}

/// A `.mg` path or a shipped variant's name, compiled; a rule file's
/// diagnostics go to stderr, rendered like rustc's.
pub(crate) fn load_variant(spec: &str) -> Result<Variant> {
    load_variant_with(spec, &[])
}

/// [`load_variant`] with parameter values (`--set files=5`); the others
/// keep their defaults.
pub(crate) fn load_variant_with(spec: &str, set: &[(String, u32)]) -> Result<Variant> {
    let (source, path) = rules_source(spec)?;
    let Some(path) = path else {
        return Variant::compile_with(&source, set).map_err(|diags| {
            eprint!("{}", murus_dsl::render_all(&diags, spec, &source));
            anyhow!("the shipped variant `{spec}` does not compile with these settings")
        });
    };
    let variant = Variant::compile_with(&source, set).map_err(|diags| {
        eprint!("{}", murus_dsl::render_all(&diags, spec, &source));
        anyhow!("`{spec}` has errors")
    })?;
    register_own_evaluation(path, &variant);
    Ok(variant)
}

/// Makes the evaluation file beside a rules file (`foo.eval` beside
/// `foo.mg`) its variant's evaluation; one that cannot be used is named in
/// a warning, and the bots keep the generic features.
fn register_own_evaluation(rules: &Path, variant: &Variant) {
    let file = rules.with_extension(murus_ai::evalfile::EXTENSION);
    let Ok(bytes) = std::fs::read(&file) else {
        return;
    };
    let checked =
        murus_ai::EvalFile::from_bytes(&bytes).and_then(|f| f.check_variant(variant).map(|()| f));
    match checked {
        Ok(f) => murus_ai::evalfile::register(f),
        Err(e) => eprintln!(
            "warning: {}: {e}; the bots use the generic evaluation",
            file.display()
        ),
    }
}

/// The position of `--position TEXT`, or the start without one.
pub(crate) fn load_position(v: &Variant, text: Option<&str>) -> Result<Position> {
    match text {
        None => Ok(v.start()),
        Some(t) => v.parse_position(t).map_err(|e| anyhow!("{e}")),
    }
}

/// The sentence for a finished game: `the game is over: Romans win by
/// breakthrough`.
pub(crate) fn game_over(game: &Game, outcome: Outcome) -> String {
    let v = game.variant();
    format!(
        "the game is over: {}",
        v.describe_outcome_at(outcome, game.position())
    )
}

/// Plays the move written `text` in `game`. A finished game refuses it
/// saying that it is over and why; an illegal move names the legal ones.
pub(crate) fn play(game: &mut Game, text: &str) -> Result<()> {
    if let Some(outcome) = game.outcome() {
        bail!(
            "`{}` cannot be played: {}",
            text.trim(),
            game_over(game, outcome)
        );
    }
    game.play_str(text).map_err(|e| anyhow!("{e}"))?;
    Ok(())
}

/// The game a search starts from: `--position` (or the start), then
/// `--moves`; a finished game is an error saying how it ended (it has no
/// move to search).
pub(crate) fn game_to_search(
    v: &Variant,
    position: Option<&str>,
    moves: &[String],
) -> Result<Game> {
    let pos = load_position(v, position)?;
    let mut game = Game::from_position(v, pos);
    for (i, m) in moves.iter().enumerate() {
        play(&mut game, m).map_err(|e| anyhow!("--moves: move {} `{m}`: {e}", i + 1))?;
    }
    if let Some(o) = game.outcome() {
        bail!("{}", game_over(&game, o));
    }
    Ok(game)
}
