// Benchmarks that report figures and assert nothing. Build and run in release:
//
//   swift run -c release coachlab-bench [--iterations N]
//       "lint+compile": loads and checks every shipped pack from disk, then compiles every
//       variant they declare: the work of `coachlab lint` plus `coachlab compile --check`.
//   swift run -c release coachlab-bench providers --base-url URL [--requests N] [--concurrency C]
//       requests per second through CoachLab's OpenAI-compatible provider against a running
//       `coachlab serve-mock` (scripts/bench-providers.sh compares it with wrk).
//   swift run -c release coachlab-bench screen-dump PACK... DATASET.yaml...
//       every flag of each pack on each labelled message and its red-team rewrites, typos on
//       and off, one line per message: diff two builds' dumps to show a screener change is exact
//   swift run -c release coachlab-bench screen [--iterations N] [--no-naive]
//       stage-1 screening throughput in MB/s next to a naive loop of `contains` (run once: it
//       takes about 15 s; `--no-naive` leaves it out).
//   swift run -c release coachlab-bench score [--megabytes N]
//       every check of the shipped suites on one N MB reply (a runaway model), per check.
//   swift run -c release coachlab-bench json [--iterations N]
//       microseconds to read a Chat Completions request and reply with JSONValue.parse and
//       with JSONDecoder, the median of five rounds of N reads each.
//   swift run -c release coachlab-bench generate-suite --cases N --out DIR
//       writes N single-turn fixtures across the five seed packs and a suite over them, for
//       measuring `coachlab eval` at scale (scripts/bench-eval.sh).
import CoachLab
import CoachLabProviders
import Foundation

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
}

let arguments = CommandLine.arguments

func option(_ name: String) -> String? {
    arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
}

if arguments.count > 1, arguments[1] == "providers" {
    guard let base = option("--base-url") else {
        FileHandle.standardError.write(Data("usage: coachlab-bench providers --base-url URL [--requests N] [--concurrency C]\n".utf8))
        exit(2)
    }
    let requests = option("--requests").flatMap { Int($0) } ?? 2000
    let concurrency = option("--concurrency").flatMap { Int($0) } ?? 8
    let provider = HTTPProvider(id: "bench", wire: OpenAIWire(legacyMaxTokens: true), baseURL: base, apiKey: nil,
                                defaults: GenerationSettings(model: "coachlab-mock-1", timeout: 30), system: .live, retry: .none)
    let request = ChatRequest(system: "You are Simon, a reflective coach.", messages: [ChatMessage(.user, "I feel stuck.")])
    // Warm the connection pool.
    for _ in 0..<concurrency { _ = try await provider.complete(request) }
    let start = DispatchTime.now().uptimeNanoseconds
    let failures = await withTaskGroup(of: Int.self) { group in
        var next = 0
        var failures = 0
        for _ in 0..<min(concurrency, requests) {
            group.addTask { (try? await provider.complete(request)) == nil ? 1 : 0 }
            next += 1
        }
        while let failed = await group.next() {
            failures += failed
            if next < requests {
                group.addTask { (try? await provider.complete(request)) == nil ? 1 : 0 }
                next += 1
            }
        }
        return failures
    }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    print(String(format: "coachlab provider: concurrency %d, %d requests, %d failed, %.0f requests/s, %.1f µs per request",
                 concurrency, requests, failures, Double(requests) / seconds, seconds * 1e6 / Double(requests)))
    exit(0)
}

if arguments.count > 1, arguments[1] == "screen" {
    try ScreenBench.run(iterations: option("--iterations").flatMap { Int($0) } ?? 5, naive: !arguments.contains("--no-naive"))
    exit(0)
}

if arguments.count > 1, arguments[1] == "screen-dump" {
    let paths = Array(arguments.dropFirst(2))
    do {
        try ScreenDump.run(packs: paths.filter { !$0.hasSuffix(".yaml") }, datasets: paths.filter { $0.hasSuffix(".yaml") })
    } catch let error as CoachLabError where !error.diagnostics.isEmpty {
        FileHandle.standardError.write(Data((error.diagnostics.map(\.description).joined(separator: "\n") + "\n").utf8))
        exit(1)
    } catch {
        FileHandle.standardError.write(Data("coachlab-bench screen-dump: \(error)\n".utf8))
        exit(1)
    }
    exit(0)
}

if arguments.count > 1, arguments[1] == "score" {
    try ScoreBench.run(megabytes: option("--megabytes").flatMap { Int($0) } ?? 10)
    exit(0)
}

if arguments.count > 1, arguments[1] == "json" {
    try JSONBench.run(iterations: option("--iterations").flatMap { Int($0) } ?? 2_000)
    exit(0)
}

if arguments.count > 1, arguments[1] == "generate-suite" {
    guard let out = option("--out"), let cases = option("--cases").flatMap(Int.init), cases > 0 else {
        FileHandle.standardError.write(Data("usage: coachlab-bench generate-suite --cases N --out DIR\n".utf8))
        exit(2)
    }
    do {
        try SuiteGenerator(cases: cases).write(to: out, fileSystem: .live)
    } catch {
        FileHandle.standardError.write(Data("\(error)\n".utf8))
        exit(2)
    }
    print("wrote \(cases) fixtures and \(out)/suite.yaml")
    exit(0)
}

let iterations = arguments.firstIndex(of: "--iterations").flatMap { Int(arguments[$0 + 1]) } ?? 50
let root = FileManager.default.currentDirectoryPath
let packs = ((try? FileManager.default.contentsOfDirectory(atPath: root + "/personas")) ?? [])
    .filter { FileManager.default.fileExists(atPath: "\(root)/personas/\($0)/pack.yaml") }.sorted()
guard !packs.isEmpty else {
    FileHandle.standardError.write(Data("run from the package root: no packs under personas/\n".utf8))
    exit(2)
}

var variants = 0
var loadTimes: [Double] = [], compileTimes: [Double] = [], totalTimes: [Double] = []
for iteration in 0..<(iterations + 3) {
    var load = 0.0, compile = 0.0
    var count = 0
    let total = try seconds {
        for name in packs {
            var pack: Pack?
            load += try seconds { pack = try PackLoader(fileSystem: .live).load("personas/\(name)").get() }
            guard let pack else { continue }
            compile += try seconds {
                let compiler = try Compiler(pack: pack)
                for variant in pack.variants {
                    _ = try compiler.compile(CompileInputs(variant), fileSystem: .live)
                    count += 1
                }
            }
        }
    }
    if iteration >= 3 {  // the first runs warm caches
        loadTimes.append(load); compileTimes.append(compile); totalTimes.append(total)
    }
    variants = count
}

let message = """
    coachlab-bench: \(packs.count) packs, \(variants) variants, \(iterations) iterations (median, release build)
      load + lint checks   \(String(format: "%7.2f", median(loadTimes) * 1000)) ms
      compile variants     \(String(format: "%7.2f", median(compileTimes) * 1000)) ms  (\(String(format: "%.3f", median(compileTimes) * 1000 / Double(max(variants, 1)))) ms per variant)
      lint+compile total   \(String(format: "%7.2f", median(totalTimes) * 1000)) ms  (best \(String(format: "%.2f", (totalTimes.min() ?? 0) * 1000)) ms)

    """
print(message, terminator: "")
