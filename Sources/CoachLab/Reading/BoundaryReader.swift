import Foundation

/// A rule's boundary with where it sends the user instead: "Never give medical advice, including
/// about sleep medication, doses or symptoms; gently suggest a doctor or pharmacist." or
/// "Suggest discussing flagged results with a doctor; never diagnose." A model holds such a rule
/// whenever a message asks for what it forbids, flagged or not; so does the mock: it is read as
/// "if the message is about this, do that", the conditional the composer follows outside an alert.
extension MockReading {
    /// What a rule forbids, in the words a boundary uses.
    static let boundaryVerb = #"(?:give|offer|provide|make|recommend|prescribe|diagnose|advise(?: on| about)?|tell (?:the user|them|anyone|people|the child|the parent) (?:to|whether|what)|suggest|share|name|say whether)"#
    /// Where it sends the user instead.
    static let boundaryRedirect = #"(?:(?:gently|kindly|instead|always|please|just)\s+)?(?:suggest|refer|point|send|encourage|direct|recommend|say (?:that )?(?:a|an|their|the|this|those)|tell (?:them|the user|the child) to (?:ask|see|talk|speak|check)|ask (?:them|the user) to (?:see|talk|speak|check))\b[^.;]*"#

    mutating func readBoundary(_ line: String, _ index: Int) {
        let redirectFirst = #"(?i)("# + Self.boundaryRedirect + #")[;,]\s*(?:and\s+|but\s+)?(?:never|do not|don't)\s+("# + Self.boundaryVerb + #")\b\s*([^.;]*)"#
        let boundaryFirst = #"(?i)\b(?:never|do not|don't)\s+("# + Self.boundaryVerb + #")\b\s*([^.;:!?]*?)\s*(?:[;.]|,\s*(?:and|but)\b|\s+[—–]\s+)\s*(?:(?:and|but|instead|rather)[, ]\s*)?("# + Self.boundaryRedirect + ")"
        let verb: String, object: String, redirect: String
        if let match = Self.matches(boundaryFirst, in: line, caseSensitive: true).first {
            (verb, object, redirect) = (match[1], match[2], match[3])
        } else if let match = Self.matches(redirectFirst, in: line, caseSensitive: true).first {
            (verb, object, redirect) = (match[2], match[3], match[1])
        } else {
            return
        }
        let forbidden = (verb + " " + object).trimmed(.whitespaces)
        // "advice about medicine, doses, diagnosis or …" is about both: a note for each.
        let lower = forbidden.lowercased()
        var concepts = [MockConcept.of(lower)]
        if concepts == [.diagnosis], Self.contains(#"medic|dose|pill|drug"#, lower) { concepts.append(.medication) }
        for concept in concepts {
            note(.boundary, "\(concept.rawValue)|\(forbidden)|\(MockDirective.capitalized(redirect.trimmed(Self.spacesAndStops)))", index)
        }
    }
}

extension LineReader {
    /// "Never X; suggest Y": when the message asks for X, outside the live alert.
    static let boundaries = LineReader(
        name: "boundaries", kinds: [.boundary],
        clues: ["never", "do not", "don't"], inAlert: false,
        read: { reading, line, _ in reading.readBoundary(line, 0) },
        examples: [
            ("Never give medical advice, including about sleep medication, doses or symptoms; gently suggest a doctor or pharmacist.", [.boundary]),
            ("Explain what a value means in general and suggest discussing flagged results with a doctor; never diagnose.", [.boundary]),
            ("Never give advice about medicine, doses, diagnosis or worrying symptoms; send the child to a parent and their doctor.", [.boundary]),
        ],
        counterExamples: ["Never give up on them.", "Do not give financial, investment, tax or legal advice; help the user think, not decide for them.",
                          "Never say you are an AI."])
}
