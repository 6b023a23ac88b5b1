import Foundation

/// Whether provider (or run) A beats B on the same cases.
///
/// Two pass rates with overlapping Wilson intervals say nothing about a difference measured
/// on the same cases: the pairs are what carry it. Over the cases both columns scored (an
/// error in either drops the pair), the table counts both passing, only A, only B and
/// neither. The exact McNemar test asks whether the discordant pairs split unevenly; the
/// difference of pass rates gets Newcombe's score interval for paired proportions (his
/// method 10, built from the two Wilson intervals and the pairs' correlation).
///
/// With repeats, the pairs of one fixture are not independent: a fixture on which A beats B
/// once tends to again. Given ``clusters``, the test is then the clustered McNemar test of
/// Durkalski et al. (2003), and the interval counts the pairs as the independent pairs they
/// are worth (``effectivePairs``), as ``PassRate`` does for one column.
public struct PairedComparison: Sendable, Hashable {
    /// Both passed, only A passed, only B passed, both failed.
    public var bothPassed: Int, onlyA: Int, onlyB: Int, neither: Int
    public var labelA: String, labelB: String
    /// The pairs of each fixture (its repeats); empty when not known.
    public var clusters: [Cluster] = []

    /// One fixture's pairs.
    public struct Cluster: Sendable, Hashable {
        public var onlyA: Int, onlyB: Int, pairs: Int

        public init(onlyA: Int, onlyB: Int, pairs: Int) {
            self.onlyA = onlyA
            self.onlyB = onlyB
            self.pairs = pairs
        }
    }

    public init(bothPassed: Int, onlyA: Int, onlyB: Int, neither: Int, labelA: String = "A", labelB: String = "B") {
        self.bothPassed = bothPassed
        self.onlyA = onlyA
        self.onlyB = onlyB
        self.neither = neither
        self.labelA = labelA
        self.labelB = labelB
    }

    /// The pairs of two columns of a matrix.
    public init(_ matrix: ComparisonMatrix, columns a: Int, _ b: Int) {
        var counts = (0, 0, 0, 0)
        var fixtures: [String: Cluster] = [:]
        for row in matrix.rows {
            guard let left = row.cells[a], let right = row.cells[b], left.outcome != .error, right.outcome != .error else { continue }
            var cluster = fixtures[row.suite + "\u{0}" + row.fixture] ?? Cluster(onlyA: 0, onlyB: 0, pairs: 0)
            cluster.pairs += 1
            switch (left.outcome == .pass, right.outcome == .pass) {
            case (true, true): counts.0 += 1
            case (true, false): counts.1 += 1; cluster.onlyA += 1
            case (false, true): counts.2 += 1; cluster.onlyB += 1
            case (false, false): counts.3 += 1
            }
            fixtures[row.suite + "\u{0}" + row.fixture] = cluster
        }
        self.init(bothPassed: counts.0, onlyA: counts.1, onlyB: counts.2, neither: counts.3,
                  labelA: matrix.columns[a].label, labelB: matrix.columns[b].label)
        clusters = fixtures.keys.sorted().map { fixtures[$0]! }
    }

    /// Whether some fixture gave more than one pair (repeats), so that pairs are clustered.
    public var isClustered: Bool { clusters.contains { $0.pairs > 1 } }

    /// The number of independent pairs the pairs are worth: `pairs` over the design effect of
    /// their clustering by fixture (the cluster-robust variance of the difference, with the
    /// factor g/(g-1), over the variance of independent pairs), kept between the number of
    /// fixtures and `pairs`. Without discordant pairs the spread says nothing, and each
    /// fixture counts once. Unclustered, it is `pairs`.
    public var effectivePairs: Double {
        let n = Double(pairs)
        guard isClustered else { return n }
        let g = Double(clusters.count)
        guard clusters.count > 1, discordant > 0 else { return g }
        let d = difference
        let spread = clusters.reduce(0.0) { sum, cluster in
            let deviation = Double(cluster.onlyA - cluster.onlyB) - Double(cluster.pairs) * d
            return sum + deviation * deviation
        }
        return RepeatGroups.effectiveSize(samples: n, groups: g, spread: spread, independentVariance: (Double(discordant) / n - d * d) / n)
    }

    /// Pairs scored by both.
    public var pairs: Int { bothPassed + onlyA + onlyB + neither }
    /// Pairs on which they disagreed.
    public var discordant: Int { onlyA + onlyB }
    /// A's pass rate minus B's, over the pairs.
    public var difference: Double { pairs == 0 ? 0 : Double(onlyA - onlyB) / Double(pairs) }

    /// The exact (binomial) two-sided McNemar p-value: 1 when there are no discordant pairs.
    /// Clustered, Durkalski's statistic (the sum of each fixture's only-A minus only-B, squared,
    /// over the sum of their squares) against χ² with one degree of freedom.
    public var pValue: Double {
        let n = discordant
        guard n > 0 else { return 1 }
        if isClustered {
            let squares = clusters.reduce(0.0) { $0 + Double(($1.onlyA - $1.onlyB) * ($1.onlyA - $1.onlyB)) }
            guard squares > 0 else { return 1 }
            let statistic = Double((onlyA - onlyB) * (onlyA - onlyB)) / squares
            return min(1, erfc((statistic / 2).squareRoot()))
        }
        let k = min(onlyA, onlyB)
        // P(X ≤ k) for X ~ Binomial(n, 1/2), summed in log space so large n stays exact enough.
        var tail = 0.0
        for i in 0...k { tail += exp(Self.logChoose(n, i) - Double(n) * log(2)) }
        return min(1, 2 * tail)
    }

