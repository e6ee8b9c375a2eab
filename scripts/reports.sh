#!/usr/bin/env bash
# The designer's report of every two-player shipped variant, into
# docs/reports/NAME/ (the page and its figures; the puzzle sheet and records
# stay in the run folder), and docs/reports/README.md, the table of their
# headline numbers.
#
#   scripts/reports.sh [--quick | --standard | --deep] [--seed S] [VARIANT...]
#   scripts/reports.sh --tables     (only the tables, from the reports there)
#
# The table goes into docs/reports/README.md, and its short form into the
# README, between its `reports:begin` and `reports:end` marks.
#
# Each report's run folder (its games) stays in target/reports/NAME, so a
# run stopped half-way goes on where it stopped when the script is run
# again with the same settings.
set -euo pipefail
cd "$(dirname "$0")/.."

budget=--standard
seed=1
variants=()
tables_only=
while [ $# -gt 0 ]; do
    case "$1" in
        --quick | --standard | --deep) budget="$1" ;;
        --tables) tables_only=1 ;;
        --seed) seed="$2"; shift ;;
        -*) echo "reports.sh: unknown option $1" >&2; exit 2 ;;
        *) variants+=("$1") ;;
    esac
    shift
done
if [ ${#variants[@]} -eq 0 ]; then
    # Every shipped variant with two players (its file names two).
    for f in variants/*.mg; do
        if [ "$(grep -c '^player ' "$f")" -eq 2 ]; then
            variants+=("$(basename "$f" .mg)")
        fi
    done
fi
if [ -n "$tables_only" ]; then
    variants=()
fi

# MURUS=path runs a binary built beforehand (so that a build made meanwhile
# does not change the binary half-way through the reports).
murus="${MURUS:-}"
if [ -z "$murus" ] && [ -z "$tables_only" ]; then
    cargo build --release -p murus-cli
    murus=target/release/murus
fi
for v in ${variants[@]+"${variants[@]}"}; do
    run="target/reports/$v"
    echo "== $v ($budget, seed $seed)"
    "$murus" report "$v" "$budget" --seed "$seed" --out "$run" --resume > /dev/null
    dest="docs/reports/$v"
    rm -rf "$dest"
    mkdir -p "$dest"
    cp "$run/index.html" "$run/report.json" "$dest/"
done

# The table of headline numbers, from every report there.
python3 - <<'EOF'
import json, pathlib, re

rows = []
short = []
budgets = set()
for path in sorted(pathlib.Path("docs/reports").glob("*/report.json")):
    r = json.loads(path.read_text())
    levels = [l for l in r["fairness"]["balance"]["levels"] if l["report"]["games"] > 0]
    top = levels[-1]
    f = top["report"]["first_player_advantage"]
    ladder = (r.get("ladder") or {}).get("ladder") or {}
    solved = r.get("solved") or {}
    rows.append((
        path.parent.name,
        r["rules"]["title"],
        r["budget"],
        f"{f['rate'] * 100:.1f}% [{f['ci95'][0] * 100:.1f}, {f['ci95'][1] * 100:.1f}] at {top['level']}",
        (("at least " if (r.get("ladder") or {}).get("answer", "").startswith("At least") else "")
         + str(len(ladder.get("rungs", [])))
         + (f" [{ladder['rung_range'][0]}, {ladder['rung_range'][1]}]" if ladder.get("rung_range") else "")
         + (" (still rising)" if ladder.get("still_rising") else "")) if ladder else "–",
        f"{top['report']['length']['mean']:.1f}",
        f"{r['speed']['playouts']['branching']['mean']:.1f}",
        solved.get("value", "–"),
        "generic" if r["rules"]["evaluation"] == "generic" else "trained",
    ))
    budgets.add(r["budget"])
budget = " / ".join(f"--{b}" for b in sorted(budgets))
# Where the reports' budgets differ, the short table names each row's.
for row in rows:
    own = f" (`--{row[2]}`)" if len(budgets) > 1 else ""
    short.append("| [{}](docs/reports/{}/index.html){} | {} | {} | {} | {} |".format(
        row[0], row[0], own, row[3], row[4], row[5], row[6]))
out = [
    "# The shipped variants' reports",
    "",
    "Written by `scripts/reports.sh` (`murus report NAME " + budget + "` for each",
    "two-player shipped variant); each folder holds the page (`index.html`) and",
    "its figures (`report.json`); the puzzle sheets and records are in the run",
    "folders (`target/reports/NAME`). Regenerate them with the script;",
    "[docs/report.md](../report.md) explains each figure.",
    "",
    "| variant | title | budget | first player wins (strongest level) | rungs [least, most of 2 climbs] | mean length | moves a position (random games) | solved | evaluation |",
    "|---|---|---|---|---|---|---|---|---|",
]
for row in rows:
    name = row[0]
    out.append(f"| [{name}]({name}/index.html) | " + " | ".join(row[1:]) + " |")
pathlib.Path("docs/reports/README.md").write_text("\n".join(out) + "\n")
print("\n".join(out))

readme = pathlib.Path("README.md")
text = readme.read_text()
table = "\n".join([
    "<!-- reports:begin (scripts/reports.sh writes this table) -->",
    "| variant (`" + budget + "` report) | first player wins, strongest level | rungs [least, most of 2 climbs] | mean length | moves a position |",
    "|---|---|---|---|---|",
    *short,
    "<!-- reports:end -->",
])
new, n = re.subn(r"<!-- reports:begin.*?<!-- reports:end -->", lambda _: table, text, flags=re.S)
if n != 1:
    raise SystemExit("README.md: no reports:begin … reports:end marks")
readme.write_text(new)
EOF
