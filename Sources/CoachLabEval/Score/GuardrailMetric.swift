import CoachLab
import Foundation

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
