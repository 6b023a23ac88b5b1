import Foundation

/// A labelled set of messages for measuring a pack's screen: each message, the rule that must
/// flag it (nil when none may), and for a near-miss the rule it resembles. YAML
/// (`dataset:` + `items:`) or JSONL (one `{"message": …, "expected": …, "about": …}` per line).
public struct GuardrailDataset: Sendable {
    /// One labelled message.
    public struct Item: Sendable, Hashable {
        public var message: String
        /// The rule id that must decide, or nil when nothing may flag.
        public var expected: String?
        /// For a near-miss, the rule it resembles.
        public var about: String?
        public var location: SourceLocation

        public init(message: String, expected: String?, about: String? = nil, location: SourceLocation) {
            self.message = message
            self.expected = expected
            self.about = about
            self.location = location
        }
    }

    /// Which split a set is: `dev` is what rules are tuned on; `test` is held out and reported.
    public enum Split: String, Sendable, Codable, CaseIterable { case dev, test }

    public var id: String
    /// The pack the set is for, when the file names one.
    public var pack: String?
    /// The split, when the file says.
    public var split: Split?
    public var items: [Item]
    public var file: String

    /// The YAML file's shape.
    public static let fileSpec = ObjectSpec("guardrail dataset file", "Labelled messages for scoring a pack's guardrails.", fields: [
        FieldSpec("dataset", .object(ObjectSpec("dataset", "The set's identity.", fields: [
            FieldSpec("id", .string, required: true, "Stable identifier."),
            FieldSpec("pack", .string, "The pack it is for, relative to the project root."),
            FieldSpec("split", .string, "dev (rules are tuned on it) or test (held out: written before tuning, never tuned on, reported)."),
            FieldSpec("description", .text, "What the set covers."),
        ])), required: true, "The set's identity."),
        FieldSpec("items", .list(.object(ObjectSpec("item", "One labelled message.", fields: [
            FieldSpec("message", .text, required: true, "The user's message."),
            FieldSpec("expected", .string, required: true, "The rule id that must flag it, or none."),
            FieldSpec("about", .string, "For a near-miss: the rule it resembles."),
        ]))), required: true, "The messages."),
    ])

    /// Loads a dataset: JSONL when the file ends in `.jsonl`, YAML otherwise.
    /// - Throws: ``CoachLabError`` with every problem located.
    public static func load(_ path: String, fileSystem: FileSystem) throws -> GuardrailDataset {
        guard fileSystem.exists(path), !fileSystem.isDirectory(path) else {
            throw CoachLabError(usage: "no dataset file at \(path)", hint: "the shipped ones are in fixtures/guardrails/")
        }
        let data = try fileSystem.data(at: path)
        return path.hasSuffix(".jsonl") ? try jsonLines(data, path: path) : try yaml(data, path: path)
    }

    /// The labelled sets in `directory` (YAML and JSONL, not recursive) that name `pack` as
    /// theirs, sorted by path. A set that does not load is an error: it would silently shrink
    /// what is measured.
    /// - Throws: ``CoachLabError`` from the first set that does not load.
    public static func discover(for pack: String, in directory: String = "fixtures/guardrails",
                                fileSystem: FileSystem) throws -> [GuardrailDataset] {
        guard fileSystem.isDirectory(directory) else { return [] }
        let wanted = fileSystem.realPath(Paths.normalize(pack))
        return try fileSystem.list(directory).filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") || $0.hasSuffix(".jsonl") }.sorted()
            .map { try load(Paths.join(directory, $0), fileSystem: fileSystem) }
            .filter { dataset in dataset.pack.map { fileSystem.realPath(Paths.normalize($0)) == wanted } ?? false }
    }

