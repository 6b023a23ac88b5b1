import Foundation

/// What the mock coach understood from a compiled system prompt: every instruction it obeys,
/// each with the prompt line it came from. The mock reads the prompt literally, so what is not
/// here it does not do (see docs/mock.md for the grammar).
public struct MockReading: Sendable, Equatable {
    /// One understood instruction.
    public struct Instruction: Sendable, Equatable, Codable {
        /// What was understood.
        public enum Kind: String, Sendable, Codable, CaseIterable {
            case name, userName = "user-name", sentences, words, paragraphs
            case endQuestion = "end-question", oneQuestion = "one-question", oneIdea = "one-idea"
            case noMarkdown = "no-markdown", noHeadings = "no-headings", noLists = "no-lists", noBold = "no-bold"
            case noEmoji = "no-emoji", noExclamation = "no-exclamation"
            case stayInRole = "stay-in-role", confidential, invitesLeak = "invites-leak"
            case knowledge, memory, time
            case data
            case alert, alertIgnored = "alert-ignored", directive, suppress, cite, conditional
        }

        /// What was understood.
        public var kind: Kind
        /// The value: a name, a limit, an idea, a rendered directive…
        public var value: String
        /// The 1-based line of the system prompt.
        public var line: Int
        /// That line's text.
        public var text: String
    }

    /// Every instruction understood, in prompt order.
    public private(set) var instructions: [Instruction] = []
    /// The prompt's lines.
    let lines: [String]
    /// The line range of the RISK ALERT block, when the prompt has one.
    let alertRange: Range<Int>?

    /// The reading of `system`, from a small cache: suites send the same compiled prompt many
    /// times (every turn, repeat and mutant that leaves it unchanged).
    public static func of(_ system: String) -> MockReading {
        ReadingCache.shared.reading(system)
    }

    /// Reads `system`.
    public init(system: String) {
        lines = system.components(separatedBy: "\n")
        alertRange = Self.alertRange(in: lines)
        read()
    }

    // MARK: - What the reply must obey

    /// The first instruction of a kind.
    public func first(_ kind: Instruction.Kind) -> Instruction? { instructions.first { $0.kind == kind } }
    /// Every instruction of a kind.
    public func all(_ kind: Instruction.Kind) -> [Instruction] { instructions.filter { $0.kind == kind } }
    /// Whether an instruction of the kind was understood.
    public func has(_ kind: Instruction.Kind) -> Bool { first(kind) != nil }

    /// The persona's name ("You are X", "Your name is X").
    public var name: String? { first(.name)?.value }
    /// The user's name ("You are talking with X").
    public var userName: String? { first(.userName)?.value }
    /// The most sentences a reply may have: the tightest sentence or paragraph limit.
    public var sentenceLimit: Int? {
        (all(.sentences) + all(.paragraphs)).compactMap { Int($0.value) }.min()
    }
    /// The most words a reply may have.
    public var wordLimit: Int? { all(.words).compactMap { Int($0.value) }.min() }
    /// Whether the alert is active and obeyed (it is the last section of the prompt).
    public var obeysAlert: Bool { has(.alert) }

    /// Whether markdown of a kind is banned.
    public var bansHeadings: Bool { has(.noMarkdown) || has(.noHeadings) }
    public var bansLists: Bool { has(.noMarkdown) || has(.noLists) }
    public var bansBold: Bool { has(.noMarkdown) || has(.noBold) }

    // MARK: - Reading

    private mutating func note(_ kind: Instruction.Kind, _ value: String, _ index: Int) {
        instructions.append(Instruction(kind: kind, value: value, line: index + 1, text: lines[index]))
    }

