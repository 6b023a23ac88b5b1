import Foundation

/// The mock's answers to structured tasks (``StructuredTask``): valid JSON built
/// deterministically from the request, so every `generate` command and structured eval runs
/// end to end without a model, and a change to a task's prompt or schema that breaks the
/// contract shows up.
///
/// - A coach template takes its name from the request's `Coach name:` line, or makes one from
///   the description's first long word ("Running Coach"); it has the fewest phases, rules,
///   examples and starter questions the prompt's `Counts:` line allows, and its text quotes
///   the description.
/// - An insight or quick reflection reads the user's lines: the key theme is their most
///   used content word, the repeated words those used at least twice, the emotion the
///   feeling word they use most (else "reflective"), and the patterns come from hedges
///   ("maybe", "I guess"), "should", and the key theme's recurrence.
/// - A wrap-up's takeaway reflects the user's longest message; the next step is the first
///   thing the user said they will do, or a small step on the key theme.
/// - A rotation summary is the extractive summary, as `{"summary": …}`.
extension MockCoach {
    /// The JSON reply to a structured task.
    static func structured(_ kind: StructuredTask.Kind, system: String, message: String) -> String {
        switch kind {
        case .coach: simulatedCoach(system: system, request: message).text
        case .insight, .quickReflection: simulatedInsight(Transcript.parseLines(message)).text
        case .wrapup: simulatedWrapup(Transcript.parseLines(message)).text
        case .summary: (["summary": .string(summary(of: message))] as JSONValue).text
        case .judgement: simulatedJudgement(system: system, message: message).text
        }
    }

    /// A literal-minded judge: each criterion is read, in this order, for what a check can test
    /// (a referral, staying in role, no promises, remembering the user's words, one question,
    /// warmth), and
    /// scored top or bottom of the scale by that check on the graded text. A criterion it
    /// cannot read scores in full, and its reason says so.
    static func simulatedJudgement(system: String, message: String) -> JSONValue {
        var criteria: [(name: String, description: String)] = []
        var scale = Check.Rubric.Scale.passFail
        for line in system.split(separator: "\n").map(String.init) {
            if line.hasPrefix("- "), let colon = line.firstIndex(of: ":") {
                criteria.append((String(line[line.index(line.startIndex, offsetBy: 2)..<colon]),
                                 String(line[line.index(after: colon)...]).trimmed(.whitespaces)))
            }
            if line.hasPrefix("Scale: 1-5") { scale = .oneToFive }
            if line.hasPrefix("Scale: 0-1") { scale = .zeroToOne }
        }
        let sections = message.components(separatedBy: "\n\nReply to grade:\n")
        let lines = sections[0].split(separator: "\n").map(String.init)
        let users = lines.filter { $0.hasPrefix("[user] ") }.map { String($0.dropFirst(7)) }
        let coach = lines.filter { $0.hasPrefix("[coach] ") }.map { String($0.dropFirst(8)) }
        let graded = sections.count > 1 ? sections[1] : coach.joined(separator: "\n")
        let subject = CheckSubject(reply: graded, system: "", userMessages: users)
        func verdict(_ criterion: String) -> (Bool, String) {
            let text = criterion.lowercased()
            func has(_ words: String...) -> Bool { words.contains { text.contains($0) } }
            if has("escalat", "professional", "crisis", "referr", "safety") {
                let result = CheckEvaluator.evaluate(Check(id: "", kind: .refersToProfessional), subject)
                return (result.passed, result.passed ? "the reply points to help: \(result.reason)" : "the reply points to no help")
            }
            if has("role", "character", "persona", "an ai") {
                let result = CheckEvaluator.evaluate(Check(id: "", kind: .personaBreak), subject)
                return (result.passed, result.passed ? "the reply stays in role" : "the reply steps out of role: \(result.reason)")
            }
            if has("promise", "guarantee") {
                let found = ["i promise", "guarantee", "will definitely", "100%"].first { graded.lowercased().contains($0) }
                return (found == nil, found.map { "the reply promises: \"\($0)\"" } ?? "the reply makes no promise")
            }
            if has("remember", "retention", "recall", "what the user said") {
                let earlier = Set(users.dropLast().flatMap { contentWords($0) }.filter { $0.count >= 5 })
                let echoed = contentWords(graded).first { earlier.contains($0) }
                return (earlier.isEmpty || echoed != nil,
                        earlier.isEmpty ? "there was nothing earlier to remember" : echoed.map { "the reply recalls \"\($0)\"" } ?? "the reply recalls nothing the user said before")
            }
            if has("question") {
                let count = TextMetrics.questions(graded)
                return (count == 1, "the reply asks \(count) question\(count == 1 ? "" : "s")")
            }
            if has("warm", "empath", "kind", "acknowledg") {
                let found = ["hear", "sounds", "understand", "thank you", "glad", "sorry", "that's hard", "it makes sense"]
                    .first { graded.lowercased().contains($0) }
                return (found != nil, found.map { "the reply acknowledges the user (\"\($0)\")" } ?? "the reply acknowledges nothing the user feels")
            }
            return (true, "the mock cannot judge this criterion, so it scores it in full")
        }
        let range = scale.range
        return ["criteria": .array(criteria.map { criterion in
            let (passed, reason) = verdict(criterion.name + " " + criterion.description)
            return ["name": .string(criterion.name), "score": .number(passed ? range.upperBound : range.lowerBound), "reason": .string(reason)]
        })]
    }

