import CoachLab
import Foundation

/// A committed record of which cases passed, small enough to review in a pull request.
/// `eval --write-baseline FILE` writes one; `eval --baseline FILE` fails on every case group
/// whose pass count fell by more than chance explains, even when thresholds still hold.
///
/// A group run once on either side gives no measure of chance, so there any drop from
/// passing every run is a regression: a deterministic provider (the mock, a cassette) that
/// fails where it passed has changed. A group run two or more times on both sides is a
/// regression when the one-sided Fisher exact test says so at the 5% level: 5/5 → 1/5
/// (p = 0.024) is one, and 5/5 → 4/5 (p = 0.5) is not: a model that passes nine times in ten
/// does that or worse in 41% of runs of five. Such drops are reported as within noise, not failed.
public struct Baseline: Sendable, Codable, Hashable {
    /// One case group (suite/fixture/provider) across its repeats.
    public struct Entry: Sendable, Codable, Hashable {
        public var passed: Int
        public var total: Int

        public init(passed: Int, total: Int) {
            self.passed = passed
            self.total = total
        }
    }

    /// A group whose pass count moved against the baseline.
    public struct Regression: Sendable, Hashable, CustomStringConvertible {
        public var group: String
        public var before: Entry
        public var after: Entry
        /// Why the latest failing repeat failed.
        public var reason: String?
        /// With repeats on both sides, the one-sided Fisher exact p-value of a move this large
        /// or larger if the pass rate had not changed; nil when a side ran the group once.
        public var pValue: Double?

        /// Whether the move counts: always for a group run once on a side, else at p ≤ 0.05.
        public var isSignificant: Bool { pValue.map { $0 <= Baseline.level } ?? true }

        public var description: String {
            "\(group): passed \(before.passed)/\(before.total) in the baseline, \(after.passed)/\(after.total) now"
                + (pValue.map { " (p = \(PairedComparison.format($0)))" } ?? "") + (reason.map { " — \($0)" } ?? "")
        }
    }

    /// The level at which a move measured over repeats counts.
    public static let level = 0.05

    /// The file's format, so a future version can read older files.
    public var format = 1
    /// The run it was written from.
    public var run: String
    /// By case group: suite/fixture/provider.
    public var cases: [String: Entry]

    public init(run: String, cases: [String: Entry]) {
        self.run = run
        self.cases = cases
    }

    /// The baseline of a stored run.
    public init(report: RunReport) throws {
        var cases: [String: Entry] = [:]
        try report.forEachCase { result in
            let group = Self.group(result)
            cases[group, default: Entry(passed: 0, total: 0)].total += 1
            if result.outcome == .pass { cases[group]!.passed += 1 }
        }
        self.init(run: report.run, cases: cases)
    }

    /// suite/fixture/provider.
    public static func group(_ result: CaseResult) -> String { "\(result.suite)/\(result.fixture)/\(result.provider)" }

    /// Reads a baseline file.
    /// - Throws: ``CoachLabError`` (usage, or content for a file that is not a baseline) naming the file.
    public static func read(_ path: String, fileSystem: FileSystem) throws -> Baseline {
        let data: Data
        do { data = try fileSystem.read(path) } catch {
            throw CoachLabError(.usage, "cannot read the baseline: \(error.localizedDescription)", at: SourceLocation(file: path, line: 1, column: 1),
                                hint: "write one with coachlab eval --write-baseline FILE")
        }
        do { return try JSONDecoder().decode(Baseline.self, from: data) } catch {
            throw CoachLabError(.content, "not a CoachLab baseline (write one with coachlab eval --write-baseline FILE): \(error)",
                                at: SourceLocation(file: path, line: 1, column: 1))
        }
    }

    /// How a baseline file opens.
    public static let opening = "{\n  \"cases\" : {\n"

    /// The file's text: sorted keys, one case per line, so diffs in review stay small.
    public func json() -> String {
        var out = Self.opening
        let encoder = JSONEncoder.sorted()
        func encode<T: Encodable>(_ value: T) -> String { String(decoding: (try? encoder.encode(value)) ?? Data(), as: UTF8.self) }
        out += cases.keys.sorted().map { "    \(encode($0)) : \(encode(cases[$0]!))" }.joined(separator: ",\n")
        out += "\n  },\n  \"format\" : \(format),\n  \"run\" : \(encode(run))\n}\n"
        return out
    }

