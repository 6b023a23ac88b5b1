#!/usr/bin/env bash
# The transfer corpus, measured: for every pack under corpus/ (each a project of its own), the
# fixture cases and checks that pass on the mock as written (the labelled-set cases apart), and
# the mutate score. Reports figures; asserts nothing. docs/benchmarks.md keeps the current table.
#
#   scripts/transfer-corpus.sh [COACHLAB_BINARY]      default: a debug build's
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-}
if [ -z "$bin" ]; then swift build --product coachlab >&2; bin="$(swift build --show-bin-path)/coachlab"; fi
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '| pack | fixture cases | fixture checks | labelled cases | mutate score |\n|---|---:|---:|---:|---:|\n'
for project in $(ls -d corpus/*/evals corpus/*/*/evals 2>/dev/null | xargs -n1 dirname | sort -u); do
  name=$(basename "$project")
  (cd "$project" && "$bin" eval --store "$work/$name.sqlite" --json "$work/$name.json" >/dev/null 2>&1) || true
  score=$( (cd "$project" && "$bin" mutate 2>/dev/null || true) | awk -v n="$name" '$1 == n { print ($NF ~ /%$/) ? $NF : $(NF-1) }')
  python3 - "$work/$name.json" "$project" "$score" <<'PY'
import json, re, sys
report, project, score = sys.argv[1], sys.argv[2], sys.argv[3]
cases = json.load(open(report))["cases"]
fixture = [c for c in cases if not re.search(r"#\d+$", c["fixture"])]
labelled = [c for c in cases if re.search(r"#\d+$", c["fixture"])]
checks = [ch for c in fixture for t in c.get("turns", []) for ch in t.get("checks", [])]
passed = sum(ch.get("passed", False) for ch in checks)
print(f"| {project} | {sum(c['outcome'] == 'pass' for c in fixture)}/{len(fixture)} | {passed}/{len(checks)} "
      f"({100 * passed / max(len(checks), 1):.1f}%) | {sum(c['outcome'] == 'pass' for c in labelled)}/{len(labelled)} | {score or '?'} |")
PY
done
