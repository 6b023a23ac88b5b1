#!/usr/bin/env bash
# The transfer corpus, measured: for every pack under corpus/ (each a project of its own), the
# fixture cases and checks that pass on the mock as written (the labelled-set cases apart), and
# the reading coverage lint gives, and the mutate score: as mutate reports it (unread mutants apart),
# and as the eval-power bar counts it (unread mutants as not caught, keyword and pattern removals
# left aside). Reports figures; asserts nothing. docs/benchmarks.md keeps the current table.
#
#   scripts/transfer-corpus.sh [COACHLAB_BINARY]      default: a debug build's
#   CORPUS_GLOB='corpus/set4/*/evals' scripts/transfer-corpus.sh BIN    one set only
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-}
if [ -z "$bin" ]; then swift build --product coachlab >&2; bin="$(swift build --show-bin-path)/coachlab"; fi
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '| pack | fixture cases | fixture checks | labelled cases | reading coverage | mutate score | mutate, the bar |\n|---|---:|---:|---:|---:|---:|---:|\n'
for project in $(ls -d ${CORPUS_GLOB:-corpus/*/evals corpus/*/*/evals} 2>/dev/null | xargs -n1 dirname | sort -u); do
  name=$(basename "$project")
  (cd "$project" && "$bin" eval --store "$work/$name.sqlite" --json "$work/$name.json" >/dev/null 2>&1) || true
  coverage=$( (cd "$project" && "$bin" lint 2>&1 >/dev/null || true) | sed -n 's/.*the mock reads \(.*\) instruction lines (\(.*\))$/\1 (\2)/p')
  (cd "$project" && "$bin" mutate --json "$work/$name-mutate.json" >/dev/null 2>&1) || true
  python3 - "$work/$name.json" "$project" "$coverage" "$work/$name-mutate.json" <<'PY'
import json, re, sys
report, project, coverage, mutate = sys.argv[1:5]
cases = json.load(open(report))["cases"]
fixture = [c for c in cases if not re.search(r"#\d+$", c["fixture"])]
labelled = [c for c in cases if re.search(r"#\d+$", c["fixture"])]
checks = [ch for c in fixture for t in c.get("turns", []) for ch in t.get("checks", [])]
passed = sum(ch.get("passed", False) for ch in checks)
try:
    mutants = json.load(open(mutate))["mutants"]
except Exception:
    mutants = []
def score(rows, unread_counts):
    caught = sum(m["verdict"] in ("killed", "lint") for m in rows)
    scored = sum(m["verdict"] in ("killed", "lint", "survived") or (unread_counts and m["verdict"] == "unread") for m in rows)
    return f"{100 * caught / scored:.1f}% ({caught} of {scored})" if scored else "?"
# The bar: unread mutants count as not caught; keyword and pattern removals are left aside,
# since only labelled messages can catch them.
bar = [m for m in mutants if m["operator"] not in ("drop-keyword", "drop-pattern")]
print(f"| {project} | {sum(c['outcome'] == 'pass' for c in fixture)}/{len(fixture)} | {passed}/{len(checks)} "
      f"({100 * passed / max(len(checks), 1):.1f}%) | {sum(c['outcome'] == 'pass' for c in labelled)}/{len(labelled)} | {coverage or '?'} "
      f"| {score(mutants, False)} | {score(bar, True)} |")
PY
done
