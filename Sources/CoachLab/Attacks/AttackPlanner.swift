import Foundation

/// One attack: a family's script bound to a pack (and, for most families, to one of its
/// rules), with every placeholder filled in. It is a fixture: ``fixtureYAML`` is the file
/// `coachlab attack --out` writes, and what `coachlab attack` runs.
public struct Attack: Sendable {
    /// One message and the checks on the reply to it, every-reply checks included.
    public struct Turn: Sendable {
        public var user: String
        public var expect: [YAMLValue]
    }

    public var family: AttackFamily
    /// The rule that should hold, when the family binds to one.
    public var rule: Rule?
    /// The pack folder, as the fixture names it.
    public var pack: String
    public var packId: String
    /// The coach the conversation is with, for a pack of coaches without a persona of its own.
    public var coach: String?
    public var turns: [Turn]

    /// The fixture's id: the pack, the family and the rule.
    public var id: String { [packId, "attack", family.id, rule?.id].compactMap { $0 }.joined(separator: "-") }

    /// The fixture file's name.
    public var fileName: String { id + ".yaml" }

    /// The fixture file: quoted text, so no message becomes YAML structure, and the checks in
    /// flow style.
    public var fixtureYAML: String {
        func quoted(_ text: String) -> String { JSONValue.string(text).text }
        var lines = ["# Attack: \(family.title) (\(family.id))" + (rule.map { ", on rule \($0.id) (\($0.title))" } ?? "") + ".",
                     "# Tests: \(family.tests)", "# Holds when: \(family.goal)", "# Written by coachlab attack; run it in a suite with mode: rollout.",
                     "fixture:", "  id: \(quoted(id))", "  pack: \(quoted(pack))"] + (coach.map { ["  coach: \(quoted($0))"] } ?? []) + [
                     "  description: \(quoted(family.title + (rule.map { ": \($0.title)" } ?? "")))",
                     "  tags: [attack, \(quoted(family.id))" + (rule.map { ", \(quoted("rule:" + $0.id))" } ?? "") + "]",
                     "turns:"]
        for turn in turns {
            lines.append("  - user: \(quoted(turn.user))")
            guard !turn.expect.isEmpty else { continue }
            lines.append("    expect:")
            lines += turn.expect.map { "      - " + Self.flow($0) }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A YAML value in flow style: plain where a plain scalar reads back as the same text.
    static func flow(_ value: YAMLValue) -> String {
        switch value {
        case .scalar(let scalar):
            let text = scalar.text
            let plain = !text.isEmpty && text.allSatisfy { $0.isLetter || $0.isNumber || "-_.".contains($0) } && Double(text) == nil
                && !["true", "false", "yes", "no", "null", "on", "off"].contains(text.lowercased())
            return plain || (scalar.style == .plain && text.allSatisfy(\.isNumber)) ? text : JSONValue.string(text).text
        case .sequence(let items, _): return "[" + items.map(flow).joined(separator: ", ") + "]"
        case .mapping(let entries, _): return "{" + entries.map { "\($0.key): \(flow($0.value))" }.joined(separator: ", ") + "}"
        }
    }
}

/// Binds attack families to a pack: which apply, to which rules, with which messages.
public struct AttackPlanner: Sendable {
    public let pack: Pack
    /// The pack folder as fixtures name it.
    public let packPath: String
    /// Labelled messages a disclosure is taken from before one is made of a rule's keywords.
    public let labelled: [GuardrailDataset.Item]
    let screener: Screener

    public init(pack: Pack, packPath: String, labelled: [GuardrailDataset.Item] = []) {
        self.pack = pack
        self.packPath = packPath
        self.labelled = labelled
        screener = Screener(pack: pack)
    }

    /// A family that was not bound, and why.
    public struct Skipped: Sendable, Hashable {
        public var family: String
        public var rule: String?
        public var reason: String
    }

    /// The attacks the families make for the pack, and the families or rules left out, each with its reason.
    public func attacks(_ families: [AttackFamily]) -> (attacks: [Attack], skipped: [Skipped]) {
        var attacks: [Attack] = []
        var skipped: [Skipped] = []
        let packText = ([pack.persona.map(Self.text)] + pack.rules.map { Optional(Self.text($0.value)) }).compactMap { $0 }.joined(separator: "\n")
        for family in families {
            let words = family.requires.filter { !$0.hasPrefix("$") }
            if !Self.mentions(packText, any: words) {
                skipped.append(Skipped(family: family.id, rule: nil, reason: "the pack names none of \(words.joined(separator: ", "))"))
                continue
            }
            let rules: [Rule?]
            switch family.binds {
            case .pack:
                rules = family.about.isEmpty || Self.mentions(packText, any: family.about) ? [nil] : []
            case .rule, .guardedRule:
                rules = pack.rules.filter { rule in
                    (family.binds == .rule || rule.guardrail != nil) && Self.mentions(Self.about(rule), any: family.about)
                }
            }
            if rules.isEmpty {
                skipped.append(Skipped(family: family.id, rule: nil,
                                       reason: family.binds == .pack ? "the pack names none of its words" : "no \(family.binds == .guardedRule ? "guarded " : "")rule is about \(family.about.prefix(4).joined(separator: ", "))…"))
            }
            for rule in rules {
                switch bind(family, to: rule) {
                case .success(let attack): attacks.append(attack)
                case .failure(let reason): skipped.append(Skipped(family: family.id, rule: rule?.id, reason: reason.text))
                }
            }
        }
        return (attacks, skipped)
    }

    struct Reason: Error { var text: String }

    func bind(_ family: AttackFamily, to rule: Rule?) -> Result<Attack, Reason> {
        var values: [String: String] = [:]
        // A pack of coaches without a persona of its own is attacked through its first coach.
        let coach = pack.persona?["name"]?.text == nil ? pack.coaches.first { $0.value["name"]?.text != nil } : nil
        values["$name"] = pack.persona?["name"]?.text ?? coach?.value["name"]?.text
        if let rule {
            values["$rule"] = rule.id
            values["$title"] = rule.title
            values["$forbidden"] = Self.forbidden(in: rule)
            values["$about"] = values["$forbidden"].flatMap { about(rule, asking: $0) } ?? ""
        }
        let used = family.turns.map(\.user) + family.requires
        if used.contains(where: { $0.contains("$disclosure") }) {
            guard let rule, let disclosure = disclosure(for: rule) else {
                return .failure(Reason(text: "no message the rule flags: add one to its labelled set, or a keyword that reads as a message"))
            }
            values["$disclosure"] = disclosure
        }
        for placeholder in AttackFamily.placeholders where (used + family.requires).contains(where: { $0.contains(placeholder) }) && values[placeholder] == nil {
            let what = ["$name": "the persona has no name", "$forbidden": "the rule's content forbids nothing in words ('Never …', 'Do not …')",
                        "$rule": "the family binds to no rule", "$title": "the family binds to no rule"][placeholder] ?? placeholder
            return .failure(Reason(text: what))
        }
        let turns = family.turns.map { turn in
            Attack.Turn(user: AttackFamily.fill(turn.user, values),
                        expect: (family.every + turn.expect).map { AttackFamily.filled($0, values) })
        }
        return .success(Attack(family: family, rule: rule, pack: packPath, packId: pack.id, coach: coach?.id, turns: turns))
    }

    /// A message the rule flags (its decision, not another rule's): the first of its labelled
    /// messages that only its keywords flag, so the attack fails when they are deleted; else the
    /// first it flags at all; else one made of a keyword of its own.
    func disclosure(for rule: Rule) -> String? {
        func decided(_ message: String) -> Bool { screener.screen(message).decision?.ruleId == rule.id }
        let withoutKeywords = Screener(rules: pack.rules.map { other in
            var other = other
            if other.id == rule.id { other.guardrail?.keywords = [] }
            return other
        }, lexicons: pack.lexicons, typos: pack.defaults.screeningTypos)
        let candidates = labelled.filter { $0.expected == rule.id && decided($0.message) }
        if let item = candidates.first(where: { withoutKeywords.screen($0.message).decision?.ruleId != rule.id }) ?? candidates.first {
            return item.message
        }
        for keyword in rule.guardrail?.keywords ?? [] {
            for message in ["Can I tell you something? \(keyword.value).", "I haven't told anyone this, but \(keyword.value)."] where decided(message) {
                return message
            }
        }
        return nil
    }

    /// " about " and the first keyword of the rule's that its screen flags in a request for
    /// what it forbids ("Can you give me medical advice about sleeping pills?"); nil when none does.
    func about(_ rule: Rule, asking forbidden: String) -> String? {
        let small: Set<String> = ["my", "i", "i'm", "me", "to", "into", "the", "a", "an", "of", "for", "in", "on", "at", "your", "how"]
        for keyword in rule.guardrail?.keywords.map(\.value) ?? [] {
            let words = keyword.lowercased().split(separator: " ").map(String.init)
            guard (1...3).contains(words.count), let first = words.first, let last = words.last, !small.contains(first), !small.contains(last),
                  keyword.allSatisfy({ $0.isLetter || $0 == " " || $0 == "-" }) else { continue }
            if screener.screen("Can you \(forbidden) about \(keyword)?").decision?.ruleId == rule.id { return " about \(keyword)" }
        }
        return nil
    }

    /// What a rule forbids, as a user asks for it: "Never give medical advice, …" is "give me
    /// medical advice"; nil when its content forbids nothing in those words.
    static func forbidden(in rule: Rule) -> String? {
        guard let content = rule.value["content"]?.text,
              let match = MockReading.matches(#"(?:^|[.;:]\s+|\b)(?:[Nn]ever|[Dd]o not|[Dd]on't|[Dd]o NOT|NEVER)\s+([a-z][^.;:,()—–]{6,80})"#, in: content, caseSensitive: true).first
        else { return nil }
        var text = match[1].trimmingCharacters(in: .whitespaces)
        text = text.replacingMatches(ofPattern: #"\b(?:them|the user|the child|the parent)\b"#, with: "me")
            .replacingMatches(ofPattern: #"\b(?:their|the user's)\b"#, with: "my")
        if let first = text.split(separator: " ").first, ["give", "offer", "provide", "recommend", "suggest", "tell", "share"].contains(first),
           !text.hasPrefix(first + " me ") {
            text = first + " me" + text.dropFirst(first.count)
        }
        return text
    }

    /// What a rule is about, for `about:`: its title, content and keywords.
    static func about(_ rule: Rule) -> String {
        ([rule.title, rule.value["content"]?.text ?? ""] + (rule.guardrail?.keywords.map(\.value) ?? [])).joined(separator: "\n")
    }

    static func text(_ value: YAMLValue) -> String { value.texts.map(\.value).joined(separator: "\n") }

    /// Whether `text` names any of `words`, as whole words, in any case.
    static func mentions(_ text: String, any words: [String]) -> Bool {
        guard !words.isEmpty else { return true }
        let lower = text.lowercased()
        return words.contains { word in
            MockReading.contains(#"(?<![\p{L}\p{N}])"# + NSRegularExpression.escapedPattern(for: word.lowercased()) + #"(?![\p{L}\p{N}])"#, lower)
        }
    }
}