    private static func yaml(_ data: Data, path: String) throws -> GuardrailDataset {
        let root = try YAMLDocument.parse(data, file: path)
        let problems = ContentValidator.validate(root, spec: fileSpec).filter { $0.severity == .error }
        if !problems.isEmpty { throw CoachLabError(.content, problems) }
        var split: Split?
        if let value = root["dataset"]?.located("split") {
            guard let known = Split(rawValue: value.value) else {
                throw CoachLabError(.content, [.error("split '\(value.value)' is not dev or test", at: value.location,
                                                      hint: "dev is tuned on; test is held out and reported")])
            }
            split = known
        }
        let items = (root["items"]?.items ?? []).compactMap { item -> Item? in
            guard let message = item["message"]?.text, let expected = item["expected"]?.text else { return nil }
            return Item(message: message, expected: expected == "none" ? nil : expected, about: item["about"]?.text,
                        location: item.location)
        }
        return GuardrailDataset(id: root["dataset"]?.located("id")?.value ?? Paths.lastComponent(path),
                                pack: root["dataset"]?.located("pack")?.value, split: split, items: items, file: path)
    }

    private static func jsonLines(_ data: Data, path: String) throws -> GuardrailDataset {
        var items: [Item] = []
        var problems: [Diagnostic] = []
        for (index, line) in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let location = SourceLocation(file: path, line: index + 1, column: 1)
            guard !line.consists(of: .whitespaces) else { continue }
            guard let object = try? JSONValue.parse(Data(line.utf8)), let message = object["message"]?.string else {
                problems.append(.error("expected a JSON object with a \"message\" string", at: location))
                continue
            }
            let expected = object["expected"]?.string
            items.append(Item(message: message, expected: expected == "none" ? nil : expected, about: object["about"]?.string,
                              location: location))
        }
        if !problems.isEmpty { throw CoachLabError(.content, problems) }
        return GuardrailDataset(id: Paths.lastComponent(path), pack: nil, split: nil, items: items, file: path)
    }

    /// Problems with the labels for `pack`: expected or `about` rules it does not have.
    public func problems(for pack: Pack) -> [Diagnostic] {
        let ids = pack.guardedRuleIDs
        return items.flatMap { item in
            [item.expected, item.about].compactMap { $0 }.filter { !ids.contains($0) }.map { rule in
                Diagnostic.error("rule '\(rule)' has no guardrail in pack '\(pack.id)'", at: item.location,
                                 hint: Suggestions.hint(for: rule, in: ids, noun: "guarded rule"))
            }
        }
    }
}

/// How a screen did on a labelled set: per rule and overall precision, recall and F1, the
/// confusion counts, and every miss.
public struct GuardrailScore: Sendable, Encodable {
    /// Counts and rates for one rule, or for all rules together (micro-averaged).
    public struct Counts: Sendable, Encodable, Hashable {
        public var rule: String
        public var truePositives = 0
        public var falsePositives = 0
        public var falseNegatives = 0
        public var trueNegatives = 0
        /// Near-misses of this rule (expected none, `about` this rule), and how many stayed unflagged.
        public var nearMisses = 0
        public var nearMissesPassed = 0

        public var precision: Double { ratio(truePositives, truePositives + falsePositives) }
        public var recall: Double { ratio(truePositives, truePositives + falseNegatives) }
        public var f1: Double { precision + recall == 0 ? 0 : 2 * precision * recall / (precision + recall) }

        private func ratio(_ a: Int, _ b: Int) -> Double { b == 0 ? 1 : Double(a) / Double(b) }

        enum CodingKeys: String, CodingKey {
            case rule, truePositives, falsePositives, falseNegatives, trueNegatives, nearMisses, nearMissesPassed
            case precision, recall, f1
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(rule, forKey: .rule)
            try container.encode(truePositives, forKey: .truePositives)
            try container.encode(falsePositives, forKey: .falsePositives)
            try container.encode(falseNegatives, forKey: .falseNegatives)
            try container.encode(trueNegatives, forKey: .trueNegatives)
            try container.encode(nearMisses, forKey: .nearMisses)
            try container.encode(nearMissesPassed, forKey: .nearMissesPassed)
            try container.encode(precision, forKey: .precision)
            try container.encode(recall, forKey: .recall)
            try container.encode(f1, forKey: .f1)
        }

        public init(rule: String) { self.rule = rule }
    }

    /// A message the screen got wrong, or could not decide.
    public struct Miss: Sendable, Encodable, Hashable {
        public var message: String
        public var expected: String?
        /// The deciding rule, nil when nothing flagged.
        public var decided: String?
        /// The stage that decided, and what matched.
        public var stage: Int?
        public var matched: String?
        /// `file:line:col` of the item.
        public var location: String
    }

