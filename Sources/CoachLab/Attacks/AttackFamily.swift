import Foundation

/// A family of attacks: a simulated user's script (an opening, escalation steps and a goal),
/// bound to a pack by what the pack's rules, persona and alerts contain. CoachLab ships eight
/// (``builtIn``); a project adds its own in `attacks/*.yaml`, in the same form.
///
/// ```yaml
/// families:
///   - id: slow-disclosure
///     title: Slow disclosure
///     tests: What the family tests, for the report.
///     binds: guarded-rule        # guarded-rule, rule or pack
///     about: [suicide, self-harm] # the bound rule's title, content or keywords name one
///     requires: [$name]           # words the pack names (any one), placeholders that must resolve (all)
///     goal: What the coach must do.
///     turns:
///       - An opening message.
///       - user: $disclosure
///         expect: [{check: flagged, rule: $rule}, honours-alert]
///     every: [persona-break]      # checks on every reply
/// ```
public struct AttackFamily: Sendable {
    /// What one attack is made for.
    public enum Binding: String, Sendable, CaseIterable {
        /// One attack per guarded rule the family is about.
        case guardedRule = "guarded-rule"
        /// One per rule, guarded or not, the family is about.
        case rule
        /// One per pack.
        case pack
    }

    /// One message of the script and the checks on the reply to it.
    public struct Turn: Sendable {
        public var user: String
        public var expect: [YAMLValue]
        public var location: SourceLocation
    }

    public var id: String
    public var title: String
    /// What the family tests, in a sentence or two.
    public var tests: String
    /// What the coach must do to hold.
    public var goal: String
    public var binds: Binding
    /// Words the bound rule (for `pack`, the pack) must name; any one will do. Empty: any.
    public var about: [String]
    /// Words the pack must name (any one of them), and placeholders (`$name`, `$forbidden`,
    /// `$disclosure`) that must resolve (all of them).
    public var requires: [String]
    public var turns: [Turn]
    /// Checks on every reply.
    public var every: [YAMLValue]
    public var location: SourceLocation

    /// The placeholders a family may use.
    public static let placeholders = ["$name", "$rule", "$title", "$forbidden", "$disclosure", "$about"]

    static let turnSpec = ObjectSpec("attack turn", "A message of the script and the checks on its reply.", fields: [
        FieldSpec("user", .text, required: true, "What the user says; placeholders allowed."),
        FieldSpec("expect", .list(.any), "Checks on the reply to this message, as in a fixture."),
    ])

    static let spec = ObjectSpec("attack family", "A family of attacks: a simulated user's script bound to a pack by what it contains.", fields: [
        FieldSpec("id", .string, required: true, "Stable identifier."),
        FieldSpec("title", .string, required: true, "The name in reports."),
        FieldSpec("tests", .text, required: true, "What the family tests."),
        FieldSpec("goal", .text, required: true, "What the coach must do to hold."),
        FieldSpec("binds", .oneOf(Binding.allCases.map(\.rawValue)), required: true, "guarded-rule, rule or pack: what each attack is made for."),
        FieldSpec("about", .list(.string), "Words the bound rule (or the pack) must name, any one."),
        FieldSpec("requires", .list(.string), "Words the pack must name (any one), and placeholders that must resolve ($name, $forbidden, $disclosure; all)."),
        FieldSpec("turns", .list(.any), required: true, "The messages: text, or {user, expect}."),
        FieldSpec("every", .list(.any), "Checks on every reply."),
    ])

    /// The spec of an attacks file.
    public static let fileSpec = ObjectSpec("attacks file", "Attack families for `coachlab attack`.", fields: [
        FieldSpec("families", .list(.object(spec)), required: true, "The families."),
    ])

    /// The families CoachLab ships.
    public static let builtIn: [AttackFamily] = {
        // The catalog is CoachLab's own and tested; a mistake in it is a bug, not a user's error.
        (try? load(Data(AttackCatalog.text.utf8), file: AttackCatalog.file)) ?? []
    }()

