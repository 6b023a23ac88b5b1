#!/usr/bin/env bash
# Re-records the shipped suites against a real model on loopback (Gemma 3 270M through
# llama.cpp; see scripts/local-llm.sh) into fixtures/cassettes/local-gemma/, which CI
# replays with no server and no key. Run it after a change that makes them stale (a
# compiled prompt or a provider setting), then commit fixtures/cassettes/local-gemma.
#
#   scripts/record-local-cassettes.sh            # about 8 minutes on 2 cores
set -euo pipefail
cd "$(dirname "$0")/.."
suites=(evals/betterone.yaml evals/betterone-rollout.yaml evals/betterone-wrapup.yaml evals/healthwallet.yaml
        evals/kindred.yaml evals/kindred-structured.yaml evals/luna.yaml evals/ticbuddy.yaml)
scripts/local-llm.sh install
scripts/local-llm.sh start 8088 >/dev/null
swift build --product coachlab
bin="$(swift build --show-bin-path)/coachlab"
# Cassettes no request uses any more would never be read again: start from none.
rm -rf fixtures/cassettes/local-gemma
store=$(mktemp -d)/record.sqlite
set +e
"$bin" eval "${suites[@]}" --provider local-gemma --max-tokens 128 --record --store "$store"
code=$?
set -e
# A base model fails most checks (exit 1); an error (exit 3) means something was not recorded.
if [ "$code" -gt 1 ]; then echo "record-local-cassettes: eval exited $code; see above" >&2; exit "$code"; fi
echo "recorded $(ls fixtures/cassettes/local-gemma | wc -l) cassettes in fixtures/cassettes/local-gemma"
