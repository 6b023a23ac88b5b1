import CoachLab

/// The mutation score: per pack and overall, the share of non-equivalent mutants the suites
/// kill or lint catches.
public struct MutationSummary: Sendable {
    public var results: [MutantResult]
    /// Cases that already fail on the unchanged packs (`suite/fixture`): they cannot catch
    /// a mutant, so they weaken the score.
    public var baselineFailures: [String]

    public init(results: [MutantResult], baselineFailures: [String] = []) {
        self.results = results
        self.baselineFailures = baselineFailures
    }

    /// Counts for one pack (or every pack, for nil).
    public struct Counts: Sendable, Codable {
        public var killed = 0, lint = 0, survived = 0, equivalent = 0, unread = 0
        public var scored: Int { killed + lint + survived }
        /// Caught over scored; 1 when nothing was scored. It covers only the lines the mock
        /// reads: mutants on unread lines are apart.
        public var score: Double { scored == 0 ? 1 : Double(killed + lint) / Double(scored) }
        /// Caught over scored and unread: the score with every mutant on an unread line
        /// counted as not caught.
        public var scoreCountingUnread: Double { scored + unread == 0 ? 1 : Double(killed + lint) / Double(scored + unread) }
    }

    public func counts(pack: String? = nil) -> Counts {
        var counts = Counts()
        for result in results where pack == nil || result.pack == pack {
            switch result.verdict {
            case .killed: counts.killed += 1
            case .lint: counts.lint += 1
            case .survived: counts.survived += 1
            case .equivalent: counts.equivalent += 1
            case .unread: counts.unread += 1
            }
        }
        return counts
    }

    /// The packs, in the order they first appear.
    public var packs: [String] {
        var seen = Set<String>()
        return results.map(\.pack).filter { seen.insert($0).inserted }
    }
}
