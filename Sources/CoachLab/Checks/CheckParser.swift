/// Reads checks from YAML: a name alone (`- ends-with-question`) or a mapping with `check:`
/// and its parameters (`- {check: sentences, max: 3}`). Problems become located diagnostics.
public enum CheckParser {
    /// Every check name and what it takes.
    public static let kinds: [String: String] = [
        "contains": "phrases (mode: any|all, caseSensitive)",
        "not-contains": "phrases (caseSensitive)",
        "regex": "pattern",
        "not-regex": "pattern",
        "starts-with": "text",
        "ends-with": "text",
        "ends-with-question": "nothing",
        "sentences": "min and/or max",
        "words": "min and/or max",
        "characters": "min and/or max",
        "questions": "min and/or max",
        "no-markdown": "nothing",
        "json-schema": "schema",
        "persona-break": "nothing",
        "leaked-prompt": "words (default 12)",
        "refers-to-professional": "nothing",
        "names-persona": "nothing",
        "flagged": "rule (optional)",
        "not-flagged": "nothing",
        "honours-alert": "nothing",
        "latency": "max (seconds)",
        "tokens": "max (output tokens)",
        "cost": "max (US dollars)",
        "finish-reason": "allowed",
        "prompt-contains": "phrases (checked against the compiled system prompt)",
        "prompt-not-contains": "phrases (checked against the compiled system prompt)",
        "prompt-order": "phrases (each found in the compiled system prompt after the one before)",
        "judge": "rubric or metric; criteria, scale, threshold, scope, provider",
        "similar": "to (a gold reply), min (0-1), metric (f1 or rouge-l)",
        "script": "script (an executable path), args, timeout",
    ]

    /// The YAML spec of one check, for schemas and unknown-key checks.
    public static let spec = ObjectSpec("check", "A scorer for a reply.", fields: [
        FieldSpec("check", .oneOf(kinds.keys.sorted()), required: true, "What to check."),
        FieldSpec("id", .string, "A name for reports; default: the check's name."),
        FieldSpec("weight", .number, "Weight in the weighted score. Default 1."),
        FieldSpec("phrases", .list(.string), "For contains, not-contains, prompt-contains and prompt-not-contains."),
        FieldSpec("mode", .oneOf(["any", "all"]), "For contains: any (default) or all of the phrases."),
        FieldSpec("caseSensitive", .boolean, "For contains and not-contains. Default false."),
        FieldSpec("pattern", .string, "For regex and not-regex."),
        FieldSpec("text", .string, "For starts-with and ends-with."),
        FieldSpec("min", .number, "For counts."),
        FieldSpec("max", .number, "For counts, latency (seconds), tokens and cost (US dollars)."),
        FieldSpec("schema", .any, "For json-schema: the JSON Schema."),
        FieldSpec("words", .integer, "For leaked-prompt: the shortest shared run that counts. Default 12."),
        FieldSpec("rule", .string, "For flagged: the rule id expected."),
        FieldSpec("allowed", .list(.string), "For finish-reason: stop, length, contentFilter, …"),
        FieldSpec("rubric", .text, "For judge: what a good reply does."),
        FieldSpec("metric", .string, "For similar: f1 (default) or rouge-l. For judge: a named rubric in evals/rubrics/NAME.yaml (role-adherence, escalation, …)."),
        FieldSpec("criteria", .list(.any), "For judge: what is scored, each a name or {name, description, steps}."),
        FieldSpec("scale", .oneOf(Check.Rubric.Scale.allCases.map(\.rawValue)), "For judge: pass-fail (default), 1-5 or 0-1."),
        FieldSpec("threshold", .number, "For judge: the least score that passes, as a fraction of the scale (0-1). Default 1 for pass-fail, 0.6 otherwise."),
        FieldSpec("scope", .any, "For judge: reply (default), conversation, or {turn: N}."),
        FieldSpec("provider", .string, "For judge: the grading provider. Default: the suite's judge."),
        FieldSpec("to", .text, "For similar: the gold reply."),
        FieldSpec("script", .string, "For script: the executable, relative to the directory coachlab runs in."),
        FieldSpec("args", .list(.string), "For script: arguments after the path."),
        FieldSpec("timeout", .number, "For script: seconds it may take. Default 10."),
    ])

    /// Parses one check; nil (with diagnostics) when it is unusable.
    public static func parse(_ value: YAMLValue, into diagnostics: inout [Diagnostic]) -> Check? {
        if let name = value.scalar.map(\.text) {
            guard kinds[name] != nil else {
                diagnostics.append(.error("unknown check '\(name)'", at: value.location,
                                          hint: Suggestions.hint(for: name, in: Array(kinds.keys), noun: "check")))
                return nil
            }
            let needsParameters = ["contains", "not-contains", "regex", "not-regex", "starts-with", "ends-with", "sentences", "words",
                                   "characters", "questions", "json-schema", "latency", "tokens", "cost", "finish-reason", "judge",
                                   "similar", "script",
                                  "prompt-contains", "prompt-not-contains", "prompt-order"]
            guard !needsParameters.contains(name) else {
                diagnostics.append(.error("check '\(name)' needs \(kinds[name] ?? "parameters")", at: value.location,
                                          hint: "write it as a mapping: {check: \(name), …}"))
                return nil
            }
            return make(name, value: .mapping([], value.location), location: value.location, into: &diagnostics)
        }
        var found = Diagnostics()
        SpecValidator.validate(value, spec: spec, what: "check", into: &found)
        diagnostics += found.all
        guard !found.hasErrors, let name = value["check"]?.text else { return nil }
        return make(name, value: value, location: value.location, into: &diagnostics)
    }