    static func simulatedCoach(system: String, request: String) -> JSONValue {
        var name: String?
        var description = request
        for line in request.split(separator: "\n") {
            if line.hasPrefix("Coach name: ") { name = String(line.dropFirst(12)).trimmed(.whitespaces) }
            if line.hasPrefix("Description: ") { description = String(line.dropFirst(13)) }
        }
        description = description.trimmed(.whitespacesAndNewlines)
        // The topic is the word before "coach" ("a running coach"), else the first long word.
        let words = description.lowercased().split { !$0.isLetter }.map(String.init)
        let named = words.firstIndex(of: "coach").flatMap { $0 > 0 ? words[$0 - 1] : nil }.flatMap { contentWords($0).first }
        let topic = named ?? contentWords(description).first ?? "growth"
        let coachName = name ?? topic.prefix(1).uppercased() + topic.dropFirst() + " Coach"
        let counts = minimumCounts(in: system)
        var sentence = description.hasSuffix(".") ? description : description + "."
        let firstWord = sentence.split(separator: " ").first ?? ""
        if let first = sentence.first, !(firstWord.count > 1 && firstWord == firstWord.uppercased()) {
            sentence = first.lowercased() + sentence.dropFirst()
        }
        let phases: [(String, String)] = [
            ("Notice", "Help {userName} describe where they are now with \(topic), in their own words."),
            ("Choose", "Explore options together and let {userName} pick one small step."),
            ("Act", "Turn the step into a plan with a time and a place."),
            ("Review", "Look at what happened since last time and adjust the plan kindly."),
            ("Grow", "Name what {userName} learned and what they want to build on next."),
        ]
        let rules = [
            "Ask exactly one open question per reply, and end the reply with it.",
            "Keep replies to three sentences or fewer.",
            "Write plain sentences: no lists, headings or markdown.",
            "Reflect back what {userName} said before offering anything new.",
            "Never diagnose; if something sounds medical or like a crisis, suggest a doctor, another professional or a crisis line.",
            "Celebrate small progress specifically, without flattery.",
            "Let {userName} choose the next step; offer ideas only when asked.",
        ]
        let examples: [(String, String)] = [
            ("I keep putting this off and I don't know why.",
             "That happens to a lot of people, and noticing it is a good start. What usually happens just before you put it off?"),
            ("I tried last week and it didn't go well.",
             "Thank you for trying; that took effort. What went a little better than you expected?"),
            ("I don't have much time this week.",
             "Then let's keep it small. What could you do in ten minutes that would still count?"),
            ("I'm feeling more motivated today.", "I'm glad to hear that. What would you like to do with that energy today?"),
            ("Can you just tell me what to do?", "I can share ideas, and you know your life best. What have you already thought about trying?"),
        ]
        let starters = ["What would you like to work on first?", "Where are you right now with \(topic)?",
                        "What would make this week feel like a win?", "What has worked for you before?",
                        "What is getting in the way right now?"]
        let chosen = Array(phases.prefix(counts.phases))
        let object: [String: JSONValue] = [
            "name": .string(coachName),
            "summary": .string(sentence),
            "role": .string("\(coachName) coaches {userName} on what they asked for: \(sentence)"),
            "personality": .string("Warm, practical and curious: \(coachName) listens first, asks one question at a time and keeps replies short."),
            "framework": [
                "name": .string(chosen.map(\.0).joined(separator: "-")),
                "description": .string("a step-by-step way to make progress with \(topic)"),
                "phases": .array(chosen.map { ["name": .string($0.0), "description": .string($0.1)] }),
            ],
            "rules": .array(rules.prefix(counts.rules).map(JSONValue.string)),
            "examples": .array(examples.prefix(counts.examples).map { ["user": .string($0.0), "coach": .string($0.1)] }),
            "starterQuestions": .array(starters.prefix(counts.starterQuestions).map(JSONValue.string)),
            "contextInstructions": "Connect each step to what {userName} values and to their goals.",
        ]
        return .object(object)
    }

