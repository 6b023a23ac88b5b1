#!/usr/bin/env bash
# What each dependency costs a first build: for each product the package uses, a throwaway
# package with one target that imports only it is built from scratch (debug, as `swift test`
# builds), and the wall-clock time is printed. Dependencies that share a base (AsyncHTTPClient
# and Hummingbird both sit on SwiftNIO) are also built together, to show what the second one
# adds. Reports figures; asserts nothing. Usage: scripts/bench-build.sh [PRODUCT...]
set -euo pipefail
cd "$(dirname "$0")/.."
work="$PWD/.build/bench-build"
mkdir -p "$work"

# name | package URL | version | product | package identity
deps=(
  "yams|https://github.com/jpsim/Yams|6.2.2|Yams|Yams"
  "mustache|https://github.com/hummingbird-project/swift-mustache|2.1.1|Mustache|swift-mustache"
  "argument-parser|https://github.com/apple/swift-argument-parser|1.8.2|ArgumentParser|swift-argument-parser"
  "log|https://github.com/apple/swift-log|1.16.2|Logging|swift-log"
  "grdb|https://github.com/groue/GRDB.swift|7.10.0|GRDB|GRDB.swift"
  "async-http-client|https://github.com/swift-server/async-http-client|1.37.0|AsyncHTTPClient|async-http-client"
  "hummingbird|https://github.com/hummingbird-project/hummingbird|2.28.1|Hummingbird|hummingbird"
  "async-http-client+hummingbird|https://github.com/swift-server/async-http-client,https://github.com/hummingbird-project/hummingbird|1.37.0,2.28.1|AsyncHTTPClient,Hummingbird|async-http-client,hummingbird"
)

build() {  # name url(s) version(s) product(s) package(s)
  local name=$1 urls=$2 versions=$3 products=$4 packages=$5
  local dir="$work/probe-$name"
  rm -rf "$dir"
  mkdir -p "$dir/Sources/Probe"
  IFS=, read -r -a url_list <<< "$urls"
  IFS=, read -r -a version_list <<< "$versions"
  IFS=, read -r -a product_list <<< "$products"
  IFS=, read -r -a package_list <<< "$packages"
  local dependencies="" target_dependencies="" imports=""
  for i in "${!url_list[@]}"; do
    dependencies+="        .package(url: \"${url_list[$i]}\", exact: \"${version_list[$i]}\"),"$'\n'
    target_dependencies+=".product(name: \"${product_list[$i]}\", package: \"${package_list[$i]}\"), "
    imports+="import ${product_list[$i]}"$'\n'
  done
  cat > "$dir/Package.swift" <<PACKAGE
// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Probe",
    platforms: [.macOS(.v13)],
    dependencies: [
$dependencies    ],
    targets: [.executableTarget(name: "Probe", dependencies: [$target_dependencies])]
)
PACKAGE
  printf '%sprint("ok")\n' "$imports" > "$dir/Sources/Probe/main.swift"
  (cd "$dir" && swift package resolve >/dev/null 2>&1)
  local start end
  start=$(date +%s.%N)
  (cd "$dir" && swift build >/dev/null 2>"$dir/build.err") || { echo "$name: build failed (see $dir/build.err)"; return; }
  end=$(date +%s.%N)
  printf '%-32s %6.1f s\n' "$name" "$(echo "$end - $start" | bc)"
}

echo "first debug build of each dependency alone, $(nproc) cores, $(date -u +%Y-%m-%d):"
for entry in "${deps[@]}"; do
  IFS='|' read -r name urls versions products packages <<< "$entry"
  if [ $# -gt 0 ] && [[ ! " $* " == *" $name "* ]]; then continue; fi
  build "$name" "$urls" "$versions" "$products" "$packages"
done