    /// Newcombe's 95% interval for the difference of paired pass rates (method 10).
    public var interval: (low: Double, high: Double) {
        guard pairs > 0 else { return (-1, 1) }
        // Clustered pairs count as the independent pairs they are worth: the same proportions
        // and correlation over fewer pairs.
        let n = effectivePairs, scale = effectivePairs / Double(pairs)
        let a = Double(bothPassed) * scale, b = Double(onlyA) * scale, c = Double(onlyB) * scale, d = Double(neither) * scale
        let denominator = (a + b) * (c + d) * (a + c) * (b + d)
        let phi = denominator == 0 ? 0 : (a * d - b * c) / denominator.squareRoot()
        return Self.newcombe(p1: (a + b) / n, Self.wilson(a + b, n), p2: (a + c) / n, Self.wilson(a + c, n), phi: phi)
    }

    /// The interval for p1 − p2 from each proportion's Wilson interval and their correlation
    /// `phi`; with `phi` 0 it is Newcombe's hybrid score interval for independent samples.
    static func newcombe(p1: Double, _ interval1: (Double, Double), p2: Double, _ interval2: (Double, Double),
                         phi: Double) -> (low: Double, high: Double) {
        let (l1, u1) = interval1, (l2, u2) = interval2
        let delta = max(0, (p1 - l1) * (p1 - l1) - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) * (u2 - p2)).squareRoot()
        let epsilon = max(0, (u1 - p1) * (u1 - p1) - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) * (p2 - l2)).squareRoot()
        return (max(-1, p1 - p2 - delta), min(1, p1 - p2 + epsilon))
    }

    /// What the comparison says, in words.
    public enum Verdict: Sendable, Hashable {
        case aBetter, bBetter, noDetectableDifference
    }

    /// A verdict at the 5% level.
    public var verdict: Verdict {
        guard pValue < 0.05 else { return .noDetectableDifference }
        return onlyA > onlyB ? .aBetter : .bBetter
    }

    /// About how many paired cases would show the observed difference with 80% power at the
    /// 5% level (Connor's formula for McNemar's test), or nil when no difference was observed.
    public var casesNeeded: Int? {
        guard pairs > 0, onlyA != onlyB else { return nil }
        let n = Double(pairs)
        let discordance = Double(discordant) / n
        let difference = abs(self.difference)
        let zAlpha = 1.959964, zBeta = 0.841621
        let root = zAlpha * discordance.squareRoot() + zBeta * max(0, discordance - difference * difference).squareRoot()
        return Int((root * root / (difference * difference)).rounded(.up))
    }

    /// One paragraph for the terminal and Markdown.
    public var summary: String {
        let (low, high) = interval
        let repeats = isClustered
            ? String(format: " (%d fixtures with their repeats, worth about %.0f independent pairs)", clusters.count, effectivePairs) : ""
        var text = "\(labelA) vs \(labelB) on \(pairs) paired cases\(repeats): both passed \(bothPassed), only \(labelA) \(onlyA), "
            + "only \(labelB) \(onlyB), neither \(neither). "
            + String(format: "Difference %+.1f points (95%% CI %+.1f to %+.1f); %@ McNemar p = %@. ",
                     difference * 100, low * 100, high * 100, isClustered ? "clustered" : "exact", Self.format(pValue))
        switch verdict {
        case .aBetter: text += "\(labelA) is better."
        case .bBetter: text += "\(labelB) is better."
        case .noDetectableDifference:
            text += "No detectable difference at this sample size"
            if let needed = casesNeeded {
                // Clustered, the formula counts independent pairs: fixtures, one pair each.
                let have = isClustered ? Int(effectivePairs) : pairs
                text += needed > have ? "; about \(needed) \(isClustered ? "fixtures" : "paired cases") would show a difference this size (80% power)." : "."
            } else {
                text += pairs == 0 ? ": no case was scored by both." : ": they disagreed equally often."
            }
        }
        return text
    }

    static func format(_ p: Double) -> String {
        p < 0.0001 ? "< 0.0001" : String(format: p < 0.01 ? "%.4f" : "%.3f", p)
    }

    static func logChoose(_ n: Int, _ k: Int) -> Double {
        lgamma(Double(n + 1)) - lgamma(Double(k + 1)) - lgamma(Double(n - k + 1))
    }

    /// The 95% Wilson score interval of `successes` in `n`.
    static func wilson(_ successes: Double, _ n: Double) -> (Double, Double) {
        let z = 1.959964, p = successes / n
        let centre = p + z * z / (2 * n)
        let spread = z * (p * (1 - p) / n + z * z / (4 * n * n)).squareRoot()
        let scale = 1 + z * z / n
        return ((centre - spread) / scale, (centre + spread) / scale)
    }
}

extension ComparisonMatrix {
    /// The first column against each other one, over the cases both scored.
    public var pairedComparisons: [PairedComparison] {
        guard columns.count >= 2 else { return [] }
        return columns.indices.dropFirst().map { PairedComparison(self, columns: 0, $0) }
    }
}
