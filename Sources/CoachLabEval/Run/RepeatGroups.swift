import CoachLab
import CoachLabProviders
import Foundation

/// How the scored cases behind a pass rate fall into groups of repeats (one fixture on one
/// provider): the sums that the spread of the rate between groups is computed from.
public struct RepeatGroups: Sendable, Codable, Hashable {
    /// Groups with at least one scored case.
    public private(set) var count = 0
    /// Over the groups: passes squared, passes times scored cases, scored cases squared.
    public private(set) var passedSquared = 0.0, passedTimesScored = 0.0, scoredSquared = 0.0

    public init() {}

    /// Adds a group: its passing cases of its scored (passed or failed) ones.
    public mutating func add(passed: Int, scored: Int) {
        guard scored > 0 else { return }
        let (passed, scored) = (Double(passed), Double(scored))
        count += 1
        passedSquared += passed * passed
        passedTimesScored += passed * scored
        scoredSquared += scored * scored
    }

    /// The independent samples `samples` grouped ones are worth: `samples` over the design
    /// effect (Kish), the cluster-robust variance of the estimate (the `spread` of the groups'
    /// deviations from it, with the small-sample factor g/(g-1)) over `independentVariance`,
    /// the variance the samples would give were they independent. Kept between the number of
    /// groups and `samples`; with no spread the groups add nothing to the count, and with no
    /// independent variance each group counts once.
    static func effectiveSize(samples n: Double, groups g: Double, spread: Double, independentVariance: Double) -> Double {
        let clustered = g / (g - 1) * spread / (n * n)
        guard clustered > 0 else { return n }
        guard independentVariance > 0 else { return g }
        return min(n, max(g, n * independentVariance / clustered))
    }

    /// Adds groups already summed (another shard's, or the same sums read from SQL).
    public mutating func add(count: Int, passedSquared: Double, passedTimesScored: Double, scoredSquared: Double) {
        self.count += count
        self.passedSquared += passedSquared
        self.passedTimesScored += passedTimesScored
        self.scoredSquared += scoredSquared
    }
}
