#!/usr/bin/env bash
# Makes a release archive: what scripts/install.sh installs (the release binary, with the Swift
# runtime and Foundation linked in, and bash, zsh and fish completions), laid out as bin/ and
# share/, so extracting it into a prefix such as ~/.local or /usr/local installs coachlab on a
# machine with no Swift toolchain. Prints the archive's path.
#
#   scripts/release-archive.sh [OUT_DIR]       default: .build/dist
#
# What the binary still needs from the system (ldd shows it): glibc 2.35 or newer, libstdc++
# from GCC 12 or newer (GLIBCXX_3.4.30), zlib and SQLite 3. That is Debian 12, Ubuntu 22.04 and
# newer, and Fedora 36 and newer, on the architecture it was built on (uname -m). Build on macOS
# for a macOS archive; the archive is never cross-built.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-.build/dist}
mkdir -p "$out"
out=$(cd "$out" && pwd)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
name="coachlab-$(git describe --tags --always --dirty 2>/dev/null || echo dev)-$(uname -s | tr '[:upper:]' '[:lower:]')-$(uname -m)"
# (PATH includes the staged bin/ only so install.sh does not advise adding it.)
PATH="$stage/$name/bin:$PATH" scripts/install.sh "$stage/$name" >&2
cp README.md "$stage/$name/README.md"
tar -C "$stage" -czf "$out/$name.tar.gz" "$name"
echo "$out/$name.tar.gz"
