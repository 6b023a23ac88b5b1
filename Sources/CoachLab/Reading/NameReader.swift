import Foundation

/// The persona's name: the names lines give, and the line that introduces the persona.
extension MockReading {
    /// The persona's name from a bare "Name: X" line, when no line names it otherwise and the
    /// line's section is not about the user ("Who you're helping", "User profile").
    func bareName(in read: [(index: Int, text: String)]) -> (name: String, index: Int)? {
        for (index, text) in read where !headers[index] {
            let title = headers[..<index].lastIndex(of: true).map { Self.fold(lines[$0]) } ?? ""
            // "Bo — strength coach for people over sixty." or "Moss · quit-smoking coach · wry"
            // opening a section about the persona.
            if Self.contains(#"^\W*(?:you|yourself|identity|persona|who you are|about you|character|the coach|coach|role|bio|biography)\W*$"#, title),
               let match = Self.matches(#"^([A-Z][\p{L}'’-]*(?: [A-Z][\p{L}'’-]*)?)(?:\s+[—–\-·•|/]\s+|\.\s+| is (?:a|an|your|the)\s)\S"#, in: text, caseSensitive: true).first,
               !Self.notNames.contains(match[1]) {
                return (match[1], index)
            }
            guard text.utf8.contains(UInt8(ascii: ":")), let match = Self.matches(#"^\W*(?:name|persona|who)\s*:\s*([A-Z][\p{L}'’-]*)\b"#, in: text).first,
                  match[1].first?.isUppercase == true else { continue }
            if Self.contains(#"\b(?:user|client|profile|member|patient|helping|customer|student|child|parent|family|them|they)\b"#, title) { continue }
            return (match[1], index)
        }
        return nil
    }

    /// The persona's name when nothing names it in words a reader knows: a capitalised word set
    /// right beside the coach's role, in the first lines of the prompt ("Wren, sleep coach for
    /// night-shift workers", "Cass (running coach)", "Moss is your quit-smoking coach").
    func nameBesideRole(in read: [(index: Int, text: String)]) -> (name: String, index: Int)? {
        let role = #"(?:coach|companion|mentor|guide|buddy|assistant|helper|tutor|trainer|adviser|advisor|counsel+or|therapist|friend|cheerleader|sidekick)"#
        for (index, text) in read.prefix(12) where !headers[index] {
            for match in Self.matches(#"(?:^|[^\p{L}'’-])([A-Z][\p{Ll}'’-]{1,20})(?:\s*[,:(—–·|/]\s*|\s+-\s+|\s+(?:is|the|your|our|as)\s+)(?:(?:a|an|the|your|our)\s+)?(?:[\p{L}-]+\s+){0,4}?"# + role + #"\b"#, in: text, caseSensitive: true)
            where !Self.notNames.contains(match[1]) && !Self.sentenceWords.contains(match[1]) && !Self.isContraction(match[1]) && !Self.contains("^" + role + "$", match[1]) {
                return (match[1], index)
            }
        }
        return nil
    }

    /// The persona's name as the prompt's own title: "# Sage" opening the prompt, over a line
    /// that gives a coach's role ("_sleep coach for parents of toddlers_").
    func titledName() -> (name: String, index: Int)? {
        guard let first = lines.firstIndex(where: { !$0.consists(of: .whitespaces) }), headers[first],
              let match = Self.matches(#"^\W*([A-Z][\p{Ll}'’-]{1,20})\W*$"#, in: lines[first], caseSensitive: true).first,
              !Self.notNames.contains(match[1]), !Self.sentenceWords.contains(match[1]),
              let next = lines[(first + 1)...].first(where: { !$0.consists(of: .whitespaces) }),
              Self.contains(#"\b(?:coach|companion|mentor|guide|buddy|assistant|helper|tutor|trainer|adviser|advisor|counsel+or|friend)\b"#, Self.fold(next))
        else { return nil }
        return (match[1], first)
    }

    /// Whether a capitalised word is a contraction ("You're", "I'm", "We've"), never a name;
    /// "O'Brien" is one.
    static func isContraction(_ word: String) -> Bool {
        contains(#"['’](?:re|ve|ll|d|m|s|t)$"#, word)
    }

    /// Capitalised words that open sentences and titles rather than name anyone.
    static let sentenceWords: Set<String> = ["You", "Your", "Yours", "We", "Our", "They", "Their", "He", "She", "It", "This", "That", "These",
                                             "Those", "There", "Here", "Hi", "Hey", "Hello", "Dear", "Be", "Act", "Play", "Meet", "Introducing",
                                             "Role", "Name", "Persona", "Identity", "Who", "Tone", "Voice", "Style", "Manner", "As", "If", "When",
                                             "Always", "Never", "Note", "Rules", "Rule", "Please", "Welcome", "Today", "Now", "Each", "Every", "Some"]

    /// Capitalised words that follow "reply as" or "write as" without naming anyone.
    static let notNames: Set<String> = ["JSON", "YAML", "XML", "HTML", "CSV", "Markdown", "Plain", "English", "Spanish", "French",
                                        "German", "A", "An", "The", "AI", "A.I", "Bot", "Chatbot", "Human"]
}