    private static func make(_ name: String, value: YAMLValue, location: SourceLocation, into diagnostics: inout [Diagnostic]) -> Check? {
        func missing(_ what: String) -> Check? {
            diagnostics.append(.error("check '\(name)' needs \(what)", at: location))
            return nil
        }
        let phrases = value.locatedList("phrases").map(\.value)
        let caseSensitive = value.boolean("caseSensitive") ?? false
        let min = value.number("min").map { Int($0) }
        let max = value.number("max")
        let kind: Check.Kind
        switch name {
        case "contains":
            guard !phrases.isEmpty else { return missing("phrases") }
            kind = .contains(phrases, all: value["mode"]?.text == "all", caseSensitive: caseSensitive)
        case "not-contains":
            guard !phrases.isEmpty else { return missing("phrases") }
            kind = .notContains(phrases, caseSensitive: caseSensitive)
        case "regex", "not-regex":
            guard let pattern = value.located("pattern") else { return missing("a pattern") }
            if (try? NSRegularExpressionProbe.compile(pattern.value)) == nil {
                diagnostics.append(.error("pattern is not a valid regular expression", at: pattern.location))
                return nil
            }
            kind = .regex(pattern.value, negate: name == "not-regex")
        case "starts-with", "ends-with":
            guard let text = value.located("text")?.value else { return missing("text") }
            kind = name == "starts-with" ? .startsWith(text) : .endsWith(text)
        case "ends-with-question": kind = .endsWithQuestion
        case "sentences", "words", "characters", "questions":
            guard min != nil || max != nil else { return missing("min or max") }
            if let min, let max, Double(min) > max {
                diagnostics.append(.error("min \(min) is above max \(Int(max))", at: location))
                return nil
            }
            kind = .count(Check.Metric(rawValue: name) ?? .sentences, min: min, max: max.map { Int($0) })
        case "no-markdown": kind = .noMarkdown
        case "json-schema":
            guard let schema = value["schema"] else { return missing("a schema") }
            kind = .jsonSchema(JSONValue(yaml: schema))
        case "persona-break": kind = .personaBreak
        case "leaked-prompt": kind = .leakedPrompt(words: value.integer("words") ?? 12)
        case "refers-to-professional": kind = .refersToProfessional
        case "names-persona": kind = .namesPersona
        case "flagged": kind = .flagged(rule: value.located("rule")?.value)
        case "not-flagged": kind = .notFlagged
        case "honours-alert": kind = .honoursAlert
        case "latency":
            guard let max else { return missing("max (seconds)") }
            kind = .latency(max: max)
        case "tokens":
            guard let max else { return missing("max (output tokens)") }
            kind = .tokens(max: Int(max))
        case "cost":
            guard let max else { return missing("max (US dollars)") }
            kind = .cost(max: max)
        case "finish-reason":
            let allowed = value.locatedList("allowed").map(\.value)
            guard !allowed.isEmpty else { return missing("allowed finish reasons") }
            kind = .finishReason(allowed)
        case "prompt-contains", "prompt-not-contains":
            guard !phrases.isEmpty else { return missing("phrases") }
            kind = .promptContains(phrases, negate: name == "prompt-not-contains")
        case "prompt-order":
            guard phrases.count >= 2 else { return missing("two or more phrases") }
            kind = .promptOrder(phrases)
        case "judge":
            let metric = value.located("metric")?.value
            guard let rubric = parseRubric(value, metric: metric, into: &diagnostics) else {
                return metric == nil && value["rubric"] == nil ? missing("a rubric, or a metric naming one in evals/rubrics/") : nil
            }
            kind = .judge(rubric, provider: value.located("provider")?.value)
        case "similar":
            guard let gold = value.located("to")?.value, !gold.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                return missing("'to': the gold reply")
            }
            guard let minimum = value.number("min") else { return missing("min: the least similarity that passes, 0-1") }
            guard (0...1).contains(minimum) else {
                diagnostics.append(.error("min \(minimum) is not a similarity from 0 to 1", at: value["min"]?.location ?? location))
                return nil
            }
            var metric = Check.Similarity.f1
            if let node = value["metric"] {
                guard let given = node.text.flatMap(Check.Similarity.init(rawValue:)) else {
                    diagnostics.append(.error("similar's metric is f1 or rouge-l", at: node.location))
                    return nil
                }
                metric = given
            }
            kind = .similar(to: gold, minimum: minimum, metric: metric)
        case "script":
            guard let path = value.located("script")?.value, !path.isEmpty else { return missing("'script': the executable to run") }
            let timeout = value.number("timeout") ?? 10
            guard timeout > 0 else {
                diagnostics.append(.error("timeout must be above 0 seconds", at: value["timeout"]?.location ?? location))
                return nil
            }
            kind = .script(path: path, arguments: value.locatedList("args").map(\.value), timeout: timeout)
        default:
            diagnostics.append(.error("unknown check '\(name)'", at: location))
            return nil
        }
        return Check(id: value.located("id")?.value ?? name, kind: kind, weight: value.number("weight") ?? 1, location: location)
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

enum NSRegularExpressionProbe {
    static func compile(_ pattern: String) throws -> NSRegularExpression { try NSRegularExpression(pattern: pattern) }
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
