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
