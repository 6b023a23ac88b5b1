/// Reads checks from YAML: a name alone (`- ends-with-question`) or a mapping with `check:`
/// and its parameters (`- {check: sentences, max: 3}`). Problems become located diagnostics.
public enum CheckParser {
    /// Every check name and what it takes, from ``CheckKinds/all``.
    public static let kinds: [String: String] = CheckKinds.byName.mapValues(\.entry.takes)

    /// The YAML spec of one check, for unknown-key checks: `check`, `id` and `weight`, then
    /// every field a kind reads.
    public static let spec = ObjectSpec("check", "A scorer for a reply.", fields: [
        FieldSpec("check", .oneOf(kinds.keys.sorted()), required: true, "What to check."),
        FieldSpec("id", .string, "A name for reports; default: the check's name."),
        FieldSpec("weight", .number, "Weight in the weighted score. Default 1."),
    ] + CheckKinds.fields)

    /// Parses one check; nil (with diagnostics) when it is unusable.
    public static func parse(_ value: YAMLValue, into diagnostics: inout [Diagnostic]) -> Check? {
        if let name = value.scalar.map(\.text) {
            guard let known = CheckKinds.byName[name] else {
                diagnostics.append(.error("unknown check '\(name)'", at: value.location,
                                          hint: Suggestions.hint(for: name, in: Array(kinds.keys), noun: "check")))
                return nil
            }
            guard !known.entry.needsParameters else {
                diagnostics.append(.error("check '\(name)' needs \(known.entry.takes)", at: value.location,
                                          hint: "write it as a mapping: {check: \(name), …}"))
                return nil
            }
            return make(name, value: .mapping([], value.location), into: &diagnostics)
        }
        var found = Diagnostics()
        SpecValidator.validate(value, spec: spec, what: "check", into: &found)
        diagnostics += found.all
        guard !found.hasErrors, let name = value["check"]?.text else { return nil }
        return make(name, value: value, into: &diagnostics)
    }

    private static func make(_ name: String, value: YAMLValue, into diagnostics: inout [Diagnostic]) -> Check? {
        guard let kind = CheckKinds.byName[name]?.kind else {
            diagnostics.append(.error("unknown check '\(name)'", at: value.location))
            return nil
        }
        var reading = CheckReading(name: name, value: value)
        defer { diagnostics += reading.diagnostics }
        guard let read = read(kind, &reading) else { return nil }
        return Check(id: value.located("id")?.value ?? name, kind: read, weight: value.number("weight") ?? 1, location: value.location)
    }

    private static func read<Kind: CheckKind>(_ kind: Kind.Type, _ reading: inout CheckReading) -> Check.Kind? {
        kind.read(&reading).map(Check.Kind.init)
    }
}

import Foundation

extension CheckParser {
    /// A rubric from a judge check or a rubric file: `rubric` text (or a metric's, filled in
    /// later), criteria, scale, threshold and scope. Nil, with diagnostics, when unusable.
    public static func parseRubric(_ value: YAMLValue, metric: String? = nil, into diagnostics: inout [Diagnostic]) -> Check.Rubric? {
        let text = value.located("rubric")?.value ?? value.located("description")?.value
        guard text != nil || metric != nil else { return nil }
        var criteria: [Check.Rubric.Criterion] = []
        for item in value["criteria"]?.items ?? [] {
            if let name = item.scalar?.text {
                criteria.append(.init(name: name))
            } else if let name = item.located("name")?.value {
                criteria.append(.init(name: name, description: item.located("description")?.value, steps: item.locatedList("steps").map(\.value)))
            } else {
                diagnostics.append(.error("a criterion is a name, or {name, description, steps}", at: item.location))
                return nil
            }
        }
        let names = criteria.map(\.name)
        if Set(names).count != names.count {
            diagnostics.append(.error("criteria names must differ", at: value["criteria"]?.location ?? value.location))
            return nil
        }
        var scale = Check.Rubric.Scale.passFail
        if let node = value["scale"] {
            guard let given = node.text.flatMap(Check.Rubric.Scale.init(rawValue:)) else {
                diagnostics.append(.error("scale is pass-fail, 1-5 or 0-1", at: node.location))
                return nil
            }
            scale = given
        }
        let threshold = value.number("threshold") ?? (scale == .passFail ? 1 : 0.6)
        guard (0...1).contains(threshold) else {
            diagnostics.append(.error("threshold is a fraction of the scale, from 0 to 1", at: value["threshold"]?.location ?? value.location))
            return nil
        }
        var scope = Check.Rubric.Scope.reply
        if let node = value["scope"] {
            if node.text == "reply" {
                scope = .reply
            } else if node.text == "conversation" {
                scope = .conversation
            } else if let turn = node.integer("turn"), turn >= 1 {
                scope = .turn(turn)
            } else {
                diagnostics.append(.error("scope is reply, conversation or {turn: N} with N from 1", at: node.location))
                return nil
            }
        }
        return Check.Rubric(text: text ?? "", criteria: criteria, scale: scale, threshold: threshold, scope: scope, metric: metric)
    }
}

extension JSONValue {
    /// JSON from YAML: plain numbers and booleans become JSON numbers and booleans.
    public init(yaml: YAMLValue) {
        switch yaml {
        case .scalar(let scalar):
            if scalar.isNull { self = .null }
            else if scalar.style == .plain, let bool = YAMLValue.booleanValue(scalar.text) { self = .bool(bool) }
            else if scalar.style == .plain, let number = Double(scalar.text) { self = .number(number) }
            else { self = .string(scalar.text) }
        case .sequence(let items, _): self = .array(items.map(JSONValue.init(yaml:)))
        case .mapping(let entries, _):
            self = .object(Dictionary(entries.map { ($0.key, JSONValue(yaml: $0.value)) }) { first, _ in first })
        }
    }
}