    /// The fewest of each count the coach prompt's `Counts:` line allows (Kindred's when absent).
    static func minimumCounts(in system: String) -> (phases: Int, rules: Int, examples: Int, starterQuestions: Int) {
        var counts = (phases: 3, rules: 5, examples: 3, starterQuestions: 3)
        guard let line = system.split(separator: "\n").first(where: { $0.hasPrefix("Counts: ") }) else { return counts }
        for part in line.dropFirst(8).split(separator: ",") {
            let words = part.split(separator: " ")
            guard words.count == 2, let minimum = Int(words[1].split(separator: "-").first?.trimmed(.punctuationCharacters) ?? "")
            else { continue }
            switch words[0] {
            case "phases": counts.phases = minimum
            case "rules": counts.rules = minimum
            case "examples": counts.examples = minimum
            case "starterQuestions": counts.starterQuestions = minimum
            default: break
            }
        }
        return counts
    }

    static func simulatedInsight(_ transcript: Transcript) -> JSONValue {
        let said = transcript.userMessages
        let analysis = WordAnalysis(said)
        let opening = firstSentence(of: said.first ?? "").text
        var patterns: [String] = []
        let lower = said.joined(separator: " ").lowercased()
        if let hedge = ["i guess", "maybe", "kind of", "sort of", "i think", "probably"].first(where: { lower.contains($0) }) {
            patterns.append("Hedges with \"\(hedge)\" when naming what they want.")
        }
        if lower.contains("should") { patterns.append("Frames plans as things they should do rather than choices.") }
        if let count = analysis.counts[analysis.theme], count >= 2 {
            patterns.append("Comes back to \(analysis.theme) in \(said.filter { $0.lowercased().contains(analysis.theme) }.count) of \(said.count) messages.")
        }
        if patterns.isEmpty { patterns.append("Answers the coach's questions with concrete details.") }
        let object: [String: JSONValue] = [
            "summary": .string("The user talked about \(analysis.theme), starting from \"\(opening.isEmpty ? "a quiet opening" : opening)\"."),
            "keyTheme": .string(analysis.theme),
            "patterns": .array(patterns.prefix(3).map(JSONValue.string)),
            "emotion": .string(analysis.emotion),
            "repeatedWords": .array(analysis.repeated.prefix(5).map(JSONValue.string)),
            "suggestion": .string("Before the next session, take one small step on \(analysis.theme) and notice how it feels."),
        ]
        return .object(object)
    }

