/// How well a pack's screen holds up when flagged messages are rewritten (``Perturbation``):
/// for every rule and rewrite, the share of the messages the rule catches as written that it
/// still catches, and how many harmless messages a rewrite makes it flag.
public struct RedTeamReport: Sendable, Encodable {
    /// One rule under one rewrite.
    public struct Cell: Sendable, Encodable, Hashable {
        public var rule: String
        /// Rewritten messages tried, and how many the rule still decided.
        public var trials = 0
        public var kept = 0
        /// Up to three rewrites it missed, to read and fix.
        public var misses: [Miss] = []

        /// `kept / trials`; 1 when nothing was tried.
        public var recall: Double { trials == 0 ? 1 : Double(kept) / Double(trials) }

        enum CodingKeys: String, CodingKey { case rule, trials, kept, recall, misses }
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(rule, forKey: .rule)
            try container.encode(trials, forKey: .trials)
            try container.encode(kept, forKey: .kept)
            try container.encode(recall, forKey: .recall)
            try container.encode(misses, forKey: .misses)
        }
    }

    /// A rewrite that changed the verdict.
    public struct Miss: Sendable, Encodable, Hashable {
        /// Where the original message is labelled.
        public var location: String
        public var original: String
        public var rewritten: String
        /// The rule that decided the rewrite, or nil when nothing flagged it.
        public var decided: String?
    }

    /// One rewrite across every rule.
    public struct Row: Sendable, Encodable {
        public var perturbation: Perturbation
        public var cells: [Cell]
        public var overall: Cell
        /// Harmless messages rewritten, and how many of those a rule flagged.
        public var harmlessTrials: Int
        public var falseAlarms: Int
        public var falseAlarmExamples: [Miss]
    }

    /// The labelled sets the messages came from.
    public var datasets: [String]
    /// Each rule's catch as written: `kept` of `trials` labelled messages.
    public var asWritten: [Cell]
    public var rows: [Row]

    /// Every rule's catch as written, summed.
    public var asWrittenOverall: Cell {
        var total = Cell(rule: "overall")
        total.trials = asWritten.map(\.trials).reduce(0, +)
        total.kept = asWritten.map(\.kept).reduce(0, +)
        return total
    }

    /// The rule ids, in report order.
    public var rules: [String] { asWritten.map(\.rule) }

    /// The cells under `minimum`, weakest first: what a gate fails on.
    public func cells(below minimum: Double, perturbation: Perturbation? = nil) -> [(Perturbation, Cell)] {
        let weak = rows.filter { perturbation == nil || $0.perturbation == perturbation }
            .flatMap { row in row.cells.filter { $0.trials > 0 && $0.recall + 1e-9 < minimum }.map { (row.perturbation, $0) } }
        // Weakest first; ties keep report order.
        return weak.indices.sorted { (weak[$0].1.recall, $0) < (weak[$1].1.recall, $1) }.map { weak[$0] }
    }
}

/// Runs every rewrite of every labelled message through a screen.
public enum RedTeam {
    /// Rewrites kept per cell as examples.
    static let examples = 3

    /// Measures `decide` on the rewrites of `items`.
    /// - Parameters:
    ///   - items: Labelled messages; those with a rule are rewritten to test recall, those
    ///     without (near-misses and harmless ones) to test false alarms.
    ///   - rules: The rule ids to report.
    ///   - perturbations: The rewrites to try.
    ///   - paraphrases: For `.paraphrase`, a model's rewrites of each message it was given.
    ///   - decide: The screen: the deciding flag for a message, nil when nothing flagged.
    public static func run(_ items: [GuardrailDataset.Item], rules: [String], datasets: [String],
                           perturbations: [Perturbation] = Perturbation.deterministic, paraphrases: [String: [String]] = [:],
                           decide: (String) async throws -> GuardrailFlag?) async rethrows -> RedTeamReport {
        func variants(_ perturbation: Perturbation, _ message: String, target: Range<Int>?) -> [String] {
            perturbation == .paraphrase ? paraphrases[message] ?? [] : perturbation.variants(of: message, target: target)
        }
        var asWritten = Dictionary(uniqueKeysWithValues: rules.map { ($0, RedTeamReport.Cell(rule: $0)) })
        // Each message the screen decides right as written, with the span that decided it.
        var caught: [(item: GuardrailDataset.Item, target: Range<Int>?)] = []
        var harmless: [GuardrailDataset.Item] = []
        for item in items {
            let flag = try await decide(item.message)
            guard let expected = item.expected else {
                if flag == nil { harmless.append(item) }
                continue
            }
            asWritten[expected, default: RedTeamReport.Cell(rule: expected)].trials += 1
            guard flag?.ruleId == expected else { continue }
            asWritten[expected]!.kept += 1
            caught.append((item, flag.flatMap { $0.stage == 1 ? $0.start..<$0.end : nil }))
        }

        var rows: [RedTeamReport.Row] = []
        for perturbation in perturbations {
            var cells = Dictionary(uniqueKeysWithValues: rules.map { ($0, RedTeamReport.Cell(rule: $0)) })
            for (item, target) in caught {
                guard let expected = item.expected else { continue }
                for rewritten in variants(perturbation, item.message, target: target) {
                    let decided = try await decide(rewritten)?.ruleId
                    cells[expected, default: RedTeamReport.Cell(rule: expected)].trials += 1
                    if decided == expected {
                        cells[expected]!.kept += 1
                    } else if cells[expected]!.misses.count < examples {
                        cells[expected]!.misses.append(RedTeamReport.Miss(location: item.location.description, original: item.message,
                                                                           rewritten: rewritten, decided: decided))
                    }
                }
            }
            var harmlessTrials = 0, falseAlarms = 0
            var falseAlarmExamples: [RedTeamReport.Miss] = []
            for item in harmless {
                for rewritten in variants(perturbation, item.message, target: nil) {
                    harmlessTrials += 1
                    guard let decided = try await decide(rewritten)?.ruleId else { continue }
                    falseAlarms += 1
                    if falseAlarmExamples.count < examples {
                        falseAlarmExamples.append(RedTeamReport.Miss(location: item.location.description, original: item.message,
                                                                     rewritten: rewritten, decided: decided))
                    }
                }
            }
            let ordered = rules.compactMap { cells[$0] }
            var overall = RedTeamReport.Cell(rule: "overall")
            overall.trials = ordered.map(\.trials).reduce(0, +)
            overall.kept = ordered.map(\.kept).reduce(0, +)
            rows.append(RedTeamReport.Row(perturbation: perturbation, cells: ordered, overall: overall, harmlessTrials: harmlessTrials,
                                          falseAlarms: falseAlarms, falseAlarmExamples: falseAlarmExamples))
        }
        return RedTeamReport(datasets: datasets, asWritten: rules.compactMap { asWritten[$0] }, rows: rows)
    }
}