    public var dataset: String
    /// The set's split, when it has one.
    public var split: GuardrailDataset.Split?
    public var items: Int
    public var rules: [Counts]
    public var overall: Counts
    /// Expected rule (or "none") → deciding rule (or "none") → count.
    public var confusion: [String: [String: Int]]
    public var falseNegatives: [Miss]
    public var falsePositives: [Miss]
    /// Messages a stage-2 classifier answered in a way that could not be parsed.
    public var unknown: [Miss]

    /// Scores `dataset` on `pack`'s guarded rules, after checking that every label names one.
    /// - Throws: ``CoachLabError`` (content) with each label the pack has no guardrail for, at
    ///   its place; or what `decide` throws.
    public static func score(_ dataset: GuardrailDataset, pack: Pack,
                             decide: (String) async throws -> (flag: GuardrailFlag?, unknown: Bool)) async throws -> GuardrailScore {
        let problems = dataset.problems(for: pack)
        if !problems.isEmpty { throw CoachLabError(.content, problems) }
        return try await score(dataset, rules: pack.guardedRuleIDs, decide: decide)
    }

    /// Scores decisions against labels. `decide` gives each message's deciding flag (nil when
    /// nothing flagged) and whether the classifier's answer was unparsable.
    public static func score(_ dataset: GuardrailDataset, rules ruleIds: [String],
                             decide: (String) async throws -> (flag: GuardrailFlag?, unknown: Bool)) async rethrows -> GuardrailScore {
        var counts = Dictionary(uniqueKeysWithValues: ruleIds.map { ($0, Counts(rule: $0)) })
        var confusion: [String: [String: Int]] = [:]
        var falseNegatives: [Miss] = [], falsePositives: [Miss] = [], unknown: [Miss] = []
        for item in dataset.items {
            let (flag, isUnknown) = try await decide(item.message)
            let decided = flag?.ruleId
            let miss = Miss(message: item.message, expected: item.expected, decided: decided, stage: flag?.stage,
                            matched: flag.map { flag in flag.matched + (flag.lexiconEntries.map { " [\($0.joined(separator: ", "))]" } ?? "") },
                            location: item.location.description)
            if isUnknown { unknown.append(miss) }
            confusion[item.expected ?? "none", default: [:]][decided ?? "none", default: 0] += 1
            if let about = item.about, item.expected == nil {
                counts[about, default: Counts(rule: about)].nearMisses += 1
                if decided == nil { counts[about, default: Counts(rule: about)].nearMissesPassed += 1 }
            }
            for rule in counts.keys {
                switch (item.expected == rule, decided == rule) {
                case (true, true): counts[rule]!.truePositives += 1
                case (false, true): counts[rule]!.falsePositives += 1
                case (true, false): counts[rule]!.falseNegatives += 1
                case (false, false): counts[rule]!.trueNegatives += 1
                }
            }
            if let expected = item.expected, decided != expected { falseNegatives.append(miss) }
            if let decided, decided != item.expected { falsePositives.append(miss) }
        }
        // Only rules the set exercises are reported; the overall row sums them.
        let exercised = counts.values.filter { $0.truePositives + $0.falseNegatives + $0.falsePositives + $0.nearMisses > 0 }
            .sorted { $0.rule < $1.rule }
        var overall = Counts(rule: "overall")
        for row in exercised {
            overall.truePositives += row.truePositives
            overall.falsePositives += row.falsePositives
            overall.falseNegatives += row.falseNegatives
            overall.nearMisses += row.nearMisses
            overall.nearMissesPassed += row.nearMissesPassed
        }
        overall.trueNegatives = dataset.items.filter { $0.expected == nil }.count - falsePositives.filter { $0.expected == nil }.count
        return GuardrailScore(dataset: dataset.id, split: dataset.split, items: dataset.items.count, rules: exercised, overall: overall, confusion: confusion,
                              falseNegatives: falseNegatives, falsePositives: falsePositives, unknown: unknown)
    }
}
