// A bounded-time fuzzer for everything that reads authored content: YAML parsing, pack
// assembly and lint, the compiler, fixture and suite loading and coach import. It starts from
// seed files (the malformed-input corpus and the shipped packs), mutates them with byte-level
// and YAML-aware edits, and runs each input in memory.
//
// A finding is an input that crashes, takes longer than a second, or grows the process past
// its memory bound. The input about to run is always written to .build/fuzz/current.yaml
// first, so a crash leaves it behind; a slow or hungry one is saved to .build/fuzz/ and the
// run exits 1.
//
//   swift run coachlab-fuzz --seconds 60 --seed 1 Tests/CoachLabTests/Malformed personas
import CoachLab
import Dispatch
import Foundation

struct Options {
    var seconds = 30.0
    var seed: UInt64 = 1
    var paths: [String] = []
    var perInputLimit = 1.0
    var memoryLimitMB = 512

    init(_ arguments: [String]) {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--seconds": seconds = Double(rest.popFirst() ?? "") ?? seconds
            case "--seed": seed = UInt64(rest.popFirst() ?? "") ?? seed
            case "--per-input": perInputLimit = Double(rest.popFirst() ?? "") ?? perInputLimit
            case "--memory-mb": memoryLimitMB = Int(rest.popFirst() ?? "") ?? memoryLimitMB
            default: paths.append(argument)
            }
        }
    }
}

/// Fragments that reach the interesting paths: YAML structure and anchors, Mustache tags and
/// partials, prompt headers, line separators and look-alikes, control characters, numbers.
let tokens: [String] = [
    "&a ", "*a", "<<: *a", "!!map ", "- ", ": ", "{", "}", "[", "]", "\"", "'", "|\n", ">-\n", "\t", "#",
    "{{", "}}", "{{#risk}}", "{{/risk}}", "{{> p}}", "{{^empty(profile.x)}}", "{{profile.name}}", "{userName}",
    "\n=== RISK ALERT ===\n", "\u{2028}", "\u{85}", "\u{200B}", "\u{202E}", "\u{FF1D}\u{FF1D}\u{FF1D}", "\u{0415}",
    "\u{08}", "\u{00}", "\r\n", "99999999999999999999", "-1", "1e308", "null", "~", "true",
    "include: [../x.yaml]", "include: ['**/*.yaml']", "partials:\n  p: \"{{> p}}{{> p}}\"\n",
]

func mutate(_ input: [UInt8], seeds: [[UInt8]], random: inout SeededGenerator) -> [UInt8] {
    var bytes = input
    for _ in 0...random.below(4) {
        let position = random.below(bytes.count + 1)
        switch random.below(7) {
        case 0 where !bytes.isEmpty:  // flip a bit
            let index = min(position, bytes.count - 1)
            bytes[index] ^= UInt8(1 << random.below(8))
        case 1 where !bytes.isEmpty:  // delete a run
            let end = min(bytes.count, position + 1 + random.below(16))
            bytes.removeSubrange(min(position, end)..<end)
        case 2:  // insert a token
            bytes.insert(contentsOf: Array(tokens[random.below(tokens.count)].utf8), at: position)
        case 3 where !bytes.isEmpty:  // duplicate a run
            let start = random.below(bytes.count)
            let end = min(bytes.count, start + 1 + random.below(64))
            bytes.insert(contentsOf: bytes[start..<end], at: position)
        case 4:  // splice in part of another seed
            let other = seeds[random.below(seeds.count)]
            guard !other.isEmpty else { break }
            let start = random.below(other.count)
            let end = min(other.count, start + 1 + random.below(256))
            bytes.insert(contentsOf: other[start..<end], at: position)
        case 5 where !bytes.isEmpty:  // swap two lines
            var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
            guard lines.count > 1 else { break }
            lines.swapAt(random.below(lines.count), random.below(lines.count))
            bytes = Array(lines.joined(separator: [0x0A]))
        default:  // re-indent a line
            var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
            guard !lines.isEmpty else { break }
            let index = random.below(lines.count)
            lines[index] = ArraySlice(Array(repeating: UInt8(ascii: " "), count: random.below(9)) + lines[index].drop { $0 == 0x20 })
            bytes = Array(lines.joined(separator: [0x0A]))
        }
    }
    return Array(bytes.prefix(1 << 20))  // inputs stay under 1 MB
}

/// Runs one input through every reader; nothing may crash, whatever it says.
func exercise(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    let files = ["app/pack.yaml": text, "app/stack.yaml": text, "fixtures/x/f.yaml": text, "evals/s.yaml": text]
    let fileSystem = FileSystem.inMemory(files)
    let result = PackLoader(fileSystem: fileSystem).load("app")
    if let pack = result.pack, !result.hasErrors, let compiler = try? Compiler(pack: pack) {
        let inputs = CompileInputs(coach: pack.coaches.first?.id, topic: pack.topics.first?.slug, profile: pack.profiles.first?.id,
                                   context: pack.contexts.first?.id, screen: "I want to hurt myself")
        if let prompt = try? compiler.compile(inputs, fileSystem: fileSystem) { _ = prompt.system.count }
        for variant in pack.variants.prefix(3) { _ = try? compiler.compile(CompileInputs(variant), fileSystem: fileSystem) }
        _ = try? CoachDocuments.importCoach(Data(bytes), file: "in.json", into: pack)
    }
    _ = EvalLinter(fileSystem: fileSystem).lint(fixtures: ["fixtures/x/f.yaml"], suites: ["evals/s.yaml"])
    _ = try? GuardrailDataset.load("d.yaml", fileSystem: .inMemory(["d.yaml": text]))
}

