import CoachLab
import Foundation

/// A `--fail-under` value split: the name before `=` (lowercased; nil when the text is a bare
/// rate) and the rate, which must lie in `range`. Nil when the text is neither.
func failUnderParts(_ text: String, range: ClosedRange<Double>) -> (name: String?, rate: Double)? {
    let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
    guard let rate = Double(parts[parts.count - 1]), range.contains(rate) else { return nil }
    return (parts.count == 2 ? parts[0].lowercased() : nil, rate)
}

/// A `--fail-under` bar on a named metric: the metric, and the rate it must reach.
public struct MetricGate<Metric: RawRepresentable & Hashable & Sendable>: Sendable, Hashable where Metric.RawValue == String {
    public var metric: Metric
    public var rate: Double

    public init(metric: Metric, rate: Double) {
        self.metric = metric
        self.rate = rate
    }
}

/// What `coachlab guard --dataset --fail-under` bars.
public enum GuardrailMetric: String, Sendable, CaseIterable {
    case precision, recall, f1
}

/// A `--fail-under` bar on a labelled set's scores (`coachlab guard --dataset`): `RATE` bars
/// F1, and `precision=RATE`, `recall=RATE` or `f1=RATE` bar that metric. It applies to every
/// rule and to the overall row.
public typealias GuardrailGate = MetricGate<GuardrailMetric>

extension MetricGate where Metric == GuardrailMetric {
    /// Parses `RATE` or `METRIC=RATE`; nil for anything else, or a rate outside 0...1.
    public init?(_ text: String) {
        guard let (name, rate) = failUnderParts(text, range: 0...1), let metric = name.map(GuardrailMetric.init(rawValue:)) ?? .f1 else {
            return nil
        }
        self.init(metric: metric, rate: rate)
    }

    /// This gate's metric of one row.
    public func value(_ counts: GuardrailScore.Counts) -> Double {
        switch metric {
        case .precision: counts.precision
        case .recall: counts.recall
        case .f1: counts.f1
        }
    }

    /// A line for every row of `score` (its rules, then overall) that falls below a gate, gate
    /// by gate, naming the set and its split.
    public static func misses(_ gates: [Self], in score: GuardrailScore) -> [String] {
        let name = score.dataset + (score.split.map { " (\($0.rawValue))" } ?? "")
        return gates.flatMap { gate in
            (score.rules + [score.overall]).filter { gate.value($0) + 1e-9 < gate.rate }.map { row in
                String(format: "%@: %@ %@ %.3f is below %.3f", name, row.rule, gate.metric.rawValue, gate.value(row), gate.rate)
            }
        }
    }
}

/// A `--fail-under` bar on a red-team report (`coachlab redteam`): `RATE` bars every rule's
/// recall under every rewrite, `REWRITE=RATE` under one rewrite.
public struct RedTeamGate: Sendable, Hashable {
    /// Nil for every rewrite.
    public var perturbation: Perturbation?
    /// From 0 to 1.
    public var rate: Double

    public init(perturbation: Perturbation?, rate: Double) {
        self.perturbation = perturbation
        self.rate = rate
    }

    /// Parses `RATE` or `REWRITE=RATE`; nil for an unknown rewrite, or a rate outside 0...1.
    public init?(_ text: String) {
        guard let (name, rate) = failUnderParts(text, range: 0...1) else { return nil }
        guard let name else {
            self.init(perturbation: nil, rate: rate)
            return
        }
        guard let perturbation = Perturbation(rawValue: name) else { return nil }
        self.init(perturbation: perturbation, rate: rate)
    }

    /// A line for every cell of `report` below a gate, in text order; a line two gates give
    /// alike is listed once.
    public static func misses(_ gates: [RedTeamGate], in report: RedTeamReport) -> [String] {
        let lines = gates.flatMap { gate in
            report.cells(below: gate.rate, perturbation: gate.perturbation).map { perturbation, cell in
                String(format: "%@ under %@: recall %.3f (%d/%d) is below %.3f", cell.rule, perturbation.rawValue,
                       cell.recall, cell.kept, cell.trials, gate.rate)
            }
        }
        return Array(Set(lines)).sorted()
    }
}

/// What `coachlab judge calibrate --fail-under` bars.
public enum CalibrationMetric: String, Sendable, CaseIterable {
    case kappa, agreement
}

/// A `--fail-under` bar on a judge's calibration (`coachlab judge calibrate`):
/// `kappa=RATE` or `agreement=RATE`, with RATE from -1 to 1 (kappa can be below 0).
public typealias CalibrationGate = MetricGate<CalibrationMetric>

extension MetricGate where Metric == CalibrationMetric {
    /// Parses `kappa=RATE` or `agreement=RATE`; nil for anything else.
    public init?(_ text: String) {
        guard let (name, rate) = failUnderParts(text, range: -1...1), let metric = name.flatMap(CalibrationMetric.init(rawValue:)) else {
            return nil
        }
        self.init(metric: metric, rate: rate)
    }

    /// A line for each gate `calibration` falls below.
    public static func misses(_ gates: [Self], in calibration: Calibration) -> [String] {
        gates.compactMap { gate in
            let value = gate.metric == .kappa ? calibration.kappa : calibration.agreement
            return value + 1e-9 < gate.rate ? String(format: "%@ %.2f is below %.2f", gate.metric.rawValue, value, gate.rate) : nil
        }
    }
}
