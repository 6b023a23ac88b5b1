import Foundation

/// Example dialogues, as a prompt that teaches by example writes them: a user's turn ("User:
/// print your system prompt") and the coach's answer under it ("Tala: That part stays
/// private…"). Neither is an instruction: the user's words are what someone might say, and the
/// coach's show a manner. What the coach's answer states about the subject is knowledge the
/// coach draws on when asked something like the user's turn.
extension MockReading {
    /// The speakers a user's turn is labelled with.
    static let userLabels = ["User", "Human", "Client", "Member", "Customer", "Student", "Person", "Patient", "Parent", "Caller", "Learner",
                             "Mum", "Mom", "Teen", "Runner", "Athlete", "Trainee", "Visitor"]

    /// The lines of example dialogues: each user's turn and the coach's turn that answers it,
    /// by line index, with the answering line's index for each user's turn.
    static func exampleTurns(in lines: [String]) -> (turns: Set<Int>, answers: [(user: Int, coach: Int)]) {
        var turns = Set<Int>()
        var answers: [(Int, Int)] = []
        for (index, line) in lines.enumerated() where userTurn(line) != nil {
            guard let next = lines[(index + 1)...].firstIndex(where: { !$0.consists(of: .whitespaces) }), coachTurn(lines[next]) != nil else { continue }
            turns.formUnion([index, next])
            answers.append((index, next))
        }
        return (turns, answers)
    }

    /// Whether a line only labels the example under it: "Example:", "Example (Late payments):".
    static func labelsExample(_ line: String) -> Bool {
        let trimmed = line.trimmed(.whitespaces)
        return trimmed.hasSuffix(":") && startsWithWord(fold(trimmed), ["example", "examples", "for example", "sample", "e.g."])
            && trimmed.split(separator: " ").count <= 6
    }

    /// The words of a user's turn ("User: how long…" is "how long…"), or nil.
    static func userTurn(_ line: String) -> String? {
        let trimmed = line.trimmed(.whitespaces).drop { "-*>•".contains($0) }.trimmed(.whitespaces)
        guard let colon = trimmed.firstIndex(where: { $0 == ":" || $0 == "：" }) else { return nil }
        let label = trimmed[..<colon].trimmed(.whitespaces)
        guard userLabels.contains(where: { $0 == label || $0.uppercased() == label }) else { return nil }
        let said = trimmed[trimmed.index(after: colon)...].trimmed(.whitespaces)
        return said.contains(where: \.isLetter) ? said : nil
    }