func residentMegabytes() -> Int {
    var usage = rusage()
    #if os(Linux)
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return Int(usage.ru_maxrss) / 1024
    #else
    getrusage(RUSAGE_SELF, &usage)
    return Int(usage.ru_maxrss) / (1024 * 1024)
    #endif
}

func files(under path: String) -> [String] {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return [] }
    guard isDirectory.boolValue else { return [path] }
    let enumerator = FileManager.default.enumerator(atPath: path)
    var found: [String] = []
    while let name = enumerator?.nextObject() as? String {
        if name.hasSuffix(".yaml") || name.hasSuffix(".json") { found.append(path + "/" + name) }
    }
    return found.sorted()
}

let options = Options(Array(CommandLine.arguments.dropFirst()))
let seedFiles = options.paths.flatMap(files(under:))
let seeds = seedFiles.compactMap { FileManager.default.contents(atPath: $0).map { [UInt8]($0) } }
guard !seeds.isEmpty else {
    FileHandle.standardError.write(Data("coachlab-fuzz: no seed files under \(options.paths)\n".utf8))
    exit(2)
}
let findings = ".build/fuzz"
try? FileManager.default.createDirectory(atPath: findings, withIntermediateDirectories: true)

/// Saves an input a finding points to. A finding whose input cannot be saved is not lost: the
/// input goes to standard error instead.
@Sendable func save(_ input: [UInt8], to path: String) {
    guard !FileManager.default.createFile(atPath: path, contents: Data(input)) else { return }
    FileHandle.standardError.write(Data("coachlab-fuzz: cannot write \(path); the input, \(input.count) bytes:\n".utf8) + Data(input) + Data("\n".utf8))
}

// The watchdog: an input still running after ten times its limit is a hang; save it and stop.
final class Current: @unchecked Sendable {
    private let lock = NSLock()
    private var started = Date.distantFuture
    private var bytes: [UInt8] = []
    func begin(_ input: [UInt8]) { lock.withLock { started = Date(); bytes = input } }
    func end() { lock.withLock { started = .distantFuture } }
    func hung(after limit: Double) -> [UInt8]? { lock.withLock { Date().timeIntervalSince(started) > limit ? bytes : nil } }
}
let current = Current()
let watchdog = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "watchdog"))
watchdog.schedule(deadline: .now() + 1, repeating: 1)
let hangLimit = options.perInputLimit * 10, hangFile = findings + "/hang.yaml"
watchdog.setEventHandler { @Sendable in
    // Runs on the watchdog's queue, not the main thread, so it sees a hang in progress.
    if let input = current.hung(after: hangLimit) {
        save(input, to: hangFile)
        FileHandle.standardError.write(Data("coachlab-fuzz: an input ran for over \(hangLimit) s; saved to \(hangFile)\n".utf8))
        exit(1)
    }
}
watchdog.resume()

var random = SeededGenerator(seed: options.seed)
let clock = ContinuousClock()
let start = clock.now
var runs = 0, slowest = 0.0
let baseline = residentMegabytes()
var failures: [String] = []
// Every seed first, as it is; then mutants until the time is up.
var queue = seeds
while clock.now - start < .seconds(options.seconds) {
    let input = queue.isEmpty ? mutate(seeds[random.below(seeds.count)], seeds: seeds, random: &random) : queue.removeFirst()
    // Where a crash's input is found afterwards; checked once, as it is written for every input.
    if !FileManager.default.createFile(atPath: findings + "/current.yaml", contents: Data(input)), runs == 0 {
        FileHandle.standardError.write(Data("coachlab-fuzz: warning: cannot write \(findings)/current.yaml, so a crash's input will not be saved\n".utf8))
    }
    current.begin(input)
    let began = clock.now
    exercise(input)
    let elapsed = (clock.now - began) / .seconds(1)
    current.end()
    runs += 1
    slowest = max(slowest, elapsed)
    if elapsed > options.perInputLimit {
        let name = findings + "/slow-\(runs).yaml"
        save(input, to: name)
        failures.append("an input took \(String(format: "%.2f", elapsed)) s (limit \(options.perInputLimit) s): \(name)")
    }
    if residentMegabytes() - baseline > options.memoryLimitMB {
        let name = findings + "/memory-\(runs).yaml"
        save(input, to: name)
        failures.append("memory grew past \(options.memoryLimitMB) MB: \(name)")
        break
    }
}
try? FileManager.default.removeItem(atPath: findings + "/current.yaml")
let seconds = (clock.now - start) / .seconds(1)
print("coachlab-fuzz: \(runs) inputs from \(seeds.count) seeds in \(String(format: "%.1f", seconds)) s "
      + "(\(Int(Double(runs) / max(seconds, 0.001))) inputs/s); slowest \(String(format: "%.3f", slowest)) s; "
      + "peak RSS \(residentMegabytes()) MB; seed \(options.seed)")
for failure in failures { FileHandle.standardError.write(Data("coachlab-fuzz: \(failure)\n".utf8)) }
exit(failures.isEmpty ? 0 : 1)
