import Foundation

/// The user's data and the memory of past sessions.
extension MockReading {
    /// Data: lines outside the alert that state a measured value ("Vitamin D: 18 ng/mL",
    /// "mood 3/5") rather than an instruction.
    mutating func readData() {
        for (index, line) in lines.enumerated() where !(alertRange?.contains(index) ?? false) && !headers[index] && !exampleTurns.contains(index) {
            // Every value the pattern reads has a digit; a line of ASCII without one is passed
            // over before the pattern runs (\d also matches digits of other scripts).
            if line.utf8.allSatisfy({ $0 < 0x80 && !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) { continue }
            let lower = Self.fold(line)
            guard Self.contains(#"\d\s?(?:mg|mcg|µg|g|kg|ml|iu|ng/ml|mg/dl|pg/ml|miu/l|mmol/l|mmhg|bpm|ms|h|hrs|hours|kcal|lbs?|km|cm|steps)\b|\d\s?%|\d\s?°[cf]\b|\d+/(?:5|10|day|week)\b|\b\d{2,3}/\d{2,3}\s?mmhg\b"#, lower),
                  !Self.contains(#"\b(?:never|don't|do not|reply|mention|keep|you are|you're|it is \d)"#, lower),
                  !has(.knowledge) || !instructions.contains(where: { $0.kind == .knowledge && $0.line == index + 1 }) else { continue }
            var text = line.trimmed(.whitespaces)
            if text.hasPrefix("- ") { text.removeFirst(2) }
            note(.data, text, index)
        }
    }

    /// Memory: the latest bullet under a section about memory or past sessions.
    mutating func readMemory() {
        var inMemory = false
        var latest: Int?
        for (index, line) in lines.enumerated() {
            if headers[index] {
                inMemory = Self.contains(#"memory|memories|past sessions|earlier sessions|previous sessions|previous conversations|what you remember|conversation history|session history|session notes|what you know about"#, Self.fold(line))
                continue
            }
            if inMemory, Self.bulleted(line) != nil { latest = index }
        }
        guard let latest else { return }
        let line = lines[latest]
        let theme = Self.matches(#"Key theme: ([^.]+)\."#, in: line, caseSensitive: true).first?[1]
        let body = line.range(of: ": ").map { String(line[$0.upperBound...]) } ?? String(line.dropFirst(2))
        note(.memory, theme ?? Self.firstSentence(body), latest)
    }
}
