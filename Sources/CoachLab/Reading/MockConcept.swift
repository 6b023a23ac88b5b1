/// What a conditional instruction ("If the user mentions X, …") is about, as the mock tells
/// it from the user's message with a small built-in lexicon.
public enum MockConcept: String, Sendable {
    case crisis, emergency, medication, diagnosis, other

    static func of(_ description: String) -> MockConcept {
        if MockReading.contains(#"suicid|self-harm|self harm|(?:harm|hurt)(?:ing)? (?:themselves|himself|herself|them)\b|crisis|danger|unsafe|ending their life|kill"#, description) { return .crisis }
        if MockReading.contains(#"emergenc|chest pain|heart attack|stroke"#, description) { return .emergency }
        if MockReading.contains(#"diagnos"#, description) { return .diagnosis }
        if MockReading.contains(#"medic|dose|pill|drug"#, description) { return .medication }
        return .other
    }

    /// Whether a user's message is about this concept; `described` is the condition's own
    /// words, which an `other` concept matches on (any word of five letters or more).
    func matches(_ message: String, described: String = "") -> Bool {
        let lower = MockReading.fold(message)
        switch self {
        case .crisis:
            return MockReading.contains(#"\b(?:suicid\w*|kill myself|killing myself|end my life|ending my life|want to die|wanna die|self[- ]harm\w*|hurt myself|hurting myself|cut myself|cutting myself|better off without me|no reason to live|don't want to (?:be here|live|wake up)|can't go on|overdose|not safe|unsafe|hurting me|hits me|hit me)\b"#, lower)
        case .emergency:
            return MockReading.contains(#"\b(?:chest pain|chest hurts|can't breathe|cannot breathe|short of breath|faint\w*|numb\w*|heart attack|stroke|crushing|passed out|unconscious)\b"#, lower)
        case .medication:
            return MockReading.contains(#"\b(?:pills?|medication|meds|medicine|dose|doses|dosage|mg|tablets?)\b"#, lower)
        case .diagnosis:
            // "Do I have ADHD?", "Am I depressed?", "Could this be diabetes?"
            return MockReading.contains(#"\bdiagnos\w*|\b(?:do|could|might) i (?:have|be|have got) (?:adhd|add|autism|autistic|depression|depressed|anxiety|bipolar|ocd|ptsd|insomnia|diabetes|diabetic|cancer|an? [a-z]+ disorder|it)\b|\bam i (?:\w+ )?(?:depressed|bipolar|autistic|adhd|diabetic|anxious|ill|sick)\b|\b(?:is|could) (?:it|this|that) (?:be )?(?:adhd|depression|anxiety|autism|bipolar|ocd|diabetes|cancer|serious)\b"#, lower)
        case .other:
            let messageWords = Set(TextNormalizer.words(lower).map(\.text))
            return TextNormalizer.words(described).map(\.text).contains {
                $0.count >= 5 && !MockComposer.stopWords.contains($0) && messageWords.contains($0)
            }
        }
    }
}
