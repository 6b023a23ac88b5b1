import Foundation

/// Section titles, labels and lead-ins.
extension MockReading {
    /// The markdown level of a title line ("## Tips" and "=== ## Tips ===" are 2), or 0.
    static func markdownLevel(_ line: String) -> Int {
        var text = line.trimmed(.whitespaces)[...]
        if text.hasPrefix("=== ") { text = text.dropFirst(4) }
        let level = text.prefix { $0 == "#" }.count
        return text.dropFirst(level).first == " " ? level : 0
    }

    /// Whether a line is a title written as a label, a short line in capitals ending in a colon
    /// ("SAFETY ALERT:", "KNOWLEDGE:"), as stacks titled `{{title}}:` print them. Such a line
    /// opens an alert or a knowledge section, but does not close one: inside a section it is
    /// more often a heading of its own ("REQUIRED ACTIONS:").
    static func isLabel(_ line: String) -> Bool {
        let trimmed = line.trimmed(.whitespaces)
        guard trimmed.hasSuffix(":"), trimmed.utf8.count <= 60 else { return false }
        let words = trimmed.dropLast().split(separator: " ")
        let letters = trimmed.filter(\.isLetter)
        return words.count <= 6 && letters.count >= 4 && letters.allSatisfy(\.isUppercase)
    }

    /// Whether a line is a title in capitals with a value after it ("HEADS-UP FROM THE SAFETY
    /// FILTER: Debt crisis"): such a line may open the alert, as a title does.
    static func isCapitalsLabel(_ line: String) -> Bool {
        guard let colon = FoldedText.text(line, firstIndexOf: ": ") else { return false }
        // Past a sign that opens it as a picture does an item: "⚠️ USER FLAGGED FOR: Dog poisoning".
        let written = line[..<colon].trimmed(.whitespaces)
        let key = written.first.map(isPictograph) == true ? (listItem(written) ?? written) : written
        let letters = key.filter(\.isLetter)
        return key.split(separator: " ").count >= 2 && letters.count >= 6 && letters.allSatisfy(\.isUppercase) && listItem(key) == nil
    }

    /// Whether a line of prose that is not itself an item has a list right under it ("URGENT
    /// (Suicidal feelings): the student's latest message needs a careful answer." over "* …"):
    /// in a prompt without titles, it may open the alert.
    static func opensList(_ lines: [String], at index: Int) -> Bool {
        let trimmed = lines[index].trimmed(.whitespaces)
        guard trimmed.contains(where: \.isLetter), index + 1 < lines.count, listItem(trimmed) == nil else { return false }
        return listItem(lines[index + 1]) != nil
    }

    /// Whether a line of prose introduces the list under it ("Ideas you can draw on:", "In this
    /// reply you must:"): in a prompt written without section titles, such a line is one.
    static func isLeadIn(_ lines: [String], at index: Int) -> Bool {
        let trimmed = lines[index].trimmed(.whitespaces)
        // "Useful to mention —" leads in with a dash as others do with a colon.
        // An item may lead in to the items under it too: "💡 Go-to ideas:" over "💡 Habit stacking: …".
        guard trimmed.hasSuffix(":") || trimmed.hasSuffix(" —") || trimmed.hasSuffix(" –"), trimmed.count > 2,
              listItem(trimmed).map({ $0.hasSuffix(":") && $0.split(separator: " ").count <= 5 }) ?? true,
              let next = lines[(index + 1)...].first(where: { !$0.consists(of: .whitespaces) }) else { return false }
        return listItem(next) != nil
    }

    /// Whether a line is the header row of a table that ends the prompt ("| ⚠ Active flag |
    /// Cardiac symptoms |" over "|---|---|" and "| Do | Tell them… |" rows): it titles the
    /// rows, as a section title does its lines.
    static func titlesTable(_ lines: [String], at index: Int) -> Bool {
        func isRow(_ line: String) -> Bool {
            let trimmed = line.trimmed(.whitespaces)
            return trimmed.count > 2 && trimmed.hasPrefix("|") && trimmed.hasSuffix("|")
        }
        guard isRow(lines[index]), let rule = lines[(index + 1)...].firstIndex(where: { !$0.consists(of: .whitespaces) }),
              lines[rule].contains("-"), lines[rule].allSatisfy({ "|-: ".contains($0) }) else { return false }
        return lines[(rule + 1)...].allSatisfy { $0.consists(of: .whitespaces) || isRow($0) }
    }

