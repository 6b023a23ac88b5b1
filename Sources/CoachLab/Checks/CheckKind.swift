/// One kind of check, whole: the names it answers to in YAML with what each takes, the fields it
/// reads, how it reads them and how it scores a reply. Each kind is one file under
/// `Checks/Kinds/`, and ``CheckKinds/all`` lists them; adding a check is a new file and a line
/// there.
public protocol CheckKind: Sendable, Hashable {
    /// The YAML names this kind answers to, each with what it takes (the line `coachlab` shows
    /// for an unknown or incomplete check): `regex` and `not-regex` are one kind.
    static var names: [CheckName] { get }
    /// The YAML fields it reads besides `check`, `id` and `weight`.
    static var fields: [FieldSpec] { get }
    /// Reads a check written under one of ``names``: nil after recording why in `reading`.
    static func read(_ reading: inout CheckReading) -> Self?
    /// Scores one reply; `check` gives the id and weight the result carries. A kind that calls
    /// out (``callout``) is scored by the eval runner instead, and says here that it needs it.
    func evaluate(_ subject: CheckSubject, as check: Check) -> CheckResult
    /// What scoring it needs besides the reply and its prompt: nothing (the default), a model, or
    /// a process. The eval runner gives a kind that calls out what it names, and a rescore
    /// carries a model's stored verdicts rather than calling it again.
    var callout: CheckCallout { get }
}

extension CheckKind {
    public var callout: CheckCallout { .none }
}

/// What a check needs to be scored besides the reply and the prompt it answered.
public enum CheckCallout: Sendable, Hashable {
    /// Nothing: it is scored from the reply and the prompt alone, anywhere.
    case none
    /// A provider scores it: the one named, else the suite's `judge:`, else the mock.
    case model(provider: String?)
    /// An executable outside CoachLab scores it.
    case process
}

/// A name a check kind answers to in YAML.
public struct CheckName: Sendable, Hashable {
    public var name: String
    /// What it takes: "phrases (caseSensitive)", "nothing", "words (default 12)".
    public var takes: String
    /// Whether a bare `- name` is incomplete (it needs parameters written as a mapping).
    public var needsParameters: Bool

    public init(_ name: String, takes: String = "nothing", needsParameters: Bool = false) {
        self.name = name
        self.takes = takes
        self.needsParameters = needsParameters
    }
}

/// A check being read from YAML: the name it was written under, its mapping (empty for a bare
/// name) and the diagnostics so far.
public struct CheckReading {
    /// The name it was written under.
    public let name: String
    /// Its mapping; an empty mapping for a bare name.
    public let value: YAMLValue
    public var location: SourceLocation { value.location }
    public var diagnostics: [Diagnostic] = []

    public init(name: String, value: YAMLValue) {
        self.name = name
        self.value = value
    }

    /// Records "check 'NAME' needs WHAT"; nil, for `return reading.missing(…)`.
    public mutating func missing<Kind>(_ what: String) -> Kind? {
        diagnostics.append(.error("check '\(name)' needs \(what)", at: location))
        return nil
    }

    /// Records an error, at `location` or the check's own; nil, for `return reading.error(…)`.
    public mutating func error<Kind>(_ message: String, at location: SourceLocation? = nil) -> Kind? {
        diagnostics.append(.error(message, at: location ?? self.location))
        return nil
    }

    /// `phrases:`, in order.
    public var phrases: [String] { value.locatedList("phrases").map(\.value) }

    /// `phrases:`, in order; nil, with the error recorded, when there are none or one is empty:
    /// every reply holds an empty phrase, so `contains` would always pass with it and
    /// `not-contains` always fail.
    public mutating func requiredPhrases() -> [String]? {
        let phrases = value.locatedList("phrases")
        guard !phrases.isEmpty else { return missing("phrases") }
        if let empty = phrases.first(where: { $0.value.consists(of: .whitespacesAndNewlines) }) {
            return error("an empty phrase is in every reply, so it tells nothing", at: empty.location)
        }
        return phrases.map(\.value)
    }
    /// `caseSensitive:`, false when absent.
    public var caseSensitive: Bool { value.boolean("caseSensitive") ?? false }
}

extension Check {
    /// This check's result: its id and weight with a verdict, a reason and (for partial
    /// credit) a score.
    public func result(_ passed: Bool, _ reason: String, score: Double? = nil) -> CheckResult {
        CheckResult(check: id, passed: passed, score: score, reason: reason, weight: weight)
    }
}

/// Every check kind, and lookups over them.
public enum CheckKinds {
    /// Every kind, in the order the docs list them.
    public static let all: [any CheckKind.Type] = [
        Contains.self, NotContains.self, Regex.self, Affix.self, EndsWithQuestion.self, Count.self,
        NoMarkdown.self, JSONSchema.self, PersonaBreak.self, LeakedPrompt.self, RefersToProfessional.self, NamesPersona.self,
        Flagged.self, NotFlagged.self, HonoursAlert.self, Latency.self, Tokens.self, Cost.self, FinishReason.self,
        PromptContains.self, PromptOrder.self, Judge.self, Similar.self, Script.self, FollowsContract.self,
    ]

    /// The kind and entry for each YAML name.
    static let byName: [String: (kind: any CheckKind.Type, entry: CheckName)] = {
        var byName: [String: (kind: any CheckKind.Type, entry: CheckName)] = [:]
        for kind in all {
            for entry in kind.names {
                precondition(byName[entry.name] == nil, "two check kinds answer to '\(entry.name)'")
                byName[entry.name] = (kind, entry)
            }
        }
        return byName
    }()

    /// The fields every kind reads, each once: a field several kinds read keeps the first
    /// kind's type, and its summary says which kinds read it for what.
    static let fields: [FieldSpec] = {
        var order: [String] = []
        var merged: [String: (field: FieldSpec, uses: [(names: [String], summary: String)])] = [:]
        for kind in all {
            let names = kind.names.map(\.name)
            for field in kind.fields {
                if merged[field.name] == nil {
                    order.append(field.name)
                    merged[field.name] = (field, [])
                }
                if let index = merged[field.name]?.uses.firstIndex(where: { $0.summary == field.summary }) {
                    merged[field.name]?.uses[index].names += names
                } else {
                    merged[field.name]?.uses.append((names, field.summary))
                }
            }
        }
        return order.compactMap { name in
            guard var (field, uses) = merged[name] else { return nil }
            field.summary = uses.map { "For \(Self.sentenceList($0.names)): \($0.summary)" }.joined(separator: " ")
            return field
        }
    }()

    static func sentenceList(_ items: [String]) -> String {
        guard items.count > 1, let last = items.last else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " and " + last
    }
}

extension Check.Kind {
    /// The kind's value as `type`, when it is one: `check.kind.as(CheckKinds.Judge.self)`.
    public func `as`<Kind: CheckKind>(_ type: Kind.Type) -> Kind? { value as? Kind }
}
