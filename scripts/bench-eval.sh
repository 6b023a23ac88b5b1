#!/usr/bin/env bash
# `coachlab eval` at scale: cases per second and peak RSS on the embedded mock for generated
# suites of 1,000 and 10,000 cases, then the same suite against `coachlab serve-mock` with
# 200 ms of latency per request at concurrency 64, where 64 / 0.2 s = 320 requests/s is the
# ceiling, and the time to render the 1,000-case run's HTML report. Reports figures; asserts nothing. Usage: scripts/bench-eval.sh [LATENCY_CASES]
set -euo pipefail
cd "$(dirname "$0")/.."
latency_cases=${1:-3000}
bin=$(scripts/build-release.sh coachlab coachlab-bench)
work=.build/bench-eval
mkdir -p "$work"
log=$(mktemp)
server=
trap '[ -n "$server" ] && kill $server 2>/dev/null; rm -f "$log"' EXIT

measure() {  # name, then the eval arguments
  local name=$1; shift
  rm -f "$work/$name.sqlite"*
  /usr/bin/time -f "%M %e" -o "$work/$name.rss" "$bin/coachlab" eval "$@" --no-cache --store "$work/$name.sqlite" \
    --junit "$work/$name.junit.xml" --json "$work/$name.json" >/dev/null 2>"$work/$name.err" || true
  local line; line=$(grep -E '^[0-9]+ cases in ' "$work/$name.err" || tail -3 "$work/$name.err")
  local rss wall; read -r rss wall < "$work/$name.rss"
  echo "$name: $line; $wall s end to end, peak RSS $(( rss / 1024 )) MB (whole process: loading, cases, store and reports)"
}

for n in 1000 10000; do
  "$bin/coachlab-bench" generate-suite --cases "$n" --out "$work/suite-$n" >/dev/null
  measure "mock-$n" "$work/suite-$n/suite.yaml"
done

# The HTML report of the stored 1,000-case run (rendering only: compare --run reads the store).
run=$("$bin/coachlab" runs --store "$work/mock-1000.sqlite" | awk 'NR == 2 { print $1 }')
/usr/bin/time -f "%e %M" -o "$work/html.time" "$bin/coachlab" compare --run "$run" --store "$work/mock-1000.sqlite" \
  --html "$work/mock-1000.html" >/dev/null 2>&1
read -r seconds rss < "$work/html.time"
echo "html-1000: $(du -k "$work/mock-1000.html" | cut -f1) KB page in $seconds s; peak RSS $(( rss / 1024 )) MB"

"$bin/coachlab-bench" generate-suite --cases "$latency_cases" --out "$work/suite-latency" >/dev/null
"$bin/coachlab" serve-mock --port 0 --latency-ms 200 2>"$log" &
server=$!
for _ in $(seq 1 100); do
  port=$(sed -n 's/.*listening on http:\/\/127.0.0.1:\([0-9]*\).*/\1/p' "$log"); [ -n "$port" ] && break; sleep 0.1
done
measure "serve-mock-200ms" "$work/suite-latency/suite.yaml" --provider serve-mock --base-url "http://127.0.0.1:$port/v1" -j 64
rate=$(sed -n 's/.*(\([0-9.]*\) cases\/s).*/\1/p' "$work/serve-mock-200ms.err")
awk -v r="$rate" 'BEGIN { printf "serve-mock-200ms: %.0f requests/s of the 320 a 64-wide limit allows at 200 ms (%.1f%%)\n", r, r / 320 * 100 }'
