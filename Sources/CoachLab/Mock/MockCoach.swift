/// The mock provider's simulated coach: its reply is a documented, deterministic function of
/// the compiled system prompt and the conversation, so a compiler bug (such as a missing risk
/// alert) shows up as a failed eval even without a model.
///
/// The rules, in order:
/// 1. A scripted reply, when the caller has one, is returned as is.
/// 2. When the system prompt contains `RISK ALERT`, the mock follows the alert's instructions
///    (its bulleted lines): when they mention a crisis, emergency or danger it steers the user
///    to a crisis line or emergency services; when they mention a qualified person (a
///    professional, doctor, counsellor, therapist, pharmacist, trusted adult…) it steers them
///    there; either way it ends with a question. An alert with no such instruction is
///    acknowledged and coaching goes on, so a pack whose alert lost its instructions fails
///    `honours-alert`.
/// 3. Otherwise it reflects the user's latest message back in the second person (first
///    sentence, at most 30 words) and ends with one question.
///
/// A stage-2 classification request (``StageTwoClassifier/system(rules:)``) gets a simulated
/// verdict: `FLAGGED|title|…` for the first listed boundary whose title shares a word of five
/// or more letters with the message (compared on their first five letters), else `SAFE`. It
/// exists to exercise the wiring, not to classify well.
///
/// A summarisation request (``ContextRotation/summarySystem``) gets an extractive summary:
/// the first sentence of each of the user's lines in the transcript, in order.
///
/// A structured task (``StructuredTask``: a coach template, an insight, a wrap-up, a JSON
/// rotation summary) gets valid JSON built from the request; see ``structured(_:system:message:)``.
///
/// Replies are plain text, two or three sentences, with no markdown. The persona's name is
/// never claimed; the mock never says it is an AI.
public enum MockCoach {
    /// The reply to the latest user message.
    /// - Parameters:
    ///   - system: The compiled system prompt.
    ///   - userMessages: The user's messages so far, oldest first.
    public static func reply(system: String, userMessages: [String]) -> String {
        let latest = userMessages.last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        if let kind = StructuredTask.Kind(system: system), kind != .summary || system.contains("JSON") {
            // The first message is the task's; later ones ask for corrections.
            return structured(kind, system: system, message: userMessages.first ?? latest)
        }
        if system.hasPrefix(ContextRotation.summaryMarker) { return summary(of: latest) }
        if system.hasPrefix(StageTwoClassifier.marker) { return classify(latest, system: system) }
        if let alert = riskAlert(in: system) {
            let instructions = alertInstructions(alert).lowercased()
            let urgent = urgentWords.contains { instructions.contains($0) }
            let refer = referralWords.contains { instructions.contains($0) }
            if urgent || refer {
                let steer = urgent
                    ? "Please contact a crisis line or your local emergency number right now, so someone qualified can support you."
                    : "This is something a qualified professional, such as a doctor or counsellor, is best placed to help with, so I'd encourage you to speak to one."
                return "Thank you for telling me; I can hear this matters to you. \(steer) Are you okay to keep talking with me while you do?"
            }
            // An alert without instructions to follow: acknowledge it, then coach as usual.
            let sentence = firstSentence(of: latest)
            return "Thank you for telling me that. It sounds like \(reflect(sentence.text.isEmpty ? "this matters" : sentence.text)). What would help most right now?"
        }
        let sentence = firstSentence(of: latest)
        if sentence.text.isEmpty {
            return "I'm here and listening. What would you like to talk about?"
        }
        if sentence.isQuestion {
            return "You asked: \"\(sentence.text)?\" Before I answer, what would a good outcome look like for you?"
        }
        return "It sounds like \(reflect(sentence.text)). What feels like the most useful next step for you?"
    }

    /// The simulated stage-2 verdict on `request` ("User message: '…'").
    static func classify(_ request: String, system: String) -> String {
        func stems(_ text: String) -> Set<String> {
            Set(TextNormalizer.words(text).map(\.text).filter { $0.count >= 5 }.map { String($0.prefix(5)) })
        }
        let message = stems(request)
        for line in system.split(separator: "\n") where line.hasPrefix("- ") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let title = String(line[line.index(line.startIndex, offsetBy: 2)..<colon])
            if let shared = stems(title).intersection(message).sorted().first {
                return "FLAGGED|\(title)|the message mentions \(shared)…, which this boundary covers"
            }
        }
        return "SAFE"
    }

    /// An extractive summary of a "User:"/"Coach:" transcript.
    static func summary(of transcript: String) -> String {
        let said = transcript.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("User: ") else { return nil }
            let sentence = firstSentence(of: String(line.dropFirst(6)))
            return sentence.text.isEmpty ? nil : sentence.text
        }
        guard !said.isEmpty else { return "The user and the coach have only just begun." }
        return "Earlier in this session the user said: " + said.map { "\"\($0)\"" }.joined(separator: "; ") + "."
    }

    /// Instruction words that send the user to emergency help.
    static let urgentWords = ["crisis", "emergency", "danger", "unsafe", "safe right now"]
    /// Instruction words that send the user to a qualified person.
    static let referralWords = ["professional", "doctor", "counsellor", "counselor", "therapist", "gp", "pharmacist", "nurse",
                                "clinician", "psychologist", "trusted adult", "parent", "adviser", "advisor", "lawyer"]

    /// An alert's instructions: its bulleted lines ("- …"), which every shipped stack renders
    /// the rule's `alert.instructions` as.
    static func alertInstructions(_ alert: String) -> String {
        alert.split(separator: "\n").filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix("- ") }.joined(separator: "\n")
    }

    /// The RISK ALERT block of a system prompt, from its marker to the end of the layer.
    static func riskAlert(in system: String) -> String? {
        guard let range = system.range(of: "RISK ALERT") else { return nil }
        return String(system[range.lowerBound...])
    }

    /// The first sentence of a message (at most 30 words) and whether it asks something.
    static func firstSentence(of message: String) -> (text: String, isQuestion: Bool) {
        var sentence = Substring(message)
        var isQuestion = false
        if let end = sentence.firstIndex(where: { ".!?\n".contains($0) }) {
            isQuestion = sentence[end] == "?"
            sentence = sentence[..<end]
        }
        let words = sentence.split(whereSeparator: { $0 == " " || $0 == "\t" }).prefix(30)
        var text = words.joined(separator: " ")
        while let last = text.last, ",;:-".contains(last) { text.removeLast() }
        return (text, isQuestion)
    }

    /// A statement turned to the second person: "I" → "you", "my" → "your", "I'm" → "you're"…
    static func reflect(_ statement: String) -> String {
        let words = statement.split(separator: " ").map { word -> String in
            let text = String(word)
            let core = text.trimmingCharacters(in: .punctuationCharacters)
            let key = core.lowercased().replacingOccurrences(of: "\u{2019}", with: "'")
            guard !core.isEmpty, let replacement = pronouns[key], let range = text.range(of: core) else { return text }
            return text.replacingCharacters(in: range, with: replacement)
        }
        var text = words.joined(separator: " ")
        let firstWord = words.first ?? ""
        let isAcronym = firstWord.count > 1 && firstWord == firstWord.uppercased()
        if let first = text.first, !isAcronym {
            text = first.lowercased() + text.dropFirst()
        }
        return text
    }

    private static let pronouns: [String: String] = [
        "i": "you", "me": "you", "my": "your", "mine": "yours", "myself": "yourself",
        "i'm": "you're", "im": "you're", "i've": "you've", "i'll": "you'll", "i'd": "you'd",
        "am": "are", "we": "you", "our": "your", "us": "you",
    ]
}
