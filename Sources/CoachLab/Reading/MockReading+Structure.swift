import Foundation

/// Structure before wording: what the compiler's source map (``PromptStructure``) says a line
/// holds is taken whatever the template's words around it. A prompt in a house style no reader
/// knows still has its persona's name, its facts and its alert's instructions read.
///
/// The map supplements the reading of the prose: a line the prose readers understood keeps
/// what they understood, and a value they did not is added from the map.
extension MockReading {
    /// The lines that hold the live alert's instructions (and its reason), when the wording
    /// names no alert: from the first to the last of them, with a title or lead-in just above
    /// ("YOU MUST:", "Right now:") as its first line.
    static func alertRange(of structure: PromptStructure, in lines: [String], headers: [Bool]) -> (range: Range<Int>, titled: Bool)? {
        // The live alert closes the prompt: an instruction whose words an earlier line also has
        // (a scenario card that says what to do in a crisis) is the last line that holds it.
        let located = (structure.parts(.alertInstruction) + structure.parts(.alertReason)).compactMap { lineIndex(of: $0.text, in: lines, last: true) }
        guard let first = located.min(), let last = located.max() else { return nil }
        if first > 0 {
            let above = lines[first - 1].trimmed(.whitespaces)
            if headers[first - 1] || (above.hasSuffix(":") && listItem(above) == nil && above.split(separator: " ").count <= 8) {
                return (first - 1..<last + 1, true)
            }
        }
        return (first..<last + 1, false)
    }

    /// Marks as headings the lines the stack's `header:` rendered, each the whole of its line.
    static func markHeadings(of structure: PromptStructure, in lines: [String], headers: inout [Bool]) {
        let headings = Set(structure.parts(.heading).flatMap { $0.text.split(whereSeparator: \.isNewline).map { $0.trimmed(.whitespaces) } }.filter { !$0.isEmpty })
        guard !headings.isEmpty else { return }
        for index in lines.indices where !headers[index] && headings.contains(lines[index].trimmed(.whitespaces)) { headers[index] = true }
    }

    /// The first (or `last`) line that holds the beginning of `text` (its first line,
    /// trimmed), or nil.
    static func lineIndex(of text: String, in lines: [String], within range: Range<Int>? = nil, last: Bool = false) -> Int? {
        let head = text.split(whereSeparator: \.isNewline).first.map { $0.trimmed(.whitespaces) } ?? ""
        guard head.contains(where: \.isLetter) else { return nil }
        // A long value is found by its first words, which a line break in the template cannot split.
        let probe = head.count > 60 ? String(head.prefix(60)) : head
        let candidates = range.map { Array($0.clamped(to: lines.indices)) } ?? Array(lines.indices)
        return last ? candidates.last { lines[$0].contains(probe) } : candidates.first { lines[$0].contains(probe) }
    }

    /// Adds what the structure names and the prose readers missed: the persona's name, each
    /// knowledge item, each instruction of the live alert, and each reply-contract value.
    mutating func supplement(from structure: PromptStructure) {
        // The name the prompt gives, from the pack; one the readers took from the wording that is
        // no name of the pack's ("You play COACH" over "COACH is Rosa") gives way to it.
        let names = structure.parts(.name).compactMap { part in Self.lineIndex(of: part.text, in: lines).map { (part.text.trimmed(.whitespacesAndNewlines), $0) } }
        if let (name, index) = names.first, !names.contains(where: { $0.0 == self.name }) {
            replaceName(with: name, at: index)
        }
        supplementKnowledge(from: structure)
        supplementAlert(from: structure)
        supplementContract(from: structure)
    }

