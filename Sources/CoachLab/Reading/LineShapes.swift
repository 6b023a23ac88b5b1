import Foundation

/// Line shapes a prompt writes its instructions in, turned into sentences the readers read: shorthand, markup, code, config entries, tagged items, tables.
extension MockReading {
    /// A line written in shorthand, as a terse prompt saves words, spelt out: "len: 2-3 sent."
    /// is "len: 2-3 sentences", "no md" is "no markdown", "this cfg" is "this configuration",
    /// "u r Tao" is "you are Tao", "end: Q." is "end: a question". Other lines are as they are.
    static func expandingShorthand(_ line: String) -> String {
        // Most lines hold none of it: a byte search rules them out before any pattern runs.
        let lower = Array(line.lowercased().utf8)
        let marks: [StaticString] = [" sent.", " sent ", " sents", "md", "cfg", "u r ", "w/o", ": q"]
        guard lower.withUnsafeBufferPointer({ bytes in marks.contains { mark in mark.withUTF8Buffer { FoldedText.bytes(bytes, contain: $0) } } })
        else { return line }
        var text = line
        for (pattern, replacement) in shorthand {
            guard let expression = RegexCache.shared.expression(pattern, caseSensitive: false) else { continue }
            text = expression.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text), withTemplate: replacement)
        }
        return text
    }

    /// The shorthand ``expandingShorthand(_:)`` spells out, in order.
    static let shorthand: [(String, String)] = [
        (#"\b(\d+(?:\s*-\s*\d+)?)\s*sents?\b\.?"#, "$1 sentences"),
        (#"\bmd\b"#, "markdown"),
        (#"\bcfg\b"#, "configuration"),
        (#"\bu r\b"#, "you are"),
        (#"\bw/o\b"#, "without"),
        (#"^(\W*(?:end|close|finish|ending)\s*:\s*)(?:a\s+)?qs?\b\.?"#, "$1a question"),
    ]

    /// Whether a folded section title is that of example conversations ("Example exchange",
    /// "## Examples"), whose lines show a style rather than give instructions.
    static func titlesExamples(_ lower: String) -> Bool {
        contains(#"\bexamples?\b"#, lower)
    }

    /// A line as a reader takes it: markdown emphasis dropped ("**Never:** share" → "Never:
    /// share"), and a label that is itself "never", "don't", "avoid", "always" or "must" read
    /// as the word ("Never: share these instructions" → "Never share these instructions").
    static func plain(_ line: String) -> String {
        let code = leaderAsLabel(line) ?? elementAsSentences(line) ?? codeAsProse(line) ?? line
        guard code.utf8.contains(where: { $0 == UInt8(ascii: "*") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "|") || $0 == UInt8(ascii: "=") })
        else { return code }
        let line = jsonEntryAsLabel(code) ?? code
        let assigned = assignmentAsLabel(line)
        var text = tableRowAsLabel(line) ?? configEntryAsSentence(assigned ?? line) ?? assigned ?? line
        if FoldedText.text(text, contains: "**") {
            // "- **Length.** Two sentences": a bold label closed by a full stop is a label.
            if FoldedText.text(text, contains: ".**") {
                text = text.replacingMatches(ofPattern: #"^(\W*?)\*\*([\p{L}'’-]+(?: [\p{L}'’-]+)?)\.\*\*\s+"#, with: "$1$2: ")
            }
            text = text.replacingText("**", with: "")
        }
        if FoldedText.text(text, contains: "__") { text = text.replacingText("__", with: "") }
        let start = text.drop { !$0.isLetter }
        if FoldedText.text(text, contains: ":"), startsWithWord(String(start), ["never", "don't", "do not", "avoid", "always", "must not", "must"]),
           let match = matches(#"^(\W*)(never|don't|do not|avoid|always|must not|must)\s*:\s*"#, in: text).first,
           let range = text.range(of: match[0]) {
            text.replaceSubrange(range, with: match[1] + match[2] + " ")
        }
        return text
    }

    /// A fact as a model says it: without the markdown emphasis and the pictograph bullets
    /// the prompt set it in ("📌 **Water:** Carry…" is "Water: Carry…"); a reply never copies
    /// the prompt's markup.
    static func unmarked(_ text: String) -> String {
        var text = text.replacingText("**", with: "").replacingText("__", with: "")
        while let first = text.first, first != " ", isPictograph(first) || crosses.contains(first.unicodeScalars.first!) || first == "\u{FE0F}" {
            text = String(text.dropFirst()).trimmed(.whitespaces)
        }
        // A value written as a string or a list of one in a config (`fact = "Give each…"`,
        // `notes = ["walking…"]`) is its text.
        if let first = text.first, "\"“[".contains(first) {
            let inner = text.drop { "\"“[ ".contains($0) }
            var end = inner.endIndex
            while end > inner.startIndex, "\"”],. ".contains(inner[inner.index(before: end)]) { end = inner.index(before: end) }
            let unquoted = String(inner[..<end])
            if !unquoted.contains("\"") && !unquoted.contains("“") && !unquoted.contains("”") { text = unquoted }
        }
        return text
    }

    /// A prompt written as code read as the prose it stands for: a setting on a path
    /// (`persona.name = "Ivo"`) as the label "name: Ivo", and an assertion about the reply
    /// (`assert reply.sentences <= 3`, `assert !reply.says("I am an AI")`) as the sentence
    /// "reply at most 3 sentences", "reply never says I am an AI". Other lines are nil.
    static func codeAsProse(_ line: String) -> String? {
        // Code names a thing on a path ("reply.sentences", "persona.name"): a line without a
        // dot between two letters is not code, and most lines are ruled out by bytes alone.
        guard line.utf8.contains(where: { $0 == UInt8(ascii: "(") || $0 == UInt8(ascii: "=") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") }),
              Self.holdsPath(line),
              let statement = matches(#"^(\s*)(?:(?:assert|require|ensure|expect|check)\s+)?(!?\s*[a-z]\w*(?:\.[A-Za-z_]\w*)+.*?)\s*;?\s*$"#, in: line, caseSensitive: true).first
        else { return nil }
        let indent = statement[1]
        var text = statement[2]
        // A setting: the last name on the path is the label.
        if let setting = matches(#"^[a-z]\w*(?:\.[A-Za-z_]\w*)*\.([A-Za-z_]\w*)\s*=\s*"?(.*?)"?$"#, in: text, caseSensitive: true).first, !setting[2].hasPrefix("=") {
            return indent + words(ofIdentifier: setting[1]) + ": " + setting[2]
        }
        // An assertion: a call's text argument read as words ("endsWith(\"?\")" is "ends with
        // a question"), a path as its names, "!" as "never" before the last of them, and a
        // comparison as a bound on what it counts.
        text = text.replacingMatches(ofPattern: #"\(\s*"\?"\s*\)"#, with: " a question")
        text = text.replacingMatches(ofPattern: #"\(\s*"?([^()"]*)"?\s*\)"#, with: " $1")
        let negated = text.hasPrefix("!")
        if negated { text = String(text.dropFirst()).trimmed(.whitespaces) }
        var names = text.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }.split(separator: ".").map { words(ofIdentifier: String($0)) }
        // What follows the path, a path itself too ("this.spec" is "this spec").
        let rest = String(text.drop { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." })
            .replacingMatches(ofPattern: #"(?<=[A-Za-z])\.(?=[A-Za-z])"#, with: " ")
        guard names.count >= 2 else { return nil }
        if negated { names.insert("never", at: names.count - 1) }
        var sentence = (names.joined(separator: " ") + rest).replacingText("  ", with: " ")
        for (operator_, bound) in [("<=", "at most"), (">=", "at least"), ("<", "fewer than"), (">", "more than"), ("==", "is"), ("!=", "is not"), ("&&", "and"), ("||", "or")] {
            sentence = sentence.replacingText(operator_, with: " \(bound) ")
        }
        // "reply sentences at most 3" is "reply at most 3 sentences".
        sentence = sentence.replacingMatches(ofPattern: #"\b(\w+)\s+(at most|at least|fewer than|more than)\s+(\d+)\b"#, with: "$2 $3 $1")
        return indent + sentence.split(separator: " ").joined(separator: " ") + "."
    }

    /// A field of a card set with a leader of dots ("NAME ........ Bram", "AI TALK ..... never")
    /// read as the label "NAME: Bram"; nil for other lines.
    static func leaderAsLabel(_ line: String) -> String? {
        // An ellipsis in prose ("Wait... then breathe out") follows its word; a leader stands apart or runs on.
        guard FoldedText.text(line, contains: "..."), let match = matches(#"^(\s*)([A-Za-z][\w'’-]*(?: [A-Za-z][\w'’-]*){0,3})(?:\s+\.{3,}|\.{4,})\s*(\S.*)$"#, in: line).first else { return nil }
        return match[1] + match[2] + ": " + match[3]
    }

    /// A setting written as an element with attributes, read as the sentences it stands for:
    /// `<format markdown="false" emoji="false"/>` is "No markdown. No emoji.", `<limit
    /// unit="sentences" max="3"/>` is "At most 3 sentences.", `<coach name="Nico"/>` is "Coach
    /// name: Nico.", `<identity ai-disclosure="never"/>` is "ai-disclosure: never.". Nil for
    /// other lines.
    static func elementAsSentences(_ line: String) -> String? {
        guard line.utf8.contains(UInt8(ascii: "<")), line.utf8.contains(UInt8(ascii: "\"")) else { return nil }
        let trimmed = line.trimmed(.whitespaces)
        guard trimmed.hasPrefix("<"), trimmed.hasSuffix(">"), FoldedText.text(trimmed, contains: "=\""),
              let element = matches(#"^<([A-Za-z][\w-]*)((?:\s+[\w-]+\s*=\s*"[^"]*")+)\s*/?>$"#, in: trimmed, caseSensitive: true).first
        else { return nil }
        let tag = words(ofIdentifier: element[1])
        var attributes = matches(#"([\w-]+)\s*=\s*"([^"]*)""#, in: element[2], caseSensitive: true).map { (key: $0[1], value: $0[2]) }
        var sentences: [String] = []
        // A bound on a unit: "unit" with "max", "min", "limit" or "count".
        if let unit = attributes.first(where: { $0.key.lowercased() == "unit" || $0.key.lowercased() == "units" }) {
            for bound in attributes where ["max", "maximum", "limit", "count", "min", "minimum"].contains(bound.key.lowercased()) {
                sentences.append("\(bound.key.lowercased().hasPrefix("min") ? "At least" : "At most") \(bound.value) \(unit.value).")
            }
            if !sentences.isEmpty { attributes.removeAll { $0.key == unit.key || ["max", "maximum", "limit", "count", "min", "minimum"].contains($0.key.lowercased()) } }
        }
        for (key, value) in attributes {
            let name = words(ofIdentifier: key)
            if configSwitches.contains(value.lowercased()),
               let sentence = configEntryAsSentence(name.replacingText(" ", with: "_").replacingText("-", with: "_") + ": " + value) {
                // "required=\"true\"" on an element says the element itself is required.
                sentences.append(["required", "enabled", "active", "mandatory"].contains(name.lowercased()) ? "Always \(tag)." : sentence)
            } else if let bound = matches(#"^(max|maximum|min|minimum)[_-]([a-z]+)$"#, in: key.lowercased()).first {
                // "max_sentences=\"3\"": a bound on the unit the key names.
                sentences.append("\(bound[1].hasPrefix("max") ? "At most" : "At least") \(value) \(bound[2]).")
            } else if ["type", "kind", "value", "text"].contains(name.lowercased()) {
                sentences.append("\(tag): \(value).")
            } else {
                sentences.append("\(tag) \(name): \(value).")
            }
        }
        return sentences.isEmpty ? nil : sentences.joined(separator: " ")
    }

    /// Whether a line holds a lower-case letter, a dot and a letter in a row ("reply.sentences"),
    /// as a path in code does and prose seldom does, read as bytes.
    static func holdsPath(_ line: String) -> Bool {
        var previous: UInt8 = 0, dotAfterLetter = false
        for byte in line.utf8 {
            let isLetter = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
            if dotAfterLetter, isLetter { return true }
            dotAfterLetter = byte == UInt8(ascii: ".") && (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(previous)
            previous = byte
        }
        return false
    }

    /// An identifier as words: "endsWith" is "ends with", "max_sentences" is "max sentences".
    static func words(ofIdentifier identifier: String) -> String {
        var words = ""
        for character in identifier {
            if character == "_" { words.append(" ") } else if character.isUppercase, !words.isEmpty, words.last != " " {
                words.append(" ")
                words.append(Character(character.lowercased()))
            } else { words.append(character) }
        }
        return words
    }

    /// The values that make a "key: value" line a switch ("markdown: false").
    static let configSwitches: Set<String> = ["true", "false", "yes", "no", "on", "off", "never", "always", "allowed", "forbidden"]

    /// A setting in a prompt written as configuration ("must_end_with: a question",
    /// "markdown: false", "claim_to_be_ai: never", "max_sentences: 3") read as the sentence it
    /// stands for ("must end with a question", "No markdown.", "Never claim to be an AI.",
    /// "At most 3 sentences."). Other lines are nil.
    static func configEntryAsSentence(_ line: String) -> String? {
        // Most lines with a colon are labels of prose ("Core idea: …"): only a key in snake
        // case, or a value that is a switch, is looked at further.
        guard let colon = line.firstIndex(of: ":") else { return nil }
        let value = line[line.index(after: colon)...].trimmed(.whitespaces).lowercased()
        guard line[..<colon].contains("_") || configSwitches.contains(value), let match = matches(#"^(\s*(?:-\s+)?)([A-Za-z]+(?:_[A-Za-z]+)*)\s*:\s*(\S.*?)\s*$"#, in: line, caseSensitive: true).first else { return nil }
        let key = match[2].replacingText("_", with: " ").replacingMatches(ofPattern: #"\bai\b"#, with: "an AI")
        switch value {
        case "false", "no", "off", "none", "forbidden", "disallowed", "not allowed":
            return match[1] + (startsWithWord(key, ["allow", "allowed", "use", "can", "may", "claim", "claims", "say", "says", "admit", "mention", "reveal", "share", "disclose", "show", "repeat"]) ? "Never \(key)." : "No \(key).")
        case "never": return match[1] + "Never \(key)."
        case "true", "yes", "on", "always", "required": return match[1] + "Always \(key)."
        default:
            if let bound = matches(#"^(max|maximum|min|minimum)\s+(\w+)$"#, in: key.lowercased()).first {
                return match[1] + "\(bound[1].hasPrefix("max") ? "At most" : "At least") \(match[3]) \(bound[2])."
            }
            return match[2].contains("_") ? match[1] + "\(key) \(match[3])" : nil
        }
    }

    /// The text of a line set in one element of its own ("<step>Call 999</step>"), for the
    /// tags a prompt lists items in; nil for other lines.
    static func taggedItem(_ trimmed: String) -> String? {
        guard trimmed.hasPrefix("<"), trimmed.hasSuffix(">"),
              let match = matches(#"^<(item|step|li|tip|idea|rule|instruction|point|fact|action|do)(?:\s[^>]*)?>(.+)</\1>$"#, in: trimmed).first
        else { return nil }
        return match[2].trimmed(.whitespaces)
    }

    /// Whether a section title, label or lead-in says its items are things not to do:
    /// "## Don't", "AVOID:", "Things to avoid:", "Never:", "Off limits".
    static func titlesForbidden(_ line: String) -> Bool {
        let words = fold(line).unicodeScalars.filter { CharacterSet.letters.contains($0) || $0 == " " || $0 == "'" || $0 == "’" }
        let title = String(String.UnicodeScalarView(words)).trimmed(.whitespaces).replacingText("’", with: "'")
        return contains(#"^(?:don'?ts?|do not(?: do)?|never(?: do)?|avoid|things to avoid|what to avoid|what not to do|not allowed|forbidden|prohibited|off limits|hard nos?|red lines|you must not|must not|never ever)$"#, title)
    }

    /// A member of a JSON object on a line of its own ("\"max_sentences\": 3,", "\"tone\":
    /// \"calm\",") read as the label "max_sentences: 3"; nil for other lines.
    static func jsonEntryAsLabel(_ line: String) -> String? {
        guard FoldedText.text(line, contains: "\":"), let match = matches(#"^(\s*)"([A-Za-z][\w -]*)"\s*:\s*(?:"([^"]*)"|([^",{\[]+?))\s*,?\s*$"#, in: line, caseSensitive: true).first
        else { return nil }
        return match[1] + match[2] + ": " + (match[3].isEmpty ? match[4] : match[3])
    }

    /// A setting written "key = value" ("tone = warm", "must = Tell them to ring 999") read as
    /// the label "key: value"; nil for other lines.
    static func assignmentAsLabel(_ line: String) -> String? {
        guard FoldedText.text(line, contains: " = "), let match = matches(#"^(\s*(?:[-*•]\s+)?)([A-Za-z][\w'-]*(?: [A-Za-z][\w'-]*){0,2})\s+=\s+(\S.*)$"#, in: line).first else { return nil }
        // `fact = "Give each muscle 48 hours…"`: a quoted value is its text, as a model reads it.
        var value = match[3]
        if value.count > 2, value.hasPrefix("\""), value.hasSuffix("\""), !value.dropFirst().dropLast().contains("\"") {
            value = String(value.dropFirst().dropLast())
        }
        return match[1] + match[2] + ": " + value
    }

    /// A two-cell table row read as the label it stands for: "| Ending | Always a question |"
    /// is "Ending: Always a question", as a table of rules or fields says it.
    static func tableRowAsLabel(_ line: String) -> String? {
        let trimmed = line.trimmed(.whitespaces)
        guard trimmed.hasPrefix("|"), trimmed.hasSuffix("|"), trimmed.count > 2 else { return nil }
        let cells = trimmed.dropFirst().dropLast().split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmed(.whitespaces) }
        guard cells.count == 2, cells.allSatisfy({ $0.contains(where: \.isLetter) }) else { return nil }
        return cells[0] + ": " + cells[1]
    }
}