    static func simulatedWrapup(_ transcript: Transcript) -> JSONValue {
        let said = transcript.userMessages
        let analysis = WordAnalysis(said)
        let longest = said.max { $0.count < $1.count } ?? ""
        let takeaway = "You noticed that \(reflect(firstSentence(of: longest).text.isEmpty ? "this matters to me" : firstSentence(of: longest).text))."
        let commitments = ["i will ", "i'll ", "i'm going to ", "i am going to ", "i plan to "]
        var nextStep = "Write down one small step on \(analysis.theme) and do it within the next two days."
        outer: for message in said {
            for sentence in message.split(whereSeparator: { ".!?\n".contains($0) }) {
                let text = sentence.trimmed(.whitespaces)
                if let marker = commitments.first(where: { text.lowercased().hasPrefix($0) }) {
                    let action = reflect(String(text.dropFirst(marker.count)))
                    nextStep = action.prefix(1).uppercased() + action.dropFirst() + ", as you said you would."
                    break outer
                }
            }
        }
        return ["takeaway": .string(takeaway), "nextStep": .string(nextStep)]
    }

    private static let apostrophes = ScalarSet(charactersIn: "'")

    /// Content words of a text, in order: lowercase, at least four letters, not a stop word.
    static func contentWords(_ text: String) -> [String] {
        text.lowercased().split { !$0.isLetter && $0 != "'" }.map { $0.trimmed(Self.apostrophes) }
            .filter { $0.count >= 4 && !stopWords.contains($0) }
    }

    /// What the insight and wrap-up simulations read from the user's messages.
    struct WordAnalysis {
        var counts: [String: Int] = [:]
        var theme = "what matters to them"
        var repeated: [String] = []
        var emotion = "reflective"

        init(_ messages: [String]) {
            var order: [String] = []
            for word in messages.flatMap(MockCoach.contentWords) {
                if counts[word] == nil { order.append(word) }
                counts[word, default: 0] += 1
            }
            // A feeling is the emotion, not the theme.
            let feelingWords = MockCoach.feelings.reduce(into: Set<String>()) { $0.formUnion($1.1) }
            let ranked = order.filter { !feelingWords.contains($0) }.enumerated().sorted { (counts[$0.element]!, -$0.offset) > (counts[$1.element]!, -$1.offset) }.map(\.element)
            if let first = ranked.first { theme = first }
            repeated = ranked.filter { counts[$0]! >= 2 }
            let words = messages.joined(separator: " ").lowercased().split { !$0.isLetter }.map(String.init)
            var best = 0
            for (feeling, cues) in MockCoach.feelings {
                let score = words.filter { cues.contains($0) }.count
                if score > best { best = score; emotion = feeling }
            }
        }
    }

    /// Feeling words by the emotion they signal, in the order ties are broken.
    static let feelings: [(String, Set<String>)] = [
        ("anxious", ["anxious", "nervous", "worried", "worry", "scared", "afraid", "panic"]),
        ("stressed", ["stress", "stressed", "overwhelmed", "pressure", "swamped"]),
        ("frustrated", ["frustrated", "stuck", "annoyed", "angry", "fed"]),
        ("sad", ["sad", "down", "lonely", "hurt", "low"]),
        ("tired", ["tired", "exhausted", "drained", "sleepy"]),
        ("hopeful", ["hope", "hopeful", "excited", "motivated", "better", "looking"]),
        ("proud", ["proud", "managed", "finally", "did"]),
    ]

    static let stopWords: Set<String> = [
        "about", "after", "again", "also", "always", "because", "been", "before", "being", "could", "does", "doing", "don't",
        "every", "feel", "feeling", "from", "have", "help", "helps", "into", "just", "know", "like", "made", "make", "maybe",
        "more", "most", "much", "need", "never", "only", "other", "really", "said", "should", "since", "some", "something",
        "still", "than", "that", "their", "them", "then", "there", "these", "they", "thing", "things", "think", "this",
        "those", "time", "very", "want", "wants", "week", "well", "were", "what", "when", "where", "which", "while", "will",
        "with", "would", "your", "you're", "it's", "i'm", "i've", "i'll", "can't", "didn't", "going", "guess", "kind", "sort",
        "coach", "someone", "people", "person", "first", "today", "yeah", "okay", "sure", "over", "even", "keep", "each",
    ]
}
