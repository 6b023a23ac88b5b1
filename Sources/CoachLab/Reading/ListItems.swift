import Foundation

/// List items in every mark a pack uses, and questions paired with their answers.
extension MockReading {
    // MARK: - Text helpers

    /// The marks a pack may open a bulleted line with: "- x", "* x", "• x", "~ x", "+ x",
    /// "– x", "▪ x", "→ x"…
    static let bulletMarks: Set<Character> = ["-", "*", "•", "~", "+", ">", "–", "—", "▪", "▸", "◦", "‣", "→", "·", "●", "○", "■", "□", "✓", "✔"]

    /// The text after a bullet mark, once or twice ("> x", ">> x" for a sub-item), and a space,
    /// or nil for a line that is not bulleted.
    static func bulleted(_ trimmed: String) -> String? {
        // A run of dots as a leader: "..... Answer the feeling behind the question".
        if trimmed.hasPrefix("..") {
            let rest = trimmed.drop { $0 == "." }
            return rest.first == " " && rest.contains(where: \.isLetter) ? String(rest.dropFirst()) : nil
        }
        guard let mark = trimmed.first, bulletMarks.contains(mark) || isPictograph(mark) else { return nil }
        var rest = trimmed.dropFirst()
        if rest.first == mark { rest = rest.dropFirst() }
        guard rest.first == " " else { return nil }
        return String(rest.dropFirst())
    }

    /// The text of an item marked with a cross ("❌ Markdown, bullet lists or headings", "🚫 …",
    /// "✗ …"), as a checklist marks what not to do; nil for other lines.
    static func crossedItem(_ line: String) -> String? {
        let trimmed = line.trimmed(.whitespaces)
        guard let mark = trimmed.unicodeScalars.first, crosses.contains(mark) else { return nil }
        let rest = trimmed.unicodeScalars.drop { crosses.contains($0) || $0 == "\u{FE0F}" || $0 == " " }
        let text = String(String.UnicodeScalarView(rest))
        return text.contains(where: \.isLetter) ? text : nil
    }

    /// The marks of a crossed item.
    static let crosses: Set<Unicode.Scalar> = ["❌", "✗", "✘", "🚫", "⛔", "✖", "❎", "🙅"]

    /// Whether a character is a pictograph or a symbol a pack may open an item with in place of
    /// a bullet ("💡 A craving passes in five minutes", "👉 Call 999", "✂️ Three sentences").
    /// Digits, "#" and "*" are emoji too, by Unicode's reckoning, but not marks.
    static func isPictograph(_ character: Character) -> Bool {
        guard let scalar = character.unicodeScalars.first, !scalar.isASCII else { return false }
        switch scalar.properties.generalCategory {
        case .otherSymbol, .mathSymbol: return true
        default: return scalar.properties.isEmojiPresentation
        }
    }