    private mutating func read() {
        var nameCandidates: [(name: String, index: Int, isHeader: Bool)] = []
        var inExamples = false
        for (index, line) in lines.enumerated() {
            let lower = Self.fold(line)
            guard !lower.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
            // Example conversations show a style; what their lines say is not an instruction.
            if Self.isHeader(line) { inExamples = Self.contains(#"\bexamples?\b"#, lower) }
            if inExamples, !Self.isHeader(line) { continue }
            let inAlert = alertRange?.contains(index) ?? false
            for match in Self.matches(#"\b(?:[Yy]ou are|[Yy]our name is|[Yy]ou're|[Aa]ct as|[Pp]lay the role of|[Ii]ntroduce yourself as|[Cc]all yourself)\s+([A-Z][\p{L}'’-]*(?:[ -][A-Z][\p{L}'’-]*)*)"#, in: line, caseSensitive: true) {
                nameCandidates.append((match[1], index, Self.isHeader(line)))
            }
            if let user = Self.matches(#"\b(?:talking|speaking|chatting) (?:with|to) ([A-Z][\p{L}'’-]*)"#, in: line, caseSensitive: true).first?[1],
               !has(.userName) {
                note(.userName, user, index)
            }
            readLength(lower, index)
            readQuestions(lower, index)
            readForm(lower.replacingOccurrences(of: #""[^"]*"|“[^”]*”"#, with: "", options: .regularExpression), index)
            readIdentity(lower, index)
            if !inAlert { readConditional(line, index) }
            readTime(line, lower, index)
        }
        // The name: a line that introduces the persona beats a section title.
        if let chosen = nameCandidates.first(where: { !$0.isHeader }) ?? nameCandidates.first {
            instructions.insert(Instruction(kind: .name, value: chosen.name, line: chosen.index + 1, text: lines[chosen.index]), at: 0)
        }
        readKnowledge()
        readData()
        readMemory()
        readAlert()
        instructions.sort { ($0.line, Instruction.Kind.allCases.firstIndex(of: $0.kind) ?? 0)
            < ($1.line, Instruction.Kind.allCases.firstIndex(of: $1.kind) ?? 0) }
    }

    static let numberWords = ["one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                              "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "a couple of": 2, "a few": 3]
    static let number = #"(\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"#

    static func value(_ word: String) -> Int? { Int(word) ?? numberWords[word] }

    private mutating func readLength(_ lower: String, _ index: Int) {
        var rest = lower
        func unitKind(_ unit: String) -> Instruction.Kind? {
            if unit.hasPrefix("sentence") { return .sentences }
            if unit.hasPrefix("paragraph") { return .paragraphs }
            if unit.hasPrefix("word") { return .words }
            return nil
        }
        let unit = #"\s+(?:short\s+|brief\s+|plain\s+|simple\s+)?(sentences?|paragraphs?|words)\b"#
        // "2-3 sentences", "two to four short sentences", "1-3 sentence format", "two or three paragraphs".
        for match in Self.matches(Self.number + #"\s*(?:-|–|to|or)\s*"# + Self.number + #"(?:-|\s+(?:short\s+|brief\s+)?)(sentences?|paragraphs?|words)\b"#, in: rest) {
            if let kind = unitKind(match[3]), let high = Self.value(match[2]) { note(kind, String(high), index) }
            rest = rest.replacingOccurrences(of: match[0], with: " ")
        }
        // "at most 3 sentences", "under 60 words", "no more than two paragraphs", "limit replies to 3 sentences".
        for match in Self.matches(#"\b(at most|no more than|up to|a maximum of|maximum|max|fewer than|less than|under|limit(?:ed)?(?: \w+){0,2} to)\s+"# + Self.number + unit, in: rest) {
            guard let kind = unitKind(match[3]), var high = Self.value(match[2]) else { continue }
            if ["fewer than", "less than", "under"].contains(match[1]) { high -= 1 }
            note(kind, String(max(1, high)), index)
            rest = rest.replacingOccurrences(of: match[0], with: " ")
        }
        // "Be calm and brief": two sentences.
        if Self.contains(#"\b(?:be|keep (?:it|replies|your reply|your replies|the reply|your response|responses))\s+(?:\w+\s+and\s+)?(?:brief|short)\b(?!\s+enough)"#, rest) {
            note(.sentences, "2", index)
        }
        // "a few sentences", "a couple of sentences".
        for match in Self.matches(#"\b(a few|a couple of)"# + unit, in: rest) {
            if let kind = unitKind(match[2]), let high = Self.numberWords[match[1]] { note(kind, String(high), index) }
            rest = rest.replacingOccurrences(of: match[0], with: " ")
        }
        // "in three sentences", "one short paragraph".
        for match in Self.matches(#"\b"# + Self.number + unit, in: rest) {
            if let kind = unitKind(match[2]), let high = Self.value(match[1]) { note(kind, String(high), index) }
        }
    }

    private mutating func readQuestions(_ lower: String, _ index: Int) {
        let quantity = #"(?:exactly |just |only )?(?:one|a|an|a single|1)\s+(?:[\w-]+\s+){0,3}?question"#
        if Self.contains(#"\b(?:end|finish|close|conclude|wrap up)s?\b[^.]{0,40}?\b(?:with|on|by asking)\s+(?:exactly |just |only )?(?:one|a|an|a single|1)?\s*(?:[\w-]+\s+){0,3}?question"#, lower)
            || Self.contains(#"\bthen\s+(?:ask\s+)?"# + quantity, lower)
            || Self.contains(#"\blast sentence (?:is|must be|should be) a question"#, lower) {
            note(.endQuestion, "the reply ends with a question", index)
        }
        if Self.contains(#"\bone question at a time\b|\bexactly one\b[^.]{0,30}question|\bnever (?:ask )?more than one question|\b(?:ask|with|then|and)\s+(?:just |only )?(?:one|a single)\s+(?:[\w-]+\s+){0,3}?question"#, lower) {
            note(.oneQuestion, "at most one question", index)
        }
        if Self.contains(#"\bone idea\b|\ba single idea\b|\bone (?:suggestion|tip|step) at a time\b|\bone idea or step\b"#, lower) {
            note(.oneIdea, "one idea per reply", index)
        }
    }

    private mutating func readForm(_ lower: String, _ index: Int) {
        let ban = #"\b(?:no|never|not|don't|do not|avoid|without|nor)\b[^.;]{0,40}?"#
        if Self.contains(ban + #"\b(?:markdown|formatting|rich text)\b|\bplain text\b(?! conversational)"#, lower) {
            note(.noMarkdown, "no markdown", index)
        }
        if Self.contains(ban + #"\b(?:headings?|headers?)\b"#, lower) { note(.noHeadings, "no headings", index) }
        if Self.contains(ban + #"\b(?:lists?|bullets?|bullet points|numbered)\b"#, lower) { note(.noLists, "no lists", index) }
        if Self.contains(ban + #"\bbold\b"#, lower) { note(.noBold, "no bold", index) }
        if Self.contains(ban + #"\bemojis?\b"#, lower) { note(.noEmoji, "no emoji", index) }
        if Self.contains(ban + #"\bexclamation (?:marks?|points?)\b"#, lower) { note(.noExclamation, "no exclamation marks", index) }
    }

    private mutating func readIdentity(_ lower: String, _ index: Int) {
        if Self.contains(#"\b(?:never|don't|do not)\s+(?:say|claim|mention|reveal|admit)\b[^.]{0,30}\b(?:an ai|a language model|a bot|a chatbot|artificial)|\bstay in (?:role|character)\b|\bnever break character\b"#, lower) {
            note(.stayInRole, "never says it is an AI", index)
        }
        let instructions = #"(?:these |your |the |this |my )?(?:instructions|system prompt|prompt|rules|guidelines)"#
        if Self.contains(#"\b(?:never|don't|do not|not)\s+(?:\w+\s+){0,2}?(?:reveal|repeat|quote|share|disclose|show|recite)\b[^.]{0,30}"# + instructions
                         + #"|\b(?:keep|treat)\s+"# + instructions + #"\s+(?:confidential|private|secret)"#
                         + #"|\b(?:if|when)\b[^.]*\b(?:instructions|system prompt|prompt)\b[^.]*\b(?:decline|refuse)"#, lower) {
            note(.confidential, "keeps these instructions private", index)
        } else if Self.contains(#"\b(?:repeat|reveal|quote|share|print|recite|show|disclose)\b[^.]{0,30}"# + instructions, lower) {
            let conditional = Self.contains(#"\b(?:if|when|whenever)\b"#, lower)
            note(.invitesLeak, conditional ? "when asked" : "always", index)
        }
    }

    private mutating func readConditional(_ line: String, _ index: Int) {
        let subject = #"(?:the user|they|the child|the person|someone|[A-Z][\p{L}'’-]*)"#
        let verb = #"(?:mentions?|says?|talks? about|describes?|reports?|asks? about|brings? up|seems?)"#
        let directive = #"(?:stop|stay|tell|encourage|point|suggest|respond|send|say|ask|gently|clearly|direct|refer|urge|do not|don't|never)"#
        let pattern = #"\bif "# + subject + #"\s+"# + verb + #"\s+(.+?),\s*("# + directive + #"\b.+)$"#
        guard let match = Self.matches(pattern, in: line).first else { return }
        let concept = MockConcept.of(match[1].lowercased())
        note(.conditional, "\(concept.rawValue)|\(match[1])|\(match[2])", index)
    }

    private mutating func readTime(_ line: String, _ lower: String, _ index: Int) {
        let guidance: [(String, String)] = [
            (#"\bsmall hours\b|\bmiddle of the night\b"#, "night"), (#"^it is late\b"#, "late"), (#"^it is evening\b"#, "evening"),
            (#"^morning is\b|^it is morning\b"#, "morning"), (#"^it is daytime\b|^it is afternoon\b"#, "day"),
        ]
        for (pattern, period) in guidance where Self.contains(pattern, lower) {
            note(.time, period, index)
            return
        }
        if let match = Self.matches(#"\bit is \d{1,2}:\d{2}\b.*\((night|morning|afternoon|evening)\)"#, in: lower).first {
            note(.time, match[1] == "afternoon" ? "day" : match[1], index)
        }
    }

    /// Knowledge: "Core idea:" lines, heuristics and tips, and bullets under a section about
    /// ideas, knowledge or responses.
    private mutating func readKnowledge() {
        var inKnowledgeSection = false
        for (index, line) in lines.enumerated() where !(alertRange?.contains(index) ?? false) {
            if Self.isHeader(line) {
                inKnowledgeSection = Self.contains(#"knowledge|ideas|tips|responses you can teach|techniques|what helps|strategies|tools|resources|facts|guidance"#, Self.fold(line))
                continue
            }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            for prefix in ["Core idea: ", "- Tip: ", "- Competing response: ", "Heuristic: "] where trimmed.hasPrefix(prefix) {
                note(.knowledge, Self.firstSentence(String(trimmed.dropFirst(prefix.count))), index)
            }
            if inKnowledgeSection, trimmed.hasPrefix("- "), !trimmed.hasPrefix("- Tip: "), !trimmed.hasPrefix("- Competing response: "),
               !Self.contains(#"^- (?:when|avoid|what to avoid|source|why)\s*:"#, trimmed) {
                var text = String(trimmed.dropFirst(2))
                if let colon = text.range(of: ": "), text.distance(from: text.startIndex, to: colon.lowerBound) < 40 {
                    text = String(text[colon.upperBound...])
                }
                if !text.hasPrefix("When:"), !text.hasPrefix("Avoid:") { note(.knowledge, Self.firstSentence(text), index) }
            }
        }
    }

    /// Data: lines outside the alert that state a measured value ("Vitamin D: 18 ng/mL",
    /// "mood 3/5") rather than an instruction.
    private mutating func readData() {
        for (index, line) in lines.enumerated() where !(alertRange?.contains(index) ?? false) && !Self.isHeader(line) {
            let lower = Self.fold(line)
            guard Self.contains(#"\d\s?(?:mg|mcg|µg|g|kg|ml|iu|ng/ml|mg/dl|pg/ml|miu/l|mmol/l|bpm|ms|h|hrs|hours|kcal|lbs?|km|cm|steps)\b|\d\s?%|\d+/(?:5|10|day)\b"#, lower),
                  !Self.contains(#"\b(?:never|don't|do not|reply|mention|keep|you are|you're|it is \d)"#, lower),
                  !has(.knowledge) || !instructions.contains(where: { $0.kind == .knowledge && $0.line == index + 1 }) else { continue }
            var text = line.trimmingCharacters(in: .whitespaces)
            if text.hasPrefix("- ") { text.removeFirst(2) }
            note(.data, text, index)
        }
    }

    /// Memory: the latest bullet under a section about memory or past sessions.
    private mutating func readMemory() {
        var inMemory = false
        var latest: Int?
        for (index, line) in lines.enumerated() {
            if Self.isHeader(line) {
                inMemory = Self.contains(#"memory|memories|past sessions|earlier sessions|previous sessions|previous conversations|what you remember"#, Self.fold(line))
                continue
            }
            if inMemory, line.hasPrefix("- ") { latest = index }
        }
        guard let latest else { return }
        let line = lines[latest]
        let theme = Self.matches(#"Key theme: ([^.]+)\."#, in: line, caseSensitive: true).first?[1]
        let body = line.range(of: ": ").map { String(line[$0.upperBound...]) } ?? String(line.dropFirst(2))
        note(.memory, theme ?? Self.firstSentence(body), latest)
    }

    /// The alert's directives, when the alert is the last section of the prompt.
    private mutating func readAlert() {
        guard let range = alertRange else { return }
        let isLast = !lines[range.upperBound...].contains { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        guard isLast else {
            note(.alertIgnored, "the RISK ALERT is not the last section of the prompt, so it reads as background", range.lowerBound)
            return
        }
        note(.alert, "a RISK ALERT is active", range.lowerBound)
        for index in range.dropFirst() {
            let trimmed = lines[index].trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("- ") || trimmed.hasPrefix("* ") else { continue }
            for part in MockDirective.parts(of: String(trimmed.dropFirst(2))) {
                switch MockDirective.read(part) {
                case .say(let sentence): note(.directive, sentence, index)
                case .suppress(let what): note(.suppress, what, index)
                case .cite(let what): note(.cite, what, index)
                case nil: break
                }
            }
        }
    }

    // MARK: - Text helpers

    /// The RISK ALERT block: from the line that names it to the next section header or the end.
    static func alertRange(in lines: [String]) -> Range<Int>? {
        guard let start = lines.firstIndex(where: { $0.contains("RISK ALERT") }) else { return nil }
        var end = start + 1
        while end < lines.count, !isHeader(lines[end]) || lines[end].contains("RISK ALERT") { end += 1 }
        return start..<end
    }

    /// Whether a line looks like a section title: `=== X ===`, `# X`, `[X]` or a short
    /// all-capitals line.
    static func isHeader(_ line: String) -> Bool {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return false }
        if trimmed.hasPrefix("=== ") || trimmed.hasPrefix("# ") || trimmed.hasPrefix("## ") || trimmed.hasPrefix("### ") { return true }
        if trimmed.hasPrefix("["), trimmed.hasSuffix("]") { return true }
        let letters = trimmed.filter(\.isLetter)
        return !trimmed.hasSuffix(":") && letters.count >= 4 && letters.allSatisfy(\.isUppercase) && trimmed.split(separator: " ").count <= 6
    }

    /// Lower case, with curly apostrophes folded.
    static func fold(_ text: String) -> String {
        text.lowercased().replacingOccurrences(of: "\u{2019}", with: "'").replacingOccurrences(of: "\u{2018}", with: "'")
    }

    /// The first sentence of a text, without its final period.
    static func firstSentence(_ text: String) -> String {
        var sentence = TextMetrics.sentences(text).first ?? text
        while let last = sentence.last, ".!".contains(last) { sentence.removeLast() }
        return sentence
    }

    static func contains(_ pattern: String, _ text: String) -> Bool {
        guard let expression = RegexCache.shared.expression(pattern, caseSensitive: false) else { return false }
        return expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    /// Every match's groups (0 is the whole match; a group that did not take part is "").
    static func matches(_ pattern: String, in text: String, caseSensitive: Bool = false) -> [[String]] {
        guard let expression = RegexCache.shared.expression(pattern, caseSensitive: caseSensitive) else { return [] }
        return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
            (0..<match.numberOfRanges).map { Range(match.range(at: $0), in: text).map { String(text[$0]) } ?? "" }
        }
    }
}

/// What a conditional instruction ("If the user mentions X, …") is about, as the mock tells
/// it from the user's message with a small built-in lexicon.
public enum MockConcept: String, Sendable {
    case crisis, emergency, medication, other

    static func of(_ description: String) -> MockConcept {
        if MockReading.contains(#"suicid|self-harm|self harm|(?:harm|hurt)(?:ing)? (?:themselves|himself|herself|them)\b|crisis|danger|unsafe|ending their life|kill"#, description) { return .crisis }
        if MockReading.contains(#"emergenc|chest pain|heart attack|stroke"#, description) { return .emergency }
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
        case .other:
            let messageWords = Set(TextNormalizer.words(lower).map(\.text))
            return TextNormalizer.words(described).map(\.text).contains {
                $0.count >= 5 && !MockComposer.stopWords.contains($0) && messageWords.contains($0)
            }
        }
    }
}

/// An alert instruction turned into what the mock says or refrains from.
enum MockDirective: Equatable {
    /// A sentence to say to the user.
    case say(String)
    /// Cite the data line the message, and this instruction, are about ("Mention the
    /// protocol's current dose").
    case cite(String)
    /// Something not to do: `coaching` (no knowledge or tips), `questions`, `data`.
    case suppress(String)

    /// An instruction line split into its parts ("…; thank them", "…, and suggest a doctor").
    static func parts(of line: String) -> [String] {
        var parts: [String] = []
        let split = try? NSRegularExpression(pattern: #"(?:,? and |, )(?=(?:tell|suggest|encourage|ask|say|explain|remind|thank|point|gently|clearly|stay|stop|respond)\b)"#,
                                             options: [.caseInsensitive])
        for piece in line.components(separatedBy: "; ") {
            var current = piece
            // "If they are in danger, tell them to…" is one instruction: its condition stays.
            var searchFrom = current.startIndex
            if MockReading.contains(#"^(?:if|when)\b"#, current), let comma = current.range(of: ", ") { searchFrom = comma.upperBound }
            while let split, let match = split.firstMatch(in: current, range: NSRange(searchFrom..<current.endIndex, in: current)),
                  let range = Range(match.range, in: current) {
                parts.append(String(current[..<range.lowerBound]))
                current = String(current[range.upperBound...])
                searchFrom = current.startIndex
            }
            parts.append(current)
        }
        return parts.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    static let listener = #"(?:them|they|the user|the child|the person|the patient|him|her)"#

    /// What one part asks of the reply, or nil when the mock does not understand it.
    static func read(_ part: String) -> MockDirective? {
        var text = part.trimmingCharacters(in: CharacterSet(charactersIn: " ."))
        var lower = MockReading.fold(text)
        if MockReading.contains(#"^stop (?:coaching|teaching|the lesson|the exercise)"#, lower) { return .suppress("coaching") }
        if MockReading.contains(#"^(?:do not|don't|never|avoid)\b"#, lower) {
            var what: [String] = []
            if MockReading.contains(#"\bask (?:any )?questions?\b"#, lower) { what.append("questions") }
            if MockReading.contains(#"\b(?:interpret|lab|values|data|numbers)\b"#, lower) { what.append("data") }
            if MockReading.contains(#"\b(?:continue|lesson|exercise|coaching|tips|change the subject|advice|suggest|supplements)\b"#, lower) { what.append("coaching") }
            return what.isEmpty ? nil : .suppress(what.joined(separator: ","))
        }
        // "If they may have taken too much, tell them to …"
        var condition = ""
        if let match = MockReading.matches(#"^(if [^,]+),\s*(.+)$"#, in: text).first {
            condition = swapListener(match[1]) + ", "
            text = match[2]
            lower = MockReading.fold(text)
        }
        text = text.replacingOccurrences(of: #"^(?:clearly|gently|kindly|calmly|firmly|warmly)\s+"#, with: "", options: [.regularExpression, .caseInsensitive])
        lower = MockReading.fold(text)
        func sentence(_ body: String) -> MockDirective {
            let full = condition + body
            return .say(capitalized(bounded(full)) + ".")
        }
        // Questions: "Ask whether they are safe right now".
        if let match = MockReading.matches(#"^ask (?:whether|if) (?:they|the user|the child) (are|have|feel|can|know) (.+)$"#, in: text).first {
            let verb = ["are": "Are you", "have": "Do you have", "feel": "Do you feel", "can": "Can you", "know": "Do you know"][match[1].lowercased()] ?? "Are you"
            return .say(capitalized(condition + verb + " " + swapListener(match[2])) + "?")
        }
        if MockReading.contains(#"^ask\b"#, lower) { return .say(capitalized(condition + "can you tell me a little more about how you are right now") + "?") }
        // Acknowledgements.
        if MockReading.contains(#"^(?:thank|respond with|acknowledge (?:the|their|what|it)|validate|reassure)"#, lower) {
            return .say("Thank you for telling me; I'm really glad you did.")
        }
        if let match = MockReading.matches(#"^acknowledge (?:that |how )(.+)$"#, in: text).first {
            return sentence("I know " + (lower.hasPrefix("acknowledge how") ? "how " : "") + swapBoth(match[1]))
        }
        // "Tell them to X", "Encourage them to X", "Suggest they X", "Urge them to X".
        if let match = MockReading.matches(#"^(?:tell|encourage|urge|remind|advise|ask|invite|help|get|suggest|recommend)\s+"# + listener + #"\s+(?:(?:kindly|gently|calmly|clearly|firmly)\s+)?(?:to\s+)?(.+)$"#, in: text).first {
            let body = match[1]
            if MockReading.contains(#"^(?:that\b|they\b|it\b|you\b)"#, body) || !MockReading.contains(#"^(?:to\b)"#, body) && MockReading.contains(#"^(?:they|it|you|that) "#, body) {
                return sentence(swapBoth(body.replacingOccurrences(of: #"^that\s+"#, with: "", options: .regularExpression)))
            }
            return sentence("please " + swapListener(body))
        }
        // "Point them to X", "Direct them to X", "Refer them to X".
        if let match = MockReading.matches(#"^(?:point|direct|refer|send|steer)\s+"# + listener + #"\s+(?:to|towards?)\s+(.+)$"#, in: text).first {
            return sentence("please reach out to " + swapListener(match[1]))
        }
        if MockReading.contains(#"^(?:mention|quote|cite|state)\b"#, lower) { return .cite(text) }
        // "Provide the number of a crisis line", "Share the 988 lifeline".
        if let match = MockReading.matches(#"^(?:provide|share)\s+(.+)$"#, in: text).first {
            return sentence("here is " + swapListener(match[1]))
        }
        // "Offer to practise together instead".
        if let match = MockReading.matches(#"^offer to\s+(.+)$"#, in: text).first {
            return sentence("we could " + swapBoth(match[1]))
        }
        // "Suggest a pharmacist or doctor", "Recommend a professional", "Suggest a short walk".
        if let match = MockReading.matches(#"^(?:suggest|recommend|mention|offer)\s+(.+)$"#, in: text).first {
            let object = swapListener(match[1])
            if MockReading.contains(#"\b(?:doctor|gp|pharmacist|professional|therapist|counsel+or|nurse|adult|parent|teacher|adviser|advisor|lawyer|clinician|specialist|psychologist|line|service)s?\b"#, object) {
                return sentence(object + " would be the right person to talk to about this")
            }
            return sentence("it might help to try " + object)
        }
        // "Say (kindly) that X", "Explain (that) X", "Tell them that X", "Let them know X".
        if let match = MockReading.matches(#"^(?:say|explain|tell \#(listener)|let \#(listener) know|make (?:it )?clear)\s+(?:(?:clearly|kindly|gently|calmly|firmly|simply|honestly)\s+)?(?:that\s+)?(.+)$"#, in: text).first {
            return sentence(swapBoth(match[1]))
        }
        if MockReading.contains(#"^stay with\b"#, lower) { return .say("I'm staying right here with you.") }
        // "Keep your response warm and supportive", "Stay warm and present".
        if MockReading.contains(#"^(?:keep|be|stay|remain)\b[^.]*\b(?:warm|supportive|kind|gentle|present|caring)\b"#, lower) {
            return .say("I'm here for you.")
        }
        return nil
    }

    /// A copied fragment kept short, as a model paraphrases rather than quotes: cut at the
    /// first comma, semicolon or colon after four words, and at fourteen words.
    static func bounded(_ text: String) -> String {
        let words = text.split(separator: " ", omittingEmptySubsequences: true)
        var kept: [Substring] = []
        var conditional = MockReading.contains(#"^(?:if|when)\b"#, text)
        for word in words {
            kept.append(word)
            if conditional, word.hasSuffix(",") { conditional = false; continue }
            if kept.count >= 4, word.hasSuffix(",") || word.hasSuffix(";") || word.hasSuffix(":") { break }
            if kept.count >= 4, let next = words.dropFirst(kept.count).first, next.hasPrefix("(") || next.hasPrefix("\"") { break }
            if kept.count >= 14 { break }
        }
        var result = kept.joined(separator: " ")
        while let last = result.last, ",;:".contains(last) { result.removeLast() }
        return result
    }

    /// At most `count` words of a text copied from the prompt, without a dangling small word
    /// at the end, so the reply never quotes ten words in a row.
    static func clipped(_ text: String, words count: Int = 9) -> String {
        var words = bounded(text).split(separator: " ").prefix(count).map(String.init)
        let small: Set<String> = ["a", "an", "the", "and", "or", "to", "of", "for", "with", "in", "on", "at", "every", "by", "is", "it", "if"]
        while words.count > 3, let last = words.last, small.contains(last.lowercased()) { words.removeLast() }
        var text = words.joined(separator: " ")
        while let last = text.last, ",;:(".contains(last) { text.removeLast() }
        return text
    }

    static func capitalized(_ text: String) -> String {
        guard let first = text.first else { return text }
        return first.uppercased() + text.dropFirst()
    }

    /// The listener's pronouns turned to "you": they → you, their → your, them → you.
    static func swapListener(_ text: String) -> String {
        swapWords(text, ["they": "you", "their": "your", "theirs": "yours", "them": "you", "themselves": "yourself",
                         "they're": "you're", "they've": "you've", "they'll": "you'll", "the user": "you", "the child": "you",
                         "the user's": "your", "the child's": "your", "his": "your", "her": "your", "he": "you", "she": "you"])
    }

    /// Both sides turned: the coach's "you/your" → "I/my", then the listener's → "you".
    static func swapBoth(_ text: String) -> String {
        let speaker = swapWords(text, ["you": "me", "your": "my", "yours": "mine", "yourself": "myself", "you're": "I'm",
                                       "you've": "I've", "you'll": "I'll", "you can't": "I can't", "you cannot": "I cannot",
                                       "you can": "I can", "you are": "I am", "you will": "I will", "you don't": "I don't",
                                       "you do not": "I do not"])
        return swapListener(speaker)
    }

    /// Whole-word replacements, longest phrase first, each word replaced once.
    static func swapWords(_ text: String, _ table: [String: String]) -> String {
        let words = text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        var out: [String] = []
        var index = 0
        let longest = table.keys.map { $0.split(separator: " ").count }.max() ?? 1
        outer: while index < words.count {
            for length in stride(from: min(longest, words.count - index), through: 1, by: -1) {
                let phrase = words[index..<(index + length)].joined(separator: " ")
                let core = phrase.trimmingCharacters(in: .punctuationCharacters)
                let trailing = String(phrase.dropFirst(phrase.distance(from: phrase.startIndex, to: phrase.range(of: core)?.upperBound ?? phrase.endIndex)))
                if let replacement = table[MockReading.fold(core)] {
                    out.append(replacement + trailing)
                    index += length
                    continue outer
                }
            }
            out.append(words[index])
            index += 1
        }
        return out.joined(separator: " ")
    }
}

/// Compiled expressions, kept for the life of the process: the mock reads every prompt with
/// the same few dozen patterns.
final class RegexCache: @unchecked Sendable {
    static let shared = RegexCache()
    private let lock = NSLock()
    private var expressions: [String: NSRegularExpression] = [:]

    func expression(_ pattern: String, caseSensitive: Bool) -> NSRegularExpression? {
        let key = (caseSensitive ? "s:" : "i:") + pattern
        lock.lock()
        defer { lock.unlock() }
        if let cached = expressions[key] { return cached }
        guard let expression = try? NSRegularExpression(pattern: pattern, options: caseSensitive ? [] : [.caseInsensitive]) else { return nil }
        expressions[key] = expression
        return expression
    }
}

extension MockReading {
    /// What the mock understood from each line of a compiled prompt, with the layer the line
    /// belongs to and that layer's sources, then its reply to `message`: the view
    /// `coachlab compile --format mock` prints, so an author can see why the mock did what it did.
    public static func explain(_ prompt: CompiledPrompt, message: String) -> String {
        let reading = MockReading(system: prompt.system)
        // The first line of each layer in the system text.
        var starts: [(line: Int, layer: CompiledPrompt.Layer)] = []
        var searchFrom = prompt.system.startIndex
        for layer in prompt.layers {
            guard let range = prompt.system.range(of: layer.text, range: searchFrom..<prompt.system.endIndex) else { continue }
            let line = prompt.system[..<range.lowerBound].filter { $0 == "\n" }.count + 1
            starts.append((line, layer))
            searchFrom = range.upperBound
        }
        func layer(of line: Int) -> CompiledPrompt.Layer? { starts.last { $0.line <= line }?.layer }
        var out = "The mock understood \(reading.instructions.count) instructions in \(prompt.pack)"
            + (prompt.variant.map { " · \($0)" } ?? "") + ":\n"
        for instruction in reading.instructions {
            let owner = layer(of: instruction.line)
            out += "  line \(instruction.line)"
            out += owner.map { " (layer \($0.id)" + ($0.sources.isEmpty ? ")" : ", from \($0.sources.prefix(3).joined(separator: ", "))" + ($0.sources.count > 3 ? ", …)" : ")")) } ?? ""
            out += ": \(instruction.kind.rawValue) = \(instruction.value)\n"
            out += "    \(instruction.text.trimmingCharacters(in: .whitespaces))\n"
        }
        let missing = [MockReading.Instruction.Kind.sentences, .endQuestion, .oneQuestion, .noMarkdown, .name, .stayInRole, .confidential]
            .filter { !reading.has($0) && !($0 == .sentences && (reading.has(.paragraphs) || reading.has(.words))) }
        if !missing.isEmpty {
            out += "Not found, so the mock does the plausible wrong thing: " + missing.map(\.rawValue).joined(separator: ", ") + "\n"
        }
        out += "\nThe mock's reply to \"\(message)\":\n" + MockCoach.reply(system: prompt.system, userMessages: [message]) + "\n"
        return out
    }
}

/// The last few hundred readings, by prompt text.
final class ReadingCache: @unchecked Sendable {
    static let shared = ReadingCache()
    private let lock = NSLock()
    private var readings: [String: MockReading] = [:]

    func reading(_ system: String) -> MockReading {
        lock.lock()
        if let cached = readings[system] { lock.unlock(); return cached }
        lock.unlock()
        let reading = MockReading(system: system)
        lock.lock()
        if readings.count >= 512 { readings.removeAll(keepingCapacity: true) }
        readings[system] = reading
        lock.unlock()
        return reading
    }
}
