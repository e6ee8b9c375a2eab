#!/usr/bin/env bash
# Builds an older commit of Murus as a UGI engine, to measure strength across
# versions with `murus match … "ugi:…"`:
#
#   scripts/build-old-engine.sh d32e464
#   # -> target/old-engines/d32e464/murus-ugi-adapter [BOT]   (default alphabeta:400000)
#   murus match standard "ugi:movetime=100 target/release/murus ugi" \
#       "ugi:target/old-engines/d32e464/murus-ugi-adapter" --games 200
#
# The commit's tree is exported (git archive) beside the project's target
# folder, scripts/ugi-adapter/main.rs is added to it as one more crate (it
# uses only the libraries' API of d32e464), and that crate is built in
# release with the commit's own lock file. Nothing is committed.
set -euo pipefail
cd "$(dirname "$0")/.."
commit=${1:?usage: scripts/build-old-engine.sh COMMIT}
out="${CARGO_TARGET_DIR:-target}/old-engines/$commit"
src="$out/src"
rm -rf "$src"
mkdir -p "$src"
git archive "$commit" | tar -x -C "$src"
mkdir -p "$src/crates/murus-ugi-adapter/src"
cp scripts/ugi-adapter/main.rs "$src/crates/murus-ugi-adapter/src/main.rs"
cat > "$src/crates/murus-ugi-adapter/Cargo.toml" <<'TOML'
[package]
name = "murus-ugi-adapter"
version = "0.1.0"
edition = "2024"

[dependencies]
murus-engine = { path = "../murus-engine" }
murus-ai = { path = "../murus-ai" }
TOML
(cd "$src" && cargo build --release --offline -p murus-ugi-adapter)
cp "$src/target/release/murus-ugi-adapter" "$out/"
echo "built $out/murus-ugi-adapter"