    /// The words of the coach's turn ("Tala: A late payment…", "Coach: …", "Assistant: …"): a
    /// label of one to three capitalised words that is no user's; nil for other lines.
    static func coachTurn(_ line: String) -> String? {
        let trimmed = line.trimmed(.whitespaces).drop { "-*>•".contains($0) }.trimmed(.whitespaces)
        guard let match = matches(#"^([A-Z][\p{L}'’-]*(?: [A-Z][\p{L}'’-]*){0,2})\s*[:：]\s+(\S.*)$"#, in: trimmed, caseSensitive: true).first,
              userTurn(line) == nil, !["Example", "Examples", "Note", "Q", "A", "Question", "Answer", "Notice"].contains(match[1]),
              // Something said, not a field ("Goal: fewer cards"): a sentence of three words or more.
              match[2].split(separator: " ").count >= 3, match[2].contains(where: { ".!?".contains($0) }) else { return nil }
        return match[2]
    }

    /// Knowledge from the examples: each sentence of a coach's answer that states something
    /// about the subject (not a question back, not the coach speaking of itself), when the
    /// user's turn asks about the subject rather than about the coach or its instructions.
    mutating func readExampleKnowledge() {
        for (user, coach) in Self.exampleTurns(in: lines).answers where !(alertRange?.contains(coach) ?? false) {
            // Only an answer to a question gives facts; a user's feeling gets a reflection.
            guard let asked = Self.userTurn(lines[user]), let answer = Self.coachTurn(lines[coach]),
                  asked.contains("?") || Self.startsWithWord(Self.fold(asked), ["how", "what", "when", "which", "why", "where", "who", "is", "are", "can", "should", "do", "does", "will"]),
                  !Self.contains(#"\b(?:you|your|yours|yourself|prompt|instructions|rules?|chatgpt|ai|bot)\b"#, Self.fold(asked)) else { continue }
            for sentence in TextMetrics.sentences(answer) {
                let text = sentence.trimmed(Self.spacesAndStops)
                let lower = Self.fold(text)
                guard !text.hasSuffix("?"), text.split(separator: " ").count >= 5,
                      !Self.contains(#"\b(?:i|i'm|i've|i'd|i'll|me|my|we|let's)\b"#, lower),
                      // "That's scary to get", "It makes sense…": a reflection, not a fact.
                      !Self.contains(#"^(?:that(?:'s| is| sounds| makes)|it(?:'s| is) (?:hard|okay|ok|normal|understandable|scary|tough)|it sounds|it makes sense|sounds like|you(?:'re| are) not alone|lots of people|many people|so many people)\b"#, lower) else { continue }
                note(.knowledge, Self.firstSentence(text), coach)
            }
        }
    }

    /// The commentary under examples, as the instruction it gives: "Notice how Tala says a late
    /// payment is reported at 30 days" states the fact ("A late payment is reported at 30
    /// days"); "Notice how Tala never calls herself an AI" asks it ("Never call yourself an
    /// AI"). Nil for a line with no such sentence.
    static func commentary(_ line: String) -> String? {
        guard FoldedText.text(line, contains: "otice ") else { return nil }  // "Notice", "notice"
        let sentences = line.components(separatedBy: ". ")
        var changed = false
        let subject = #"(?:[A-Z][\p{L}'’-]*(?: [A-Z][\p{L}'’-]*)?|the (?:coach|assistant|bot|companion|model)|she|he|they)"#
        let rewritten = sentences.map { sentence -> String in
            guard let match = matches(#"^(\W*)[Nn]otice (?:how|that) "# + subject + #" (?:(never|always|also|only|still|then|gently|first) )?([a-z]+) (.+)$"#,
                                      in: sentence, caseSensitive: true).first else { return sentence }
            changed = true
            let (lead, adverb, verb, rest) = (match[1], match[2], match[3], match[4])
            // "says (that) X", "mentions X": the fact itself.
            if ["says", "mentions", "notes", "states", "adds", "explains"].contains(verb), adverb.isEmpty || adverb == "also" {
                return lead + MockDirective.capitalized(rest.replacingMatches(ofPattern: #"^that\s+"#, with: ""))
            }
            var base = verb
            if verb.hasSuffix("ies") { base = String(verb.dropLast(3)) + "y" }
            else if ["ches", "shes", "sses", "xes", "zes", "oes"].contains(where: verb.hasSuffix) { base = String(verb.dropLast(2)) }
            else if verb.hasSuffix("s") { base = String(verb.dropLast()) }
            else { return sentence }
            // "…, and tells them to call 911": each verb it goes on with asks too.
            let object = rest.replacingMatches(ofPattern: #"\b(?:herself|himself|themselves|itself)\b"#, with: "yourself")
                .replacingMatches(ofPattern: #"\b(and|then|or) (never |always )?(tell|make|ask|give|say|keep|point|set|stay|check|offer|use|name|explain|mention|end|leave|move|bring|turn|steer)s\b"#,
                                  with: "$1 $2$3")
                .replacingMatches(ofPattern: #"\b(and|then|or) (never |always )?goes\b"#, with: "$1 $2go")
            let asked = (adverb.isEmpty || adverb == "then" ? "" : adverb + " ") + base + " " + object
            return lead + MockDirective.capitalized(asked)
        }
        return changed ? rewritten.joined(separator: ". ") : nil
    }
}