    /// The families of an attacks file.
    /// - Throws: ``CoachLabError`` with a located diagnostic for each problem, checks included.
    public static func load(_ data: Data, file: String) throws -> [AttackFamily] {
        let root = try YAMLDocument.parse(data, file: file)
        var diagnostics = ContentValidator.validate(root, spec: fileSpec)
        var families: [AttackFamily] = []
        var seen: [String: SourceLocation] = [:]
        for item in root["families"]?.items ?? [] {
            // A family with a wrong `binds` is still read, so every other mistake in it is said too.
            guard let id = item["id"]?.text else { continue }
            let binds = item["binds"]?.text.flatMap(Binding.init(rawValue:)) ?? .pack
            if let first = seen[id] { diagnostics.append(.error("duplicate attack family '\(id)' (first at \(first))", at: item.location)) }
            seen[id] = item.location
            var turns: [Turn] = []
            for node in item["turns"]?.items ?? [] {
                if let text = node.text {
                    turns.append(Turn(user: text, expect: [], location: node.location))
                } else if node.entries != nil {
                    diagnostics += ContentValidator.validate(node, spec: turnSpec)
                    guard let user = node["user"]?.text else { continue }
                    turns.append(Turn(user: user, expect: node["expect"]?.items ?? [], location: node.location))
                } else {
                    diagnostics.append(.error("a turn is a message, or a mapping with user: and expect:", at: node.location))
                }
            }
            if turns.isEmpty { diagnostics.append(.error("attack family '\(id)' has no turns", at: item.location)) }
            let family = AttackFamily(id: id, title: item["title"]?.text ?? id, tests: item["tests"]?.text ?? "", goal: item["goal"]?.text ?? "",
                                      binds: binds, about: (item["about"]?.items ?? []).compactMap(\.text),
                                      requires: (item["requires"]?.items ?? []).compactMap(\.text), turns: turns,
                                      every: item["every"]?.items ?? [], location: item.location)
            diagnostics += family.problems()
            families.append(family)
        }
        if diagnostics.contains(where: { $0.severity == .error }) { throw CoachLabError(.content, diagnostics.sorted()) }
        return families
    }

    /// Unknown placeholders, and checks that do not parse with every placeholder filled in.
    func problems() -> [Diagnostic] {
        var problems: [Diagnostic] = []
        let sample = ["$name": "Sam", "$rule": "rule", "$title": "Rule", "$forbidden": "give advice", "$disclosure": "message", "$about": ""]
        func placeholders(in text: String, at location: SourceLocation) {
            for match in MockReading.matches(#"\$[A-Za-z]+"#, in: text) where !Self.placeholders.contains(match[0]) {
                problems.append(.error("unknown placeholder '\(match[0])'", at: location,
                                       hint: ContentValidator.suggestion(for: match[0], in: Self.placeholders, noun: "placeholder")))
            }
        }
        // A family bound to the pack has no rule to fill these in from.
        let ruleOnly = ["$rule", "$title", "$forbidden", "$disclosure", "$about"]
        func ruleless(in text: String, at location: SourceLocation) {
            guard binds == .pack, let name = ruleOnly.first(where: text.contains) else { return }
            problems.append(.error("'\(name)' needs a rule, and this family binds to the pack", at: location,
                                   hint: "bind it to rules (binds: rule or guarded-rule), or leave \(name) out"))
        }
        for turn in turns {
            placeholders(in: turn.user, at: turn.location)
            ruleless(in: turn.user, at: turn.location)
        }
        for check in turns.flatMap(\.expect) + every {
            for text in check.texts {
                placeholders(in: text.value, at: text.location)
                ruleless(in: text.value, at: text.location)
            }
            var found: [Diagnostic] = []
            _ = CheckParser.parse(Self.filled(check, sample), into: &found)
            problems += found
        }
        return problems
    }

    /// `value` with each placeholder in its text replaced.
    static func filled(_ value: YAMLValue, _ values: [String: String]) -> YAMLValue {
        switch value {
        case .scalar(var scalar):
            scalar.text = fill(scalar.text, values)
            return .scalar(scalar)
        case .sequence(let items, let location): return .sequence(items.map { filled($0, values) }, location)
        case .mapping(let entries, let location):
            return .mapping(entries.map { YAMLValue.Entry(key: $0.key, keyLocation: $0.keyLocation, value: filled($0.value, values)) }, location)
        }
    }

    /// `text` with each placeholder replaced; longer names first, so `$rule` never eats into another.
    static func fill(_ text: String, _ values: [String: String]) -> String {
        guard text.contains("$") else { return text }
        var text = text
        for (name, value) in values.sorted(by: { $0.key.count > $1.key.count }) { text = text.replacingOccurrences(of: name, with: value) }
        return text
    }
}
