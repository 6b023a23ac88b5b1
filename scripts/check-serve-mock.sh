#!/usr/bin/env bash
# Starts `coachlab serve-mock` on a free port and runs scripts/check_sdks.py against it with
# the official openai, anthropic and google-genai SDKs (installed into .build/sdk-venv).
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.build/sdk-venv
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install -q openai anthropic google-genai
coachlab=${COACHLAB_BIN:-$(swift build --show-bin-path)/coachlab}
log=$(mktemp)
"$coachlab" serve-mock --port 0 --batch-seconds 0.5 2>"$log" &
server=$!
trap 'kill $server 2>/dev/null || true; rm -f "$log"' EXIT
for _ in $(seq 1 100); do
  port=$(sed -n 's/.*listening on http:\/\/127.0.0.1:\([0-9]*\).*/\1/p' "$log")
  [ -n "$port" ] && break
  sleep 0.1
done
[ -n "${port:-}" ] || { echo "serve-mock did not start:"; cat "$log"; exit 1; }
"$venv/bin/python" -W ignore scripts/check_sdks.py "http://127.0.0.1:$port"
