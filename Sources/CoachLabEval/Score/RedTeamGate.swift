import CoachLab
import Foundation

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
