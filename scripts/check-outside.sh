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

echo "-- the example app package"
cd "$repository/examples/app-package"
swift test
swift package --allow-writing-to-package-directory coachlab eval
rm -rf .coachlab
