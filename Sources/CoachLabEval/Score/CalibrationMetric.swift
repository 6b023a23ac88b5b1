import CoachLab
import Foundation

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