    /// The text of a list item ("- x", "* x", "• x", "1. x", "2) x", "Step 3: x"), or nil for other lines.
    static func listItem(_ line: String) -> String? {
        let trimmed = line.trimmed(.whitespaces)
        // A list inside a block quote ("> - Tell them…") is the inner list's item.
        if let text = bulleted(trimmed) { return trimmed.hasPrefix(">") ? listItem(text) ?? text : checkboxed(text) ?? text }
        // A checklist's item: "[x] Use short sentences", "[ ] Tell them to call 999".
        if let text = checkboxed(trimmed) { return text }
        // A string in a JSON list: "\"give the Samaritans number, 116 123\",".
        if trimmed.hasPrefix("\""), let match = matches(#"^"([^"]*[A-Za-z][^"]*)",?$"#, in: trimmed).first { return match[1] }
        // An answer in a prompt written as questions and answers ("A: Call 999 first").
        if let answer = faqAnswer(trimmed) { return answer }
        // A call with a text, as a prompt written as code adds an item: "knowledge.add(\"…\")".
        if trimmed.hasSuffix(")") || trimmed.hasSuffix(");"), FoldedText.text(trimmed, contains: "(\""),
           let match = matches(#"^[A-Za-z_][\w.]*\(\s*"([^"]*[A-Za-z][^"]*)"\s*\);?$"#, in: trimmed).first {
            return match[1]
        }
        // A direction set in parentheses, as a script sets them: "(Tell them to call 999)", or
        // an item after a label in parentheses: "(prop) Batch cooking saves money".
        if trimmed.hasPrefix("(") {
            if trimmed.hasSuffix(")"), !trimmed.dropFirst().dropLast().contains(where: { $0 == "(" || $0 == ")" }),
               trimmed.split(separator: " ").count >= 3 {
                return String(trimmed.dropFirst().dropLast()).trimmed(.whitespaces)
            }
            if let match = matches(#"^\(([\p{L}]{1,12})\)\s+(\S.*)$"#, in: trimmed).first { return match[2] }
        }
        // An item set in a tag of its own: "<item>Ask open questions</item>", "<step>…</step>".
        if let text = taggedItem(trimmed) { return text }
        // A labelled item: "R4. Replies must…", "K. List priority debts first", "Q2) …", "a) …".
        if let text = labelledItem(trimmed) { return text }
        if trimmed.utf8.count > 3, let first = trimmed.utf8.first, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first),
           trimmed.utf8.dropFirst().starts(with: ") ".utf8) {
            return String(trimmed.dropFirst(3)).trimmed(.whitespaces)
        }
        // "Step 2: Say that…", "Step 2. Say that…".
        let unstepped = trimmed.hasPrefix("Step ") || trimmed.hasPrefix("STEP ") ? trimmed.dropFirst(5) : Substring(trimmed)
        let digits = unstepped.prefix { $0.isASCII && $0.isNumber }
        let rest = unstepped.dropFirst(digits.count)
        let stepped = unstepped.count < trimmed.count && rest.hasPrefix(": ")
        guard !digits.isEmpty, digits.count <= 2, rest.hasPrefix(". ") || rest.hasPrefix(") ") || stepped else { return nil }
        return String(rest.dropFirst(2)).trimmed(.whitespaces)
    }

    /// The text after a checkbox ("[x] ", "[ ] ", "[X] ", "[✓] "), or nil for other lines.
    static func checkboxed(_ trimmed: String) -> String? {
        guard trimmed.hasPrefix("["), let close = trimmed.firstIndex(of: "]"), trimmed.distance(from: trimmed.startIndex, to: close) == 2,
              [" ", "x", "X", "✓", "✔", "-"].contains(trimmed[trimmed.index(after: trimmed.startIndex)]) else { return nil }
        let rest = trimmed[trimmed.index(after: close)...]
        guard rest.first == " " else { return nil }
        return String(rest.dropFirst()).trimmed(.whitespaces)
    }

    /// The text after an item label of one or two capitals and up to three digits, or one
    /// capital alone, then "." or ")" ("R4. Replies must…", "K. Testing beats rereading",
    /// "T2) Give the number"), as a numbered list of requirements labels its items; nil for
    /// other lines.
    static func labelledItem(_ trimmed: String) -> String? {
        let utf8 = trimmed.utf8
        guard let first = utf8.first, first >= UInt8(ascii: "A"), first <= UInt8(ascii: "Z") else { return nil }
        let letters = utf8.prefix { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }.count
        let digits = utf8.dropFirst(letters).prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }.count
        guard letters == 1 || (letters == 2 && digits > 0), digits <= 3 else { return nil }
        let rest = utf8.dropFirst(letters + digits)
        guard rest.count > 2, rest.first == UInt8(ascii: ".") || rest.first == UInt8(ascii: ")"), rest.dropFirst().first == UInt8(ascii: " ") else { return nil }
        let text = String(Substring(rest.dropFirst(2))).trimmed(.whitespaces)
        return text.first?.isLetter == true ? text : nil
    }

    /// The text of an answer line in a prompt written as questions and answers ("A: Two
    /// sentences", "Answer: No markdown"), or nil for other lines.
    static func faqAnswer(_ trimmed: String) -> String? {
        guard trimmed.hasPrefix("A:") || trimmed.hasPrefix("Answer:") || trimmed.hasPrefix("ANSWER:") else { return nil }
        return String(trimmed.drop { $0 != ":" }.dropFirst()).trimmed(.whitespaces)
    }

    /// Whether a line is a question of a prompt written as questions and answers: "Q: How long
    /// should replies be?" with its answer on the next line.
    static func faqQuestion(_ lines: [String], at index: Int) -> String? {
        let trimmed = lines[index].trimmed(.whitespaces)
        guard trimmed.hasPrefix("Q:") || trimmed.hasPrefix("Question:") || trimmed.hasPrefix("QUESTION:"),
              let next = lines[(index + 1)...].first(where: { !$0.consists(of: .whitespaces) }),
              faqAnswer(next.trimmed(.whitespaces)) != nil else { return nil }
        return String(trimmed.drop { $0 != ":" }.dropFirst()).trimmed(.whitespaces)
    }

