#!/usr/bin/env bash
# CoachLab used from outside its own repository, as a new team would, for CI:
# 1. scripts/install.sh into a fresh prefix (the one install command the README gives);
# 2. `coachlab init --app x` in an empty folder elsewhere, then every command its "Next:" lists,
#    then `coachlab eval`, all with the installed binary and nothing else on PATH from here;
# 3. examples/app-package, an app's own package that depends on CoachLab: its tests compile the
#    bundled pack, and `swift package coachlab eval` runs its suite through the command plugin.
# Every step must exit 0.
set -euo pipefail
cd "$(dirname "$0")/.."
repository=$PWD
prefix=$(mktemp -d)
project=$(mktemp -d)
trap 'rm -rf "$prefix" "$project"' EXIT

echo "-- install"
scripts/install.sh "$prefix"
export PATH="$prefix/bin:$PATH"
[ "$(command -v coachlab)" = "$prefix/bin/coachlab" ]

echo "-- init in $project, and its next steps"
cd "$project"
coachlab init --app x > "$prefix/init.txt"
cat "$prefix/init.txt"
steps=$(sed -n '/^Next:/,$p' "$prefix/init.txt" | sed -n 's/^  \(coachlab .*\)$/\1/p')
[ -n "$steps" ] || { echo "init printed no next steps" >&2; exit 1; }
while IFS= read -r step; do
  echo "\$ $step"
  # shellcheck disable=SC2086 # each step is a command line init printed
  $step
done <<< "$steps"
echo "\$ coachlab eval"
coachlab eval

echo "-- attacks on the new pack, written out as fixtures that lint and run"
attacks_status=0
coachlab attack personas/x --out fixtures/x/attacks --suite evals/x-attacks.yaml || attacks_status=$?
[ "$attacks_status" -le 1 ] || { echo "coachlab attack exited $attacks_status" >&2; exit 1; }
coachlab lint
eval_status=0
coachlab eval evals/x-attacks.yaml || eval_status=$?
[ "$eval_status" = "$attacks_status" ] || { echo "the written attacks ran $eval_status in eval, $attacks_status in attack" >&2; exit 1; }

echo "-- the new pack behind an imitation of its own backend (an http target)"
port_file="$prefix/serve-mock.port"
export X_APP_TOKEN="outside-check-token-0123456789"
coachlab serve-mock --port 0 --app personas/x --app-token-env X_APP_TOKEN 2> "$prefix/serve-mock.log" &
server=$!
for _ in $(seq 50); do grep -q "app 'x' at" "$prefix/serve-mock.log" && break; sleep 0.1; done
url=$(sed -n "s/^app 'x' at \(http[^ ]*\).*/\1/p" "$prefix/serve-mock.log")
[ -n "$url" ] || { cat "$prefix/serve-mock.log" >&2; kill "$server"; exit 1; }
cat > providers.yaml <<YAML
providers:
  - id: x-backend
    kind: http
    url: $url
    headers:
      Authorization: Bearer \${X_APP_TOKEN}
    body: '{"message": "{{message}}", "session": {{{json.app}}}, "stream": {{stream}}, "history": [{{#history}}{"from": "{{#user}}member{{/user}}{{#assistant}}coach{{/assistant}}", "text": "{{content}}"}{{^last()}}, {{/last()}}{{/history}}]}'
    reply: /message/text
    stream: {text: /text, done: "[END]"}
YAML
coachlab eval --provider x-backend --stream --json "$prefix/backend.json" > "$prefix/backend.txt" || { cat "$prefix/backend.txt"; kill "$server"; exit 1; }
kill "$server"
if grep -rq "$X_APP_TOKEN" "$prefix/backend.txt" "$prefix/backend.json" .coachlab 2>/dev/null; then echo "the app token leaked" >&2; exit 1; fi
rm providers.yaml

echo "-- the new pack through a batch API (serve-mock's imitation of Anthropic's), killed and resumed"
coachlab serve-mock --port 0 --batch-seconds 2 2> "$prefix/batch-mock.log" &
server=$!
for _ in $(seq 50); do grep -q "listening on" "$prefix/batch-mock.log" && break; sleep 0.1; done
base=$(sed -n 's/.*listening on \(http:[^ ]*\) .*/\1/p' "$prefix/batch-mock.log")
[ -n "$base" ] || { cat "$prefix/batch-mock.log" >&2; kill "$server"; exit 1; }
export X_BATCH_KEY="sk-ant-outside-check-0123456789"
cat > providers.yaml <<YAML
providers:
  - {id: x-claude, kind: anthropic, model: claude-haiku-4-5, baseURL: "$base", apiKeyEnv: X_BATCH_KEY, prices: {input: 1, output: 5}}
YAML
coachlab eval evals/x.yaml --provider x-claude --batch --batch-poll 0.2 --no-cache > "$prefix/batch.txt" 2>&1 &
run=$!
for _ in $(seq 100); do ls .coachlab/batches/*.jsonl > /dev/null 2>&1 && break; sleep 0.1; done
kill -9 "$run" 2>/dev/null || true
wait "$run" 2>/dev/null || true
journal=$(ls .coachlab/batches/*.jsonl | head -1)
[ -n "$journal" ] || { cat "$prefix/batch.txt"; kill "$server"; exit 1; }
coachlab eval --resume "$(basename "$journal" .jsonl)" --batch --batch-poll 0.2 --no-cache > "$prefix/resumed.txt" 2>&1 || { cat "$prefix/resumed.txt"; kill "$server"; exit 1; }
kill "$server"
if grep -q "submitted with" "$prefix/resumed.txt"; then echo "the resumed run submitted a batch again" >&2; cat "$prefix/resumed.txt"; exit 1; fi
if grep -rq "$X_BATCH_KEY" "$prefix/batch.txt" "$prefix/resumed.txt" .coachlab 2>/dev/null; then echo "the batch key leaked" >&2; exit 1; fi
rm providers.yaml

echo "-- the example app package"
cd "$repository/examples/app-package"
swift test
swift package --allow-writing-to-package-directory coachlab eval
rm -rf .coachlab
