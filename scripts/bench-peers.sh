#!/usr/bin/env bash
# CoachLab next to Inspect AI on the same machine and the same work: N single-turn cases,
# each scored, on each tool's built-in mock model, then against `coachlab serve-mock` with
# 200 ms of latency per request at concurrency 64 (where 64 / 0.2 s = 320 requests/s is the
# ceiling). Inspect AI is installed from PyPI into a throwaway venv under .build/.
# Prints a table of wall time (CoachLab's rows: the median of several runs after one not
# counted; Inspect's: one run, since each takes seconds to minutes) and peak RSS, then
# CoachLab's own time for the HTTP cases alone and a control: the same requests from a client
# that does nothing else (scripts/http-floor.py). Asserts nothing.
#
#   scripts/bench-peers.sh [CASES] [HTTP_CASES]      defaults 1000 and 2000
set -euo pipefail
cd "$(dirname "$0")/.."
cases=${1:-1000}
http_cases=${2:-2000}
inspect_version=0.3.285
work=.build/bench-peers
mkdir -p "$work"
venv=$work/venv
if [ ! -x "$venv/bin/inspect" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q "inspect-ai==$inspect_version" openai
fi
bin=$(scripts/build-release.sh coachlab coachlab-bench)
server=
trap '[ -n "$server" ] && kill $server 2>/dev/null || true' EXIT

# Inspect's task: N single-turn samples, generate(), and an includes() scorer.
cat > "$work/coaching.py" <<'PY'
import os
from inspect_ai import Task, task
from inspect_ai.dataset import Sample
from inspect_ai.scorer import includes
from inspect_ai.solver import generate

# These machines are offline, and Inspect estimates tokens with tiktoken, which downloads its
# encoding on first use. Estimate as CoachLab does (a quarter of the characters) instead;
# the benchmark measures throughput, not token counts.
import inspect_ai.model._model as _model
import inspect_ai.model._tokens as _tokens
_tokens.count_text_tokens = _model.count_text_tokens = lambda text: max(1, len(text) // 4)

@task
def coaching():
    n = int(os.environ.get("CASES", "1000"))
    samples = [Sample(input=f"Message {i}: I keep putting things off and I want to change that.", target="?") for i in range(n)]
    return Task(dataset=samples, solver=generate(), scorer=includes())
PY

rows=()
# label, runs, then the command. Runs it `runs` times after one run that is not counted (it
# opens a new store, warms the page cache) when runs > 1, and records "label|median seconds
# (fastest-slowest)|largest peak MB|runs". Wall time is read from the clock in milliseconds;
# /usr/bin/time gives the peak RSS.
timed() {
  local label=$1 runs=$2; shift 2
  [ "$runs" -gt 1 ] && { "$@" >/dev/null 2>&1 || true; }
  local times=() peak=0
  for _ in $(seq 1 "$runs"); do
    local start end rss
    start=$(date +%s%N)
    /usr/bin/time -f "%M" -o "$work/time" "$@" >"$work/$label.out" 2>&1 || true
    end=$(date +%s%N)
    times+=("$(( (end - start) / 1000000 ))")
    rss=$(tail -1 "$work/time")
    [ "$rss" -gt "$peak" ] && peak=$rss
  done
  local summary
  summary=$(printf '%s\n' "${times[@]}" | sort -n | awk '{ t[NR] = $1 } END {
    median = NR % 2 ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2
    if (NR == 1) printf "%.3f", median / 1000; else printf "%.3f (%.3f-%.3f)", median / 1000, t[1] / 1000, t[NR] / 1000 }')
  rows+=("$label|$summary|$(( peak / 1024 ))|$runs")
}

inspect_eval() {  # cases, then extra arguments: prints the command to time
  local n=$1; shift
  echo env CASES="$n" OPENAI_API_KEY=unused "$venv/bin/inspect" eval "$work/coaching.py" --display none --log-dir "$work/logs" "$@"
}

coachlab_suite() {  # cases → suite path
  "$bin/coachlab-bench" generate-suite --cases "$1" --out "$work/suite-$1" >/dev/null
  echo "$work/suite-$1/suite.yaml"
}

one=$(coachlab_suite 1)
many=$(coachlab_suite "$cases")
# Each invocation starts its stores afresh, as bench-eval.sh does: kept from one invocation to
# the next they only grow (to hundreds of MB), and the figures would drift with them.
rm -f "$work"/one.sqlite* "$work"/many.sqlite* "$work"/http.sqlite*
timed "coachlab cold start, 1 case" 9 "$bin/coachlab" eval "$one" --store "$work/one.sqlite"
timed "inspect cold start, 1 case" 1 $(inspect_eval 1 --model mockllm/model)
timed "coachlab $cases cases, mock" 9 "$bin/coachlab" eval "$many" --store "$work/many.sqlite"
timed "inspect $cases cases, mockllm" 1 $(inspect_eval "$cases" --model mockllm/model)

"$bin/coachlab" serve-mock --port 0 --latency-ms 200 2>"$work/serve.log" &
server=$!
port=
for _ in $(seq 1 100); do
  port=$(sed -n 's/.*listening on http:\/\/127.0.0.1:\([0-9]*\).*/\1/p' "$work/serve.log"); [ -n "$port" ] && break; sleep 0.1
done
http=$(coachlab_suite "$http_cases")
timed "coachlab $http_cases cases, HTTP c=64 200 ms" 3 "$bin/coachlab" eval "$http" --provider serve-mock \
  --base-url "http://127.0.0.1:$port/v1" -j 64 --no-cache --store "$work/http.sqlite"
# CoachLab's own timing of the cases alone (planning and reports left out), from its last run.
cases_line=$(grep -o '[0-9]* cases in [0-9.]* s' "$work/coachlab $http_cases cases, HTTP c=64 200 ms.out" | tail -1 || true)
timed "inspect $http_cases cases, HTTP c=64 200 ms" 1 $(inspect_eval "$http_cases" --model openai/coachlab-mock-1 \
  --model-base-url "http://127.0.0.1:$port/v1" --max-connections 64 -M responses_api=false)
# The control: the same number of requests from a client that does nothing else, on the same
# server (the median of 3): about the best any client can do on this server and machine.
control=$(for _ in 1 2 3; do python3 scripts/http-floor.py "$port" "$http_cases" 64 200; done | sort -n | sed -n 2p)

floor=$(awk -v n="$http_cases" 'BEGIN { printf "%.2f", n / 320 }')
echo "CoachLab $(git describe --always --dirty 2>/dev/null || echo '?') vs Inspect AI $inspect_version on $(nproc) cores, $(date -u +%Y-%m-%d)"
printf '| %-44s | %-22s | %8s | %4s |\n' "work" "seconds: median (range)" "peak MB" "runs"
printf '|%s|%s|%s|%s|\n' "----------------------------------------------" "------------------------" "----------" "------"
for row in "${rows[@]}"; do
  IFS='|' read -r label seconds mb runs <<<"$row"
  printf '| %-44s | %-22s | %8s | %4s |\n' "$label" "$seconds" "$mb" "$runs"
done
echo "HTTP floor for $http_cases cases at c=64 and 200 ms: $floor s"
echo "CoachLab's HTTP cases alone, last run: ${cases_line:-not found}"
echo "The least a client can do (scripts/http-floor.py, requests alone, median of 3): $control"
