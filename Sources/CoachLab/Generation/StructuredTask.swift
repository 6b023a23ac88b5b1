/// A structured generation the seed apps depend on: Kindred's coach templates, session
/// insights and quick reflections, BetterOne's session wrap-up, and the summary a rotated
/// session carries. Each task is a system prompt, one user message, a JSON Schema for the
/// reply, and a validator that reports every problem field by field.
///
/// The first line of each system prompt is the task's ``Kind/marker``, which the mock
/// provider recognises so it can answer deterministically.
public struct StructuredTask: Sendable, Hashable {
    /// What is generated.
    public enum Kind: String, Sendable, Hashable, CaseIterable, Codable {
        /// A rich coach template (Kindred's GeneratedCoachTemplate).
        case coach
        /// A session insight (Kindred's SessionInsight).
        case insight
        /// The mid-session reflection: an insight marked as quick.
        case quickReflection = "quick-reflection"
        /// BetterOne's takeaway and next step.
        case wrapup
        /// The summary a rotated session carries.
        case summary
        /// A judge's scores against a rubric, criterion by criterion.
        case judgement

        /// The first line of the task's system prompt.
        public var marker: String {
            switch self {
            case .coach: "You design a coaching persona as one JSON object: a coach template."
            case .insight: "You review a finished coaching session and write one JSON object: a session insight."
            case .quickReflection: "You review a coaching session in progress and write one JSON object: a quick reflection."
            case .wrapup: "You close a coaching session and write one JSON object: a takeaway and a next step."
            case .summary: ContextRotation.summaryMarker
            case .judgement: "You grade a coaching conversation against a rubric and answer with one JSON object."
            }
        }

        /// The kind whose marker begins `system`, if any.
        public init?(system: String) {
            guard let kind = Kind.allCases.first(where: { system.hasPrefix($0.marker) }) else { return nil }
            self = kind
        }
    }

    /// Fewest messages a quick reflection needs (Kindred triggers it at 6 or more).
    public static let quickReflectionMinimumMessages = 6

    /// What is generated.
    public var kind: Kind
    /// The instructions.
    public var system: String
    /// The single user message: the description or the transcript.
    public var message: String
    /// The JSON Schema the reply must follow (sent to providers that support structured output).
    public var schema: JSONValue
    /// A name the content must mention (the coach's name), when there is one.
    public var requiredName: String?

    /// Validates a parsed reply: the schema, then the task's own rules.
    /// - Returns: Every problem, each starting with its JSON path; empty when valid.
    public func validate(_ value: JSONValue) -> [String] {
        var problems = JSONSchemaSubset.validate(value, against: schema)
        // Blank strings pass `minLength` when they hold only spaces; a field must say something.
        problems += Self.blankStrings(value, path: "$")
        if kind == .judgement, problems.isEmpty {
            let names = (value["criteria"]?.array ?? []).compactMap { $0["name"]?.string }
            for name in Set(names) where names.filter({ $0 == name }).count > 1 {
                problems.append("$.criteria: \"\(name)\" is scored more than once; score each criterion once")
            }
        }
        if kind == .coach, problems.isEmpty, let name = value["name"]?.string {
            let expected = requiredName ?? name
            if let requiredName, name != requiredName {
                problems.append("$.name is \"\(name)\"; the coach must be called \"\(requiredName)\"")
            }
            let content = [value["role"]?.string, value["personality"]?.string].compactMap { $0 }.joined(separator: " ")
                + " " + (value["examples"]?.array ?? []).compactMap { $0["coach"]?.string }.joined(separator: " ")
            if !content.lowercased().contains(expected.lowercased()) {
                problems.append("$.role: the coach's name \"\(expected)\" appears nowhere in the role, personality or example replies")
            }
        }
        return problems
    }

    private static func blankStrings(_ value: JSONValue, path: String) -> [String] {
        switch value {
        case .string(let text) where !text.isEmpty && text.allSatisfy(\.isWhitespace):
            ["\(path) is blank"]
        case .object(let object):
            object.sorted { $0.key < $1.key }.flatMap { blankStrings($0.value, path: "\(path).\($0.key)") }
        case .array(let items):
            items.enumerated().flatMap { blankStrings($0.element, path: "\(path)[\($0.offset)]") }
        default:
            []
        }
    }
}

// MARK: - The tasks