    /// Whether a line only closes what the prompt opened: "<</SYS>>", "</system>", "}", "```".
    static func isClosingMarkup(_ line: String) -> Bool {
        let trimmed = line.trimmed(.whitespaces)
        return trimmed.allSatisfy { "}])>,".contains($0) } || contains(#"^(?:<</?[A-Za-z_]+>>|</[A-Za-z][\w-]*>|`{3,}|~{3,}|\[/?[A-Z_]+\])$"#, trimmed)
    }

    /// Whether a line is the marker a callout opens with ("> [!WARNING]", "> [!IMPORTANT]").
    static func isCalloutMarker(_ line: String) -> Bool {
        let trimmed = line.trimmed(.whitespaces)
        return trimmed.hasPrefix(">") && trimmed.dropFirst().trimmed(.whitespaces).hasPrefix("[!") && trimmed.hasSuffix("]")
    }

    /// Whether a line looks like a section title: `=== X ===`, `# X`, `[X]` or a short
    /// all-capitals line.
    static func isHeader(_ line: String) -> Bool {
        isASCIIHeader(line) ?? isHeaderByCharacter(line)
    }

    /// The marks a title may be set between ("!! X !!", ">> X <<").
    static let titleMarks: Set<Character> = ["!", "#", "*", "=", "~", "-", "+", "<", ">", "/", "|", "_", ":"]

    static let titleMarkBytes: Set<UInt8> = Set("!#*=~-+<>/|_:".utf8)

    /// ``isHeader(_:)`` read by character, for any text.
    static func isHeaderByCharacter(_ line: String) -> Bool {
        let trimmed = line.trimmed(.whitespaces)
        guard !trimmed.isEmpty else { return false }
        if trimmed.hasPrefix("=== ") || trimmed.hasPrefix("# ") || trimmed.hasPrefix("## ") || trimmed.hasPrefix("### ") { return true }
        if trimmed.hasPrefix("== ") || trimmed.hasPrefix("#### ") { return true }
        if trimmed.count > 4, trimmed.hasPrefix("**"), trimmed.hasSuffix("**") || trimmed.hasSuffix("**:") {
            let inner = trimmed.dropFirst(2).prefix { $0 != "*" }
            return inner.count + 2 >= trimmed.count - 3 && inner.contains(where: \.isLetter) && inner.split(separator: " ").count <= 6
        }
        if trimmed.hasPrefix("["), trimmed.hasSuffix("]") { return true }
        // A title set between two of the same pictograph: "⚡ Live flag: Chest pain ⚡".
        if let first = trimmed.first, trimmed.count > 4, isPictograph(first), trimmed.last == first, trimmed.dropFirst().dropLast().contains(where: \.isLetter) { return true }
        // A title set between runs of marks: "!! Profile !!", ">> NOTES <<", "-- Style --".
        let leading = trimmed.prefix { titleMarks.contains($0) }.count
        let trailing = trimmed.reversed().prefix { titleMarks.contains($0) }.count
        if leading >= 2, trailing >= 2, leading + trailing < trimmed.count, !trimmed.hasPrefix("<!--") {
            let inner = trimmed.dropFirst(leading).dropLast(trailing)
            if inner.first == " ", inner.last == " ", inner.contains(where: \.isLetter), inner.split(separator: " ").count <= 8 { return true }
        }
        if trimmed.hasPrefix("<"), trimmed.hasSuffix(">") {
            let inner = trimmed.dropFirst().dropLast()
            // Not an element closed on its own line ("<limit max=\"3\"/>"): that is a setting.
            return (inner.first.map { $0.isASCII && $0.isLetter } ?? false) && !inner.contains("<") && !inner.contains(">") && !inner.hasSuffix("/")
        }
        // A title in capitals with the rule it names after it: "5. THIS TURN ONLY (Burnout crisis)".
        var title = trimmed[...]
        if trimmed.hasSuffix(")"), let open = trimmed.range(of: " (", options: .backwards), !trimmed[open.upperBound...].contains("(") {
            title = trimmed[..<open.lowerBound]
        }
        let letters = title.filter(\.isLetter)
        return !trimmed.hasSuffix(":") && letters.count >= 4 && letters.allSatisfy(\.isUppercase) && title.split(separator: " ").count <= 6
    }

    /// ``isHeader(_:)`` of an ASCII line, read as bytes: a line of prose answers at its first
    /// lower-case letter. Nil for a line that is not ASCII.
    static func isASCIIHeader(_ line: String) -> Bool? {
        var line = line
        return line.withUTF8 { bytes -> Bool? in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            // Trimmed as `.whitespaces` trims ASCII: spaces and tabs.
            func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
            guard let first = bytes.firstIndex(where: { !isBlank($0) }), let last = bytes.lastIndex(where: { !isBlank($0) }) else {
                return false
            }
            let trimmed = UnsafeBufferPointer(rebasing: bytes[first...last])
            func starts(with prefix: StaticString) -> Bool {
                prefix.withUTF8Buffer { trimmed.count >= $0.count && zip(trimmed, $0).allSatisfy { $0 == $1 } }
            }
            if starts(with: "=== ") || starts(with: "# ") || starts(with: "## ") || starts(with: "### ") { return true }
            if starts(with: "== ") || starts(with: "#### ") { return true }
            // A title in bold alone on its line: "**Rules**", "**Rules:**".
            if trimmed.count > 4, starts(with: "**"), trimmed[trimmed.count - 1] == UInt8(ascii: "*") && trimmed[trimmed.count - 2] == UInt8(ascii: "*")
                || trimmed[trimmed.count - 1] == UInt8(ascii: ":") && trimmed[trimmed.count - 2] == UInt8(ascii: "*") && trimmed[trimmed.count - 3] == UInt8(ascii: "*") {
                let inner = trimmed.dropFirst(2).prefix { $0 != UInt8(ascii: "*") }
                let words = inner.split(separator: UInt8(ascii: " ")).count
                let letters = inner.contains { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0 | 0x20) }
                return inner.count + 2 >= trimmed.count - 3 && letters && words <= 6
            }
            if trimmed.first == UInt8(ascii: "["), trimmed.last == UInt8(ascii: "]") { return true }
            // A title set between runs of marks: "!! Profile !!".
            let isMark = { (byte: UInt8) in titleMarkBytes.contains(byte) }
            let leading = trimmed.prefix(while: isMark).count
            let trailing = trimmed.reversed().prefix(while: isMark).count
            if leading >= 2, trailing >= 2, leading + trailing < trimmed.count, !starts(with: "<!--") {
                let inner = trimmed.dropFirst(leading).dropLast(trailing)
                let hasLetter = inner.contains { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0 | 0x20) }
                if inner.first == UInt8(ascii: " "), inner.last == UInt8(ascii: " "), hasLetter,
                   inner.split(separator: UInt8(ascii: " ")).count <= 8 { return true }
            }
            // An opening tag alone on its line: "<rules>", "<output_format>".
            if trimmed.first == UInt8(ascii: "<"), trimmed.last == UInt8(ascii: ">") {
                let inner = trimmed.dropFirst().dropLast()
                return inner.first.map { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0 | 0x20) } ?? false
                    && !inner.contains(UInt8(ascii: "<")) && !inner.contains(UInt8(ascii: ">")) && inner.last != UInt8(ascii: "/")
            }
            if trimmed.last == UInt8(ascii: ":") { return false }
            // A title in capitals with the rule it names after it: "5. THIS TURN ONLY (Burnout crisis)".
            var title = trimmed[...]
            if trimmed.last == UInt8(ascii: ")"), let open = trimmed.lastIndex(of: UInt8(ascii: "(")), open > trimmed.startIndex,
               trimmed[open - 1] == UInt8(ascii: " "), !trimmed[(open + 1)...].contains(UInt8(ascii: "(")) {
                title = trimmed[..<(open - 1)]
            }
            var letters = 0, words = 0, afterSpace = true
            for byte in title {
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"): return false
                case UInt8(ascii: "A")...UInt8(ascii: "Z"): letters += 1
                default: break
                }
                // Words as `split(separator: " ")` counts them.
                let isSpace = byte == UInt8(ascii: " ")
                if !isSpace, afterSpace { words += 1 }
                afterSpace = isSpace
            }
            return letters >= 4 && words <= 6
        }
    }
}
