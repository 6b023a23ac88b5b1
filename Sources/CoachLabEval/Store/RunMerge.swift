import CoachLab
import Foundation

/// Combines shards into one run: each input is a result store (its newest run, or
/// `STORE@RUN`) or a JSON report written by `eval --json`. A case found in two inputs is an
/// error (the shards overlap); otherwise every case is copied into a new run of the target.
public struct RunMerge: Sendable {
    /// The merged run.
    public var run: String
    /// Its suites, by id (a JSON report gives only each suite's id and threshold).
    public var suites: [Suite]
    /// Cases merged.
    public var cases: Int
    /// Inputs merged.
    public var inputs: Int
    /// Inputs whose run did not finish: their finished cases are merged.
    public var warnings: [String]

    /// The parts of an eval JSON report a merge reads.
    struct JSONReport: Decodable {
        struct SuiteEntry: Decodable {
            var suite: String
            var threshold: Double
        }
        var cases: [CaseResult]
        var suites: [SuiteEntry]
        var prices: PriceSheet?
    }

    /// One input, read: its label, its cases' ids, and how to copy them into a run.
    private struct Source {
        var label: String
        var ids: [String]
        var copy: (String) throws -> Void
    }

    /// Merges `inputs` into a new run of `target`.
    /// - Parameter fileSystem: Reads JSON reports and suite files, and says whether a store exists.
    /// - Throws: ``CoachLabError``: usage for a missing store or run, or overlapping shards;
    ///   content for a file that is not a CoachLab JSON report.
    public static func merge(_ inputs: [String], into target: ResultStore, fileSystem: FileSystem) throws -> RunMerge {
        var suiteFiles: [String] = []
        var suitesById: [String: Suite] = [:]
        var providers: [String] = []
        var prices: PriceSheet?
        var warnings: [String] = []
        var sources: [Source] = []
        for input in inputs {
            if input.hasSuffix(".json") {
                let report = try readReport(input, fileSystem: fileSystem)
                prices = prices ?? report.prices
                for summary in report.suites where suitesById[summary.suite] == nil {
                    suitesById[summary.suite] = Suite(id: summary.suite, threshold: summary.threshold, file: summary.suite)
                    suiteFiles.append(summary.suite)
                }
                sources.append(Source(label: input, ids: report.cases.map(\.id)) { run in
                    try target.record(report.cases, run: run)
                })
                continue
            }
            let parts = input.split(separator: "@", maxSplits: 1).map(String.init)
            let path = parts[0]
            guard fileSystem.exists(path) else {
                throw CoachLabError(usage: "no result store at \(path)", hint: "name the --store each shard wrote")
            }
            let source = try ResultStore(path: path, on: fileSystem, clock: target.clock)
            guard let info = try parts.count > 1 ? source.run(parts[1]) : source.runs().first else {
                throw CoachLabError(usage: parts.count > 1 ? "no run '\(parts[1])' in \(path)" : "no runs in \(path)",
                                    hint: "coachlab runs --store \(path) lists them")
            }
            if info.status != "finished" { warnings.append("run \(info.id) in \(path) is \(info.status); merging the cases it finished") }
            for file in info.suites where !suiteFiles.contains(file) {
                guard let suite = EvalLoader(fileSystem: fileSystem).suite(at: file).0 else {
                    throw CoachLabError(usage: "\(path) names the suite \(file), which cannot be read here", hint: "run merge from the project root")
                }
                suitesById[suite.id] = suite
                suiteFiles.append(file)
            }
            providers += info.providers
            prices = prices ?? info.prices
            sources.append(Source(label: "\(path)@\(info.id)", ids: try source.finishedCases(run: info.id).sorted()) { run in
                try target.copy(run: info.id, from: source, into: run)
            })
        }
        var owner: [String: String] = [:]
        for source in sources {
            for id in source.ids {
                if let first = owner[id] {
                    throw CoachLabError(usage: "case \(id) is in both \(first) and \(source.label)",
                                        hint: "merge disjoint shards: eval --shard i/n with the same n")
                }
                owner[id] = source.label
            }
        }
        let run = try target.startRun(suites: suiteFiles, providers: Array(Set(providers)).sorted(), repeats: nil, prices: prices)
        for source in sources { try source.copy(run) }
        try target.finishRun(run, status: "finished")
        return RunMerge(run: run, suites: suitesById.values.sorted { $0.id < $1.id }, cases: owner.count, inputs: sources.count,
                        warnings: warnings)
    }

    private static func readReport(_ path: String, fileSystem: FileSystem) throws -> JSONReport {
        let start = SourceLocation(file: path, line: 1, column: 1)
        let data: Data
        do { data = try fileSystem.read(path) } catch {
            throw CoachLabError(.usage, "cannot read \(path): \(error.localizedDescription)", at: start)
        }
        do { return try JSONDecoder().decode(JSONReport.self, from: data) } catch {
            throw CoachLabError(.content, "not a CoachLab JSON report (coachlab eval --json writes one): \(error)", at: start)
        }
    }
}
