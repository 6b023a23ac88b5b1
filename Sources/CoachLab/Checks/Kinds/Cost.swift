import Foundation

extension CheckKinds {
    /// The call cost at most this many US dollars (with prices configured for the provider).
    public struct Cost: CheckKind {
        public var max: Double

        public static let names = [CheckName("cost", takes: "max (US dollars)", needsParameters: true)]
        public static let fields = [FieldSpec("max", .number, "the most US dollars that pass.")]

        public static func read(_ reading: inout CheckReading) -> Cost? {
            guard let max = reading.value.number("max") else { return reading.missing("max (US dollars)") }
            guard max >= 0 else { return reading.error("max \(String(format: "%g", max)) is below zero, so no reply could pass", at: reading.value["max"]?.location) }
            return Cost(max: max)
        }

        public func evaluate(_ subject: CheckSubject, as check: Check) -> CheckResult {
            guard let cost = subject.cost else { return check.result(false, "no price is configured for this provider") }
            return check.result(cost <= max, String(format: "$%.6f (at most $%.6f)", cost, max))
        }
    }
}

extension Check.Kind {
    /// Cost at most this many US dollars.
    public static func cost(max: Double) -> Check.Kind { Check.Kind(CheckKinds.Cost(max: max)) }
}
