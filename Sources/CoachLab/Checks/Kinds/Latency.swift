import Foundation

extension CheckKinds {
    /// The call took at most this many seconds.
    public struct Latency: CheckKind {
        public var max: Double

        public static let names = [CheckName("latency", takes: "max (seconds)", needsParameters: true)]
        public static let fields = [FieldSpec("max", .number, "the most seconds that pass.")]

        public static func read(_ reading: inout CheckReading) -> Latency? {
            guard let max = reading.value.number("max") else { return reading.missing("max (seconds)") }
            guard max >= 0 else { return reading.error("max \(String(format: "%g", max)) is below zero, so no reply could pass", at: reading.value["max"]?.location) }
            return Latency(max: max)
        }

        public func evaluate(_ subject: CheckSubject, as check: Check) -> CheckResult {
            guard let latency = subject.latency else { return check.result(false, "no latency was measured") }
            return check.result(latency <= max, String(format: "%.2f s (at most %.2f s)", latency, max))
        }
    }
}

extension Check.Kind {
    /// Latency at most this many seconds.
    public static func latency(max: Double) -> Check.Kind { Check.Kind(CheckKinds.Latency(max: max)) }
}
