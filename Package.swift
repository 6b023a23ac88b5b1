// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "CoachLab",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "CoachLab", targets: ["CoachLab"]),
        .library(name: "CoachLabProviders", targets: ["CoachLabProviders"]),
        .library(name: "CoachLabMockServer", targets: ["CoachLabMockServer"]),
        .library(name: "CoachLabEval", targets: ["CoachLabEval"]),
        .executable(name: "coachlab", targets: ["coachlab"]),
        // `swift package coachlab eval` in a package that depends on CoachLab.
        .plugin(name: "CoachLabCommand", targets: ["CoachLabCommand"]),
    ],
    dependencies: [
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.2"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
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
        // Providers: one protocol over OpenAI, Anthropic, Gemini, OpenAI-compatible servers,
        // the TicBuddy proxy, and the in-process mock, canned and fallback providers.
        .target(
            name: "CoachLabProviders",
            dependencies: [
                "CoachLab",
                // An http target's request body is a Mustache template.
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        // The eval runner: scheduling, concurrency, repeats, judge checks, reports.
        .target(
            name: "CoachLabEval",
            dependencies: ["CoachLab", "CoachLabProviders", .product(name: "GRDB", package: "GRDB.swift"),
                           .product(name: "GRDBSQLite", package: "GRDB.swift"),
                           // Script checks run in a process group of their own, with an environment they are given.
                           .product(name: "Subprocess", package: "swift-subprocess", condition: .when(platforms: [.linux, .macOS])),
                           .product(name: "SystemPackage", package: "swift-system", condition: .when(platforms: [.linux]))]
        ),
        // serve-mock: one local server speaking every provider's wire protocol.
        .target(
            name: "CoachLabMockServer",
            dependencies: [
                "CoachLab",
                "CoachLabProviders",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        // The command line: argument parsing and terminal output only.
        .executableTarget(
            name: "coachlab",
            dependencies: [
                "CoachLab",
                "CoachLabProviders",
                "CoachLabMockServer",
                "CoachLabEval",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // The Swift driver exports every symbol of an executable on Linux. Nothing looks
            // the command's symbols up at run time, and exporting them costs each start about a
            // millisecond: the dynamic loader resolves the binary's references to its own 46,000
            // symbols through the global scope, and the runtime's start-up `dladdr` scans them
            // all (docs/benchmarks.md, "the loader").
            linkerSettings: [.unsafeFlags(["-Xlinker", "--no-export-dynamic"], .when(platforms: [.linux], configuration: .release))]
        ),
        // Runs the `coachlab` command, built from source, in the package that asks for it:
        // eval and mutate keep their store in .coachlab/ and write the reports asked for.
        .plugin(
            name: "CoachLabCommand",
            capability: .command(
                intent: .custom(verb: "coachlab", description: "Run coachlab (eval, lint, compile, mutate, ...) in this package's folder"),
                permissions: [.writeToPackageDirectory(reason: "coachlab eval and mutate keep their results in .coachlab/ and write the reports you ask for")]
            ),
            dependencies: ["coachlab"],
            path: "Plugins/CoachLabCommand"
        ),
        // A release-build benchmark that prints its figures; it asserts nothing.
        .executableTarget(
            name: "coachlab-bench",
            dependencies: ["CoachLab", "CoachLabProviders"],
            path: "Benchmarks/coachlab-bench"
        ),
        // A bounded-time fuzzer over every content reader, seeded with the malformed-input
        // corpus; CI runs it for a minute. A finding is a crash, a hang or runaway memory.
        .executableTarget(
            name: "coachlab-fuzz",
            dependencies: ["CoachLab"],
            path: "Benchmarks/coachlab-fuzz"
        ),
        // Scratch folders for the tests, removed when the test process exits.
        .target(name: "CoachLabTestSupport", path: "Tests/Support"),
        .testTarget(
            name: "CoachLabTests",
            // Yams composes the reference reading that YAMLComposerReferenceTests checks the
            // event reader against.
            dependencies: ["CoachLab", "CoachLabTestSupport", .product(name: "Yams", package: "Yams")],
            // Golden/ is read from the package root, as the reporters' goldens are.
            exclude: ["Golden"],
            resources: [.copy("Malformed")]
        ),
        .testTarget(
            name: "CoachLabProvidersTests",
            dependencies: ["CoachLab", "CoachLabProviders", "CoachLabMockServer", "CoachLabTestSupport"]
        ),
        .testTarget(
            name: "CoachLabEvalTests",
            // GRDB writes the foreign database a store test opens; the C API limits a value's size.
            dependencies: ["CoachLab", "CoachLabProviders", "CoachLabEval", "CoachLabMockServer", "CoachLabTestSupport",
                           .product(name: "GRDB", package: "GRDB.swift"), .product(name: "GRDBSQLite", package: "GRDB.swift")],
            // The reporters' golden files, read from the source tree by ReporterGoldenTests.
            exclude: ["Report/Golden"]
        ),
        // End-to-end tests run the built `coachlab` binary.
        .testTarget(
            name: "CoachLabCLITests",
            // Hummingbird serves the imitation GitHub API the pull-request comment is tested against; its log stays quiet.
            // serve-mock's imitation app backend answers the http target's suites.
            dependencies: ["CoachLab", "CoachLabProviders", "CoachLabMockServer", "coachlab", "CoachLabTestSupport",
                           .product(name: "Hummingbird", package: "hummingbird"),
                           .product(name: "Logging", package: "swift-log")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
