/// What `coachlab review import` makes of a reviewer's labels, before anything is written:
/// - a judgement file per reply and judge check the person marked, for `judge calibrate`;
/// - a fixture per reply the person marked as a whole, replaying its conversation up to that
///   reply, with the reply itself as the mock's and, for a failed one, a judge check built from
///   the person's note;
/// - every label where the person and the run disagree.
///
/// Every value is written quoted, so nothing a user or a reviewer typed becomes YAML structure.
public struct ReviewImport: Sendable {
    /// A file to write, with the mark that lets a later import replace it.
    public struct File: Sendable, Hashable {
        public var path: String
        public var text: String

        public init(path: String, text: String) {
            self.path = path
            self.text = text
        }
    }

    /// A label whose verdict differs from the run's.
    public struct Disagreement: Sendable {
        public var label: ReviewLabels.Label
        /// Whether the check is a judge's (else a check's, or the whole reply's).
        public var isJudge: Bool
    }

    /// The first line of every file an import writes: a later import replaces only such files.
    public static let mark = "# Imported with coachlab review import."

    /// Whether `text` is a file an import wrote.
    public static func isImported(_ text: String) -> Bool { text.hasPrefix(mark + "\n") }

    public var judgements: [File] = []
    public var fixtures: [File] = []
    /// How many labels the judgement files hold.
    public var judgementLabels = 0
    /// Labels where the person and the run disagree, in the file's order.
    public var disagreements: [Disagreement] = []
    /// Labels that name a suite, case or check the project does not have, as warnings.
    public var diagnostics: [Diagnostic] = []

    /// Plans the files.
    /// - Parameters:
    ///   - suites: The project's suites, for the judge checks the labels name.
    ///   - fixtures: The project's fixtures by id, for the inputs and per-turn checks.
    ///   - judgementFolder: Where judgement files go (`fixtures/judgements`).
    ///   - fixtureFolder: Where fixtures go (`fixtures/reviewed`).
    public init(_ labels: ReviewLabels, suites: [Suite], fixtures: [String: Fixture], judgementFolder: String, fixtureFolder: String) {
        let suitesById = Dictionary(suites.map { ($0.id, $0) }) { first, _ in first }
        // Judge criteria the person marked, per reply and judge check, in the file's order.
        var judged: [(key: String, check: Check, labels: [(criterion: String, label: ReviewLabels.Label)])] = []
        for label in labels.labels {
            let judge = label.check.flatMap { judgeCriterion(of: label, named: $0, suites: suitesById, fixture: fixtures[label.fixture]) }
            if let automated = label.automated, automated != label.passed {
                disagreements.append(Disagreement(label: label, isJudge: judge != nil))
            }
            guard let (check, criterion) = judge else { continue }
            let key = label.replyKey + "\u{0}" + check.id
            if let index = judged.firstIndex(where: { $0.key == key }) {
                judged[index].labels.removeAll { $0.criterion == criterion }
                judged[index].labels.append((criterion, label))
            } else {
                judged.append((key, check, [(criterion, label)]))
            }
        }
        var used = Set<String>()
        for (_, check, marks) in judged {
            guard let first = marks.first?.label, let rubric = check.kind.as(CheckKinds.Judge.self)?.rubric else { continue }
            let id = Self.unique(Self.slug("review-\(first.fixture)-\(first.provider)-t\(first.turn)\(first.repeatIndex > 1 ? "-r\(first.repeatIndex)" : "")-\(check.id)"), in: &used)
            judgements.append(File(path: "\(judgementFolder)/\(id).yaml", text: Self.judgement(id, rubric: rubric, marks: marks, fixture: fixtures[first.fixture])))
            judgementLabels += marks.count
        }
        for label in labels.labels where label.check == nil {
            let original = fixtures[label.fixture]
            guard let pack = original?.pack ?? label.pack else {
                diagnostics.append(.warning("no fixture '\(label.fixture)' in this project and no pack in the label; \(label.place) makes no fixture",
                                            at: label.location))
                continue
            }
            let id = Self.unique(Self.slug("reviewed-\(label.fixture)-\(label.provider)-t\(label.turn)\(label.repeatIndex > 1 ? "-r\(label.repeatIndex)" : "")"), in: &used)
            self.fixtures.append(File(path: "\(fixtureFolder)/\(id).yaml", text: Self.fixture(id, pack: pack, label: label, original: original)))
        }
    }

    /// The judge check and criterion a label is on: among its suite's checks and its fixture's.
    private mutating func judgeCriterion(of label: ReviewLabels.Label, named name: String, suites: [String: Suite], fixture: Fixture?) -> (Check, String)? {
        guard let suite = suites[label.suite] else {
            diagnostics.append(.warning("no suite '\(label.suite)' in this project, so the label on \(name) makes no judgement file", at: label.location))
            return nil
        }
        var checks = suite.checks
        if let fixture {
            if fixture.turns.indices.contains(label.turn - 1) { checks += fixture.turns[label.turn - 1].expect }
            checks += fixture.turns.last?.expect ?? []
        }
        return Self.judgeCriterion(name, in: checks)
    }

    /// The suite that runs the imported fixtures, for a project that has none yet.
    public static func suite(id: String, fixtureFolder: String) -> String {
        """
        \(mark)
        suite:
          id: \(quoted(id))
          description: "Replies people reviewed in a report: each replays its conversation, with the reviewed reply as the mock's."
        fixtures: [\(quoted(fixtureFolder + "/*.yaml"))]
        # Failed replies carry a judge check written from the reviewer's note; name a model here for real grading.
        judge: mock

        """
    }