extension StructuredTask {
    /// A coach template from a description, within a pack's count limits.
    /// - Parameters:
    ///   - description: What the user wants the coach to do, in their words.
    ///   - name: The coach's name, when the user chose one; otherwise the model names it.
    ///   - limits: The pack's defaults (its `coachLimits`).
    public static func coach(describing description: String, name: String? = nil, limits: Defaults? = nil) -> StructuredTask {
        let limits = limits ?? Defaults()
        let phases = limits.phases, rules = limits.templateRules, examples = limits.examples, starters = limits.starterQuestions
        let system = """
            \(Kind.coach.marker)
            The user describes the coach they want. Write the coach's template, which an app turns into the coach's system prompt.
            Fields:
            - name: the coach's name, two or three words\(name.map { "; it must be exactly \"\($0)\"" } ?? "").
            - summary: one line for the coach library.
            - role: who the coach is and whom it helps, in one or two sentences that use the coach's name. Write {userName} where the user's name belongs.
            - personality: how the coach sounds and behaves, in one sentence.
            - framework: a coaching framework with a name, a one-line description and phases in order, each with a name and a one-sentence description.
            - rules: behavioural rules, one sentence each, including one on when to suggest a professional.
            - examples: example exchanges, each a realistic user message and the coach's reply of two or three sentences ending in one question.
            - starterQuestions: questions the user can tap to begin, each under 12 words.
            - contextInstructions: one sentence on how to use what the user values and their goals.
            \(countsLine(phases: phases, rules: rules, examples: examples, starterQuestions: starters))
            Plain text inside every field: no markdown. Reply with the JSON object only.
            """
        let message = (name.map { "Coach name: \($0)\n" } ?? "") + "Description: \(description)"
        let text: JSONValue = ["type": "string", "minLength": 1]
        func list(_ items: JSONValue, _ range: Defaults.CountRange) -> JSONValue {
            ["type": "array", "items": items, "minItems": .number(Double(range.min)), "maxItems": .number(Double(range.max))]
        }
        let schema = object([
            ("name", ["type": "string", "minLength": 1, "maxLength": 60]),
            ("summary", text),
            ("role", text),
            ("personality", text),
            ("framework", object([
                ("name", text),
                ("description", text),
                ("phases", list(object([("name", text), ("description", text)]), phases)),
            ])),
            ("rules", list(text, rules)),
            ("examples", list(object([("user", text), ("coach", text)]), examples)),
            ("starterQuestions", list(text, starters)),
            ("contextInstructions", text),
        ])
        return StructuredTask(kind: .coach, system: system, message: message, schema: schema, requiredName: name)
    }

    /// The counts line of the coach prompt, which the mock reads back.
    static func countsLine(phases: Defaults.CountRange, rules: Defaults.CountRange, examples: Defaults.CountRange,
                           starterQuestions: Defaults.CountRange) -> String {
        "Counts: phases \(phases.description), rules \(rules.description), examples \(examples.description), starterQuestions \(starterQuestions.description)."
    }

    /// A session insight, or (quick) the mid-session reflection, from a transcript.
    public static func insight(_ transcript: Transcript, quick: Bool = false) -> StructuredTask {
        let kind: Kind = quick ? .quickReflection : .insight
        let scope = quick
            ? "The session is still going on: reflect on it so far, briefly, so the coach can show the user what it has noticed."
            : "The session has ended: the insight becomes the coach's memory of it, read before the next session."
        let system = """
            \(kind.marker)
            \(scope)
            Fields:
            - summary: what happened, in one or two sentences, in the third person ("The user…").
            - keyTheme: the key theme, in two to five words.
            - patterns: one to three patterns in how the user talks or thinks, one sentence each.
            - emotion: the user's dominant emotion, one lowercase word.
            - repeatedWords: words or short phrases the user kept using (may be empty).
            - suggestion: one actionable suggestion for before the next session.
            Base every field on what the user said. Plain text, no markdown. Reply with the JSON object only.
            """
        let text: JSONValue = ["type": "string", "minLength": 1]
        let schema = object([
            ("summary", text),
            ("keyTheme", ["type": "string", "minLength": 1, "maxLength": 80]),
            ("patterns", ["type": "array", "items": text, "minItems": 1, "maxItems": 3]),
            ("emotion", ["type": "string", "minLength": 1, "maxLength": 40]),
            ("repeatedWords", ["type": "array", "items": text, "maxItems": 10]),
            ("suggestion", text),
        ])
        return StructuredTask(kind: kind, system: system, message: transcript.text, schema: schema)
    }

