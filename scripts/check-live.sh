#!/usr/bin/env bash
# The live path end to end through the CLI: `coachlab chat` with the shipped `local-gemma`
# provider (providers.yaml) against a real model server, whole and streamed.
# Usage: scripts/check-live.sh BASE_URL
set -euo pipefail
cd "$(dirname "$0")/.."
base=${1:?usage: scripts/check-live.sh BASE_URL}
coachlab=${COACHLAB_BIN:-$(swift build --show-bin-path)/coachlab}
for mode in --no-stream ""; do
  out=$(printf 'I have 15 goals and do not know where to start.\n' | \
    "$coachlab" chat personas/betterone --topic goal-setting --intent next_step \
      --provider local-gemma --base-url "$base" $mode 2>&1)
  echo "$out"
  reply=$(printf '%s\n' "$out" | sed -n 's/^simon> //p')
  [ -n "$(printf '%s' "$reply" | tr -d '[:space:]')" ] || { echo "check-live: empty reply (${mode:-stream})"; exit 1; }
  # The stats line: the compiled prompt (about 1,000 tokens) reached the model.
  tokens=$(printf '%s\n' "$out" | sed -n 's/.*· \([0-9]*\)→[0-9]* tokens.*/\1/p' | tail -1)
  [ "${tokens:-0}" -gt 500 ] || { echo "check-live: the model saw ${tokens:-no} input tokens; the system prompt was lost"; exit 1; }
done
echo "check-live: whole and streamed replies from local-gemma"

# Stage 2 on a real model: its answer is parsed (a base model rarely follows the format, so
# "UNKNOWN" is the usual and correct outcome); it must be reported, never crash or read as safe.
out=$("$coachlab" guard "My finances are a mess; what would you do?" --pack personas/betterone \
  --stage2 --provider local-gemma --base-url "$base" --format json)
echo "$out"
printf '%s' "$out" | grep -Eq '"verdict" : "(FLAGGED|SAFE|UNKNOWN)' || { echo "check-live: no stage-2 verdict"; exit 1; }
echo "check-live: stage-2 classifier answered through local-gemma"

# A structured generation on a real model: a base model seldom writes the schema's JSON, so
# exit 1 with a field-level report is the expected outcome; 0 (valid) is fine too. Anything
# else (a crash, a provider error, no report) fails the check.
set +e
out=$("$coachlab" generate wrapup fixtures/betterone/wrapup/habits-evening.yaml --provider local-gemma --base-url "$base" \
  --max-tokens 200 2>&1)
status=$?
set -e
echo "$out"
case $status in
  0) echo "check-live: the local model wrote a valid wrap-up" ;;
  1) printf '%s' "$out" | grep -q 'wrapup: invalid after 2 attempts' && printf '%s' "$out" | grep -Eq '^    \$' \
       || { echo "check-live: exit 1 without a field-level report"; exit 1; }
     echo "check-live: the local model's wrap-up was reported field by field" ;;
  *) echo "check-live: generate wrapup exited $status"; exit 1 ;;
esac
