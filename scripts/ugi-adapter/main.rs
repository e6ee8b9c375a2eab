//! A UGI engine over an older build's library, to measure strength across
//! versions (`scripts/build-old-engine.sh` copies this file into a checkout
//! of the older commit and builds it there; it is not part of the
//! workspace). It uses only what the libraries have had since commit
//! d32e464, so it builds there and at later commits: `Variant`, `Game` and
//! `Bot::choose` (which sees the position, not the game's repetitions). Each `go` searches with the `bot` option's own
//! budget, whatever the limits say: the old engine is a fixed opponent.

use std::io::{self, BufRead, Write};

use murus_ai::{Bot, BotSpec};
use murus_engine::{Game, Variant};

fn load(spec: &str) -> Result<Variant, String> {
    if let Some(v) = Variant::builtin(spec) {
        return Ok(v);
    }
    let source = std::fs::read_to_string(spec).map_err(|e| format!("{spec}: {e}"))?;
    Variant::compile(&source).map_err(|d| format!("{spec}: {} errors", d.len()))
}

fn main() {
    let default_bot = std::env::args().nth(1).unwrap_or_else(|| "alphabeta:400000".into());
    let mut bot: BotSpec = default_bot.parse().expect("a bot spec of this build");
    let mut variant = Variant::standard();
    let mut game = Game::new(&variant);
    let stdin = io::stdin();
    let mut out = io::stdout();
    let mut say = |line: String| {
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    };
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        let result: Result<(), String> = match words.as_slice() {
            [] => Ok(()),
            ["ugi"] => {
                say("id name Murus d32e464 (adapter)".into());
                say("id author the Murus authors".into());
                say("option name variant type string default standard".into());
                say(format!("option name bot type string default {bot}"));
                say("ugiok".into());
                Ok(())
            }
            ["isready"] => {
                say("readyok".into());
                Ok(())
            }
            ["uginewgame"] => {
                game = Game::new(&variant);
                Ok(())
            }
            ["setoption", "name", name, "value", value @ ..] => match *name {
                "variant" => load(&value.join(" ")).map(|v| {
                    game = Game::new(&v);
                    variant = v;
                }),
                "bot" => value
                    .join(" ")
                    .parse()
                    .map(|b| bot = b)
                    .map_err(|e| format!("{e}")),
                _ => Ok(()),
            },
            ["position", rest @ ..] => {
                let split = rest.iter().position(|&w| w == "moves");
                let (place, moves) = match split {
                    Some(i) => (&rest[..i], &rest[i + 1..]),
                    None => (rest, &[][..]),
                };
                let start = match place {
                    ["startpos"] => Ok(variant.start()),
                    ["fen", text @ ..] => variant
                        .parse_position(&text.join(" "))
                        .map_err(|e| e.to_string()),
                    _ => Err("position: startpos or fen".to_string()),
                };
                start.and_then(|start| {
                    let mut g = Game::from_position(&variant, start);
                    for m in moves {
                        g.play_str(m).map_err(|e| e.to_string())?;
                    }
                    game = g;
                    Ok(())
                })
            }
            ["go", ..] => {
                let seed = variant.hash(game.position());
                let best = Bot::new(bot.clone(), seed).choose(&variant, game.position());
                say(match best {
                    Some(m) => format!("bestmove {}", variant.move_to_string(m)),
                    None => "bestmove (none)".into(),
                });
                Ok(())
            }
            ["query", "p1turn"] => {
                say(format!("response {}", variant.turn(game.position()) == 0));
                Ok(())
            }
            ["query", "gameover"] => {
                say(format!("response {}", game.outcome().is_some()));
                Ok(())
            }
            ["query", "result"] => {
                let r = match game.outcome() {
                    None => "none".to_string(),
                    Some(o) => o.winner.map_or("draw".into(), |w| format!("p{}win", w + 1)),
                };
                say(format!("response {r}"));
                Ok(())
            }
            ["stop"] => Ok(()),
            ["quit"] => break,
            _ => Err(format!("unknown command `{line}`")),
        };
        if let Err(e) = result {
            say(format!("info string error {e}"));
        }
    }
}