    /// BetterOne's wrap-up: the takeaway and next step saved on the session.
    public static func wrapup(_ transcript: Transcript) -> StructuredTask {
        let system = """
            \(Kind.wrapup.marker)
            Fields:
            - takeaway: the one insight the user should keep from this session, in one sentence addressed to them ("You…").
            - nextStep: one concrete action the user can take within the next few days, in one sentence starting with a verb.
            Use the user's own words where you can. Plain text, no markdown. Reply with the JSON object only.
            """
        let schema = object([
            ("takeaway", ["type": "string", "minLength": 1, "maxLength": 280]),
            ("nextStep", ["type": "string", "minLength": 1, "maxLength": 280]),
        ])
        return StructuredTask(kind: .wrapup, system: system, message: transcript.text, schema: schema)
    }

    /// The summary a rotated session carries (``ContextRotation``).
    public static func summary(_ transcript: String) -> StructuredTask {
        let system = ContextRotation.summarySystem + "\nReply with one JSON object: {\"summary\": \"…\"}."
        let schema = object([("summary", ["type": "string", "minLength": 1, "maxLength": 1200])])
        return StructuredTask(kind: .summary, system: system, message: transcript, schema: schema)
    }

    /// A closed object schema: every property required, no others allowed (what OpenAI's
    /// strict mode asks for).
    static func object(_ properties: [(String, JSONValue)]) -> JSONValue {
        [
            "type": "object",
            "properties": .object(Dictionary(uniqueKeysWithValues: properties)),
            "required": .array(properties.map { .string($0.0) }),
            "additionalProperties": false,
        ]
    }
}

extension StructuredTask {
    /// The criteria a judge scores: the rubric's, or its text as the one criterion.
    public static func criteria(of rubric: Check.Rubric) -> [Check.Rubric.Criterion] {
        rubric.criteria.isEmpty ? [.init(name: "rubric", description: rubric.text)] : rubric.criteria
    }

    /// A judge's task: the rubric's criteria, each scored on its scale with a reason.
    /// - Parameters:
    ///   - conversation: The messages up to the graded reply, oldest first (`true` for the user's).
    ///   - graded: The text to grade: one reply, or (for the conversation scope) nil.
    public static func judgement(_ rubric: Check.Rubric, conversation: [(isUser: Bool, text: String)], graded: String?) -> StructuredTask {
        let criteria = criteria(of: rubric)
        var system = [Kind.judgement.marker]
        if !rubric.text.isEmpty, !rubric.criteria.isEmpty { system.append("Rubric: \(rubric.text)") }
        system.append("Criteria:")
        for criterion in criteria {
            system.append("- \(criterion.name): \(criterion.description ?? criterion.name)")
            for (index, step) in criterion.steps.enumerated() { system.append("  \(index + 1). \(step)") }
        }
        let range = rubric.scale.range
        switch rubric.scale {
        case .passFail: system.append("Scale: pass-fail. Score 1 when the criterion is met and 0 when it is not.")
        case .oneToFive: system.append("Scale: 1-5. Score 1 (not at all) to 5 (fully), whole numbers.")
        case .zeroToOne: system.append("Scale: 0-1. Score from 0 (not at all) to 1 (fully).")
        }
        system.append(#"Answer with {"criteria": [{"name": …, "score": …, "reason": …}]}: one entry per criterion, in the order given, each reason one sentence that quotes the conversation. Judge only what is written. Reply with the JSON object only."#)
        let transcript = conversation.map { ($0.isUser ? "[user] " : "[coach] ") + $0.text }.joined(separator: "\n")
        var message = "Conversation:\n\(transcript)\n\n"
        message += graded.map { "Reply to grade:\n\($0)" } ?? "Grade the whole conversation."
        let names = JSONValue.array(criteria.map { .string($0.name) })
        let entry = object([
            ("name", ["type": "string", "enum": names]),
            ("score", ["type": "number", "minimum": .number(range.lowerBound), "maximum": .number(range.upperBound)]),
            ("reason", ["type": "string", "minLength": 1]),
        ])
        let schema = object([("criteria", ["type": "array", "items": entry, "minItems": .number(Double(criteria.count)),
                                           "maxItems": .number(Double(criteria.count))])])
        return StructuredTask(kind: .judgement, system: system.joined(separator: "\n"), message: message, schema: schema)
    }
}
