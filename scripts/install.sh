#!/usr/bin/env bash
# Installs coachlab from this clone: a release build (scripts/build-release.sh: the Swift runtime
# linked in, so the binary needs no toolchain to run), copied to PREFIX/bin, with shell
# completions for bash, zsh and fish under PREFIX/share. It replaces only the files it installs.
#
#   scripts/install.sh [PREFIX]        default: $HOME/.local (PREFIX/bin should be on PATH)
#
# The first release build takes several minutes (docs/benchmarks.md); later ones reuse .build/.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=${1:-${PREFIX:-$HOME/.local}}
echo "building the release binary (the first time takes several minutes)..." >&2
bin=$(scripts/build-release.sh coachlab)
mkdir -p "$prefix/bin" "$prefix/share/bash-completion/completions" "$prefix/share/zsh/site-functions" \
  "$prefix/share/fish/vendor_completions.d"
install -m 0755 "$bin/coachlab" "$prefix/bin/coachlab"
"$prefix/bin/coachlab" --generate-completion-script bash > "$prefix/share/bash-completion/completions/coachlab"
"$prefix/bin/coachlab" --generate-completion-script zsh > "$prefix/share/zsh/site-functions/_coachlab"
"$prefix/bin/coachlab" --generate-completion-script fish > "$prefix/share/fish/vendor_completions.d/coachlab.fish"
echo "installed $prefix/bin/coachlab ($("$prefix/bin/coachlab" --version)), with bash, zsh and fish completions under $prefix/share" >&2
case ":$PATH:" in
  *":$prefix/bin:"*) ;;
  *) echo "add $prefix/bin to PATH, for example: export PATH=\"$prefix/bin:\$PATH\"" >&2 ;;
esac