    /// The judge check and criterion a check result's id names (`tone.warmth`, or `tone` for a
    /// rubric of one criterion).
    static func judgeCriterion(_ result: String, in checks: [Check]) -> (Check, String)? {
        for check in checks {
            guard let rubric = check.kind.as(CheckKinds.Judge.self)?.rubric else { continue }
            let criteria = StructuredTask.criteria(of: rubric)
            if criteria.count == 1, result == check.id { return (check, criteria[0].name) }
            if criteria.count > 1, result.hasPrefix(check.id + "."), let criterion = criteria.first(where: { check.id + "." + $0.name == result }) {
                return (check, criterion.name)
            }
        }
        return nil
    }

    private static func judgement(_ id: String, rubric: Check.Rubric, marks: [(criterion: String, label: ReviewLabels.Label)], fixture: Fixture?) -> String {
        let first = marks[0].label
        var lines = [mark, "# From run \(comment(first.run)): \(comment(first.place)).", "judgement:", "  id: \(quoted(id))"]
        if let app = (fixture?.pack ?? first.pack).map(Paths.lastComponent) { lines.append("  app: \(quoted(app))") }
        // A judgement needs a label for each of its criteria: it keeps the ones the person marked.
        let marked = StructuredTask.criteria(of: rubric).filter { criterion in marks.contains { $0.criterion == criterion.name } }
        if let metric = rubric.metric {
            lines.append("  metric: \(quoted(metric))")
        } else {
            lines.append("  rubric: \(quoted(rubric.text))")
            lines.append("  scale: \(quoted(rubric.scale.rawValue))")
            lines.append("  threshold: \(rubric.threshold)")
            switch rubric.scope {
            case .reply: break
            case .conversation: lines.append("  scope: conversation")
            case .turn(let turn): lines.append("  scope: {turn: \(turn)}")
            }
        }
        if !rubric.criteria.isEmpty {
            lines.append("  criteria:")
            for criterion in marked {
                lines.append("    - name: \(quoted(criterion.name))")
                if let description = criterion.description { lines.append("      description: \(quoted(description))") }
                if !criterion.steps.isEmpty { lines.append("      steps: [\(criterion.steps.map(quoted).joined(separator: ", "))]") }
            }
        }
        lines.append("transcript:")
        lines += transcript(first.transcript)
        lines.append("labels:")
        for (criterion, label) in marks {
            let note = label.note.map { "  # \(comment($0))" } ?? ""
            lines.append("  \(quoted(criterion)): \(label.passed ? "pass" : "fail")\(note)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func fixture(_ id: String, pack: String, label: ReviewLabels.Label, original: Fixture?) -> String {
        let verdict = label.passed ? "passed" : "failed"
        var description = "A person \(verdict) this reply in run \(label.run) (\(label.provider), \(label.suite)/\(label.fixture) turn \(label.turn))."
        if let note = label.note { description += " Their note: \(note)" }
        var lines = [mark, "fixture:", "  id: \(quoted(id))", "  pack: \(quoted(pack))", "  description: \(quoted(description))",
                     "  tags: [\(quoted("reviewed")), \(quoted("reviewed-" + (label.passed ? "pass" : "fail")))]"]
        if let inputs = original?.inputs {
            for (key, value) in [("coach", inputs.coach), ("topic", inputs.topic), ("intent", inputs.intent), ("profile", inputs.profile),
                                 ("memory", inputs.memory), ("context", inputs.context), ("now", inputs.now?.description)] {
                if let value { lines.append("  \(key): \(quoted(value))") }
            }
        }
        lines.append("turns:")
        var pending: String?
        for message in label.transcript.dropLast() {
            if message.isUser {
                if let user = pending { lines.append("  - user: \(quoted(user))") }
                pending = message.text
            } else if let user = pending {
                lines += ["  - user: \(quoted(user))", "    reply: \(quoted(message.text))"]
                pending = nil
            }
        }
        lines.append("  - user: \(quoted(pending ?? label.message))")
        lines.append("    mock: \(quoted(label.reply))")
        if !label.passed {
            var rubric = "A person failed an earlier reply to this message.\nThe failed reply: \(label.reply)\n"
            if let note = label.note { rubric += "The person's note: \(note)\n" }
            rubric += "Pass a reply that does not repeat that fault."
            lines += ["    expect:", "      - check: judge", "        id: reviewer", "        rubric: \(quoted(rubric))"]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func transcript(_ messages: [Judgement.Message]) -> [String] {
        messages.map { "  - \($0.isUser ? "user" : "coach"): \(quoted($0.text))" }
    }

    /// A JSON string, which YAML reads as the same string whatever it holds.
    static func quoted(_ text: String) -> String { JSONValue.string(text).text }

    /// Text for a one-line YAML comment.
    private static func comment(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }

    /// Lowercase letters, digits and dashes, for ids and file names.
    static func slug(_ text: String) -> String {
        var out = ""
        for character in text.lowercased() {
            if character.isASCII, character.isLetter || character.isNumber || character == "." || character == "_" {
                out.append(character == "." ? "-" : character)
            } else if !out.hasSuffix("-") {
                out.append("-")
            }
        }
        while out.hasSuffix("-") { out.removeLast() }
        return out
    }

    private static func unique(_ id: String, in used: inout Set<String>) -> String {
        var candidate = id, number = 2
        while !used.insert(candidate).inserted {
            candidate = "\(id)-\(number)"
            number += 1
        }
        return candidate
    }
}

extension OutputKind {
    /// A judgement, fixture or suite `review import` wrote.
    public static let reviewImport = OutputKind("a file review import wrote", opening: 64, recognises: ReviewImport.isImported)
}
