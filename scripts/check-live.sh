#!/usr/bin/env bash
# The live path end to end through the CLI: `coachlab chat` against a real model server,
# whole and streamed. Usage: scripts/check-live.sh BASE_URL [MODEL]
set -euo pipefail
cd "$(dirname "$0")/.."
base=${1:?usage: scripts/check-live.sh BASE_URL [MODEL]}
model=${2:-gemma-3-270m}
coachlab=${COACHLAB_BIN:-$(swift build --show-bin-path)/coachlab}
for mode in --no-stream ""; do
  out=$(printf 'I have 15 goals and do not know where to start.\n' | \
    "$coachlab" chat personas/betterone --topic goal-setting --intent next_step \
      --provider "openai-compatible:$model" --base-url "$base" $mode 2>&1)
  echo "$out"
  reply=$(printf '%s\n' "$out" | sed -n 's/^simon> //p')
  [ -n "$(printf '%s' "$reply" | tr -d '[:space:]')" ] || { echo "check-live: empty reply (${mode:-stream})"; exit 1; }
  printf '%s\n' "$out" | grep -q "gemma\|$model" || { echo "check-live: no usage line"; exit 1; }
done
echo "check-live: whole and streamed replies from $model"
