#!/usr/bin/env bash
# Requests per second through CoachLab's provider against `coachlab serve-mock` (zero
# latency) at concurrency 1, 8 and 64, next to wrk on the same server and request.
# Needs wrk (apt-get install wrk). Reports figures; asserts nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(scripts/build-release.sh coachlab coachlab-bench)
log=$(mktemp)
"$bin/coachlab" serve-mock --port 0 2>"$log" &
server=$!
body=$(mktemp --suffix=.lua)
trap 'kill $server 2>/dev/null || true; rm -f "$log" "$body"' EXIT
for _ in $(seq 1 100); do
  port=$(sed -n 's/.*listening on http:\/\/127.0.0.1:\([0-9]*\).*/\1/p' "$log"); [ -n "$port" ] && break; sleep 0.1
done
cat >"$body" <<'LUA'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"messages":[{"content":"You are Simon, a reflective coach.","role":"system"},{"content":"I feel stuck.","role":"user"}],"model":"coachlab-mock-1"}'
LUA
for c in 1 8 64; do
  threads=$(( c < 2 ? 1 : 2 ))
  wrk_rps=$(wrk -t"$threads" -c"$c" -d5s -s "$body" "http://127.0.0.1:$port/v1/chat/completions" | awk '/Requests\/sec/ {print $2}')
  requests=$(( c == 1 ? 3000 : 10000 ))
  line=$("$bin/coachlab-bench" providers --base-url "http://127.0.0.1:$port/v1" --requests "$requests" --concurrency "$c")
  ours=$(printf '%s' "$line" | sed -n 's/.*, \([0-9]*\) requests\/s.*/\1/p')
  overhead=$(awk -v a="$ours" -v b="$wrk_rps" 'BEGIN { printf "%.1f", (1e6 / a) - (1e6 / b) }')
  echo "concurrency $c: wrk $wrk_rps req/s; $line; overhead over wrk $overhead µs per request"
done
