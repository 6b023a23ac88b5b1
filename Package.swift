// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "CoachLab",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "CoachLab", targets: ["CoachLab"]),
        .executable(name: "coachlab", targets: ["coachlab"]),
    ],
    dependencies: [
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // The pure core: content model, YAML loading with diagnostics, stacks, the compiler,
        // stage-1 screening and lint. No networking, so an iOS or macOS app can embed it.
        .target(
            name: "CoachLab",
            dependencies: [
                .product(name: "Yams", package: "Yams"),
                .product(name: "Mustache", package: "swift-mustache"),
            ]
        ),
        // The command line: argument parsing and terminal output only.
        .executableTarget(
            name: "coachlab",
            dependencies: [
                "CoachLab",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // A release-build benchmark that prints its figures; it asserts nothing.
        .executableTarget(
            name: "coachlab-bench",
            dependencies: ["CoachLab"],
            path: "Benchmarks/coachlab-bench"
        ),
        .testTarget(
            name: "CoachLabTests",
            dependencies: ["CoachLab"],
            resources: [.copy("Malformed")]
        ),
        // End-to-end tests run the built `coachlab` binary.
        .testTarget(
            name: "CoachLabCLITests",
            dependencies: ["CoachLab", "coachlab"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
