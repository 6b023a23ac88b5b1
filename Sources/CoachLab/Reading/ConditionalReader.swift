import Foundation

/// Conditional instructions: "If they mention X, do Y".
extension MockReading {
    mutating func readConditional(_ line: String, _ index: Int) {
        let subject = #"(?:the user|a user|the client|the patient|they|the child|a child|the person|someone|[A-Z][\p{L}'’-]*)"#
        let verb = #"(?:mentions?|says?|talks? about|describes?|reports?|asks? about|brings? up|seems?|expresses|express|shares?|raises?|discloses?|admits?|writes? about)"#
        let directive = #"(?:stop|stay|tell|encourage|point|suggest|respond|send|say|ask|gently|clearly|direct|refer|urge|do not|don't|never|provide|share|give|offer|remind|recommend|advise|explain|acknowledge|validate|thank|signpost)"#
        // "If the user mentions X, …", "When they talk about X, …", "Should a user express X, …".
        let pattern = #"\b(?:if|when|whenever|in case|should) "# + subject + #"\s+"# + verb + #"\s+(.+?),\s*("# + directive + #"\b.+)$"#
        guard let match = Self.matches(pattern, in: line).first else { return }
        let concept = MockConcept.of(match[1].lowercased())
        note(.conditional, "\(concept.rawValue)|\(match[1])|\(match[2])", index)
    }
}

extension LineReader {
    /// "If they mention X, do Y", outside the live alert.
    static let conditional = LineReader(
        name: "conditional", kinds: [.conditional],
        clues: ["if ", "when", "in case ", "should "], inAlert: false,
        read: { reading, line, lower in if lower.contains(",") { reading.readConditional(line, 0) } },
        examples: [
            ("If they mention self-harm, give the 988 Lifeline.", [.conditional]),
        ],
        counterExamples: ["When you can, rest.", "If in doubt, keep it short"])
}
