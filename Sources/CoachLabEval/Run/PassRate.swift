import CoachLab
import CoachLabProviders
import Foundation

/// Pass-rate statistics with a 95 % Wilson interval.
///
/// The repeats of one case (a fixture on a provider) are not independent samples: a fixture
/// that fails once tends to fail again. Given ``groups``, the interval counts the cases as
/// many as they are worth (``effectiveTotal``), so ten fixtures run ten times each are not
/// taken for a hundred independent conversations.
public struct PassRate: Sendable, Codable, Hashable {
    public var passed: Int
    public var total: Int
    /// How the scored cases fall into groups of repeats; nil, each case its own.
    public var groups: RepeatGroups?

    public init(passed: Int, total: Int, groups: RepeatGroups? = nil) {
        self.passed = passed
        self.total = total
        self.groups = groups
    }

    public var rate: Double { total == 0 ? 0 : Double(passed) / Double(total) }

    /// The number of independent cases the scored ones are worth: `total` divided by the
    /// design effect of their grouping (Kish), the variance of the rate from the spread of
    /// the groups' outcomes (cluster-robust, with the small-sample factor g/(g-1)) over the
    /// variance independent cases would give. Kept between the number of groups (repeats
    /// that always agree add nothing) and `total` (repeats are never worth more than fresh
    /// cases). With every case passing, or every one failing, the spread says nothing, so the
    /// groups count once each. Without groups, or one case a group, it is `total`.
    public var effectiveTotal: Double {
        let n = Double(total)
        guard let groups, groups.count > 0, groups.count < total else { return n }
        let g = Double(groups.count)
        guard groups.count > 1, passed > 0, passed < total else { return g }
        let p = rate
        // The sum over groups of (passed - scored × p)², from the three sums the groups keep.
        let spread = groups.passedSquared - 2 * p * groups.passedTimesScored + p * p * groups.scoredSquared
        return RepeatGroups.effectiveSize(samples: n, groups: g, spread: spread, independentVariance: p * (1 - p) / n)
    }

    /// The 95 % Wilson score interval, over ``effectiveTotal`` cases.
    public var wilson: (low: Double, high: Double) {
        guard total > 0 else { return (0, 0) }
        let z = 1.959963984540054
        let n = effectiveTotal, p = rate
        let denominator = 1 + z * z / n
        let centre = (p + z * z / (2 * n)) / denominator
        let margin = z * ((p * (1 - p) / n + z * z / (4 * n * n)).squareRoot()) / denominator
        // At 0 or all passing the bound is exactly 0 or 1; keep rounding from saying otherwise.
        return (passed == 0 ? 0 : max(0, centre - margin), passed == total ? 1 : min(1, centre + margin))
    }
}