    /// Each knowledge item the readers did not take as one: its longest field (the fact, not
    /// its title or when to use it), said as the item's first sentence.
    private mutating func supplementKnowledge(from structure: PromptStructure) {
        let read = Set(all(.knowledge).map(\.line))
        let minor: Set<String> = ["title", "whenToUse", "source", "label", "tags", "id", "name"]
        let items = Dictionary(grouping: structure.parts(.knowledge), by: { $0.item ?? $0.text })
        for (_, parts) in items.sorted(by: { $0.key < $1.key }) {
            let candidates = parts.filter { !minor.contains($0.field ?? "") }
            guard let fact = (candidates.isEmpty ? parts : candidates).max(by: { $0.text.count < $1.text.count }),
                  let index = Self.lineIndex(of: fact.text, in: lines), !(alertRange?.contains(index) ?? false),
                  !read.contains(index + 1) else { continue }
            let flat = fact.text.split(whereSeparator: \.isNewline).map { $0.trimmed(.whitespaces) }.joined(separator: " ")
            note(.knowledge, Self.firstSentence(Self.untitled(flat)), index)
        }
    }

    /// Each instruction of the live alert, in the alert: its parts the directive reader
    /// understood were noted as the alert was read; each part it did not is followed as the
    /// usual instruction of its kind (``MockDirective/followed(_:caregiver:)``).
    private mutating func supplementAlert(from structure: PromptStructure) {
        guard let range = alertRange, has(.alert) else { return }
        let alertKinds: Set<Instruction.Kind> = [.directive, .suppress, .cite]
        for instruction in structure.parts(.alertInstruction) {
            guard let index = Self.lineIndex(of: instruction.text, in: lines, within: range, last: true) else { continue }
            // A line the readers took nothing from is read again from the value itself, without
            // the template's numbering or labels around it; on a line they did read, only the
            // parts they could not are added.
            let lineRead = instructions.contains { $0.line == index + 1 && alertKinds.contains($0.kind) }
            // An instruction that holds an example ("Example:", "User: …", "Tala: …") asks only
            // in its other lines.
            let itsLines = instruction.text.split(whereSeparator: \.isNewline).map(String.init)
            let turns = Self.exampleTurns(in: itsLines).turns
            let text = alertInstructionText(itsLines.indices.filter { !turns.contains($0) && !Self.labelsExample(itsLines[$0]) }.map { itsLines[$0] }
                .joined(separator: " ").trimmed(.whitespacesAndNewlines))
            guard text.contains(where: \.isLetter) else { continue }
            for part in MockDirective.parts(of: Self.faqInstruction(text) ?? text) {
                let understood = MockDirective.read(part, caregiver: addressesCaregiver)
                if lineRead, understood != nil { continue }
                switch understood ?? MockDirective.followed(part, caregiver: addressesCaregiver) {
                case .say(let sentence): note(.directive, unquoted(sentence), index)
                case .suppress(let what): note(.suppress, what, index)
                case .cite(let what): note(.cite, what, index)
                }
            }
        }
    }
}

