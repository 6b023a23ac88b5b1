import CoachLab

/// What became of one mutant.
public struct MutantResult: Sendable, Codable {
    /// Killed by a suite, caught by lint, survived, equivalent (it changed no compiled prompt
    /// the suites use, and no screening decision), or unread: it survived on an instruction
    /// line the mock cannot read (``ReadingCoverage``), where no check could have caught it.
    public enum Verdict: String, Sendable, Codable {
        case killed, lint, survived, equivalent, unread
    }

    public var id: String
    public var pack: String
    public var `operator`: Mutant.Operator
    /// `file:line` of the change in the original pack.
    public var location: String
    public var description: String
    public var before: String
    public var after: String
    public var verdict: Verdict
    /// The case and check that failed (killed), or the lint error (lint).
    public var caughtBy: String?
    /// For a survivor: the fixture or check that would catch it.
    public var hint: String?
}

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
