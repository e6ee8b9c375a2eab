//! Reading what the user names: a variant (a rule file or a shipped
//! variant's name), a position string, moves in notation.

use std::path::Path;

use anyhow::{Context, Result, anyhow, bail};
use murus_dsl::suggest::closest;
use murus_engine::{BUILTIN, Game, Outcome, Position, Variant};

/// The rules text of a `.mg` path or of a shipped variant named so, and
/// the path when it is a file. A name or file that is not there gets
/// "did you mean" the closest one.
pub(crate) fn rules_source(spec: &str) -> Result<(String, Option<&Path>)> {
    let path = Path::new(spec);
    if path.exists() || spec.ends_with(".mg") || spec.contains('/') {
        return Ok((read_rules_file(path, true)?, Some(path)));
    }
    if let Some((_, src)) = BUILTIN.iter().find(|(n, _)| *n == spec) {
        return Ok(((*src).to_string(), None));
    }
    let names: Vec<&str> = BUILTIN.iter().map(|(n, _)| *n).collect();
    let guess = closest(spec, names.iter().copied())
        .map_or(String::new(), |n| format!("; did you mean `{n}`?"));
    bail!(
        "unknown variant `{spec}`: not a file, nor a shipped variant ({}){guess}",
        names.join(", ")
    )
}

/// The text of the rule file at `path`. One that is not there names the
/// closest `.mg` file of its folder, or with `shipped` the closest
/// shipped variant (`standrd.mg`: `standard`), when one is close.
pub(crate) fn read_rules_file(path: &Path, shipped: bool) -> Result<String> {
    let e = match std::fs::read_to_string(path) {
        Ok(text) => return Ok(text),
        Err(e) => e,
    };
    let spec = path.display();
    if e.kind() != std::io::ErrorKind::NotFound {
        return Err(e).with_context(|| format!("cannot read rule file `{spec}`"));
    }
    let guess = nearest_file(path).or_else(|| {
        let stem = path.file_stem()?.to_str()?;
        let name = closest(stem, BUILTIN.iter().map(|(n, _)| *n)).filter(|_| shipped)?;
        Some(format!("the shipped variant `{name}`"))
    });
    match guess {
        Some(g) => bail!("cannot read rule file `{spec}`: {e}; did you mean {g}?"),
        None => Err(e).with_context(|| format!("cannot read rule file `{spec}`")),
    }
}

/// The `.mg` file of `path`'s folder whose name is closest to its own, if
/// one is close, written as `path` is (`variants/standard.mg`).
fn nearest_file(path: &Path) -> Option<String> {
    let name = path.file_name()?.to_str()?;
    let folder = path.parent().filter(|p| !p.as_os_str().is_empty());
    let entries = std::fs::read_dir(folder.unwrap_or(Path::new("."))).ok()?;
    let files: Vec<String> = entries
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".mg"))
        .collect();
    let found = closest(name, files.iter().map(String::as_str))?;
    Some(format!(
        "`{}`",
        folder.map_or(found.into(), |f| f.join(found)).display()
    ))
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
    Ok(with_own_evaluation(path, variant))
}

/// The variant with the evaluation file beside its rules file (`foo.eval`
/// beside `foo.mg`) kept with it ([`Variant::with_evaluation`]), so that
/// its bots use it; one that cannot be used is named in a warning, and the
/// bots keep the generic features.
fn with_own_evaluation(rules: &Path, variant: Variant) -> Variant {
    let file = rules.with_extension(murus_ai::evalfile::EXTENSION);
    let Ok(bytes) = std::fs::read(&file) else {
        return variant;
    };
    let checked = murus_ai::EvalFile::from_bytes(&bytes).and_then(|f| f.check_variant(&variant));
    match checked {
        Ok(()) => variant.with_evaluation(bytes),
        Err(e) => {
            eprintln!(
                "warning: {}: {e}; the bots use the generic evaluation",
                file.display()
            );
            variant
        }
    }
}

/// The position of `--position TEXT`, or the start without one.
pub(crate) fn load_position(v: &Variant, text: Option<&str>) -> Result<Position> {
    match text {
        None => Ok(v.start()),
        Some(t) => v.parse_position(t).map_err(anyhow::Error::from),
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
    game.play_str(text).map_err(anyhow::Error::from)?;
    Ok(())
}

/// Plays `--moves` in `game`, in turn; the first that cannot be played is
/// an error naming its place, its text and why.
pub(crate) fn play_moves(game: &mut Game, moves: &[String]) -> Result<()> {
    for (i, m) in moves.iter().enumerate() {
        play(game, m).with_context(|| format!("--moves: move {} `{m}`", i + 1))?;
    }
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
    play_moves(&mut game, moves)?;
    if let Some(o) = game.outcome() {
        bail!("{}", game_over(&game, o));
    }
    Ok(game)
}