extension MockReading {
    /// A sentence said from an instruction, as a model says it rather than reads it out: an
    /// aside that lists several things keeps its first ("(911 in the US, 999 in the UK)" is
    /// "(911 in the US)"), so the sentence shares no run of ten words with the prompt.
    func unquoted(_ sentence: String) -> String {
        let words = SystemWords.shared.index(of: system)
        guard CheckEvaluator.longestSharedRunLength(sentence, in: words) >= 10 else { return sentence }
        let shorter = sentence.replacingMatches(ofPattern: #"\(([^,()]+),[^()]*\)"#, with: "($1)")
        return MockReading.loosened(shorter, in: words) ?? shorter
    }
}

extension MockDirective {
    /// An instruction of the live alert that no reader understood, followed as the usual
    /// instruction of its kind: the structure says it is one, so its meaning need not be
    /// parsed. A "don't" leaves coaching out of the reply; anything else is said to the user
    /// as asked of them ("Call emergency services now" is "Please call emergency services
    /// now."; "Have them lie down and raise their legs" is "Please lie down and raise your legs.").
    static func followed(_ part: String, caregiver: Bool = false) -> MockDirective {
        var text = part.trimmed(MockReading.spacesAndStops)
        // A spec's modal opens it ("MUST give…", "SHALL, if …, also give…", "You should…").
        text = text.replacingMatches(ofPattern: #"^(?:(?:you|the coach|the assistant|coach)\s+)?(?:must|shall|should|will|need to|needs to|has to|have to|is to|are to)(?:\s+always)?\s*[,:]?\s+"#,
                                     with: "", caseSensitive: false)
        // A condition ahead of the request: on the message ("if the message mentions suicide,
        // self-harm or having no way out, also give 988"), it is met, as the alert is live; on
        // the user's situation ("If the person has an auto-injector (EpiPen), …"), it is said.
        var condition = ""
        if let match = MockReading.matches(#"^((?:if|when|whenever|where)\b.*?),\s*(?:then\s+|also\s+)?((?:give|tell|call|say|share|provide|refer|point|offer|include|mention|ask|encourage|urge|suggest|direct|recommend|add|name|list|help|have|get|let|keep|stay|be|use)\b.*)$"#, in: text).first {
            let onMessage = MockReading.contains(#"\b(?:message|mentions?|says?|writes?|wrote|talks? about|brings? up|asks?|describes?)\b"#, MockReading.fold(match[1]))
            condition = onMessage ? "" : swapListener(match[1], caregiver: caregiver) + ", "
            text = match[2]
        }
        text = text.replacingMatches(ofPattern: #"^(?:also|then|and)\s+"#, with: "", caseSensitive: false)
        // "Close by asking whether help is on the way": the request is the asking.
        text = text.replacingMatches(ofPattern: #"^(?:close|end|finish|wrap up|sign off)\s+(?:by|with)\s+(asking|saying|telling|giving|offering|suggesting)\b"#, with: "$1", caseSensitive: false)
        text = text.replacingMatches(ofPattern: #"^(ask|say|tell|giv|offer|suggest)(?:ing)\b"#, with: "$1", caseSensitive: false)
            .replacingMatches(ofPattern: #"^giv\b"#, with: "give", caseSensitive: false)
        // "Tell the member to…", "Urge the caller to…": the pack's own word for the user.
        text = text.replacingMatches(ofPattern: #"^(tell|encourage|urge|remind|advise|ask|get|help)\s+(?:the|your|our)\s+[a-z-]+\s+(to|not to)\s+"#, with: "$1 them $2 ", caseSensitive: false)
        let lower = MockReading.fold(text)
        if MockReading.contains(#"^(?:do not|don't|dont|never|avoid|no|not|refrain|stop)\b"#, lower) { return .suppress("coaching") }
        // "Ask whether help is on the way": asked as a question.
        if let match = MockReading.matches(#"^ask(?:\s+"# + listener + #")?\s+(?:whether|if)\s+([\w'’-]+(?:\s+[\w'’-]+)?)\s+(is|are|was|were|can|will|has|have)\s+(.+)$"#, in: text).first,
           !MockReading.contains(#"^(?:they|you|he|she|the user)$"#, MockReading.fold(match[1])) {
            return .say(capitalized(condition + match[2].lowercased() + " " + swapListener(match[1], caregiver: caregiver) + " " + swapListener(match[3], caregiver: caregiver)) + "?")
        }
        if text != part.trimmed(MockReading.spacesAndStops), let understood = read(text, caregiver: caregiver) {
            guard !condition.isEmpty, case .say(let sentence) = understood else { return understood }
            return .say(capitalized(condition + lowercasedFirstWord(sentence)))
        }
        var body = text
        // "Have them lie down", "Get them to sit", "Let them know…", "Help them breathe slowly".
        if let match = MockReading.matches(#"^(?:have|get|let|help|make)\s+"# + listener + #"\s+(?:to\s+)?(.+)$"#, in: text).first {
            body = match[1]
        }
        let said = swapListener(lowercasedFirstWord(body), caregiver: caregiver)
        return .say(capitalized(bounded(condition + "please " + said)) + ".")
    }
}
