import CoachLab
import Foundation

/// What an attack run found, as `attack --json` writes it.
public struct AttackReport: Sendable {
    public var outcomes: [AttackRun.Outcome]
    public var skipped: [AttackPlanner.Skipped]

    public init(outcomes: [AttackRun.Outcome], skipped: [AttackPlanner.Skipped]) {
        self.outcomes = outcomes
        self.skipped = skipped
    }
}
