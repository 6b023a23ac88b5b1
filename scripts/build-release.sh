#!/usr/bin/env bash
# Builds release binaries as a binary you ship should be built, and prints the folder they are
# in (the build's own output goes to stderr). The benchmark scripts build through this, so
# that every figure in docs/benchmarks.md is of the same build.
#
#   scripts/build-release.sh [PRODUCT...]      default: coachlab
#
# Two settings differ from a plain `swift build -c release`:
# - `--static-swift-stdlib` links the Swift runtime and Foundation into the binary. On Linux
#   it starts about 6 ms sooner and uses 3-4 MB less memory than a binary that loads them as
#   shared libraries.
# - `-disable-concrete-type-metadata-mangled-name-accessors` (a Swift frontend option) makes
#   the code that first needs a concrete generic type, such as `Set<Outcome>`, build its
#   metadata with the conformances the compiler already knows. By default it asks the runtime
#   to decode the type's mangled name, and the runtime then looks each conformance up by
#   scanning every conformance record in the binary, once per type. The static binary holds
#   about 11,000 records, and these scans were about a tenth of the CPU of a one-case
#   `coachlab eval`. The option changes no result; it makes the code a little larger.
#
# The option is passed here and not in Package.swift: a package whose targets carry unsafe
# flags cannot be used as a dependency, and the libraries are meant to be embedded. Either
# setting changes every module's build, so switching between this build and a plain
# `swift build -c release` rebuilds everything.
set -euo pipefail
cd "$(dirname "$0")/.."
flags=(-c release --static-swift-stdlib
       -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors)
products=("$@")
[ ${#products[@]} -gt 0 ] || products=(coachlab)
for product in "${products[@]}"; do
  swift build "${flags[@]}" --product "$product" >&2
done
swift build "${flags[@]}" --show-bin-path