    /// Groups whose pass count fell, significant or not (see ``Regression/isSignificant``),
    /// in group order. Groups absent from either side are left out (`coachlab diff` lists them).
    public func drops(in report: RunReport) throws -> [Regression] {
        var reasons: [String: String] = [:]
        let now = try counts(in: report) { group, result in
            if result.outcome == .error { reasons[group] = result.error }
            if let failure = result.failures.first { reasons[group] = "turn \(failure.turn) \(failure.check.check): \(failure.check.reason)" }
        }
        return now.keys.sorted().compactMap { group in
            guard let before = cases[group], let after = now[group] else { return nil }
            let fall = Self.fall(from: before, to: after)
            return fall.fell ? Regression(group: group, before: before, after: after, reason: reasons[group], pValue: fall.pValue) : nil
        }
    }

    /// The drops that count: ``drops(in:)`` that are significant.
    public func regressions(in report: RunReport) throws -> [Regression] {
        try drops(in: report).filter(\.isSignificant)
    }

    /// Groups whose pass count rose by more than chance explains: from failing some run to
    /// passing every run when a side ran the group once, else at p ≤ 0.05.
    public func fixes(in report: RunReport) throws -> [String] {
        let now = try counts(in: report)
        return now.keys.sorted().filter { group in
            guard let before = cases[group], let after = now[group] else { return false }
            let rise = Self.fall(from: after, to: before)
            return rise.fell && (rise.pValue.map { $0 <= Self.level } ?? true)
        }
    }

    /// Whether `after` fell short of `before`, and how surely. When a side ran the group once
    /// it fell only from passing every run to not, with no p-value; with repeats on both sides
    /// it fell when its pass rate is lower, with the one-sided Fisher exact p-value.
    public static func fall(from before: Entry, to after: Entry) -> (fell: Bool, pValue: Double?) {
        guard before.total > 0, after.total > 0 else { return (false, nil) }
        if before.total == 1 || after.total == 1 { return (before.passed == before.total && after.passed < after.total, nil) }
        guard after.passed * before.total < before.passed * after.total else { return (false, nil) }
        return (true, fewerPasses(before: before, after: after))
    }

    /// P(after passes `after.passed` or fewer of its runs | the runs' passes are shared at
    /// random between the two sides): the hypergeometric tail of Fisher's exact test.
    static func fewerPasses(before: Entry, after: Entry) -> Double {
        let runs = before.total + after.total, passes = before.passed + after.passed
        let least = max(0, passes - before.total)
        guard after.passed >= least else { return 0 }
        let whole = PairedComparison.logChoose(runs, after.total)
        var tail = 0.0
        for shared in least...after.passed {
            tail += exp(PairedComparison.logChoose(passes, shared) + PairedComparison.logChoose(runs - passes, after.total - shared) - whole)
        }
        return min(1, tail)
    }

    /// Each group's pass count in `report`, handing every result to `each` on the way.
    private func counts(in report: RunReport, each: (String, CaseResult) -> Void = { _, _ in }) throws -> [String: Entry] {
        var now: [String: Entry] = [:]
        try report.forEachCase { result in
            let group = Self.group(result)
            now[group, default: Entry(passed: 0, total: 0)].total += 1
            if result.outcome == .pass { now[group]!.passed += 1 }
            each(group, result)
        }
        return now
    }

    /// `--baseline`'s verdict on `report`: whether it holds (no regressions), and the lines
    /// that say so, naming every regression, then every drop within noise. `path` names the
    /// baseline file in them.
    public func verdict(on report: RunReport, named path: String) throws -> (holds: Bool, lines: [String]) {
        let drops = try drops(in: report)
        let regressions = drops.filter(\.isSignificant), noise = drops.filter { !$0.isSignificant }
        var lines = regressions.isEmpty ? ["no regressions against the baseline \(path)"]
            : ["\(regressions.count) \(regressions.count == 1 ? "regression" : "regressions") against the baseline \(path):"] + regressions.map { "  REGRESSION \($0)" }
        if !noise.isEmpty {
            lines += ["\(noise.count) \(noise.count == 1 ? "group" : "groups") passed fewer repeats than in the baseline, within what chance gives "
                      + "(one-sided Fisher exact test, p > \(Self.level)); not regressions:"] + noise.map { "  within noise \($0)" }
        }
        return (regressions.isEmpty, lines)
    }
}