    /// What comes off a sentence's ends as the mock reads it.
    static let spacesAndStops = ScalarSet(charactersIn: " .")

    static let spacesAndQuestionMarks = ScalarSet(charactersIn: "? ")

    /// A line as read: an answer read with the question it answers ("How should a reply end" +
    /// "With a question" reads as "How should a reply end with a question"), so the question
    /// gives the answer the subject it leaves out.
    static func withQuestion(_ text: String, _ lines: [String], at index: Int) -> String {
        let trimmed = text.trimmed(.whitespaces)
        guard let answer = faqAnswer(trimmed) else { return text }
        guard let previous = lines[..<index].lastIndex(where: { !$0.consists(of: .whitespaces) }),
              let question = faqQuestion(lines, at: previous) else { return answer }
        return question.trimmed(Self.spacesAndQuestionMarks) + " " + answer
    }

    /// A question-and-answer card as the instruction it gives: "Q: Which numbers do I give? A:
    /// The Childhelp hotline, 1-800-422-4453" is "Give the Childhelp hotline, 1-800-422-4453";
    /// "Q: Do I give study tips in this reply? A: No. Do not give study tips…" is "Do not give
    /// study tips…". The answer alone when it is already an instruction or the question asks
    /// for no act. `question` is the card's question when it stands on the line above; nil for
    /// a line that is no answer.
    static func faqInstruction(_ line: String, question: String? = nil) -> String? {
        let trimmed = line.trimmed(.whitespaces)
        var asked = question, answer: String
        if let match = matches(#"^\W*(?:Q|Question|QUESTION)\s*[:.]\s*(.+?\?)\s*(?:A|Answer|ANSWER)\s*[:.]\s*(.+)$"#, in: trimmed, caseSensitive: true).first {
            (asked, answer) = (match[1], match[2])
        } else if question != nil, let text = faqAnswer(trimmed) {
            answer = text
        } else {
            return nil
        }
        // "No. Do not give…", "Yes, always…": the yes or no answers the question; the rest instructs.
        if let match = matches(#"^(?:yes|no|never|always)\s*[.,!;]\s+(\S.*)$"#, in: answer).first { answer = match[1] }
        let lower = fold(answer)
        guard let asked,
              !startsWithWord(lower, ["don't", "do not", "never", "always", "please", "ask", "tell", "say", "give", "offer", "suggest", "share",
                                      "encourage", "urge", "keep", "stay", "use", "avoid", "follow", "stop", "help", "point", "refer", "remind",
                                      "thank", "explain", "mention", "direct", "recommend", "let", "make", "be", "put", "answer", "reply", "respond"]),
              let verb = matches(#"\b(?:do|should|must|can|shall|will) (?:i|you|we|the coach) (say|tell|give|offer|share|mention|suggest|recommend|ask|use|point (?:them|the user) to)\b((?: (?:them|the user|the student|the member|the person|the parent|him|her))?)"#,
                                 in: fold(asked)).first else { return answer }
        // "That I'm glad they told me, and that they should…" after "Tell them" reads as one request.
        var said = answer
        if let first = said.split(separator: " ").first, ["The", "A", "An", "That", "This", "Their", "These", "Those", "Your"].contains(String(first)) {
            said = said.prefix(1).lowercased() + said.dropFirst()
        }
        // "Give the hotline" is given to the one the coach talks to: "Give them the hotline".
        let listener = verb[2].isEmpty && ["give", "offer", "share", "mention", "suggest", "recommend"].contains(verb[1]) ? " them" : verb[2]
        let request = MockDirective.capitalized(verb[1] + listener)
        // "That I'm glad they told me, and that they should talk to…", "the hotline, …, and 911
        // if …": each thing asked for is a request of its own.
        let pieces = said.replacingMatches(ofPattern: #",? and (?:that )?(?=(?:they|you|he|she|I|we|the|a|an)\b|\d)"#, with: "\u{1F}")
            .split(separator: "\u{1F}").map(String.init)
        return pieces.map { request + " " + $0.trimmed(spacesAndStops) }.joined(separator: ". ")
    }
}
