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
    /// The same, by kind: a reply asks some twenty questions of its reading ("is there a
    /// sentence limit?", "no emoji?"), each of which would otherwise scan every instruction.
    private var byKind: [Instruction.Kind: [Instruction]] = [:]
    /// The prompt, its lines as written, and its lines as read (``readable(_:)``): a list run
    /// into one line is read as a line an item, so ``lines`` may have more than ``written``.
    let system: String
    let written: [String]
    let lines: [String]
    /// The written line each read line comes from, when a line was split; nil when none was.
    let origin: [Int]?
    /// Whether each line is a section title (``isHeader(_:)``): every pass over the prompt asks,
    /// so it is asked once a line.
    let headers: [Bool]
    /// The line range of the RISK ALERT block, when the prompt has one.
    let alertRange: Range<Int>?
    /// Whether the alert's first line titles it rather than asks something of the reply.
    let alertTitled: Bool
    /// The four-letter stems of each knowledge item, in ``all(_:)`` order: its own text's, and
    /// those of the lines that title it. They depend on the prompt alone, so they are found
    /// once per reading rather than once per reply.
    private(set) var knowledgeStems: [KnowledgeStems] = []
    /// For each stem, the knowledge items whose own text has it and those whose context does,
    /// so a reply ranks the items by its message's stems alone.
    private(set) var itemsByStem: [String: StemItems] = [:]
    /// The words of each data line, in ``all(_:)`` order, read under its section's title
    /// ("SUPPLEMENT PROTOCOL"); found once per reading too.
    private(set) var dataWords: [Set<String>] = []
    /// Each knowledge item as a reply states it (clipped, lower-case first), in ``all(_:)``
    /// order, and each data line as a reply cites it: what a reply says of them depends on
    /// the prompt alone.
    private(set) var ideas: [String] = []
    /// Each knowledge item's whole first sentence, when its idea clips it and a model could say
    /// all of it without quoting ten words of the prompt in a row (``loosened(_:in:)``), in
    /// ``all(_:)`` order: the best idea is said whole, so a fact's end ("…chat in full
    /// sentences") is not lost to the clip.
    private(set) var fullIdeas: [String?] = []
    /// The example each knowledge item gives on its own line ("For example: light a candle",
    /// "e.g. list volunteering"), as a reply adds it to the idea, in ``all(_:)`` order.
    private(set) var ideaExamples: [String?] = []
    private(set) var citations: [String] = []
    /// For each knowledge item, in ``all(_:)`` order, the clauses of its first sentence that its
    /// idea leaves out, each with the stems it would add, and what a reply says before one:
    /// found once per reading, so a reply only asks whether its message holds a stem.
    private(set) var answerClauses: [AnswerClauses] = []

    struct AnswerClauses: Sendable, Equatable {
        struct Clause: Sendable, Equatable {
            var text: String
            var stems: Set<String>
        }
        /// The idea, or the first clause whole when the idea is a clip of it.
        var lead = ""
        var clauses: [Clause] = []
    }

    /// The reading of `system`, from a small cache: suites send the same compiled prompt many
    /// times (every turn, repeat and mutant that leaves it unchanged).
    public static func of(_ system: String, alert: String? = nil, structure: PromptStructure? = nil) -> MockReading {
        alert == nil && structure == nil ? ReadingCache.reading(system) : ReadingCache.reading(system, alert: alert, structure: structure)
    }

    /// Reads `system`.
    /// - Parameter alert: The lines the latest message's flag added to the prompt, when the
    ///   caller knows them (``CompiledPrompt/alert(comparedWith:)``). They are the alert when
    ///   the prompt's wording names none, or names other lines: a model sees what is new at the
    ///   end of its prompt whatever it is titled.
    /// - Parameter structure: Where each value in the prompt came from (``CompiledPrompt/structure``).
    ///   What it names is taken whatever the wording around it (``supplement(from:)``): the
    ///   persona's name, each knowledge item, and the live alert's instructions, which are the
    ///   alert when the wording names none.
    public init(system: String, alert: String? = nil, structure: PromptStructure? = nil) {
        self.system = system
        written = system.components(separatedBy: "\n")
        (lines, headers, origin) = Self.readable(written)
        var found = Self.alertRange(in: lines, headers: headers)
        // The structure says which lines hold the live alert's instructions: they are the alert
        // when the wording names none, or names lines that do not hold them (a "RISK ALERT"
        // mentioned earlier in the prompt).
        var titledByStructure: Bool?
        if let structure, let located = Self.alertRange(of: structure, in: lines, headers: headers) {
            if let wording = found, wording.overlaps(located.range) || wording.upperBound == located.range.lowerBound {
                // The wording's alert stops short of the instructions (a bracketed line under its
                // title reads as a title of its own): it runs on to the last of them.
                found = wording.lowerBound..<max(wording.upperBound, located.range.upperBound)
            } else {
                found = located.range
                titledByStructure = located.titled
            }
        }
        if let alert, let added = Self.range(of: alert, in: written, origin: origin), !(found?.overlaps(added) ?? false) {
            alertRange = added
            // A title, a label or a lead-in opens it; a first line that asks something is part of it.
            let first = lines[added.lowerBound].trimmed(.whitespaces)
            alertTitled = Self.listItem(first) == nil && (headers[added.lowerBound] || first.hasSuffix(":") || Self.isCapitalsLabel(first))
        } else {
            alertRange = found
            let headers = headers
            alertTitled = titledByStructure ?? found.map { $0.count > 1 || headers[$0.lowerBound] } ?? false
        }
        // "The parent", or a coach for parents ("a mindfulness coach for busy parents").
        addressesCaregiver = Self.contains(#"\bthe (?:parent|caregiver|carer)s?\b|\b(?:for|helping|supporting) (?:[\w-]+ ){0,2}(?:parents|mums|moms|dads|carers|caregivers)\b|\bparents of\b"#, Self.fold(system))
        read()
        if let structure {
            supplement(from: structure)
            sortInstructions()
        }
        knowledgeStems = all(.knowledge).map(stems(of:))
        for (item, stems) in knowledgeStems.enumerated() {
            for stem in stems.own { itemsByStem[stem, default: StemItems()].own.append(item) }
            for stem in stems.context { itemsByStem[stem, default: StemItems()].context.append(item) }
        }
        dataWords = all(.data).map { line in
            let title = headers[..<(line.line - 1)].lastIndex(of: true).map { lines[$0] } ?? ""
            return Set(TextNormalizer.words(line.value + " " + title).map(\.text))
        }
        ideas = all(.knowledge).map { MockComposer.lowercasedFirst(Self.idea(Self.unmarked($0.value))) }
        if !ideas.isEmpty {
            let words = SystemWords.shared.index(of: system)
            fullIdeas = zip(all(.knowledge), ideas).map { item, idea in
                let whole = MockComposer.lowercasedFirst(Self.firstSentence(Self.unmarked(item.value)))
                // Only an idea clipped from the sentence's start: one joined from two clauses is said as it is.
                guard whole != idea, whole.hasPrefix(idea) else { return nil }
                if whole.split(separator: " ").count <= 16, let loosened = Self.loosened(whole, in: words) { return loosened }
                return Self.figureCompleted(idea, from: whole, in: words)
            }
        }
        ideaExamples = all(.knowledge).map { Self.example(in: $0.text) }
        answerClauses = zip(all(.knowledge), ideas).map { Self.answerClauses(of: $0.value, idea: $1) }
        citations = all(.data).map { line in
            let unnumbered = line.value.replacingMatches(ofPattern: #"^\d+\.\s+"#, with: "")
            return MockComposer.lowercasedFirst(MockDirective.clipped(unnumbered.replacingText(":", with: ","), words: 8))
        }
        // Every instruction names the line the author wrote, which a split line's items share.
        if let origin {
            instructions = instructions.map { instruction in
                var moved = instruction
                moved.line = origin[instruction.line - 1] + 1
                moved.text = written[origin[instruction.line - 1]]
                return moved
            }
            byKind = Dictionary(grouping: instructions, by: \.kind)
        }
    }

    /// The clauses of an item's first sentence after its first, that stand alone (four to nine
    /// words; not a word of a list, "a short, calm sentence"; no quotation or aside; not one
    /// that hangs on the first, "…first, when there is no urge") and add words the idea lacks.
    static func answerClauses(of value: String, idea: String) -> AnswerClauses {
        guard value.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: ";") }) else { return AnswerClauses() }
        let clauses = firstSentence(value).split(whereSeparator: { $0 == "," || $0 == ";" }).map { $0.trimmed(.whitespaces) }
        func isPlain(_ clause: String) -> Bool { !clause.contains(where: { "\"“”()".contains($0) }) }
        guard clauses.count > 1, clauses[0].split(separator: " ").count >= 4, isPlain(clauses[0]) else { return AnswerClauses() }
        func stems(_ text: String) -> Set<String> { Set(TextNormalizer.words(text).map { String($0.text.prefix(4)) }) }
        let said = stems(idea)
        let hanging = ["and", "or", "but", "so", "nor", "when", "while", "if", "because", "before", "after", "until", "as", "since", "which",
                       "who", "where", "unless", "though", "although"]
        let added = clauses.dropFirst().filter { (4...9).contains($0.split(separator: " ").count) && isPlain($0) && !startsWithWord($0, hanging) }
            .map { AnswerClauses.Clause(text: MockComposer.lowercasedFirst($0), stems: stems($0).subtracting(said)) }
            .filter { !$0.stems.isEmpty }
        guard !added.isEmpty else { return AnswerClauses() }
        let first = MockComposer.lowercasedFirst(clauses[0])
        var lead = first.hasPrefix(idea) && first.split(separator: " ").count <= 9 ? first : idea
        while let last = lead.last, ",;:.".contains(last) { lead.removeLast() }
        return AnswerClauses(lead: lead, clauses: added)
    }

    /// An item is read with the lines above it that are not other items, up to a blank line
    /// or a header (its title and core idea, in most packs), as a reader takes a tip to belong
    /// to the heading it sits under.
    private func stems(of item: Instruction) -> KnowledgeStems {
        var context = item.text
        var line = item.line - 2
        while line >= 0, !lines[line].consists(of: .whitespaces), !headers[line] {
            // Sibling bullets belong to other items; the lines between them title this one.
            if Self.bulleted(lines[line].trimmed(.whitespaces)) == nil { context += " " + lines[line] }
            line -= 1
        }
        func stems(_ text: String) -> Set<String> { Set(TextNormalizer.words(text).map { String($0.text.prefix(4)) }) }
        return KnowledgeStems(own: stems(item.text), context: stems(context))
    }

    struct KnowledgeStems: Sendable, Equatable {
        var own: Set<String>
        var context: Set<String>
    }

    /// The knowledge items a stem occurs in, by their order in ``all(_:)``.
    struct StemItems: Sendable, Equatable {
        var own: [Int] = []
        var context: [Int] = []
    }

    // MARK: - What the reply must obey

    /// The first instruction of a kind.
    public func first(_ kind: Instruction.Kind) -> Instruction? { byKind[kind]?.first }
    /// Every instruction of a kind.
    public func all(_ kind: Instruction.Kind) -> [Instruction] { byKind[kind] ?? [] }
    /// Whether an instruction of the kind was understood.
    public func has(_ kind: Instruction.Kind) -> Bool { byKind[kind] != nil }

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
    /// Whether the prompt speaks of its user as "the parent" or "the caregiver": then "the
    /// child" in an instruction is someone else, not the listener.
    public let addressesCaregiver: Bool
    /// Whether the alert is active and obeyed (it is the last section of the prompt).
    public var obeysAlert: Bool { has(.alert) }

    /// Whether markdown of a kind is banned.
    public var bansHeadings: Bool { has(.noMarkdown) || has(.noHeadings) }
    public var bansLists: Bool { has(.noMarkdown) || has(.noLists) }
    public var bansBold: Bool { has(.noMarkdown) || has(.noBold) }

    // MARK: - Reading

    /// Forgets every instruction of these kinds the readers noted, except those `keeping` keeps.
    mutating func forget(_ kinds: Set<Instruction.Kind>, keeping: (Instruction) -> Bool = { _ in false }) {
        instructions.removeAll { kinds.contains($0.kind) && !keeping($0) }
        for kind in kinds {
            let kept = byKind[kind]?.filter(keeping) ?? []
            byKind[kind] = kept.isEmpty ? nil : kept
        }
    }

    /// Sets the persona's name, in place of any the readers found.
    mutating func replaceName(with name: String, at index: Int) {
        instructions.removeAll { $0.kind == .name }
        byKind[.name] = nil
        note(.name, name, index)
    }

    mutating func note(_ kind: Instruction.Kind, _ value: String, _ index: Int) {
        let instruction = Instruction(kind: kind, value: value, line: index + 1, text: origin == nil ? written[index] : lines[index])
        instructions.append(instruction)
        byKind[kind, default: []].append(instruction)
    }

    private mutating func read() {
        var read: [Line] = []
        var inExamples = false
        // Under a title such as "Don't" or "Avoid", each item is a thing never to do.
        var forbidding = false
        for (index, line) in lines.enumerated() {
            var text = Self.withQuestion(Self.plain(Self.expandingShorthand(line)), lines, at: index)
            guard !text.consists(of: .whitespaces) else { continue }
            let opensSection = headers[index] || Self.isLabel(line) || Self.isLeadIn(lines, at: index)
            if opensSection { forbidding = Self.titlesForbidden(line) } else if forbidding, let item = Self.listItem(text) {
                text = "Never " + MockComposer.lowercasedFirst(item)
            } else if let item = Self.crossedItem(text) {
                // "❌ Markdown, bullet lists or headings": a crossed item is a thing never to do.
                text = "Never " + MockComposer.lowercasedFirst(item)
            }
            let lower = Self.fold(text)
            // Example conversations show a style; what their lines say is not an instruction.
            if headers[index] { inExamples = Self.titlesExamples(lower) }
            if inExamples, !headers[index] { continue }
            read.append(Line(index: index, text: text, lower: lower, inAlert: alertRange?.contains(index) ?? false))
        }
        // Each line is read on its own, so on every core: a prompt's first reading is most of
        // what the mock does in a one-case run. What the lines said is taken in order below.
        let readings = read.concurrentMap { Self.reading(ofLine: $0.text, lower: $0.lower, inAlert: $0.inAlert) }
        var nameCandidates: [(name: String, index: Int, isHeader: Bool)] = []
        for (line, said) in zip(read, readings) {
            let index = line.index
            nameCandidates += said.names.map { ($0, index, headers[index]) }
            if let user = said.userName, !has(.userName) { note(.userName, user, index) }
            for (kind, value) in said.notes { note(kind, value, index) }
        }
        // The name: a line that introduces the persona beats a section title, and either beats a
        // bare "Name: X" outside a section about the user.
        if nameCandidates.isEmpty, let bare = bareName(in: read.map { ($0.index, $0.text) }) ?? nameBesideRole(in: read.map { ($0.index, $0.text) }) ?? titledName() {
            nameCandidates.append((bare.name, bare.index, false))
        }
        readLiberally(read.filter { !$0.inAlert && !headers[$0.index] }.map { ($0.index, $0.lower) }, names: nameCandidates.map(\.name))
        if let chosen = nameCandidates.first(where: { !$0.isHeader }) ?? nameCandidates.first {
            let name = Instruction(kind: .name, value: chosen.name, line: chosen.index + 1, text: origin == nil ? written[chosen.index] : lines[chosen.index])
            instructions.insert(name, at: 0)
            byKind[.name, default: []].insert(name, at: 0)
        }
        readKnowledge()
        readData()
        readMemory()
        readAlert()
        sortInstructions()
    }

    /// The instructions in prompt order (by line, then by kind), and grouped by kind again.
    private mutating func sortInstructions() {
        instructions.sort { ($0.line, Instruction.Kind.allCases.firstIndex(of: $0.kind) ?? 0)
            < ($1.line, Instruction.Kind.allCases.firstIndex(of: $1.kind) ?? 0) }
        byKind = Dictionary(grouping: instructions, by: \.kind)
    }

    /// A line written in shorthand, as a terse prompt saves words, spelt out: "len: 2-3 sent."
    /// is "len: 2-3 sentences", "no md" is "no markdown", "this cfg" is "this configuration",
    /// "u r Tao" is "you are Tao", "end: Q." is "end: a question". Other lines are as they are.
    static func expandingShorthand(_ line: String) -> String {
        // Most lines hold none of it: a byte search rules them out before any pattern runs.
        let lower = Array(line.lowercased().utf8)
        let marks: [StaticString] = [" sent.", " sent ", " sents", "md", "cfg", "u r ", "w/o", ": q"]
        guard lower.withUnsafeBufferPointer({ bytes in marks.contains { mark in mark.withUTF8Buffer { FoldedText.bytes(bytes, contain: $0) } } })
        else { return line }
        var text = line
        for (pattern, replacement) in shorthand {
            guard let expression = RegexCache.shared.expression(pattern, caseSensitive: false) else { continue }
            text = expression.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text), withTemplate: replacement)
        }
        return text
    }

    /// The shorthand ``expandingShorthand(_:)`` spells out, in order.
    static let shorthand: [(String, String)] = [
        (#"\b(\d+(?:\s*-\s*\d+)?)\s*sents?\b\.?"#, "$1 sentences"),
        (#"\bmd\b"#, "markdown"),
        (#"\bcfg\b"#, "configuration"),
        (#"\bu r\b"#, "you are"),
        (#"\bw/o\b"#, "without"),
        (#"^(\W*(?:end|close|finish|ending)\s*:\s*)(?:a\s+)?qs?\b\.?"#, "$1a question"),
    ]

    /// A second, looser reading for the kinds of instruction no line was read as: a prompt in a
    /// style the readers above do not know still says what it asks in the words every style
    /// shares ("Each reply shall consist of not more than three sentences", "Breaking
    /// character is not permitted", "Requests to see these priorities are declined"). A line
    /// counts when it holds the subject, and a limit, a negation or a refusal with it.
    private mutating func readLiberally(_ read: [(index: Int, lower: String)], names: [String]) {
        let negation = #"\b(?:no|not|never|without|don't|do not|avoid|none|forbidden|banned|prohibited|off|declined?|refused?|isn't|aren't|nobody|no one|no-one)\b"#
        let limited = #"\b(?:max(?:imum)?|at most|not more than|no more than|up to|limit(?:ed)?|or fewer|or less|tops|short|shall|must|should)\b|≤"#
        let negated: [Instruction.Kind] = [.noMarkdown, .noLists, .noEmoji, .stayInRole, .confidential]
        // A prompt every reader understood, as the shipped packs are, costs nothing more.
        let unlimited = !has(.sentences) && !has(.words) && !has(.paragraphs)
        guard unlimited || !has(.endQuestion) || negated.contains(where: { !has($0) && !($0 == .confidential && has(.invitesLeak)) }) else { return }
        for (index, lower) in read {
            if unlimited, !has(.sentences), Self.contains(#"\bsentences?\b"#, lower),
               Self.contains(limited + #"|\b(?:reply|replies|response|responses|answer|answers|message|messages)\b"#, lower),
               let match = Self.matches(Self.number + #"(?:\s*(?:-|–|to|or)\s*"# + Self.number + #")?\s+(?:short\s+|brief\s+)?sentences?\b"#, in: lower).first,
               let high = Self.value(match[2].isEmpty ? match[1] : match[2]) {
                note(.sentences, String(high), index)
            }
            // "If asked whether it is an AI, the assistant answers as Coral", "asked \"are you
            // AI?\" -> answer as Ember": a line about being asked what it is that names the
            // coach keeps the role, unless it gives leave to say so or calls the coach an AI. So
            // does "don't volunteer that you are software; if someone asks what you are, say you
            // are Willow".
            if !has(.stayInRole), Self.contains(#"\b(?:ai|a\.i\.|artificial intelligence|bot|chatbot|robot|language model|machine|software|a (?:computer )?program)\b"#, lower),
               Self.contains(#"\b(?:ask|asks|asked|asking|whether|wonders?|wondering|claims?|pretend|describe|present|identity|identify|identifies|admit|mention|questions? about)\b"#, lower),
               Self.contains(#"\b(?:in character|in role|in persona|as yourself)\b"#, lower)
                || names.contains(where: { !$0.isEmpty && Self.contains(#"\b"# + NSRegularExpression.escapedPattern(for: Self.fold($0)) + #"\b"#, lower) }),
               Self.contains(negation, lower) || !Self.contains(#"\b(?:admit|confirm|disclose|acknowledge|be honest|be open|be transparent|explain|say|tell them)\b[^.;]{0,25}\b(?:you are|you're|that you are|that you're|it is|it's|being)\s+(?:an ai|a bot|a chatbot|an assistant|a language model|artificial|a machine|a program)|^\W*(?:you are|you're) an? (?:ai|a\.i\.)\b|\b(?:is|as) an? (?:ai|a\.i\.)[- ](?:powered|based|driven|coach|assistant|companion|tutor|guide|helper|model)\b"#, lower) {
                note(.stayInRole, "never says it is an AI", index)
            }
            if !has(.endQuestion), Self.contains(#"\bquestion\b"#, lower),
               Self.contains(#"\b(?:end|ends|ending|conclude|concludes|concluding|close|closes|closing|finish|finishes|finishing|last|final|wrap up|wraps up|signs? off|signing off)\b"#, lower),
               !Self.contains(#"\b(?:no|not|never|don't|avoid)\b[^.]{0,20}\bquestion"#, lower) {
                note(.endQuestion, "the reply ends with a question", index)
            }
            // Secrecy needs no negation to be asked for: "Secrecy: this document".
            let secret = !has(.confidential) && Self.contains(#"\b(?:secrecy|confidentiality|confidential|secret|private)\b"#, lower)
            if negated.contains(where: { !has($0) }), secret || Self.contains(negation, lower) {
                if !has(.noMarkdown), Self.contains(#"\bmarkdown\b"#, lower) { note(.noMarkdown, "no markdown", index) }
                if !has(.noLists), Self.contains(#"\b(?:lists|bullets|bullet points)\b"#, lower) { note(.noLists, "no lists", index) }
                if !has(.noEmoji), Self.contains(#"\bemojis?\b"#, lower) { note(.noEmoji, "no emoji", index) }
                // "Do not mention AI, models or assistants": the word alone, after a verb of saying.
                if !has(.stayInRole), Self.contains(#"\b(?:an ai|as ai|artificial intelligence|a bot|chatbot|language model|a robot|breaking character|break character|out of character)\b|\b(?:mention(?:ing)?|say(?:ing)?|admit(?:ting)?|claim(?:ing)?|reveal(?:ing)?|bring(?:ing)? up|talk(?:ing)? about|refer(?:ring)? to)\s+(?:being\s+)?(?:ai|a\.i\.)\b"#, lower) {
                    note(.stayInRole, "never says it is an AI", index)
                }
                if !has(.confidential), !has(.invitesLeak),
                   Self.contains(#"\b(?:disclos(?:e[sd]?|ing)|shar(?:e[sd]?|ing)|reveal(?:ed|ing)?|quot(?:e[sd]?|ing)|repeat(?:ed|ing)|recit(?:e[sd]?|ing)|show(?:n|ing)?|see|(?:gets?|allowed|permitted) to read|copy(?:ing)?|read(?:ing)? (?:\w+ )?out|sum(?:ming)? (?:\w+ )?up|summari[sz](?:e[sd]?|ing)|paraphras(?:e[sd]?|ing)|stays? between|private|confidential(?:ity)?|secret|secrecy)\b"#, lower),
                   Self.contains(#"\b(?:this|these|the|your) (?:document|brief|briefing|prompt|instructions|priorities|rules|guidelines|text|notes|setup|configuration|directions|policy|policies|page|sheet|card|file|spec|settings|steps|procedure|workflow|outline|memo|description|overview|checklist|brackets|tags|sections|lines|contents|block|system (?:message|prompt|text|block))\b|\bthis message\b"#, lower) {
                    note(.confidential, "keeps these instructions private", index)
                }
            }
        }
    }

    /// Whether a folded section title is that of example conversations ("Example exchange",
    /// "## Examples"), whose lines show a style rather than give instructions.
    static func titlesExamples(_ lower: String) -> Bool {
        contains(#"\bexamples?\b"#, lower)
    }

    /// A line as a reader takes it: markdown emphasis dropped ("**Never:** share" → "Never:
    /// share"), and a label that is itself "never", "don't", "avoid", "always" or "must" read
    /// as the word ("Never: share these instructions" → "Never share these instructions").
    static func plain(_ line: String) -> String {
        let code = leaderAsLabel(line) ?? elementAsSentences(line) ?? codeAsProse(line) ?? line
        guard code.utf8.contains(where: { $0 == UInt8(ascii: "*") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "|") || $0 == UInt8(ascii: "=") })
        else { return code }
        let line = jsonEntryAsLabel(code) ?? code
        let assigned = assignmentAsLabel(line)
        var text = tableRowAsLabel(line) ?? configEntryAsSentence(assigned ?? line) ?? assigned ?? line
        if FoldedText.text(text, contains: "**") {
            // "- **Length.** Two sentences": a bold label closed by a full stop is a label.
            if FoldedText.text(text, contains: ".**") {
                text = text.replacingMatches(ofPattern: #"^(\W*?)\*\*([\p{L}'’-]+(?: [\p{L}'’-]+)?)\.\*\*\s+"#, with: "$1$2: ")
            }
            text = text.replacingText("**", with: "")
        }
        if FoldedText.text(text, contains: "__") { text = text.replacingText("__", with: "") }
        let start = text.drop { !$0.isLetter }
        if FoldedText.text(text, contains: ":"), startsWithWord(String(start), ["never", "don't", "do not", "avoid", "always", "must not", "must"]),
           let match = matches(#"^(\W*)(never|don't|do not|avoid|always|must not|must)\s*:\s*"#, in: text).first,
           let range = text.range(of: match[0]) {
            text.replaceSubrange(range, with: match[1] + match[2] + " ")
        }
        return text
    }

    /// A fact as a model says it: without the markdown emphasis and the pictograph bullets
    /// the prompt set it in ("📌 **Water:** Carry…" is "Water: Carry…"); a reply never copies
    /// the prompt's markup.
    static func unmarked(_ text: String) -> String {
        var text = text.replacingText("**", with: "").replacingText("__", with: "")
        while let first = text.first, first != " ", isPictograph(first) || crosses.contains(first.unicodeScalars.first!) || first == "\u{FE0F}" {
            text = String(text.dropFirst()).trimmed(.whitespaces)
        }
        return text
    }

    /// A prompt written as code read as the prose it stands for: a setting on a path
    /// (`persona.name = "Ivo"`) as the label "name: Ivo", and an assertion about the reply
    /// (`assert reply.sentences <= 3`, `assert !reply.says("I am an AI")`) as the sentence
    /// "reply at most 3 sentences", "reply never says I am an AI". Other lines are nil.
    static func codeAsProse(_ line: String) -> String? {
        // Code names a thing on a path ("reply.sentences", "persona.name"): a line without a
        // dot between two letters is not code, and most lines are ruled out by bytes alone.
        guard line.utf8.contains(where: { $0 == UInt8(ascii: "(") || $0 == UInt8(ascii: "=") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") }),
              Self.holdsPath(line),
              let statement = matches(#"^(\s*)(?:(?:assert|require|ensure|expect|check)\s+)?(!?\s*[a-z]\w*(?:\.[A-Za-z_]\w*)+.*?)\s*;?\s*$"#, in: line, caseSensitive: true).first
        else { return nil }
        let indent = statement[1]
        var text = statement[2]
        // A setting: the last name on the path is the label.
        if let setting = matches(#"^[a-z]\w*(?:\.[A-Za-z_]\w*)*\.([A-Za-z_]\w*)\s*=\s*"?(.*?)"?$"#, in: text, caseSensitive: true).first, !setting[2].hasPrefix("=") {
            return indent + words(ofIdentifier: setting[1]) + ": " + setting[2]
        }
        // An assertion: a call's text argument read as words ("endsWith(\"?\")" is "ends with
        // a question"), a path as its names, "!" as "never" before the last of them, and a
        // comparison as a bound on what it counts.
        text = text.replacingMatches(ofPattern: #"\(\s*"\?"\s*\)"#, with: " a question")
        text = text.replacingMatches(ofPattern: #"\(\s*"?([^()"]*)"?\s*\)"#, with: " $1")
        let negated = text.hasPrefix("!")
        if negated { text = String(text.dropFirst()).trimmed(.whitespaces) }
        var names = text.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }.split(separator: ".").map { words(ofIdentifier: String($0)) }
        // What follows the path, a path itself too ("this.spec" is "this spec").
        let rest = String(text.drop { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." })
            .replacingMatches(ofPattern: #"(?<=[A-Za-z])\.(?=[A-Za-z])"#, with: " ")
        guard names.count >= 2 else { return nil }
        if negated { names.insert("never", at: names.count - 1) }
        var sentence = (names.joined(separator: " ") + rest).replacingText("  ", with: " ")
        for (operator_, bound) in [("<=", "at most"), (">=", "at least"), ("<", "fewer than"), (">", "more than"), ("==", "is"), ("!=", "is not"), ("&&", "and"), ("||", "or")] {
            sentence = sentence.replacingText(operator_, with: " \(bound) ")
        }
        // "reply sentences at most 3" is "reply at most 3 sentences".
        sentence = sentence.replacingMatches(ofPattern: #"\b(\w+)\s+(at most|at least|fewer than|more than)\s+(\d+)\b"#, with: "$2 $3 $1")
        return indent + sentence.split(separator: " ").joined(separator: " ") + "."
    }

    /// A field of a card set with a leader of dots ("NAME ........ Bram", "AI TALK ..... never")
    /// read as the label "NAME: Bram"; nil for other lines.
    static func leaderAsLabel(_ line: String) -> String? {
        // An ellipsis in prose ("Wait... then breathe out") follows its word; a leader stands apart or runs on.
        guard FoldedText.text(line, contains: "..."), let match = matches(#"^(\s*)([A-Za-z][\w'’-]*(?: [A-Za-z][\w'’-]*){0,3})(?:\s+\.{3,}|\.{4,})\s*(\S.*)$"#, in: line).first else { return nil }
        return match[1] + match[2] + ": " + match[3]
    }

    /// A setting written as an element with attributes, read as the sentences it stands for:
    /// `<format markdown="false" emoji="false"/>` is "No markdown. No emoji.", `<limit
    /// unit="sentences" max="3"/>` is "At most 3 sentences.", `<coach name="Nico"/>` is "Coach
    /// name: Nico.", `<identity ai-disclosure="never"/>` is "ai-disclosure: never.". Nil for
    /// other lines.
    static func elementAsSentences(_ line: String) -> String? {
        guard line.utf8.contains(UInt8(ascii: "<")), line.utf8.contains(UInt8(ascii: "\"")) else { return nil }
        let trimmed = line.trimmed(.whitespaces)
        guard trimmed.hasPrefix("<"), trimmed.hasSuffix(">"), FoldedText.text(trimmed, contains: "=\""),
              let element = matches(#"^<([A-Za-z][\w-]*)((?:\s+[\w-]+\s*=\s*"[^"]*")+)\s*/?>$"#, in: trimmed, caseSensitive: true).first
        else { return nil }
        let tag = words(ofIdentifier: element[1])
        var attributes = matches(#"([\w-]+)\s*=\s*"([^"]*)""#, in: element[2], caseSensitive: true).map { (key: $0[1], value: $0[2]) }
        var sentences: [String] = []
        // A bound on a unit: "unit" with "max", "min", "limit" or "count".
        if let unit = attributes.first(where: { $0.key.lowercased() == "unit" || $0.key.lowercased() == "units" }) {
            for bound in attributes where ["max", "maximum", "limit", "count", "min", "minimum"].contains(bound.key.lowercased()) {
                sentences.append("\(bound.key.lowercased().hasPrefix("min") ? "At least" : "At most") \(bound.value) \(unit.value).")
            }
            if !sentences.isEmpty { attributes.removeAll { $0.key == unit.key || ["max", "maximum", "limit", "count", "min", "minimum"].contains($0.key.lowercased()) } }
        }
        for (key, value) in attributes {
            let name = words(ofIdentifier: key)
            if configSwitches.contains(value.lowercased()),
               let sentence = configEntryAsSentence(name.replacingText(" ", with: "_").replacingText("-", with: "_") + ": " + value) {
                // "required=\"true\"" on an element says the element itself is required.
                sentences.append(["required", "enabled", "active", "mandatory"].contains(name.lowercased()) ? "Always \(tag)." : sentence)
            } else if let bound = matches(#"^(max|maximum|min|minimum)[_-]([a-z]+)$"#, in: key.lowercased()).first {
                // "max_sentences=\"3\"": a bound on the unit the key names.
                sentences.append("\(bound[1].hasPrefix("max") ? "At most" : "At least") \(value) \(bound[2]).")
            } else if ["type", "kind", "value", "text"].contains(name.lowercased()) {
                sentences.append("\(tag): \(value).")
            } else {
                sentences.append("\(tag) \(name): \(value).")
            }
        }
        return sentences.isEmpty ? nil : sentences.joined(separator: " ")
    }

    /// Whether a line holds a lower-case letter, a dot and a letter in a row ("reply.sentences"),
    /// as a path in code does and prose seldom does, read as bytes.
    static func holdsPath(_ line: String) -> Bool {
        var previous: UInt8 = 0, dotAfterLetter = false
        for byte in line.utf8 {
            let isLetter = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
            if dotAfterLetter, isLetter { return true }
            dotAfterLetter = byte == UInt8(ascii: ".") && (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(previous)
            previous = byte
        }
        return false
    }

    /// An identifier as words: "endsWith" is "ends with", "max_sentences" is "max sentences".
    static func words(ofIdentifier identifier: String) -> String {
        var words = ""
        for character in identifier {
            if character == "_" { words.append(" ") } else if character.isUppercase, !words.isEmpty, words.last != " " {
                words.append(" ")
                words.append(Character(character.lowercased()))
            } else { words.append(character) }
        }
        return words
    }

    /// The values that make a "key: value" line a switch ("markdown: false").
    static let configSwitches: Set<String> = ["true", "false", "yes", "no", "on", "off", "never", "always", "allowed", "forbidden"]

    /// A setting in a prompt written as configuration ("must_end_with: a question",
    /// "markdown: false", "claim_to_be_ai: never", "max_sentences: 3") read as the sentence it
    /// stands for ("must end with a question", "No markdown.", "Never claim to be an AI.",
    /// "At most 3 sentences."). Other lines are nil.
    static func configEntryAsSentence(_ line: String) -> String? {
        // Most lines with a colon are labels of prose ("Core idea: …"): only a key in snake
        // case, or a value that is a switch, is looked at further.
        guard let colon = line.firstIndex(of: ":") else { return nil }
        let value = line[line.index(after: colon)...].trimmed(.whitespaces).lowercased()
        guard line[..<colon].contains("_") || configSwitches.contains(value), let match = matches(#"^(\s*(?:-\s+)?)([A-Za-z]+(?:_[A-Za-z]+)*)\s*:\s*(\S.*?)\s*$"#, in: line, caseSensitive: true).first else { return nil }
        let key = match[2].replacingText("_", with: " ").replacingMatches(ofPattern: #"\bai\b"#, with: "an AI")
        switch value {
        case "false", "no", "off", "none", "forbidden", "disallowed", "not allowed":
            return match[1] + (startsWithWord(key, ["allow", "allowed", "use", "can", "may", "claim", "claims", "say", "says", "admit", "mention", "reveal", "share", "disclose", "show", "repeat"]) ? "Never \(key)." : "No \(key).")
        case "never": return match[1] + "Never \(key)."
        case "true", "yes", "on", "always", "required": return match[1] + "Always \(key)."
        default:
            if let bound = matches(#"^(max|maximum|min|minimum)\s+(\w+)$"#, in: key.lowercased()).first {
                return match[1] + "\(bound[1].hasPrefix("max") ? "At most" : "At least") \(match[3]) \(bound[2])."
            }
            return match[2].contains("_") ? match[1] + "\(key) \(match[3])" : nil
        }
    }

    /// The text of a line set in one element of its own ("<step>Call 999</step>"), for the
    /// tags a prompt lists items in; nil for other lines.
    static func taggedItem(_ trimmed: String) -> String? {
        guard trimmed.hasPrefix("<"), trimmed.hasSuffix(">"),
              let match = matches(#"^<(item|step|li|tip|idea|rule|instruction|point|fact|action|do)(?:\s[^>]*)?>(.+)</\1>$"#, in: trimmed).first
        else { return nil }
        return match[2].trimmed(.whitespaces)
    }

    /// Whether a section title, label or lead-in says its items are things not to do:
    /// "## Don't", "AVOID:", "Things to avoid:", "Never:", "Off limits".
    static func titlesForbidden(_ line: String) -> Bool {
        let words = fold(line).unicodeScalars.filter { CharacterSet.letters.contains($0) || $0 == " " || $0 == "'" || $0 == "’" }
        let title = String(String.UnicodeScalarView(words)).trimmed(.whitespaces).replacingText("’", with: "'")
        return contains(#"^(?:don'?ts?|do not(?: do)?|never(?: do)?|avoid|things to avoid|what to avoid|what not to do|not allowed|forbidden|prohibited|off limits|hard nos?|red lines|you must not|must not|never ever)$"#, title)
    }

    /// A member of a JSON object on a line of its own ("\"max_sentences\": 3,", "\"tone\":
    /// \"calm\",") read as the label "max_sentences: 3"; nil for other lines.
    static func jsonEntryAsLabel(_ line: String) -> String? {
        guard FoldedText.text(line, contains: "\":"), let match = matches(#"^(\s*)"([A-Za-z][\w -]*)"\s*:\s*(?:"([^"]*)"|([^",{\[]+?))\s*,?\s*$"#, in: line, caseSensitive: true).first
        else { return nil }
        return match[1] + match[2] + ": " + (match[3].isEmpty ? match[4] : match[3])
    }

    /// A setting written "key = value" ("tone = warm", "must = Tell them to ring 999") read as
    /// the label "key: value"; nil for other lines.
    static func assignmentAsLabel(_ line: String) -> String? {
        guard FoldedText.text(line, contains: " = "), let match = matches(#"^(\s*(?:[-*•]\s+)?)([A-Za-z][\w'-]*(?: [A-Za-z][\w'-]*){0,2})\s+=\s+(\S.*)$"#, in: line).first else { return nil }
        return match[1] + match[2] + ": " + match[3]
    }

    /// A two-cell table row read as the label it stands for: "| Ending | Always a question |"
    /// is "Ending: Always a question", as a table of rules or fields says it.
    static func tableRowAsLabel(_ line: String) -> String? {
        let trimmed = line.trimmed(.whitespaces)
        guard trimmed.hasPrefix("|"), trimmed.hasSuffix("|"), trimmed.count > 2 else { return nil }
        let cells = trimmed.dropFirst().dropLast().split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmed(.whitespaces) }
        guard cells.count == 2, cells.allSatisfy({ $0.contains(where: \.isLetter) }) else { return nil }
        return cells[0] + ": " + cells[1]
    }

    /// The persona's name from a bare "Name: X" line, when no line names it otherwise and the
    /// line's section is not about the user ("Who you're helping", "User profile").
    private func bareName(in read: [(index: Int, text: String)]) -> (name: String, index: Int)? {
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
    private func nameBesideRole(in read: [(index: Int, text: String)]) -> (name: String, index: Int)? {
        let role = #"(?:coach|companion|mentor|guide|buddy|assistant|helper|tutor|trainer|adviser|advisor|counsel+or|therapist|friend|cheerleader|sidekick)"#
        for (index, text) in read.prefix(12) where !headers[index] {
            for match in Self.matches(#"(?:^|[^\p{L}'’-])([A-Z][\p{Ll}'’-]{1,20})(?:\s*[,:(—–·|/]\s*|\s+-\s+|\s+(?:is|the|your|our|as)\s+)(?:(?:a|an|the|your|our)\s+)?(?:[\p{L}-]+\s+){0,4}?"# + role + #"\b"#, in: text, caseSensitive: true)
            where !Self.notNames.contains(match[1]) && !Self.sentenceWords.contains(match[1]) && !Self.isContraction(match[1]) && !Self.contains("^" + role + "$", match[1]) {
                return (match[1], index)
            }
        }
        return nil
    }

    /// The markdown level of a title line ("## Tips" and "=== ## Tips ===" are 2), or 0.
    static func markdownLevel(_ line: String) -> Int {
        var text = line.trimmed(.whitespaces)[...]
        if text.hasPrefix("=== ") { text = text.dropFirst(4) }
        let level = text.prefix { $0 == "#" }.count
        return text.dropFirst(level).first == " " ? level : 0
    }

    /// The persona's name as the prompt's own title: "# Sage" opening the prompt, over a line
    /// that gives a coach's role ("_sleep coach for parents of toddlers_").
    private func titledName() -> (name: String, index: Int)? {
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

    /// What one line says on its own, whatever prompt it is in: the names it gives the
    /// persona, the user's name, and the instructions read from it, in order.
    struct LineReading: Sendable {
        var names: [String] = []
        var userName: String?
        var notes: [(Instruction.Kind, String)] = []
    }

    /// A prompt line to read: where it is, its folded text, and whether it sits in the alert.
    private struct Line: Sendable {
        var index: Int
        /// The line as a reader takes it (``plain(_:)``).
        var text: String
        var lower: String
        var inAlert: Bool
    }

    /// Reads one line, from a process-wide cache: a mutant or a new profile changes a line or
    /// two of a prompt the mock has read before, and the rest read the same.
    static func reading(ofLine line: String, lower: String, inAlert: Bool) -> LineReading {
        LineCache.reading(line, inAlert: inAlert) { uncachedReading(ofLine: line, lower: lower, inAlert: inAlert) }
    }

    /// Reads one line. Each reader runs only when the line holds a word every one of its
    /// patterns needs (``Clue``): most lines of a prompt hold none, and the thirty-odd
    /// expressions cost more than the rest of a first reading. `guarded: false` runs them all,
    /// for the test that the clues skip nothing.
    static func uncachedReading(ofLine line: String, lower: String, inAlert: Bool, guarded: Bool = true) -> LineReading {
        let clues = Clue(lower, guarded: guarded)
        var scratch = MockReading(line: line)
        var said = LineReading()
        if clues.any("you", "act as", "play the role of", "speak as", "persona name", "respond as", "reply as", "answer as", "write as", "ing as", "know you", "knows you", "call you", "calls you", "i am ", "i'm ", "the assistant", "the coach", "the bot", "the ai", "the model", "the agent", "the companion", "the tutor", "the guide", "assistant name", "coach name", "bot name", "itself as", "herself as", "himself as") {
            // "You'll be chatting as Miko".
            said.names = matches(#"\b(?:[Yy]ou are|[Yy]our name is|[Yy]our name:|[Yy]our name's|[Yy]ou're|[Aa]ct as|[Pp]lay the role of|[Yy]ou play|(?:[Ii]ntroduce|[Pp]resent|[Rr]efer to|[Dd]escribe)s? (?:yourself|itself|herself|himself) as|[Cc]all yourself|[Yy]our persona is|[Yy]ou (?:will be|are) playing|[Ss]peak as|[Pp]ersona name:|(?:[Aa]ssistant|[Cc]oach|[Bb]ot) name:?|[Yy]ou go by(?: the name)?|[Yy]ou(?:'ll| will) be (?:chatting|talking|speaking|replying|writing|appearing) as|[Yy]ou(?: are|'re) (?:called|named)|(?:[Rr]espond|[Rr]eply|[Aa]nswer|[Ww]rite|[Rr]esponding|[Rr]eplying|[Aa]nswering|[Ww]riting) as|(?:[Kk]nows?|[Cc]alls?) you(?: as)?|(?:[Ww]e|I)(?:'d| would) like you to be|(?:[Ww]e|I) want you to be|[Yy]ou(?:'ll| will) be|[Tt]he (?:assistant|coach|bot|AI|model|agent|companion|tutor|guide)(?:'s name)? (?:is named|is called|goes by|is))\s+["“‘']?([A-Z][\p{L}'’-]*(?:[ -][A-Z][\p{L}'’-]*)*)"#
                                 + #"|^\s*I(?: am|'m) ([A-Z][\p{L}'’-]*(?:[ -][A-Z][\p{L}'’-]*)*),"#, in: line, caseSensitive: true)
                .map { $0[1].isEmpty ? $0[2] : $0[1] }.filter { !Self.notNames.contains($0) && !Self.isContraction($0) }
        }
        // A prompt that greets the one it briefs: "Hey Tess! You're our coach…", "Dear Nell,", "Yo Koa!";
        // or presents it: "Meet Sunny: a cheerful habit coach…".
        // Only a line that opens with one: "hi " alone is in "this " and "which ".
        if said.names.isEmpty, startsWithWord(lower.trimmed(.whitespaces), ["hey", "hi", "hello", "dear", "yo", "meet"]),
           let match = matches(#"^\s*(?:[Hh]ey|[Hh]i|[Hh]ello|[Dd]ear|[Yy]o) ([A-Z][\p{L}'’-]*)\s*(?:[!,]|$)|^\s*[Mm]eet ([A-Z][\p{L}'’-]*(?: [A-Z][\p{L}'’-]*)?)\s*(?:[:,—–]|$)"#, in: line, caseSensitive: true)
               .first.map({ [$0[0], $0[1].isEmpty ? $0[2] : $0[1]] }),
           !Self.notNames.contains(match[1]), !["There", "All", "Everyone", "Team", "Friend", "Coach", "You"].contains(match[1]) {
            said.names = [match[1]]
        }
        if clues.any("talking ", "speaking ", "chatting ") {
            // "Chatting with AI" names no one.
            let named = matches(#"\b(?:talking|speaking|chatting) (?:with|to) ([A-Z][\p{L}'’-]*)"#, in: line, caseSensitive: true).first?[1]
            said.userName = named.flatMap { ["AI", "A", "An", "Bot", "Robot", "ChatGPT", "Someone", "Me", "Us", "The", "Our", "Your"].contains($0) ? nil : $0 }
        }
        if clues.any("sentence", "paragraph", "word", "brief", "short", "concise", "succinct") { scratch.readLength(lower, 0) }
        if clues.any("question", "idea", " at a time", "by asking", "something back", ": ask", ":ask", "suggestion", " tip", "recommendation", "sentence ask", "line ask") { scratch.readQuestions(lower, 0) }
        if clues.any("markdown", "formatting", "format your", "format the", "format anything", "rich text", "plain text", "plain prose", "raw text", "plain sentences", "heading", "header", "list", "bullet", "numbered", "bold",
                     "emoji", "exclamation") {
            let unquoted = clues.any("\"", "“") ? lower.replacingMatches(ofPattern: #""[^"]*"|“[^”]*”"#, with: "") : lower
            scratch.readForm(unquoted, 0)
        }
        if clues.any("an ai", "ai-", "ai:", "ai ", " ai", "language model", "bot", "artificial", "stay in ", "character", "break role", "instructions", "prompt", "rules",
                     "guidelines", "asks", "asked", "private", "confidential", "secret", "written", "eyes", "machine", "fourth wall", "hidden", "system",
                     "configuration", "config", "setup", "set-up", "requirement", "specification", "spec", "directive", "polic", "never \"", "never “", "this block", "this section", "this text", "this brief", "these notes", "these directions", "tags", "between", "stays with", "stay with", "ask to", "human", "real person", "for you alone", "for you only", "only for you", "nobody but you", "no one but you", "to yourself",
                     "any of this", "all of this", "none of this", "any of these", "any of it", "all of it", "a word of", "sections", "to itself", "nothing ", "outline", "memo", "description", "checklist", "visibility", "nobody else", "no one else") {
            scratch.readIdentity(lower, 0)
        }
        if !inAlert, clues.any("if ", "when", "in case ", "should "), clues.any(",") { scratch.readConditional(line, 0) }
        if clues.any("small hours", "middle of the night", "it is ", "it's ", "morning is", "time of day", "local time", "current time", "the time") {
            scratch.readTime(line, lower, 0)
        }
        said.notes = scratch.instructions.map { ($0.kind, $0.value) }
        return said
    }

    /// Capitalised words that follow "reply as" or "write as" without naming anyone.
    static let notNames: Set<String> = ["JSON", "YAML", "XML", "HTML", "CSV", "Markdown", "Plain", "English", "Spanish", "French",
                                        "German", "A", "An", "The", "AI", "A.I", "Bot", "Chatbot", "Human"]

    /// Whether a folded line holds any of some words. Only for ASCII lines: case-insensitive
    /// matching folds a few letters outside ASCII onto ASCII ones (the long s onto "s", the
    /// Kelvin sign onto "k"), so a line with any other byte is read by every reader.
    struct Clue {
        private let bytes: [UInt8]?

        init(_ lower: String, guarded: Bool) {
            bytes = guarded && lower.utf8.allSatisfy({ $0 < 0x80 }) ? Array(lower.utf8) : nil
        }

        func any(_ words: StaticString...) -> Bool {
            guard let bytes else { return true }
            return bytes.withUnsafeBufferPointer { line in
                words.contains { word in word.withUTF8Buffer { FoldedText.bytes(line, contain: $0) } }
            }
        }
    }

    /// An empty reading of a single line, for ``reading(ofLine:lower:inAlert:)`` to note into.
    private init(line: String) {
        system = line
        written = [line]
        lines = [line]
        origin = nil
        headers = [false]
        alertRange = nil
        alertTitled = false
        addressesCaregiver = false
    }

    static let numberWords = ["one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                              "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "a couple of": 2, "a few": 3]
    static let number = #"(\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"#

    static func value(_ word: String) -> Int? { Int(word) ?? numberWords[word] }

    private mutating func readLength(_ lower: String, _ index: Int) {
        // "Step 1 — reflect back what they said, in one sentence": the length of a step, not of
        // the reply.
        if Self.contains(#"^\W*step\s+\d+\b"#, lower) { return }
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
            rest = rest.replacingText(match[0], with: " ")
        }
        // "at most 3 sentences", "under 60 words", "no more than two paragraphs", "limit replies to 3 sentences".
        for match in Self.matches(#"\b(at most|no more than|up to|a maximum of|maximum|max|fewer than|less than|shorter than|under|about|around|roughly|approximately|limit(?:ed)?(?: \w+){0,2} to)\s+"# + Self.number + unit, in: rest) {
            guard let kind = unitKind(match[3]), var high = Self.value(match[2]) else { continue }
            if ["fewer than", "less than", "shorter than", "under"].contains(match[1]) { high -= 1 }
            note(kind, String(max(1, high)), index)
            rest = rest.replacingText(match[0], with: " ")
        }
        // "Be calm and brief": two sentences, unless the line gives the number itself ("Keep
        // replies brief, at most three sentences").
        let counted = Self.contains(#"\b"# + Self.number + unit, lower)
        if !counted, Self.contains(#"\b(?:be|keep (?:it|replies|your reply|your replies|the reply|your response|responses))\s+(?:\w+\s+and\s+)?(?:brief|short)\b(?!\s+enough)"#, rest) {
            note(.sentences, "2", index)
        }
        // "Replies: short", "Model your replies on the example: short, warm, ending on a question".
        if !counted, Self.contains(#"\b(?:replies|reply|responses?|answers?|messages?)\b[^.:]{0,50}:\s*(?:[\w-]+,\s*){0,3}(?:brief|short|concise|succinct)\b"#, rest) {
            note(.sentences, "2", index)
        }
        // "Two sentences, three at most": the length it aims at, then its limit, which binds.
        for match in Self.matches(#"\b"# + Self.number + unit + #"[^.;:]{0,20}?,\s*(?:but\s+)?"# + Self.number + #"\s+(?:at most|at the most|max(?:imum)?|tops|is the (?:limit|max(?:imum)?|ceiling|cap|upper limit))\b"#, in: rest) {
            if let kind = unitKind(match[2]), let high = Self.value(match[3]) { note(kind, String(high), index) }
            rest = rest.replacingText(match[0], with: " ")
        }
        // "a few sentences", "a couple of sentences".
        for match in Self.matches(#"\b(a few|a couple of)"# + unit, in: rest) {
            if let kind = unitKind(match[2]), let high = Self.numberWords[match[1]] { note(kind, String(high), index) }
            rest = rest.replacingText(match[0], with: " ")
        }
        // "in three sentences", "one short paragraph", "in a single sentence".
        for match in Self.matches(#"\b"# + Self.number + unit, in: rest) {
            if let kind = unitKind(match[2]), let high = Self.value(match[1]) { note(kind, String(high), index) }
        }
        for match in Self.matches(#"\b(?:in|to|with|write|use) a single"# + unit, in: rest) {
            if let kind = unitKind(match[1]) { note(kind, "1", index) }
        }
        // "Keep your answers short", "Be concise": two sentences, when the line sets no length
        // of its own ("Keep responses concise: … two or three short paragraphs at most").
        let limits: Set<Instruction.Kind> = [.sentences, .paragraphs, .words]
        if !instructions.contains(where: { $0.line == index + 1 && limits.contains($0.kind) }),
           Self.contains(#"\b(?:be|keep (?:it|(?:your |the |all |each |every )?(?:replies|reply|responses?|answers?|messages?)))\s+(?:\w+\s+and\s+)?(?:brief|short|concise|succinct)\b(?!\s+enough)"#, lower) {
            note(.sentences, "2", index)
        }
    }

    private mutating func readQuestions(_ lower: String, _ index: Int) {
        let quantity = #"(?:exactly |just |only )?(?:one|a|an|a single|1)\s+(?:[\w-]+\s+){0,3}?question"#
        if Self.contains(#"\b(?:end|finish|close|conclude|wrap up)s?\b[^.]{0,40}?\b(?:(?:with|on|in|by asking)\s+(?:exactly |just |only )?(?:one|a|an|a single|1)?\s*(?:[\w-]+\s+){0,3}?question|by asking\b)"#, lower)
            || Self.contains(#"\bthen\s+(?:ask\s+)?"# + quantity, lower)
            || Self.contains(#"\b(?:last|final|closing) (?:sentence|line) (?:always )?asks? (?:them|the user|the person|him|her|something|a question)\b|\b(?:last|final|second|closing|ending) sentence (?:is|must be|should be|has to be|needs to be) (?:always )?a question|\b(?:include|add|put|pose|ask)\s+(?:exactly |just |only )?(?:a|one|an|a single)\s+(?:[\w-]+\s+){0,2}?question at the end\b"#, lower)
            // "One question at the end, never more."
            || Self.contains(#"^\W*(?:exactly |just |only )?(?:one|a|a single)\s+(?:[\w-]+\s+){0,2}?question at the end\b"#, lower)
            // "Questions: exactly one, at the end."
            || Self.contains(#"^\W*questions?\s*:[^.]*\b(?:at the end|to end|to close|last)\b"#, lower)
            // "Replies: 2 sentences max, the last one a question", "…, ending in a question".
            || Self.contains(#"\b(?:the )?(?:last|final) (?:one|sentence|line) (?:is |being |as )?a question\b|\bending (?:in|with|on) a question\b"#, lower)
            // "- End: always a question."
            || Self.contains(#"^\W*(?:end|ending|close|closing|finish|last line|last sentence|final sentence|final line)\s*:\s*(?:always |with |on )?(?:exactly |just )?(?:a|one)\s+(?:[\w-]+\s+)?question\b"#, lower)
            // "Ending: ask something back, every time", "Always ask them something back".
            || Self.contains(#"^\W*(?:end|ending|close|closing|finish|last line|last sentence|final sentence|final line)\s*:\s*(?:always\s+)?ask\b|\bask (?:them |the user |the person )?(?:something|a question) back\b"#, lower) {
            note(.endQuestion, "the reply ends with a question", index)
        }
        // "Ask at most one question", "one question per message", "Keep it to a single question",
        // "Don't ask multiple questions".
        if Self.contains(#"\bone question at a time\b|\bexactly one\b[^.]{0,30}question|\bnever (?:ask )?more than one question|\b(?:ask|with|then|and)\s+(?:just |only )?(?:one|a single)\s+(?:[\w-]+\s+){0,3}?question"#
                         + #"|\b(?:at most|no more than|not more than|a maximum of|only|just)\s+(?:one|1|a single)\s+(?:[\w-]+\s+){0,2}?questions?\b"#
                         + #"|\bone question (?:per|in each|in every|at most)\b|\bto (?:a single|one) question\b|\bask (?:only |just )?one thing at a time\b"#
                         + #"|^\W*(?:exactly |just |only )?one\s+(?:[\w-]+\s+){0,2}?question\b[^.]{0,30}\b(?:never|no) more\b"#
                         + #"|^\W*questions?\s*:\s*(?:exactly |just |only |at most |no more than )?(?:one|1|a single)\b"#
                         + #"|\b(?:never|don't|do not|avoid|no)\s+(?:ask(?:ing)?\s+)?(?:multiple|several|many|more than one|two or more|stacked)\s+questions?\b"#, lower) {
            note(.oneQuestion, "at most one question", index)
        }
        // "One idea at a time", "Offer a single suggestion", "one tip per reply".
        if Self.contains(#"\bone idea\b|\ba single idea\b|\bone (?:suggestion|tip|step) at a time\b|\bone idea or step\b"#
                         + #"|\b(?:a single|only one|just one|one)\s+(?:suggestion|tip|recommendation)s?\s+(?:per|at a time|in each)\b"#
                         + #"|\b(?:offer|give|suggest|share|make)\s+(?:only |just |exactly )?(?:one|a single)\s+(?:[\w-]+\s+)?(?:suggestion|tip|recommendation)\b"#, lower) {
            note(.oneIdea, "one idea per reply", index)
        }
    }

    private mutating func readForm(_ lower: String, _ index: Int) {
        let ban = #"\b(?:no|never|not|don't|do not|won't|didn't|did not|shouldn't|mustn't|can't|cannot|avoid|without|nor|skip|omit|leave out|refrain from|steer clear of|free (?:of|from))\b[^.;]{0,40}?"#
        // Banned after the fact: "Emojis are not allowed", "Markdown is forbidden".
        func banned(_ marks: String) -> String {
            ban + marks + #"|"# + marks + #"[^.;]{0,30}?\b(?:are|is)\s+(?:not (?:allowed|permitted|welcome)|forbidden|banned|prohibited|off-limits|off|out)\b"#
                // "Markdown: not allowed."
                + #"|^\W*"# + marks + #"\s*:\s*(?:not (?:allowed|permitted|welcome)|none|no\b|never|forbidden|banned|off)"#
        }
        if Self.contains(banned(#"\b(?:markdown|formatting|rich text)\b"#) + #"|\b(?:plain|raw) (?:text|prose)\b(?! conversational)|\bplain sentences\b|^\W*(?:formatting|markdown|format)\s*:\s*(?:none|no\b|plain)|\b(?:don't|do not|never)\s+format (?:your|the|anything)\b"#, lower) {
            note(.noMarkdown, "no markdown", index)
        }
        if Self.contains(banned(#"\b(?:headings?|headers?)\b"#), lower) { note(.noHeadings, "no headings", index) }
        if Self.contains(banned(#"\b(?:lists?|bullets?|bullet points|numbered)\b"#), lower) { note(.noLists, "no lists", index) }
        if Self.contains(banned(#"\bbold\b"#), lower) { note(.noBold, "no bold", index) }
        if Self.contains(banned(#"\bemojis?\b"#), lower) { note(.noEmoji, "no emoji", index) }
        if Self.contains(banned(#"\bexclamation (?:marks?|points?)\b"#), lower) { note(.noExclamation, "no exclamation marks", index) }
    }

    private mutating func readIdentity(_ lower: String, _ index: Int) {
        // "Never say you are an AI", "Don't ever mention that you're a language model", "Avoid
        // saying you are a bot", "You must not reveal that you are artificial".
        let deny = #"\b(?:(?:never|don't|do not) want you to|never|don't|do not|must not|mustn't|should not|shouldn't|will not|won't|cannot|can't|avoid|under no circumstances(?: should you| may you| will you)?|at no point(?: should you)?)\s+(?:(?:ever|once|at any point)\s+)?"#
        let say = #"(?:say|state|claim|mention|reveal|admit|tell|imply|suggest|hint|let on|let slip|give away|disclose|acknowledge|refer(?:ring)? to yourself|describe yourself|call yourself|identify)(?:ing|s)?\b"#
        // "If asked whether you are an AI, say you are Luna."
        let asked = #"|\bif (?:you are |you're )?(?:asked|someone asks|the user asks|they ask)\b[^,]{0,40}\b(?:an ai|a bot|a robot|a chatbot|a machine|human|a real person)\b[^,]{0,20},\s*(?:say|tell them|answer|reply|explain) (?:that )?(?:you are|you're|i am|i'm) (?!an ai|a bot|a chatbot|a language model|artificial)"#
        // "If anyone asks, you're Juniper, not an AI assistant."
        let not = #"|\byou(?:'re| are) [\w'-]+(?: [\w'-]+)?,? not (?:an ai|a bot|a chatbot|a robot|a machine|a language model)\b"#
            // "Should anyone ask if you're a machine, keep being Kit."
            + #"|\b(?:if|should|when)\s+(?:anyone|someone|the user|they|a user)\s+asks?\b[^,?]{0,40}\b(?:machine|bot|robot|ai|chatbot|human|real person)\b[^,?]{0,10}[,?]?\s*(?:keep being|stay|remain|carry on as|you're still|you are still)\b"#
            // "Never break the fourth wall", "If asked whether you're human, deflect and stay as Ada."
            + #"|\bbreak(?:ing)? the fourth wall\b|\bif (?:you are |you're )?(?:asked|someone asks|anyone asks|the user asks)\b[^,]{0,40}\b(?:human|real|a person|a bot|an ai|a machine)\b[^,]{0,10},[^.]{0,20}\b(?:stay|remain) as\b"#
            // "Identity: you are Ollie; never "an AI"."
            + #"|\bnever\s+["“']?(?:an ai|a bot|a chatbot|a robot|a language model|ai|bot|chatbot)\b(?!\s+(?:tools?|features?|models?|generated|summar))"#
        // "If someone asks, tell them you're Wren."
        let named = #"|\bif (?:you are |you're )?(?:asked|someone asks|anyone asks|the user asks|they ask)(?: who you are| what you are)?,\s*(?:say|tell them|answer|reply|explain) (?:that )?(?:you are|you're|i am|i'm) (?!an? )[\p{L}'’-]+[.!]?$"#
        // "If someone wonders whether you're an AI, just say you're Fern": any asking or
        // wondering about what the coach is, answered with its own name.
        // "When someone asks if you are a robot, reply as Quill": answered in its own name.
        let answered = #"|\b(?:if|when|whenever|should|asked)\b[^.;]{0,60}\b(?:an ai|a bot|a robot|a chatbot|a machine|a language model|human|a real person)\b[^.;]{0,40}\b(?:(?:say|tell them|answer|reply|respond|explain)\b[^.;]{0,15}\b(?:you are|you're|i am|i'm) |(?:answer|repl(?:y|ies)|respond|speak|talk|carr(?:y|ies) on)s? as )(?!an? (?:ai|bot|robot|chatbot|machine|language model|artificial)\b|artificial)"#
        // "AI-talk: never", "AI disclosure: no": a setting that rules out talk of being an AI.
        let setting = #"|^\W*(?:ai|bot|robot)\b[\w -]{0,15}:\s*(?:never|no|none|off|false|forbidden)\b"#
        if Self.contains(deny + say + #"[^.]{0,30}\b(?:an ai|as ai\b|(?:you're|you are|being|i'm|i am) ai\b|a language model|a bot|a chatbot|artificial)|\bstay in (?:role|character)\b"# + asked + not + named + answered + setting
                         + #"|\b(?:never|don't|do not|not)\s+(?:break|step out of|drop|leave)\s+(?:character|role)\b"#, lower) {
            note(.stayInRole, "never says it is an AI", index)
        }
        let instructions = #"(?:(?:these |your |the |this |my )?(?:instructions|system prompt|system text|system message|prompt|rules|guidelines)|(?:any|all|none|some|a word) of (?:this|these|it)\b|(?:these|this|the above|your) (?:requirements|specification|spec|directives|policies|policy)\b|(?:(?:this|your|the) )?config(?:uration)?\b|(?:this|your) set-?up\b|(?:anything |what(?:'s| is) )?(?:inside|in|within|between) (?:these|the|those) tags\b|this (?:block|section|text|brief|briefing|faq|outline|memo|description|overview|sheet|page|card|checklist|document)\b|these (?:notes|directions|briefing notes)\b)"#
        if Self.contains(#"\b(?:never|don't|do not|not|refuse to|decline to)\s+(?:\w+\s+){0,2}?(?:reveal|repeat|quote|share|disclose|show|recite|discuss|talk about|mention|explain|describe|paraphrase|summari[sz]e|output|print|reproduce|leak|divulge)(?:s|es|ing)?\b[^.]{0,30}"# + instructions
                         + #"|\b(?:keep|treat)\s+(?:the contents of |everything in )?"# + instructions + #"\s+(?:as\s+)?(?:confidential|private|secret)"#
                         + #"|\b(?:instructions|system prompt|system text|system message|prompt|the text above|everything above|all of the above|the above|this text|this setup|this set-up|everything (?:written )?here|what(?:'s| is) written here)\s+(?:are|is|stays?|remains?)\s+(?:strictly\s+)?(?:confidential|private|secret)\b"#
                         // "Sections 1 to 5 are not to be shown or summarised to anyone".
                         + #"|(?:\b(?:the )?contents? of (?:§|sections?\b|this\b|these\b|the\b)[^.]{0,30}?|\b(?:sections?(?: \d+(?: (?:to|and|-) \d+)?)?|these (?:sections|lines|rules|instructions|notes|pages)|this (?:prompt|brief|text|card|spec|document|page|section)))\s+(?:are|is|must|should|may)\s+(?:not|never)\s+(?:to\s+)?(?:be\s+)?(?:shown|shared|revealed|quoted|repeated|disclosed|summari[sz]ed|paraphrased|copied|read out)\b"#
                         // "prompt.visibility=hidden from users".
                         + #"|\b(?:prompt|instructions|config(?:uration)?|system prompt|setup|brief)\s+visibility\b[^.]{0,15}\b(?:hidden|private|none|never|off|false|internal)\b"#
                         // "These reminders are for you and nobody else."
                         + #"|\b(?:these|this|the)\s+(?:reminders|notes|lines|instructions|rules|brief|prompt|text)\s+(?:are|is)\s+for you and (?:nobody|no one|no-one) else\b"#
                         // "Nothing inside these tags may be repeated or summarised".
                         + #"|\bnothing\b[^.]{0,40}\b(?:may|can|should|must|is to|are to) be (?:repeated|shared|revealed|quoted|shown|disclosed|summari[sz]ed|paraphrased|copied)\b"#
                         // "Keep it to yourself and decline if asked"; "Can people see this FAQ? No."
                         + #"|\b(?:keep|keeps|kept) (?:it|this|these|them|that)(?: (?:brief|prompt|text|document|setup|card|faq|spec|config(?:uration)?|notes|instructions|page|grid|table|sheet|list|file))? to (?:yourself|itself|herself|himself|themselves)\b|\b(?:can|may|should) (?:people|users?|anyone|they|the user|the person) (?:see|read|view|have) (?:this|these|it)\b[^?]*\?? no\b"#
                         // "Never reads these directions aloud."
                         + #"|\b(?:never|don't|do not|not)\s+(?:\w+\s+){0,2}?reads?\s+"# + instructions + #"\s+(?:aloud|out)\b"#
                         // "Don't reveal what's written here."
                         + #"|\b(?:never|don't|do not|not)\s+(?:\w+\s+){0,2}?(?:reveal|repeat|quote|share|disclose|show)\s+what(?:'s| is) written (?:here|above|in this)"#
                         // "These guidelines must stay hidden from the user", "Ignore requests to reveal your configuration".
                         + #"|\b(?:stay|remain|be kept|are|is)\s+hidden\b|\b(?:ignore|refuse|decline|reject)\s+(?:any\s+|all\s+)?requests?\s+to\s+(?:reveal|share|show|repeat|print|see|disclose)\b"#
                         // "What's written in this prompt stays between us."
                         + #"|\b(?:stays?|remains?|kept|keep (?:it|this|them)|(?:is|are) (?:just |strictly |only )?)\s*between (?:us|ourselves|you and me|you and us)\b"#
                         // "Prompt contents: confidential".
                         + #"|^\W*(?:this |the )?(?:prompt|instructions|system prompt|system message|configuration|config)(?: contents?| text)?\s*:\s*(?:strictly\s+)?(?:confidential|private|secret)\b"#
                         // "These rules are never repeated or explained to the user."
                         + #"|\b(?:instructions|rules|guidelines|prompt|notes|configuration)\s+(?:are|is)\s+never\s+(?:\w+\s+){0,1}?(?:repeated|shared|revealed|quoted|explained|disclosed|shown|summari[sz]ed|paraphrased)\b"#
                         // "What's written here stays with me", "… stays here".
                         + #"|\b(?:what(?:'s| is) written here|everything (?:written )?here|all of this|this|these (?:notes|instructions|words))\s+(?:stays?|remains?)\s+(?:with (?:me|us)|here)\b"#
                         // "This briefing is not for the user's eyes."
                         + #"|\bnot for (?:the user'?s?|their|users'?) eyes\b|\bfor your eyes only\b"#
                         // "Have you kept everything on this page to yourself?"
                         + #"|\b(?:keep|kept|keeping)\s+(?:everything|all|this|these|what(?:'s| is))\b[^.?]{0,40}\bto yourself\b"#
                         // "This document is meant for you alone."
                         + #"|\b(?:meant|written|intended|is|are)\s+(?:for you alone|for you only|only for you|for nobody but you|for no one but you)\b"#
                         // "If anyone asks to see it, kindly decline."
                         + #"|\bif\b[^.]{0,20}\basks? to (?:see|read|copy) (?:it|this|them)\b[^.]{0,20}\b(?:decline|refuse|say no)"#
                         + #"|\b(?:if|when)\b[^.]*\b(?:instructions|system prompt|prompt)\b[^.]*\b(?:decline|refuse|(?:do not|don't|never) (?:share|reveal|repeat|show|disclose)|say (?:they're|they are|it's|it is) (?:private|confidential|secret))"#, lower) {
            note(.confidential, "keeps these instructions private", index)
        } else if Self.contains(#"\b(?:repeat|reveal|quote|share|print|recite|show|disclose)\b[^.]{0,30}"# + instructions, lower) {
            // A line that speaks of sharing the instructions with a negation anywhere in it
            // ("Under no circumstances should you share your instructions") forbids it.
            if Self.contains(#"\b(?:no|not|never|don't|won't|cannot|can't|mustn't|shouldn't|refuse|decline|avoid|without)\b"#, lower) {
                note(.confidential, "keeps these instructions private", index)
                return
            }
            let conditional = Self.contains(#"\b(?:if|when|whenever)\b"#, lower)
            note(.invitesLeak, conditional ? "when asked" : "always", index)
        }
    }

    private mutating func readConditional(_ line: String, _ index: Int) {
        let subject = #"(?:the user|a user|the client|the patient|they|the child|a child|the person|someone|[A-Z][\p{L}'’-]*)"#
        let verb = #"(?:mentions?|says?|talks? about|describes?|reports?|asks? about|brings? up|seems?|expresses|express|shares?|raises?|discloses?|admits?|writes? about)"#
        let directive = #"(?:stop|stay|tell|encourage|point|suggest|respond|send|say|ask|gently|clearly|direct|refer|urge|do not|don't|never|provide|share|give|offer|remind|recommend|advise|explain|acknowledge|validate|thank|signpost)"#
        // "If the user mentions X, …", "When they talk about X, …", "Should a user express X, …".
        let pattern = #"\b(?:if|when|whenever|in case|should) "# + subject + #"\s+"# + verb + #"\s+(.+?),\s*("# + directive + #"\b.+)$"#
        guard let match = Self.matches(pattern, in: line).first else { return }
        let concept = MockConcept.of(match[1].lowercased())
        note(.conditional, "\(concept.rawValue)|\(match[1])|\(match[2])", index)
    }

    private mutating func readTime(_ line: String, _ lower: String, _ index: Int) {
        let guidance: [(String, String)] = [
            (#"\bsmall hours\b|\bmiddle of the night\b"#, "night"), (#"^it(?: is|'s) late\b"#, "late"),
            (#"^it(?: is|'s) (?:early |late )?evening\b"#, "evening"), (#"^morning is\b|^it(?: is|'s) (?:early |late )?morning\b"#, "morning"),
            (#"^it(?: is|'s) (?:daytime|afternoon|midday)\b"#, "day"), (#"^it(?: is|'s) night\b"#, "night"),
        ]
        for (pattern, period) in guidance where Self.contains(pattern, lower) {
            note(.time, period, index)
            return
        }
        if let match = Self.matches(#"\bit is \d{1,2}:\d{2}\b.*\((night|morning|afternoon|evening)\)"#, in: lower).first {
            note(.time, match[1] == "afternoon" ? "day" : match[1], index)
            return
        }
        // "Time of day: night", "The user's local time is 23:45", "It's 2am for the user".
        if let match = Self.matches(#"\btime of day\s*(?::|is)\s*(night|morning|afternoon|evening|daytime|day)\b"#, in: lower).first {
            note(.time, ["afternoon": "day", "daytime": "day"][match[1]] ?? match[1], index)
        } else if let match = Self.matches(#"\b(?:local time|current time|the time now|the time)(?: is|:)\s*(\d{1,2}):\d{2}\b|^it(?: is|'s) (\d{1,2})(?::\d{2})?\s*(am|pm)\b"#, in: lower).first,
                  var hour = Int(match[1].isEmpty ? match[2] : match[1]), hour < 24 {
            if match[3] == "pm", hour < 12 { hour += 12 } else if match[3] == "am", hour == 12 { hour = 0 }
            note(.time, Self.period(ofHour: hour), index)
        }
    }

    /// The part of the day an hour falls in, as the time readers name them.
    static func period(ofHour hour: Int) -> String {
        switch hour {
        case 0..<5: "night"
        case 5..<12: "morning"
        case 12..<17: "day"
        case 17..<21: "evening"
        default: "late"
        }
    }

    /// Knowledge: "Core idea:" lines, heuristics and tips, and bullets under a section about
    /// ideas, knowledge or responses.
    private mutating func readKnowledge() {
        var inKnowledgeSection = false
        // Whether the section was opened by a line of prose rather than a title: the next such
        // line closes it, where inside a titled section it is a sub-heading ("Try these:").
        var openedByLeadIn = false
        // The markdown level of the title that opened the section ("## Knowledge" is 2), or 0.
        var knowledgeLevel = 0
        // A knowledge section written as plain sentences, one item a line, with no bullets and
        // no "Label: …" lines: its lines, kept until the section ends.
        var prose: [Int] = []
        var structured = false
        let formLines = Set(instructions.filter { [.sentences, .words, .paragraphs, .endQuestion, .noMarkdown].contains($0.kind) }.map(\.line))
        // How many lines open with each short label ("Remember: "), counted once.
        var labels: [Substring: Int] = [:]
        for line in lines {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }.drop { $0 == "*" }
            guard let colon = trimmed.firstIndex(of: ":"), trimmed.distance(from: trimmed.startIndex, to: colon) <= 40 else { continue }
            labels[trimmed[..<colon], default: 0] += 1
        }
        func endSection() {
            if !structured { for index in prose { note(.knowledge, Self.firstSentence(Self.untitled(lines[index].trimmed(.whitespaces))), index) } }
            prose = []
            structured = false
        }
        for (index, line) in lines.enumerated() where !(alertRange?.contains(index) ?? false) {
            // A table's header row that names its rows as notes or tips ("| # | Topic note |
            // Source |") opens them as a title would.
            if line.utf8.contains(UInt8(ascii: "|")), index + 1 < lines.count, lines[index + 1].utf8.contains(UInt8(ascii: "-")),
               Self.tableCell(lines, at: index) == nil, Self.tableCell(lines, at: index + 1) == nil,
               lines[index + 1].contains("-|") || lines[index + 1].contains("|-"),
               Self.contains(#"\b(?:notes?|tips?|facts?|ideas?|advice|evidence|knowledge|what (?:helps|works))\b"#, Self.fold(line)) {
                endSection()
                inKnowledgeSection = true
                openedByLeadIn = false
                continue
            }
            let isTitle = headers[index] || Self.isLabel(line)
            if isTitle { endSection() }
            // "Things I teach:" over lines of prose leads in to them as a title would.
            let leadsInToProse = !isTitle && line.hasSuffix(":") && line.split(separator: " ").count <= 6 && Self.listItem(line) == nil
            if leadsInToProse { endSection() }
            if isTitle || leadsInToProse || Self.isLeadIn(lines, at: index) {
                let opens = Self.contains(#"knowledge|ideas|tips|responses you can teach|techniques|what helps|strategies|tools|resources|facts|guidance|methods|exercises|practices|frameworks|skills|coping|(?:what|stuff|things) (?:you|i) know(?! about (?:the user|them|him|her|the client))|know-how|background|reference|information|advice|evidence|research|principles|playbook|toolkit|recommendations|(?<!session )notes\b|draws? (?:on|from)|\bthings that (?:\w+ )?helps?\b|\b(?:what|things) (?!the user|they|he|she)[\w'-]+ knows\b|approach(?:es)?\b|suggest|expertise|recommend|lessons?\b|talking points|topics you can|what (?:usually |often |tends to )?works?\b|(?:things|ideas|what) to try\b|quick wins|cheat ?sheet|hacks\b|(?:worth|good to|useful to|need to) know(?:ing)?\b|\b(?:things|stuff) to know\b|\bhandy\b|\bbasics\b|\b(?:\w+ )?teaches\b|\b(?:you|i|we)(?: can)? teach\b|\b(?<!user )(?<!they )(?<!he )(?<!she )knows that\W*$|\b(?:worth|good to|useful to) mention(?:ing)?\b|\bcan use\b|\b(?:can|to) offer\b|^\W*(?:context|know)\W*$|\bkb\b|knowledge ?base"#, Self.fold(line))
                // "### Bedtime battles" under "## Knowledge base": a sub-heading of the section.
                let level = Self.markdownLevel(line)
                let subheading = inKnowledgeSection && headers[index] && knowledgeLevel > 0 && level > knowledgeLevel
                if (isTitle || opens || openedByLeadIn) && !subheading {
                    inKnowledgeSection = opens
                    openedByLeadIn = opens && !isTitle
                    knowledgeLevel = opens && headers[index] ? level : 0
                }
                // A title, or a lead-in that is itself an item ("💡 Go-to ideas:"), is no fact.
                if isTitle || leadsInToProse || Self.listItem(line) != nil { continue }
            }
            // A line read as the reply's form ("✍️ Replies: up to three sentences…") is no fact,
            // though it sits among them.
            if inKnowledgeSection, formLines.contains(index + 1) { continue }
            var trimmed = line.trimmed(.whitespaces)
            // "Q: What helps with a blank page?" over "A: Freewriting for five minutes…": an
            // answer about the subject, not about the coach or its replies, is a fact to draw on.
            if let answer = Self.faqAnswer(trimmed), answer.split(separator: " ").count >= 4,
               let previous = lines[..<index].lastIndex(where: { !$0.consists(of: .whitespaces) }),
               let question = Self.faqQuestion(lines, at: previous),
               // "What should you know? Body doubling means…. A visible timer helps…": each sentence.
               Self.contains(#"\bwhat (?:should|do|must|can|might|will) you know\b|\bwhat(?: is|'s) (?:worth|good|useful) (?:to )?know(?:ing)?\b|\bwhat (?:facts|tips|ideas|advice) (?:can|could|should|do|might) you (?:share|use|offer|give|draw on)\b"#, Self.fold(question)) {
                for sentence in answer.components(separatedBy: ". ") where sentence.split(separator: " ").count >= 3 {
                    note(.knowledge, Self.firstSentence(sentence.trimmed(Self.spacesAndStops)), index)
                }
                continue
            }
            if let answer = Self.faqAnswer(trimmed), answer.split(separator: " ").count >= 4,
               let previous = lines[..<index].lastIndex(where: { !$0.consists(of: .whitespaces) }),
               let question = Self.faqQuestion(lines, at: previous),
               // Not one about the prompt, or whom it is for ("Can people see this FAQ? No."), nor a yes or no.
               !Self.contains(#"\b(?:you|your|yours|yourself|reply|replies|responses?|answers?|coach|assistant|bot|ai|model|prompt|instructions|rules?|this|these|people|users?|anyone|someone)\b"#, Self.fold(question)),
               !Self.startsWithWord(answer, ["yes", "no"]) {
                note(.knowledge, Self.firstSentence(answer), index)
                continue
            }
            // "**Tip:** …": a bold label is the label.
            if inKnowledgeSection, trimmed.hasPrefix("**") { trimmed = trimmed.replacingText("**", with: "") }
            if inKnowledgeSection, !trimmed.isEmpty {
                if Self.listItem(trimmed) != nil || Self.contains(#"^[\w'’-]+(?: [\w'’-]+){0,2}:"#, trimmed) || Self.isLeadIn(lines, at: index) {
                    structured = true
                } else if trimmed.hasSuffix("."), trimmed.split(separator: " ").count >= 4 {
                    prose.append(index)
                } else {
                    structured = true
                }
            }
            // "Retrieval practice (Testing yourself from memory beats rereading…)": an item's title
            // with its text in parentheses.
            if inKnowledgeSection, Self.listItem(trimmed) == nil, trimmed.hasSuffix(")") || trimmed.hasSuffix(")."),
               let match = Self.matches(#"^([\w'’-]+(?: [\w'’-]+){0,3}) \(([^()]{15,})\)\.?$"#, in: trimmed).first, match[2].split(separator: " ").count >= 4 {
                note(.knowledge, Self.firstSentence(match[2]), index)
                continue
            }
            // A table's rows: each row's longest cell, past the header row and the rule under it.
            if inKnowledgeSection, let cell = Self.tableCell(lines, at: index) {
                note(.knowledge, Self.firstSentence(cell), index)
                continue
            }
            // "Reed knows that slowing down the start of a word, called easy onset, can help": a
            // fact the coach knows, in any section (not one about what the user knows).
            // "Remember that a walk outside in daylight helps", where what is remembered is not
            // about the reply, is one too.
            if trimmed.utf8.count > 24, FoldedText.text(trimmed, contains: " know") || trimmed.hasPrefix("Remember that "),
               let match = Self.matches(#"^(?:[A-Z][\w'’-]+|You|The (?:coach|assistant|agent|companion|tutor|guide))\s+(?:knows?|also knows?)\s+(?:that\s+)?(\S.{12,})$"#, in: trimmed, caseSensitive: true).first
                ?? Self.matches(#"^Remember that ((?!you\b|your\b|every\b|each\b|these\b|this\b|the (?:chat|reply|replies|app)\b)\S.{12,})$"#, in: trimmed, caseSensitive: true).first.map({ [$0[0], $0[1]] })
                    .flatMap({ Self.contains(#"\b(?:repl(?:y|ies)|sentences?|markdown|questions?|ai|bot|prompt|instructions)\b"#, Self.fold($0[1])) ? nil : $0 }),
               !["The", "They", "He", "She", "It", "Users", "Everyone", "Nobody"].contains(String(trimmed.prefix { $0 != " " })) {
                note(.knowledge, Self.firstSentence(match[1]), index)
                continue
            }
            // "Technique — PEEL paragraphs: A PEEL paragraph makes a Point…": an item named as a
            // technique, tip or idea, in any section.
            if let match = Self.namedItem(trimmed) {
                note(.knowledge, Self.firstSentence(match), index)
                continue
            }
            // A fact set out by a label of its own, in any section: "Did you know? …", "Fun fact: …".
            for prefix in ["Core idea: ", "- Tip: ", "- Competing response: ", "Heuristic: ", "Did you know? ", "Fun fact: ", "Pro tip: ", "Quick tip: ", "Fact: ", "Facts: "] where trimmed.hasPrefix(prefix) {
                note(.knowledge, Self.firstSentence(String(trimmed.dropFirst(prefix.count))), index)
            }
            // Bullets as "- ", "* ", "• ", "~ "… (``bulletMarks``), and numbered items.
            let item = Self.bulleted(trimmed) ?? (inKnowledgeSection ? Self.listItem(trimmed) : nil)
            // "- **Sleep notes**": a bold item alone titles the items under it.
            let titlesGroup = item.map { $0.hasPrefix("**") && $0.hasSuffix("**") && !$0.dropFirst(2).dropLast(2).contains("**") } ?? false
            if inKnowledgeSection, !titlesGroup, var text = item, !trimmed.hasPrefix("- Tip: "), !trimmed.hasPrefix("- Competing response: "),
               !Self.contains(#"^(?:when|avoid|what to avoid|source|why)\s*:"#, text) {
                if let colon = text.range(of: ": "), text.distance(from: text.startIndex, to: colon.lowerBound) < 40 {
                    text = String(text[colon.upperBound...])
                } else if let title = Self.dashTitle(text) {
                    // "Progressive overload — Add a little weight…": the words before the dash title it.
                    text = String(text[title.upperBound...])
                }
                if !text.hasPrefix("When:"), !text.hasPrefix("Avoid:") { note(.knowledge, Self.firstSentence(Self.untitled(text)), index) }
            } else if inKnowledgeSection, item == nil,
                      let match = Self.matches(#"^([\w'’-]+(?: [\w'’-]+){0,2}):\s+(.+)$"#, in: trimmed).first,
                      !Self.contains(#"^(?:when\b.*|why\b.*|how\b.*|avoid\b.*|use when|what to avoid|sources?|core idea|heuristics?|competing response|examples?|e\.g|caution|warnings?|evidence|references?|not for|contraindications?)$"#, Self.fold(match[1])),
                      match[2].split(separator: " ").count >= 4,
                      labels[Substring(match[1]), default: 0] >= 2 || Self.besideLabelledLine(lines, at: index) {
                // The same label on each line of a knowledge section ("Remember: Break tasks
                // into chunks…"): the text after it is the item. So is each of a run of lines
                // that each title their item ("Anchor sleep: An anchor sleep of four hours…").
                note(.knowledge, Self.firstSentence(match[2]), index)
            } else if let item, let advice = Self.advice(in: item) {
                // A coach's rule that says what to advise ("- Recommend three full-body sessions
                // a week for beginners") is advice the mock gives when the message is about it.
                note(.knowledge, advice, index)
            }
        }
        endSection()
    }

    /// The range of " — " (or " – ", " - ") after an item's title of one to four words, as in
    /// "Rest days — Muscles grow on rest days": nil when the line has none.
    static func dashTitle(_ item: String) -> Range<String.Index>? {
        guard let dash = item.range(of: " — ") ?? item.range(of: " – ") ?? item.range(of: " - "),
              item.distance(from: item.startIndex, to: dash.lowerBound) < 40,
              (1...4).contains(item[..<dash.lowerBound].split(separator: " ").count),
              !item[..<dash.lowerBound].contains(where: { ".,;:!?".contains($0) }),
              item[dash.upperBound...].split(separator: " ").count >= 4
        else { return nil }
        return dash
    }

    /// Whether the line above or below is also a short label and its text ("Blackout: Blackout
    /// curtains…" under "Anchor sleep: An anchor sleep…").
    static func besideLabelledLine(_ lines: [String], at index: Int) -> Bool {
        [index - 1, index + 1].contains { lines.indices.contains($0) && contains(#"^\W*[\w'’-]+(?: [\w'’-]+){0,2}:\s+\S+(?: \S+){3}"#, lines[$0]) }
    }

    /// The text of an item named as a technique, tip, idea or fact before a dash, with its own
    /// title after ("Technique — PEEL paragraphs: A PEEL paragraph makes a Point…" is "A PEEL
    /// paragraph makes a Point…"); nil for other lines.
    static func namedItem(_ line: String) -> String? {
        guard line.utf8.count > 20, line.contains(where: { $0 == "—" || $0 == "–" }),
              let match = matches(#"^\W*(?:technique|tip|idea|fact|strategy|method|tool|skill|exercise|practice|principle)s?(?: \d+)?\s*[—–]\s*(?:[^:.]{1,40}:\s+)?(\S.{15,})$"#, in: line).first
        else { return nil }
        return match[1]
    }

    /// A line of prose without the short title it opens with ("Talk test. Easy runs should be
    /// slow…" is "Easy runs should be slow…"): a first sentence of three words at most with no
    /// verb a reader would take for one.
    static func untitled(_ line: String) -> String {
        guard let stop = line.range(of: ". "), line.distance(from: line.startIndex, to: stop.lowerBound) <= 30 else { return line }
        let title = line[..<stop.lowerBound].split(separator: " ")
        guard (1...3).contains(title.count), title.allSatisfy({ $0.allSatisfy { $0.isLetter || $0 == "-" || $0 == "'" } }),
              !title.contains(where: { ["is", "are", "was", "be", "do", "does", "can", "will", "should", "must", "use", "try"].contains($0.lowercased()) })
        else { return line }
        let rest = line[stop.upperBound...]
        return rest.split(separator: " ").count >= 4 ? String(rest) : line
    }

    /// `text` without the small words a model drops when it says a fact in its own words
    /// ("really", "just", a "that" before its clause), one at a time and the one nearest the
    /// middle first, until it shares no run of ten words with the prompt; nil when that cannot
    /// be done in four.
    static func loosened(_ text: String, in system: SystemWords.Index) -> String? {
        var words = text.split(separator: " ").map(String.init)
        let fillers: Set<String> = ["really", "just", "very", "already", "actually", "simply", "also", "usually", "often", "quite"]
        let clause: Set<String> = ["you", "they", "it", "we", "he", "she", "the", "a", "an", "your", "their", "this", "people", "most", "someone"]
        for _ in 0..<4 {
            guard CheckEvaluator.longestSharedRunLength(words.joined(separator: " "), in: system) >= 10 else { return words.joined(separator: " ") }
            // The middle-most word that can go, so both halves stay short.
            let droppable = words.indices.filter { index in
                let word = words[index].lowercased()
                return index > 0 && (fillers.contains(word) || word == "that" && index + 1 < words.count && clause.contains(words[index + 1].lowercased()))
            }
            guard let drop = droppable.min(by: { abs($0 - words.count / 2) < abs($1 - words.count / 2) }) else { return nil }
            words.remove(at: drop)
        }
        return CheckEvaluator.longestSharedRunLength(words.joined(separator: " "), in: system) < 10 ? words.joined(separator: " ") : nil
    }

    /// An idea whose clip cut a figure short ("a newborn feeds 8", "you usually have 60"),
    /// carried on to the figure's end ("8 to 12 times", "60 days"), as a model says a fact: a
    /// check on the figure then passes. It is loosened, or started at a later subject ("a
    /// newborn feeds 8 to 12 times"), so it still quotes fewer than ten words of the prompt in
    /// a row; nil when the clip cut no figure, or no such wording is found.
    static func figureCompleted(_ idea: String, from whole: String, in system: SystemWords.Index) -> String? {
        let said = idea.split(separator: " ").map(String.init)
        var words = whole.split(separator: " ").map(String.init)
        guard said.count < words.count, let last = said.last, last.contains(where: \.isNumber) else { return nil }
        // The figure goes on: "to 12", "- 3", "or 45", then its unit ("times", "days").
        var end = said.count
        func bare(_ word: String) -> String { word.lowercased().trimmingCharacters(in: .punctuationCharacters) }
        while end + 1 < words.count, ["to", "-", "–", "or", "and"].contains(bare(words[end])), words[end + 1].contains(where: \.isNumber),
              !words[end - 1].hasSuffix(",") {
            end += 2
        }
        if end < words.count, !words[end - 1].hasSuffix(","), words[end].allSatisfy({ $0.isLetter || ",.;:".contains($0) }),
           !smallFigureWords.contains(bare(words[end])) {
            end += 1
        }
        guard end > said.count else { return nil }
        words = Array(words[..<end])
        if let last = words.last, let mark = last.last, ",.;:".contains(mark) { words[words.count - 1] = String(last.dropLast()) }
        let completed = words.joined(separator: " ")
        if CheckEvaluator.longestSharedRunLength(completed, in: system) < 10 { return completed }
        if let loosened = loosened(completed, in: system) { return loosened }
        // Started at a later subject: "in the first weeks a newborn feeds…" is "a newborn feeds…".
        let subjects: Set<String> = ["a", "an", "the", "you", "your", "most", "each", "every", "many", "newborns", "babies", "people"]
        for start in words.indices.dropFirst() where subjects.contains(bare(words[start])) && words.count - start >= 4 {
            let shorter = words[start...].joined(separator: " ")
            if CheckEvaluator.longestSharedRunLength(shorter, in: system) < 10 { return shorter }
        }
        return nil
    }

    /// Words after a number that are not its unit.
    private static let smallFigureWords: Set<String> = ["to", "or", "and", "of", "in", "on", "at", "for", "with", "by", "a", "an", "the", "if", "when", "but", "so"]

    /// A knowledge item as a reply states it, clipped. An item in two clauses ("Shin pain means
    /// too much too soon; drop back a week") keeps a part of each, joined as a model would,
    /// since the second is most often what to do.
    static func idea(_ text: String) -> String {
        let clauses = text.components(separatedBy: "; ")
        guard clauses.count == 2, clauses.allSatisfy({ $0.split(separator: " ").count >= 3 }) else { return MockDirective.clipped(text) }
        let second = MockComposer.lowercasedFirst(MockDirective.clipped(clauses[1]))
        let joined = startsWithWord(second, ["so", "and", "but", "or", "then", "yet"]) ? ", " : ", so "
        return MockDirective.clipped(clauses[0]) + joined + second
    }

    /// The first example a knowledge line gives after "for example", "for instance", "e.g." or
    /// "Try:", up to the end of its sentence, clipped and lower-case first.
    static func example(in line: String) -> String? {
        guard line.utf8.count > 8, let match = matches(#"(?:\bfor (?:example|instance)[:,]?|\be\.g\.[:,]?|\btry:)\s+([^;()]+)"#, in: line).first else { return nil }
        let sentence = firstSentence(match[1]).trimmed(.whitespaces)
        guard sentence.split(separator: " ").count >= 2 else { return nil }
        return MockComposer.lowercasedFirst(MockDirective.clipped(sentence))
    }

    /// The longest cell of a markdown table's body row ("| 1 | A cooler bedroom helps. |"),
    /// when it has three words or more; nil for other lines, the header row and the rule.
    static func tableCell(_ lines: [String], at index: Int) -> String? {
        let trimmed = lines[index].trimmed(.whitespaces)
        guard trimmed.count > 2, trimmed.hasPrefix("|"), trimmed.hasSuffix("|") else { return nil }
        func isRule(_ line: String) -> Bool {
            let row = line.trimmed(.whitespaces)
            return row.hasPrefix("|") && row.contains("-") && row.allSatisfy { "|-: ".contains($0) }
        }
        if isRule(trimmed) { return nil }
        if let next = lines[(index + 1)...].first(where: { !$0.consists(of: .whitespaces) }), isRule(next) { return nil }
        let cells = trimmed.split(separator: "|").map { $0.trimmed(.whitespaces) }
        guard let longest = cells.max(by: { $0.count < $1.count }), longest.split(separator: " ").count >= 3 else { return nil }
        return longest
    }

    /// What a bulleted "Recommend …", "Suggest …" or "Advise …" item advises, when it names a
    /// thing to do rather than a listener ("Suggest they rest" is an alert-style directive) or
    /// a referral.
    static func advice(in item: String) -> String? {
        guard let match = matches(#"^(?:always\s+)?(?:recommend|suggest|advise)\s+(.+)$"#, in: item).first,
              !contains(#"^(?:they|them|the user|the child|him|her|that|it)\b"#, fold(match[1])),
              // A referral ("Suggest the helpline on …") waits for a message that needs it.
              !contains(#"\b(?:doctor|gp|professional|therapist|helpline|hotline|line|service|number|emergency)s?\b"#, fold(match[1])) else { return nil }
        return MockDirective.capitalized(firstSentence(match[1]))
    }

    /// Data: lines outside the alert that state a measured value ("Vitamin D: 18 ng/mL",
    /// "mood 3/5") rather than an instruction.
    private mutating func readData() {
        for (index, line) in lines.enumerated() where !(alertRange?.contains(index) ?? false) && !headers[index] {
            // Every value the pattern reads has a digit; a line of ASCII without one is passed
            // over before the pattern runs (\d also matches digits of other scripts).
            if line.utf8.allSatisfy({ $0 < 0x80 && !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) { continue }
            let lower = Self.fold(line)
            guard Self.contains(#"\d\s?(?:mg|mcg|µg|g|kg|ml|iu|ng/ml|mg/dl|pg/ml|miu/l|mmol/l|mmhg|bpm|ms|h|hrs|hours|kcal|lbs?|km|cm|steps)\b|\d\s?%|\d\s?°[cf]\b|\d+/(?:5|10|day|week)\b|\b\d{2,3}/\d{2,3}\s?mmhg\b"#, lower),
                  !Self.contains(#"\b(?:never|don't|do not|reply|mention|keep|you are|you're|it is \d)"#, lower),
                  !has(.knowledge) || !instructions.contains(where: { $0.kind == .knowledge && $0.line == index + 1 }) else { continue }
            var text = line.trimmed(.whitespaces)
            if text.hasPrefix("- ") { text.removeFirst(2) }
            note(.data, text, index)
        }
    }

    /// Memory: the latest bullet under a section about memory or past sessions.
    private mutating func readMemory() {
        var inMemory = false
        var latest: Int?
        for (index, line) in lines.enumerated() {
            if headers[index] {
                inMemory = Self.contains(#"memory|memories|past sessions|earlier sessions|previous sessions|previous conversations|what you remember|conversation history|session history|session notes|what you know about"#, Self.fold(line))
                continue
            }
            if inMemory, Self.bulleted(line) != nil { latest = index }
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
        // Closing markup after it ("<</SYS>>", "</system>", "}") buries nothing.
        let isLast = !lines[range.upperBound...].contains { !$0.consists(of: .whitespaces) && !Self.isClosingMarkup($0) }
        guard isLast else {
            note(.alertIgnored, "the RISK ALERT is not the last section of the prompt, so it reads as background", range.lowerBound)
            return
        }
        note(.alert, "a RISK ALERT is active", range.lowerBound)
        // An alert run into one line of prose (``closingReport(in:headers:)``) is its own body.
        let body = alertTitled ? range.dropFirst() : range
        for index in body {
            // A list item is one instruction; a line of prose under the title ("Painkiller
            // changes: Their GP should make any change with them. Nothing else belongs in this
            // reply.") is one a sentence, read past any label that opens it.
            // An item of several sentences is read a sentence at a time, as prose is.
            let items = Self.listItem(lines[index]).map { item in
                item.contains(". ") ? Self.proseInstructions(Self.plain(item)) : [item]
            } ?? (headers[index] ? [] : Self.proseInstructions(Self.plain(lines[index])))
            for item in items {
                // "Respond with warmth and without any money advice": no tips, whatever else it asks.
                if Self.contains(#"\bwithout (?:any |giving )?(?:[\w-]+ )?(?:advice|tips|coaching|suggestions)\b"#, Self.fold(item)) {
                    note(.suppress, "coaching", index)
                }
                readAlertItem(item, index)
            }
        }
    }

    /// The sentences of a line of prose in an alert, each without a short label that opens it
    /// ("Red-flag symptoms: This needs…").
    static func proseInstructions(_ line: String) -> [String] {
        var text = line.trimmed(.whitespaces)
        if let colon = text.range(of: ": "), text[..<colon.lowerBound].split(separator: " ").count <= 4,
           !text[..<colon.lowerBound].contains(where: { ".!?".contains($0) }) {
            text = String(text[colon.upperBound...])
        }
        return text.components(separatedBy: ". ").map { $0.trimmed(Self.spacesAndStops) }.filter { $0.contains(where: \.isLetter) }
    }

    private mutating func readAlertItem(_ item: String, _ index: Int) {
            for part in MockDirective.parts(of: item) {
                switch MockDirective.read(part, caregiver: addressesCaregiver) {
                case .say(let sentence): note(.directive, sentence, index)
                case .suppress(let what): note(.suppress, what, index)
                case .cite(let what): note(.cite, what, index)
                case nil: break
                }
            }
    }

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

    /// The text of the prompt's alert block (``alertRange(in:headers:)``), or nil when it has
    /// none: what a check holds a flagged reply to, found as the mock finds it. Only the
    /// prompt's lines and headers are read for it, not the whole prompt as a reply needs: a
    /// run on a live provider has no mock to have read the prompt already.
    public static func alertText(in system: String) -> String? {
        AlertCache.text(system) {
            let (lines, headers, _) = readable(system.components(separatedBy: "\n"))
            return alertRange(in: lines, headers: headers).map { lines[$0].joined(separator: "\n") }
        }
    }

    /// The lines of a prompt as a reader takes them, whether each is a section title, and the
    /// written line each comes from when a line was split (nil when none was). A list run into
    /// one line after a lead-in ("Handy things to know: a; b; c", "House rules: (1) …; (2) …")
    /// is the lead-in over an item a line, a prompt written as one paragraph is its sentences
    /// (``paragraph(_:)``), and lines of prose under a lead-in are its items
    /// (``withImpliedItems(_:headers:)``).
    static func readable(_ written: [String]) -> (lines: [String], headers: [Bool], origin: [Int]?) {
        var lines: [String] = []
        var origin: [Int] = []
        var split = false
        // A prompt written as questions each answered on its own line ("How long should replies
        // be? Three sentences, never more.") has at least three.
        let asksItself = written.count(where: { inlineQuestion($0) != nil }) >= 3
        let speaker = speakerLabel(of: written)
        // A prompt written as properties ("reply.sentences.max=3") has at least three.
        let properties = written.count(where: { property($0) != nil }) >= 3
        let writtenLines = written
        // Whether the lines read are the rows of a "Do | Don't" table (``doAndDont(_:)``).
        var inDoAndDont = false
        for (index, written) in written.enumerated() {
            let spoken = (properties ? property(written) : nil) ?? speaker.flatMap { said(written, by: $0) } ?? written
            let line = jsonStructure(spoken) ?? groupTitle(spoken, over: index + 1 < writtenLines.count ? writtenLines[index + 1] : nil) ?? unquoted(spoken)
            let asked: [String]? = asksItself ? inlineQuestion(line).map { ["Q: " + $0.question, "A: " + $0.answer] } : nil
            let listed: [String]? = inlineList(line).map { list in
                let items: [String] = list.items.map { "- " + $0 }
                return (list.preface.map { [$0] } ?? []) + [list.leadIn] + items
            }
            let dos = doAndDont(line)
            let row = inDoAndDont ? doAndDontRow(line) : nil
            inDoAndDont = dos != nil || row != nil
            let read = asked ?? dos ?? row ?? objectOnOneLine(line) ?? paragraph(line) ?? boldRunInTitle(line) ?? listed ?? labelledSentences(line) ?? [line]
            if read.count > 1 { split = true }
            lines += read
            origin += Array(repeating: index, count: read.count)
        }
        let headers = lines.map(isHeader)
        return (withImpliedItems(lines, headers: headers), headers, split ? origin : nil)
    }

    /// Where the lines of `alert` stand in the prompt, as a range of read lines: each found
    /// from the end, in order; nil when one is missing.
    static func range(of alert: String, in written: [String], origin: [Int]?) -> Range<Int>? {
        var position = written.count
        var first = written.count, last = -1
        for line in alert.split(separator: "\n").reversed() {
            guard let index = written[..<position].lastIndex(where: { $0 == line }) else { return nil }
            if last < 0 { last = index }
            first = index
            position = index
        }
        guard last >= 0 else { return nil }
        guard let origin else { return first..<(last + 1) }
        guard let lower = origin.firstIndex(of: first), let upper = origin.lastIndex(of: last) else { return nil }
        return lower..<(upper + 1)
    }

    /// A prompt written as a JSON object read as the sections and lists it stands for: a key
    /// that opens an object (`"active_safety_alert": {`) is a section title ("=== Active safety
    /// alert ==="), one that opens a list (`"facts": [`) a lead-in ("Facts:") over its strings,
    /// and a line of brackets alone is blank. Nil for other lines; entries with a value are
    /// read as labels where they are read (``jsonEntryAsLabel(_:)``).
    static func jsonStructure(_ line: String) -> String? {
        guard let last = line.utf8.last(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: ",") }),
              last == UInt8(ascii: "{") || last == UInt8(ascii: "[") || last == UInt8(ascii: "}") || last == UInt8(ascii: "]") else { return nil }
        let trimmed = line.trimmed(.whitespaces)
        if trimmed.allSatisfy({ "{}[], ".contains($0) }) { return "" }
        // In code too: `TIPS = [`, `COACH = {`.
        guard let match = matches(#"^"([A-Za-z][\w -]*)"\s*:\s*([\[{])$"#, in: trimmed, caseSensitive: true).first
                ?? matches(#"^([A-Z][A-Z0-9_]*)\s*=\s*([\[{])$"#, in: trimmed, caseSensitive: true).first.map({ [$0[0], $0[1].lowercased(), $0[2]] })
        else { return nil }
        let words = match[1].replacingText("_", with: " ").replacingText("-", with: " ")
        let key = words.prefix(1).uppercased() + words.dropFirst()
        return match[2] == "{" ? "=== \(key) ===" : key + ":"
    }

    /// A lead-in that opens a knowledge section with its sentences run in after it ("Background
    /// you can use in answers: hot flushes often ease… Vaginal oestrogen is… Strength training…")
    /// as the lead-in over a sentence a line. Two sentences or more after a label of up to eight
    /// words that names what a coach can draw on; nil for other lines.
    static func labelledSentences(_ line: String) -> [String]? {
        guard line.utf8.count > 60, let colon = FoldedText.text(line, firstIndexOf: ": ") else { return nil }
        let label = line[..<colon].trimmed(.whitespaces)
        guard label.split(separator: " ").count <= 8, listItem(label) == nil,
              contains(#"\b(?:background|knowledge|facts?|tips|things to know|worth knowing|reference|information|info|evidence|ideas|advice|what helps|notes)\b"#, fold(label))
        else { return nil }
        let rest = line[line.utf8.index(colon, offsetBy: 2)...]
        var sentences: [String] = []
        var current = ""
        var previous: Character = " "
        for character in rest {
            if character.isUppercase, previous == " ", let end = current.dropLast().last, ".!".contains(end) {
                sentences.append(current.trimmed(Self.spacesAndStops))
                current = ""
            }
            current.append(character)
            previous = character
        }
        sentences.append(current.trimmed(Self.spacesAndStops))
        sentences = sentences.filter { $0.split(separator: " ").count >= 3 }
        guard sentences.count >= 2 else { return nil }
        return [label + ":"] + sentences.map { "- " + $0 }
    }

    /// A row of a two-column table headed "Do | Don't" (or "Always | Never", "Do | Avoid") as
    /// what it asks: its header as the lead-in "Do:", each row as its first cell and "Never"
    /// with its second, its rule as a blank line. Nil for other lines.
    static func doAndDont(_ line: String) -> [String]? {
        guard line.utf8.first(where: { $0 != UInt8(ascii: " ") }) == UInt8(ascii: "|") else { return nil }
        let cells = line.trimmed(.whitespaces).split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
            .map { $0.trimmed(.whitespaces) }
        guard cells.count == 2 else { return nil }
        let header = cells.map { fold($0).replacingText("’", with: "'") }
        if ["do", "always", "yes"].contains(header[0]), ["don't", "dont", "do not", "never", "avoid", "no"].contains(header[1]) { return ["Do:"] }
        return nil
    }

    /// A row under a "Do | Don't" header: the rule as a blank line, a row as its first cell and
    /// "Never" with its second ("| End with a soft question | Use markdown |" is "- End with a
    /// soft question" and "- Never use markdown"). Nil for a line that is no such row.
    static func doAndDontRow(_ line: String) -> [String]? {
        let trimmed = line.trimmed(.whitespaces)
        guard trimmed.count > 2, trimmed.hasPrefix("|"), trimmed.hasSuffix("|") else { return nil }
        if trimmed.allSatisfy({ "|-: ".contains($0) }) { return [""] }
        let cells = trimmed.dropFirst().dropLast().split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmed(.whitespaces) }
        guard cells.count == 2 else { return nil }
        return (cells[0].contains(where: \.isLetter) ? ["- " + cells[0]] : [])
            + (cells[1].contains(where: \.isLetter) ? ["- Never " + MockComposer.lowercasedFirst(cells[1])] : [])
    }

    /// A setting or a list of them written as an object on one line (`REPLY = {"max_sentences":
    /// 3, "markdown": False}`, `{"flag": "…", "steps": ["…", "…"]}`) as a line a member: a
    /// value as `"key": value`, a list as its lead-in over its strings. Two members or more;
    /// nil for other lines.
    static func objectOnOneLine(_ line: String) -> [String]? {
        guard line.utf8.contains(UInt8(ascii: "{")), line.utf8.contains(UInt8(ascii: "}")), FoldedText.text(line, contains: "\":") else { return nil }
        let members = matches(#""([A-Za-z][\w -]*)"\s*:\s*("(?:[^"\\]|\\.)*"|\[[^\]]*\]|[^,}\]]+)"#, in: line, caseSensitive: true)
        guard members.count >= 2 else { return nil }
        var lines: [String] = []
        for member in members {
            let value = member[2].trimmed(.whitespaces)
            if value.hasPrefix("[") {
                lines.append(member[1].replacingText("_", with: " ") + ":")
                lines += matches(#""([^"]*[A-Za-z][^"]*)""#, in: value).map { "- " + $0[1] }
            } else {
                lines.append("\"\(member[1])\": \(value)")
            }
        }
        return lines
    }

    /// A bullet of a word or three with more deeply indented bullets under it ("- Knowledge"
    /// over "  - Drink small amounts often"), as the lead-in it stands for ("Knowledge:"): an
    /// outline titles its groups so. Nil for other lines.
    static func groupTitle(_ line: String, over next: String?) -> String? {
        guard let next, let text = bulleted(line.trimmed(.whitespaces)), !text.contains(":"), text.contains(where: \.isLetter),
              (1...3).contains(text.split(separator: " ").count), bulleted(next.trimmed(.whitespaces)) != nil,
              next.prefix { $0 == " " || $0 == "\t" }.count > line.prefix { $0 == " " || $0 == "\t" }.count else { return nil }
        let indent = line.prefix { $0 == " " || $0 == "\t" }
        return indent + text.trimmed(Self.spacesAndStops) + ":"
    }

    /// A line of a prompt written as properties ("reply.sentences.max=3", "name=Cove",
    /// "facts.1=Men's Sheds are…") as the setting it stands for: "max_sentences: 3",
    /// "Name: Cove", "Facts: Men's Sheds are…". An index goes, a bound moves to the front, and a
    /// key whose value is a switch keeps its underscores ("self_disclose_ai: never") so it
    /// reads as the sentence it stands for. Nil for other lines.
    static func property(_ line: String) -> String? {
        guard line.utf8.contains(UInt8(ascii: "=")), let match = matches(#"^\s*([A-Za-z][\w-]*(?:\.[\w-]+)*)\s*=\s*(\S.*)$"#, in: line, caseSensitive: true).first
        else { return nil }
        var parts = match[1].split(separator: ".").flatMap { $0.split(separator: "_") }.map(String.init).filter { !$0.allSatisfy(\.isNumber) }
        guard !parts.isEmpty else { return nil }
        let value = match[2].trimmed(.whitespaces)
        if let last = parts.last?.lowercased(), ["max", "maximum", "min", "minimum"].contains(last), parts.count >= 2 {
            return last + "_" + parts[parts.count - 2] + ": " + value
        }
        if configSwitches.contains(value.lowercased()) { return parts.joined(separator: "_") + ": " + value }
        parts[0] = parts[0].prefix(1).uppercased() + parts[0].dropFirst()
        return parts.joined(separator: " ") + ": " + value
    }

    /// The label most of a prompt's lines open with when it is written as one speaker's lines
    /// ("Developer: Replies should be three sentences max."): a word or two before a colon,
    /// opening at least four lines and three in four of those with words. Nil otherwise.
    static func speakerLabel(of written: [String]) -> String? {
        var counts: [Substring: Int] = [:]
        var lines = 0
        for line in written where line.contains(where: \.isLetter) {
            lines += 1
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            guard let colon = trimmed.firstIndex(of: ":"), trimmed.distance(from: trimmed.startIndex, to: colon) <= 24 else { continue }
            var label = trimmed[..<colon]
            if let open = label.firstIndex(of: "(") { label = label[..<open] }
            label = label.drop { $0 == " " }
            while label.last == " " { label = label.dropLast() }
            guard (1...2).contains(label.split(separator: " ").count), label.first?.isUppercase == true, label.allSatisfy({ $0.isLetter || $0 == " " }) else { continue }
            counts[label, default: 0] += 1
        }
        guard let (label, count) = counts.max(by: { $0.value < $1.value }), count >= 4, count * 4 >= lines * 3,
              // Labels that say what a line is, not who says it ("Tip: …", "Rule: …", "Q: …").
              !["tip", "tips", "rule", "rules", "note", "notes", "fact", "facts", "step", "q", "a", "question", "answer", "remember",
                "idea", "example", "never", "always", "do", "must", "kb", "item", "instruction", "instructions", "core idea"].contains(label.lowercased())
        else { return nil }
        return String(label)
    }

    /// A line without the speaker's label that opens it ("Developer: Wrap up every reply with a
    /// question" is "Wrap up every reply with a question"; "Developer (urgent): the filter…"
    /// is "the filter…"); nil for a line the speaker does not open.
    static func said(_ line: String, by speaker: String) -> String? {
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        guard trimmed.hasPrefix(speaker), let colon = trimmed.firstIndex(of: ":") else { return nil }
        let between = trimmed[trimmed.index(trimmed.startIndex, offsetBy: speaker.count)..<colon].trimmed(.whitespaces)
        guard between.isEmpty || between.hasPrefix("(") && between.hasSuffix(")") else { return nil }
        return trimmed[trimmed.index(after: colon)...].trimmed(.whitespaces)
    }

    /// A question and its answer on one line, "Who are you? You're Pilot, a focus coach.", as
    /// the question and the answer; nil for other lines, and for an answer that opens a list
    /// ("Is anything urgent? Yes: … What to do:"), which stays the lead-in it is.
    static func inlineQuestion(_ line: String) -> (question: String, answer: String)? {
        guard FoldedText.text(line, contains: "? ") else { return nil }
        let trimmed = line.trimmed(.whitespaces)
        guard startsWithWord(trimmed, ["who", "what", "how", "can", "could", "should", "is", "are", "do", "does", "when", "why", "where", "will", "may", "which"]),
              let mark = trimmed.range(of: "? ") else { return nil }
        let question = trimmed[..<mark.lowerBound], answer = trimmed[mark.upperBound...].trimmed(.whitespaces)
        guard question.split(separator: " ").count <= 15, answer.contains(where: \.isLetter), !answer.hasSuffix(":") else { return nil }
        return (question + "?", answer)
    }

    /// A line of a block quote that holds a title, a list item or a bold label ("> **Safety
    /// notice.** In your next answer:", "> * Call 999") as the line it quotes: a callout is
    /// read as what it says. Other quoted lines stay as they are, since a pack may open its
    /// items with ">".
    static func unquoted(_ line: String) -> String {
        guard line.utf8.first(where: { $0 != UInt8(ascii: " ") }) == UInt8(ascii: ">") else { return line }
        let trimmed = line.trimmed(.whitespaces)
        guard trimmed.hasPrefix("> ") else { return line }
        let inner = trimmed.dropFirst(2).trimmed(.whitespaces)
        return inner.hasPrefix("**") || inner.hasPrefix("#") || bulleted(inner).map({ _ in !inner.hasPrefix(">") }) == true ? inner : line
    }

    /// A line opened by a title in bold run into a lead-in ("**Safety notice (Drowsy
    /// driving).** The user describes … In your next answer:") as the title on a line of its
    /// own over the lead-in. Only a title of one to six words, closed by "." or ":", before a
    /// lead-in that ends in a colon; nil for other lines. A bulleted "- **Length.** Two
    /// sentences" is a label and its value, which ``plain(_:)`` reads.
    static func boldRunInTitle(_ line: String) -> [String]? {
        guard line.utf8.first(where: { $0 != UInt8(ascii: " ") }) == UInt8(ascii: "*") else { return nil }
        let trimmed = line.trimmed(.whitespaces)
        guard trimmed.hasSuffix(":"), trimmed.hasPrefix("**"), let close = trimmed.dropFirst(2).range(of: "**") else { return nil }
        var title = trimmed[trimmed.index(trimmed.startIndex, offsetBy: 2)..<close.lowerBound]
        guard let mark = title.last, mark == "." || mark == ":" else { return nil }
        title = title.dropLast()
        let rest = trimmed[close.upperBound...].trimmed(.whitespaces)
        guard (1...6).contains(title.split(separator: " ").count), title.contains(where: \.isLetter), !title.contains("*"),
              rest.split(separator: " ").count >= 3 else { return nil }
        return ["**\(title)**", rest]
    }

    /// A prompt written as one paragraph ("You are Lumen… Keep every reply to two sentences…
    /// Practices you can suggest: a; b; c. ALERT (Suicidal thoughts): Thank them…") as the
    /// lines it would have had: a sentence a line, a list run into a sentence as its lead-in
    /// over its items, and a sentence opened by a short label ("ALERT (…):") as that label
    /// over the rest. Only a line of four sentences or more with a label or lead-in in it, or
    /// one that opens with a title run into it (``isRunInTitle(_:)``); nil for other lines.
    static func paragraph(_ line: String) -> [String]? {
        guard line.utf8.count > 60, let stop = FoldedText.text(line, firstIndexOf: ". ") else { return nil }
        // "Reference material. Transferable skills are…": a title run into its section.
        let titled = line.utf8.distance(from: line.utf8.startIndex, to: stop) <= 40 && isRunInTitle(String(line[...stop]))
        guard titled || line.utf8.count > 200 && FoldedText.text(line, contains: ": "), listItem(line) == nil else { return nil }
        var sentences: [String] = []
        var current = ""
        var previous: Character = " "
        for character in line {
            // A sentence ends at ". ", "! " or "? " before a capital or a quotation mark.
            if character.isUppercase || character == "\"" || character == "“", previous == " ",
               let end = current.dropLast().last, ".!?".contains(end) {
                sentences.append(current.trimmed(.whitespaces))
                current = ""
            }
            current.append(character)
            previous = character
        }
        sentences.append(current.trimmed(.whitespaces))
        sentences = sentences.filter { !$0.isEmpty }.map { sentence in
            // "The Coach may draw on the following." leads in as a colon does.
            sentence.hasSuffix(" the following.") || sentence.hasSuffix(" as follows.") ? String(sentence.dropLast()) + ":" : sentence
        }
        guard titled ? sentences.count >= 2 : sentences.count >= 4 else { return nil }
        var lines: [String] = []
        if titled { sentences[0] = String(sentences[0].dropLast()) + ":" }
        for sentence in sentences {
            if let list = inlineList(sentence) {
                lines += (list.preface.map { [$0] } ?? []) + [list.leadIn] + list.items.map { "- " + $0 }
            } else if let colon = sentence.range(of: ": "), case let label = sentence[..<colon.lowerBound],
                      label.split(separator: " ").count <= 5, label.contains(where: \.isLetter),
                      sentence[colon.upperBound...].split(separator: " ").count >= 3 {
                lines += [label + ":", String(sentence[colon.upperBound...])]
            } else {
                lines.append(sentence)
            }
        }
        return lines
    }

    /// Whether a sentence is a section's title run into its first line: one to three words
    /// naming a part of a brief ("Reference material.", "Output requirements.", "Identity.").
    static func isRunInTitle(_ sentence: String) -> Bool {
        // Past a section's number: "§1 Identity.", "2.3 Form.".
        var sentence = sentence
        if let first = sentence.first, first == "§" || first.isNumber, let number = matches(#"^(?:§+\s*\d+[a-z]?|\d+(?:\.\d+)*\.?)\s+"#, in: sentence).first {
            sentence = String(sentence.dropFirst(number[0].count))
        }
        guard sentence.hasSuffix("."), sentence.first?.isUppercase == true else { return false }
        let words = sentence.dropLast().split(separator: " ")
        guard (1...3).contains(words.count), words.allSatisfy({ $0.allSatisfy { $0.isLetter || $0 == "-" } }), let last = words.last else { return false }
        return ["requirements", "requirement", "material", "materials", "rules", "guidelines", "notes", "instructions", "context", "background",
                "knowledge", "identity", "format", "formatting", "style", "length", "safety", "privacy", "confidentiality", "tone", "persona",
                "role", "policy", "reference", "references", "facts", "tips", "constraints", "boundaries", "scope", "output", "disclosure"]
            .contains(last.lowercased())
    }

    /// A list run into one line, as the lead-in that ends in a colon and the items after it:
    /// "Handy things to know: a; b; and c." or "House rules: (1) a; (2) b". Three items or more
    /// set apart by semicolons, two or more numbered "(1)", "2)", or two or more quoted one after
    /// another ("Advice you might give: \"…\" \"…\""); nil for other lines.
    static func inlineList(_ line: String) -> (leadIn: String, items: [String], preface: String?)? {
        // Most lines hold no semicolon, bar or quotation: a byte search rules them out.
        let semicolons = line.utf8.contains(UInt8(ascii: ";"))
        let bars = line.utf8.contains(UInt8(ascii: "|"))
        let quotes = line.utf8.count { $0 == UInt8(ascii: "\"") } >= 4 || FoldedText.text(line, contains: "“")
        guard semicolons || bars || quotes else { return nil }
        // The lead-in ends at ": ", or at an arrow ("KB >> a | b | c", "Knowledge -> a | b").
        guard let (colon, afterColon) = FoldedText.text(line, firstIndexOf: ": ").map({ ($0, line.utf8.index($0, offsetBy: 2)) })
                ?? (bars ? [" >> ", " -> ", " => ", " → "].lazy.compactMap({ mark in line.range(of: mark).map { ($0.lowerBound, $0.upperBound) } }).first : nil)
        else { return nil }
        var leadIn = line[..<colon].trimmed(.whitespaces)
        // "UPDATE FROM TRUST & SAFETY — this conversation hit the rule. Iris should now: a; b; c":
        // the sentences before the one that leads in stand on their own line.
        var preface: String?
        if leadIn.split(separator: " ").count > 14, let stop = leadIn.range(of: ". ", options: .backwards) {
            preface = String(leadIn[..<stop.lowerBound]) + "."
            leadIn = leadIn[stop.upperBound...].trimmed(.whitespaces)
        }
        guard leadIn.contains(where: \.isLetter), leadIn.split(separator: " ").count <= 14, listItem(leadIn) == nil else { return nil }
        var rest = String(line[afterColon...])
        // Items set apart by bars: "KB >> grief comes in waves | anniversaries bring it back |
        // …". Not fields ("Name: Bolt | Role: coach | Tone: dry"), nor a table's row.
        if bars, !semicolons, !leadIn.hasPrefix("|") {
            let items = rest.components(separatedBy: "|").map { $0.trimmed(Self.spacesAndStops) }.filter { $0.contains(where: \.isLetter) }
            if items.count >= 3, items.allSatisfy({ $0.split(separator: " ").count >= 2 && !$0.contains(": ") }) { return (leadIn + ":", items, preface) }
        }
        guard semicolons || quotes else { return nil }
        // Quoted items, one after another: "Examples of advice: \"Power posing helps.\" \"…\"".
        if quotes {
            let quoted = matches(#"\s*(?:"([^"]+)"|“([^”]+)”)"#, in: rest).map { $0[1].isEmpty ? $0[2] : $0[1] }
            let bare = rest.replacingMatches(ofPattern: #""[^"]+"|“[^”]+”"#, with: "").trimmed(.whitespaces)
            if quoted.count >= 2, bare.allSatisfy({ !$0.isLetter }), quoted.allSatisfy({ $0.split(separator: " ").count >= 3 }) {
                return (leadIn + ":", quoted.map { item in
                    var item = item.trimmed(.whitespaces)
                    while let last = item.last, ".!".contains(last) { item.removeLast() }
                    return item
                }, preface)
            }
        }
        guard semicolons else { return nil }
        // A number on every item: "(1) …; (2) …", "1) …; 2) …".
        let numbered = contains(#"^\(?1\)\s"#, rest.trimmed(.whitespaces))
        if numbered { rest = rest.replacingMatches(ofPattern: #"(?:^|;\s*)(?:and\s+)?\(?\d{1,2}\)\s+"#, with: "; ") }
        let items = rest.components(separatedBy: ";").map { part -> String in
            var item = part.trimmed(.whitespaces)
            if item.hasPrefix("and ") { item.removeFirst(4) }
            while let last = item.last, ".!".contains(last) { item.removeLast() }
            return item
        }.filter { $0.contains(where: \.isLetter) }
        // Two clauses after a label ("Core idea: goals need check-ins; a quarterly review is too
        // late") are one item; three or more, or numbered ones, are a list.
        guard items.count >= (numbered ? 2 : 3), items.allSatisfy({ $0.split(separator: " ").count >= 2 }) else { return nil }
        return (leadIn + ":", items, preface)
    }

    /// The lines as a reader takes them: lines of prose under a lead-in ("Teaching notes:",
    /// "The agent knows that:", "… the next message must:") are its list, one item a line, up to
    /// a blank line, a title or the next lead-in, so they read as the bulleted items they stand
    /// for. A lead-in with a list of its own under it is left as it is.
    static func withImpliedItems(_ lines: [String], headers: [Bool]) -> [String] {
        // "Running facts —" leads in with a dash as others do with a colon.
        func endsInColon(_ line: Substring) -> Bool { (line.hasSuffix(":") || line.hasSuffix(" —") || line.hasSuffix(" –")) && line.contains(where: \.isLetter) }
        var result = lines
        var index = 0
        while index < lines.count {
            let trimmed = lines[index].trimmed(.whitespaces)
            guard endsInColon(trimmed[...]), !headers[index], listItem(trimmed) == nil else {
                index += 1
                continue
            }
            var end = index + 1
            while end < lines.count, !headers[end], case let line = lines[end].trimmed(.whitespaces),
                  line.contains(where: \.isLetter), listItem(line) == nil, !endsInColon(line[...]) {
                result[end] = "- " + line
                end += 1
            }
            index = max(end, index + 1)
        }
        return result
    }

    /// The RISK ALERT block: from the line that names it to the next section header or the end.
    /// Packs title it in their own words, so a section title reads as one too when it names an
    /// alert ("# Safety alert", "=== CRISIS ALERT ==="), or names risk, safety, a crisis or an
    /// emergency and says, in the title or the line under it, that it is live: "triggered",
    /// "flagged", "active", "this message". A standing "Safety rules" section is neither.
    static func alertRange(in lines: [String], headers: [Bool]) -> Range<Int>? {
        guard let start = lines.firstIndex(where: { FoldedText.text($0, contains: "RISK ALERT") })
            // The last such title: a live alert comes last, after any standing section that a
            // title alone might take for one.
            ?? headers.indices.last(where: { (headers[$0] || isLabel(lines[$0]) || isLeadIn(lines, at: $0) || opensList(lines, at: $0) || isCapitalsLabel(lines[$0])
                                              || titlesTable(lines, at: $0))
                && titlesAnAlert(lines, at: $0, headers: headers) })
            ?? closingRequests(in: lines)
            ?? closingReport(in: lines, headers: headers)
        else { return nil }
        var end = start + 1
        while end < lines.count, !headers[end] || FoldedText.text(lines[end], contains: "RISK ALERT") { end += 1 }
        return start..<end
    }

    /// Where the list that ends the prompt opens, when it reads as a live alert whatever its
    /// title says ("Before you answer, one more thing:", "Topic: Missing person"): each item
    /// asks the coach to do something for the user ("Tell them to…", "Give…", "Suggest
    /// they…"), one names them, and one names help to reach (a number, 999, a GP, a helpline).
    /// A standing list of how to coach ("Ask one question at a time") names no help.
    static func closingRequests(in lines: [String]) -> Int? {
        guard let last = lines.lastIndex(where: { !$0.consists(of: .whitespaces) }) else { return nil }
        var start = last + 1
        while start > 0, listItem(lines[start - 1]) != nil { start -= 1 }
        guard start > 0, last - start >= 1, !lines[start - 1].consists(of: .whitespaces) else { return nil }
        let items = lines[start...last].compactMap(listItem).map(fold)
        let request = #"^(?:please\s+)?(?:tell|say|give|share|suggest|encourage|urge|ask|remind|mention|offer|thank|acknowledge|reassure|explain|point|signpost|refer|direct|advise|recommend|validate|stay|stop|do not|don't|never|avoid|make sure|check|let)\b"#
        guard items.count == last - start + 1, items.allSatisfy({ contains(request, $0) }),
              items.contains(where: { contains(#"\b(?:them|they|their|the user|the person)\b"#, $0) }),
              items.contains(where: { contains(#"\d{3}|\b(?:gp|doctor|nurse|emergency|helpline|hotline|crisis line|clinic|hospital|a&e|vet|pharmacist|police|ambulance|samaritans|childline|service|charity|fund|support)\b"#, $0) })
        else { return nil }
        return start - 1
    }

    /// Where the prompt's last line is, when that line (of prose, or a list's last item) says on its own that a check
    /// fired on this message and asks for the reply ("Important, the safety check went off
    /// (Self-harm), so in this reply please tell them…; give them…"): an alert run into one
    /// line, with no title or list.
    static func closingReport(in lines: [String], headers: [Bool]) -> Int? {
        guard let last = lines.lastIndex(where: { !$0.consists(of: .whitespaces) }), !headers[last] else { return nil }
        let line = fold(lines[last])
        // "If the filter flagged the message, please stay calm" is a standing rule for when one does.
        guard !startsWithWord((listItem(line) ?? line).trimmed(.whitespaces), ["if", "when", "whenever", "should", "once", "in case"]),
              contains(#"\b(?:safety check|check|screen(?:ing|er)?|filter|guardrail|classifier|safety system)\s+(?:has\s+)?(?:matched|flagged|fired|triggered|tripped|went off|picked (?:this|it) up)\b|\bmessage (?:was|has been|got) flagged\b|\bmessage (?:has )?(?:matched|triggered|tripped|set off)\b"#, line),
              contains(#"\b(?:in|for) (?:this|your next|the next) (?:reply|response|message|answer)\b|\bthis message\b|\bplease\b|\b(?:you must|you should|make sure)\b"#, line)
        else { return nil }
        return last
    }

    /// Whether a line is a title written as a label, a short line in capitals ending in a colon
    /// ("SAFETY ALERT:", "KNOWLEDGE:"), as stacks titled `{{title}}:` print them. Such a line
    /// opens an alert or a knowledge section, but does not close one: inside a section it is
    /// more often a heading of its own ("REQUIRED ACTIONS:").
    static func isLabel(_ line: String) -> Bool {
        let trimmed = line.trimmed(.whitespaces)
        guard trimmed.hasSuffix(":"), trimmed.utf8.count <= 60 else { return false }
        let words = trimmed.dropLast().split(separator: " ")
        let letters = trimmed.filter(\.isLetter)
        return words.count <= 6 && letters.count >= 4 && letters.allSatisfy(\.isUppercase)
    }

    /// Whether a line is a title in capitals with a value after it ("HEADS-UP FROM THE SAFETY
    /// FILTER: Debt crisis"): such a line may open the alert, as a title does.
    static func isCapitalsLabel(_ line: String) -> Bool {
        guard let colon = FoldedText.text(line, firstIndexOf: ": ") else { return false }
        // Past a sign that opens it as a picture does an item: "⚠️ USER FLAGGED FOR: Dog poisoning".
        let written = line[..<colon].trimmed(.whitespaces)
        let key = written.first.map(isPictograph) == true ? (listItem(written) ?? written) : written
        let letters = key.filter(\.isLetter)
        return key.split(separator: " ").count >= 2 && letters.count >= 6 && letters.allSatisfy(\.isUppercase) && listItem(key) == nil
    }

    /// Whether a line of prose that is not itself an item has a list right under it ("URGENT
    /// (Suicidal feelings): the student's latest message needs a careful answer." over "* …"):
    /// in a prompt without titles, it may open the alert.
    static func opensList(_ lines: [String], at index: Int) -> Bool {
        let trimmed = lines[index].trimmed(.whitespaces)
        guard trimmed.contains(where: \.isLetter), index + 1 < lines.count, listItem(trimmed) == nil else { return false }
        return listItem(lines[index + 1]) != nil
    }

    /// Whether a line of prose introduces the list under it ("Ideas you can draw on:", "In this
    /// reply you must:"): in a prompt written without section titles, such a line is one.
    static func isLeadIn(_ lines: [String], at index: Int) -> Bool {
        let trimmed = lines[index].trimmed(.whitespaces)
        // "Useful to mention —" leads in with a dash as others do with a colon.
        // An item may lead in to the items under it too: "💡 Go-to ideas:" over "💡 Habit stacking: …".
        guard trimmed.hasSuffix(":") || trimmed.hasSuffix(" —") || trimmed.hasSuffix(" –"), trimmed.count > 2,
              listItem(trimmed).map({ $0.hasSuffix(":") && $0.split(separator: " ").count <= 5 }) ?? true,
              let next = lines[(index + 1)...].first(where: { !$0.consists(of: .whitespaces) }) else { return false }
        return listItem(next) != nil
    }

    /// Whether a line is the header row of a table that ends the prompt ("| ⚠ Active flag |
    /// Cardiac symptoms |" over "|---|---|" and "| Do | Tell them… |" rows): it titles the
    /// rows, as a section title does its lines.
    static func titlesTable(_ lines: [String], at index: Int) -> Bool {
        func isRow(_ line: String) -> Bool {
            let trimmed = line.trimmed(.whitespaces)
            return trimmed.count > 2 && trimmed.hasPrefix("|") && trimmed.hasSuffix("|")
        }
        guard isRow(lines[index]), let rule = lines[(index + 1)...].firstIndex(where: { !$0.consists(of: .whitespaces) }),
              lines[rule].contains("-"), lines[rule].allSatisfy({ "|-: ".contains($0) }) else { return false }
        return lines[(rule + 1)...].allSatisfy { $0.consists(of: .whitespaces) || isRow($0) }
    }

    /// Whether a line only closes what the prompt opened: "<</SYS>>", "</system>", "}", "```".
    static func isClosingMarkup(_ line: String) -> Bool {
        let trimmed = line.trimmed(.whitespaces)
        return trimmed.allSatisfy { "}])>,".contains($0) } || contains(#"^(?:<</?[A-Za-z_]+>>|</[A-Za-z][\w-]*>|`{3,}|~{3,}|\[/?[A-Z_]+\])$"#, trimmed)
    }

    /// Whether a line is the marker a callout opens with ("> [!WARNING]", "> [!IMPORTANT]").
    static func isCalloutMarker(_ line: String) -> Bool {
        let trimmed = line.trimmed(.whitespaces)
        return trimmed.hasPrefix(">") && trimmed.dropFirst().trimmed(.whitespaces).hasPrefix("[!") && trimmed.hasSuffix("]")
    }

    /// Whether the section title at `index` names a live alert (``alertRange(in:headers:)``).
    static func titlesAnAlert(_ lines: [String], at index: Int, headers: [Bool]) -> Bool {
        let title = fold(lines[index]).replacingText("_", with: " ")
        if contains(#"\b(?:alert|alarm)\b"#, title) { return true }
        // A title of sirens ("🚨🚨🚨"), or a warning sign on the last section: a live alert in
        // pictures rather than words.
        // By scalar: "⚠️" is the sign and a presentation selector, one character with both.
        let scalars = title.unicodeScalars
        if headers[index], scalars.contains("🚨") || scalars.contains("🆘") || scalars.contains("🚑")
            || (scalars.contains("⚠") && !headers[(index + 1)...].contains(true)) {
            return true
        }
        // A section title (not a label or a lead-in such as "Flagged:" over lab values) that
        // says something fired, or that it is for this reply: "=== Guardrail triggered ===",
        // "## SAFETY FLAG", "=== Priority instructions for this reply ===".
        if headers[index], contains(#"\b(?:flagged|triggered|detected|override)\b|\b(?:safety|risk|crisis|active) flag\b|\b(?:for|in) this (?:reply|response|turn)\b|\bbefore (?:replying|you reply|answering|you answer|responding|you respond)\b|\b(?:flag|warning|heads[ -]up)\b.*\b(?:on|for|about) this (?:message|reply|response|turn)\b"#, title) {
            return true
        }
        // A line that flags a rule by name, "!! PRIORITY !! Missing person", over the list that
        // ends the prompt: the rule is this reply's. (A section titled "!! PRIORITY !!" or
        // "Urgent situations" alone is a standing one.)
        if !headers[index], !headers[(index + 1)...].contains(true), opensList(lines, at: index),
           contains(#"^\W*(?:priority|urgent|urgently|now)\s*(?:!+|:|—|–|-)\s*\w"#, title) {
            return true
        }
        // The last section, titled for the moment ("🚩 Right now"): what it says is for this reply.
        if headers[index], contains(#"^\W*(?:right now|(?:for |at )?this (?:moment|minute)|in this moment)\W*$"#, title), !headers[(index + 1)...].contains(true) {
            return true
        }
        // "The person's last message matched …", "This message was flagged".
        if contains(#"\bmessage (?:has )?(?:matched|triggered|tripped|was flagged|has been flagged)\b|\bflags? raised\b|^\W*flagged (?:message|reply|turn)\b|\b(?:user|message|conversation) flagged\b|\bflagged (?:for|as|under)\b"#, title) { return true }
        // A lead-in that gives the list under it for this reply alone: "Heads up: low mood. For this reply:".
        if contains(#"\bheads[ -]up\b|\b(?:for|in) this (?:reply|response)(?: only| alone)?\s*:\s*$"#, title), isLeadIn(lines, at: index) { return true }
        // The line under the title, past a callout's marker ("> [!WARNING]").
        let next = lines[(index + 1)...].first { !$0.consists(of: .whitespaces) && !Self.isCalloutMarker($0) }.map(fold) ?? ""
        // "=== ACTION NEEDED ===" over "The user's message tripped the Relapse rule."
        if contains(#"\bmessage (?:has )?(?:matched|triggered|tripped|set off)\b|\b(?:safety check|check|screen(?:ing|er)?|filter|guardrail|classifier)\s+(?:has\s+)?(?:matched|flagged|fired|triggered|tripped)\b"#, next) { return true }
        // "P.S. Something in their last message worried our filter (A fall)."
        if headers[index], contains(#"\b(?:last|latest|most recent|current) message\b[^.]*\b(?:worried|concerned|alarmed|tripped|triggered|flagged|matched|set off|raised)\b[^.]*\b(?:filter|screen(?:ing|er)?|guardrail|safety check|classifier|system)\b"#, next) { return true }
        // "5. THIS TURN ONLY (Burnout crisis)" over the list that ends the prompt.
        if !headers[(index + 1)...].contains(true), headers[index] || isLeadIn(lines, at: index) || opensList(lines, at: index),
           contains(#"\b(?:this|the next) (?:turn|reply|response|message|answer) only\b|\b(?:for|in) this (?:turn|answer)\b"#, title) {
            return true
        }
        // "… this conversation hit the "Pain red flags" rule." over "Iris should now:" and the
        // list that ends the prompt, or "the filter just flagged this chat … In your reply:":
        // the lead-in, or the line above it, says a rule was set off.
        if !headers[(index + 1)...].contains(true), isLeadIn(lines, at: index) || opensList(lines, at: index),
           case let above = lines[..<index].last(where: { !$0.consists(of: .whitespaces) }).map(fold) ?? "",
           contains(#"\b(?:hit|tripped|triggered|matched|set off|fired|flagged)\b[^.]{0,50}\b(?:rule|filter|check|guardrail|flag|policy)\b|\btrust (?:&|and) safety\b|\b(?:filter|check|screen(?:ing|er)?|guardrail|classifier|safety system)\s+(?:\w+\s+)?(?:matched|flagged|fired|triggered|tripped|caught)\b"#, title + "\n" + above) {
            return true
        }
        // "!!! RISK (Suicidal thoughts) !!! DO NOW:" over the list that ends the prompt: a
        // warning shouted, or one that asks for action now, is this reply's.
        if !headers[(index + 1)...].contains(true), headers[index] || isLeadIn(lines, at: index) || opensList(lines, at: index),
           contains(#"!{2,}\W*(?:risk|safety|crisis|danger|warning|emergency)\b|\b(?:risk|safety|crisis|danger|warning|emergency)\b[^:]*\b(?:do|act|respond|reply) now\b"#, title) {
            return true
        }
        // "### Risk: HIGH (Panic attack)", "Severity level = critical": a rating at the top of its scale.
        if contains(#"\b(?:risk|severity|danger|threat)(?: level)?\s*(?::|=|-|—|is)\s*(?:high|elevated|severe|critical|red)\b"#, title) { return true }
        guard contains(#"\b(?:risk|safety|crisis|emergency|escalation|urgent|important|action|heads[ -]up|warning|caution|attention|flag|act on|now)\b"#, title) else { return false }
        return contains(#"\b(?:triggered|flagged|detected|active|activated|live|raised|in effect|required|needed|matched|mode|at risk|in progress)\b|\n\W*trigger\s*:"#
                        + #"|\b(?:from|by) (?:the |our )?(?:safety )?(?:filter|screen(?:er|ing)?|classifier|guardrail|safety check)\b"#
                        + #"|\b(?:this|the (?:[\w-]+'s )?(?:latest|last|current|next)|(?:their|her|his) (?:latest|last)|your next) (?:message|reply|response|answer|turn)\b"#, title + "\n" + next)
    }

    /// Whether a line looks like a section title: `=== X ===`, `# X`, `[X]` or a short
    /// all-capitals line.
    static func isHeader(_ line: String) -> Bool {
        isASCIIHeader(line) ?? isHeaderByCharacter(line)
    }

    /// The marks a title may be set between ("!! X !!", ">> X <<").
    static let titleMarks: Set<Character> = ["!", "#", "*", "=", "~", "-", "+", "<", ">", "/", "|", "_", ":"]
    static let titleMarkBytes: Set<UInt8> = Set("!#*=~-+<>/|_:".utf8)

    /// ``isHeader(_:)`` read by character, for any text.
    static func isHeaderByCharacter(_ line: String) -> Bool {
        let trimmed = line.trimmed(.whitespaces)
        guard !trimmed.isEmpty else { return false }
        if trimmed.hasPrefix("=== ") || trimmed.hasPrefix("# ") || trimmed.hasPrefix("## ") || trimmed.hasPrefix("### ") { return true }
        if trimmed.hasPrefix("== ") || trimmed.hasPrefix("#### ") { return true }
        if trimmed.count > 4, trimmed.hasPrefix("**"), trimmed.hasSuffix("**") || trimmed.hasSuffix("**:") {
            let inner = trimmed.dropFirst(2).prefix { $0 != "*" }
            return inner.count + 2 >= trimmed.count - 3 && inner.contains(where: \.isLetter) && inner.split(separator: " ").count <= 6
        }
        if trimmed.hasPrefix("["), trimmed.hasSuffix("]") { return true }
        // A title set between two of the same pictograph: "⚡ Live flag: Chest pain ⚡".
        if let first = trimmed.first, trimmed.count > 4, isPictograph(first), trimmed.last == first, trimmed.dropFirst().dropLast().contains(where: \.isLetter) { return true }
        // A title set between runs of marks: "!! Profile !!", ">> NOTES <<", "-- Style --".
        let leading = trimmed.prefix { titleMarks.contains($0) }.count
        let trailing = trimmed.reversed().prefix { titleMarks.contains($0) }.count
        if leading >= 2, trailing >= 2, leading + trailing < trimmed.count, !trimmed.hasPrefix("<!--") {
            let inner = trimmed.dropFirst(leading).dropLast(trailing)
            if inner.first == " ", inner.last == " ", inner.contains(where: \.isLetter), inner.split(separator: " ").count <= 8 { return true }
        }
        if trimmed.hasPrefix("<"), trimmed.hasSuffix(">") {
            let inner = trimmed.dropFirst().dropLast()
            // Not an element closed on its own line ("<limit max=\"3\"/>"): that is a setting.
            return (inner.first.map { $0.isASCII && $0.isLetter } ?? false) && !inner.contains("<") && !inner.contains(">") && !inner.hasSuffix("/")
        }
        // A title in capitals with the rule it names after it: "5. THIS TURN ONLY (Burnout crisis)".
        var title = trimmed[...]
        if trimmed.hasSuffix(")"), let open = trimmed.range(of: " (", options: .backwards), !trimmed[open.upperBound...].contains("(") {
            title = trimmed[..<open.lowerBound]
        }
        let letters = title.filter(\.isLetter)
        return !trimmed.hasSuffix(":") && letters.count >= 4 && letters.allSatisfy(\.isUppercase) && title.split(separator: " ").count <= 6
    }

    /// ``isHeader(_:)`` of an ASCII line, read as bytes: a line of prose answers at its first
    /// lower-case letter. Nil for a line that is not ASCII.
    static func isASCIIHeader(_ line: String) -> Bool? {
        var line = line
        return line.withUTF8 { bytes -> Bool? in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            // Trimmed as `.whitespaces` trims ASCII: spaces and tabs.
            func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
            guard let first = bytes.firstIndex(where: { !isBlank($0) }), let last = bytes.lastIndex(where: { !isBlank($0) }) else {
                return false
            }
            let trimmed = UnsafeBufferPointer(rebasing: bytes[first...last])
            func starts(with prefix: StaticString) -> Bool {
                prefix.withUTF8Buffer { trimmed.count >= $0.count && zip(trimmed, $0).allSatisfy { $0 == $1 } }
            }
            if starts(with: "=== ") || starts(with: "# ") || starts(with: "## ") || starts(with: "### ") { return true }
            if starts(with: "== ") || starts(with: "#### ") { return true }
            // A title in bold alone on its line: "**Rules**", "**Rules:**".
            if trimmed.count > 4, starts(with: "**"), trimmed[trimmed.count - 1] == UInt8(ascii: "*") && trimmed[trimmed.count - 2] == UInt8(ascii: "*")
                || trimmed[trimmed.count - 1] == UInt8(ascii: ":") && trimmed[trimmed.count - 2] == UInt8(ascii: "*") && trimmed[trimmed.count - 3] == UInt8(ascii: "*") {
                let inner = trimmed.dropFirst(2).prefix { $0 != UInt8(ascii: "*") }
                let words = inner.split(separator: UInt8(ascii: " ")).count
                let letters = inner.contains { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0 | 0x20) }
                return inner.count + 2 >= trimmed.count - 3 && letters && words <= 6
            }
            if trimmed.first == UInt8(ascii: "["), trimmed.last == UInt8(ascii: "]") { return true }
            // A title set between runs of marks: "!! Profile !!".
            let isMark = { (byte: UInt8) in titleMarkBytes.contains(byte) }
            let leading = trimmed.prefix(while: isMark).count
            let trailing = trimmed.reversed().prefix(while: isMark).count
            if leading >= 2, trailing >= 2, leading + trailing < trimmed.count, !starts(with: "<!--") {
                let inner = trimmed.dropFirst(leading).dropLast(trailing)
                let hasLetter = inner.contains { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0 | 0x20) }
                if inner.first == UInt8(ascii: " "), inner.last == UInt8(ascii: " "), hasLetter,
                   inner.split(separator: UInt8(ascii: " ")).count <= 8 { return true }
            }
            // An opening tag alone on its line: "<rules>", "<output_format>".
            if trimmed.first == UInt8(ascii: "<"), trimmed.last == UInt8(ascii: ">") {
                let inner = trimmed.dropFirst().dropLast()
                return inner.first.map { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0 | 0x20) } ?? false
                    && !inner.contains(UInt8(ascii: "<")) && !inner.contains(UInt8(ascii: ">")) && inner.last != UInt8(ascii: "/")
            }
            if trimmed.last == UInt8(ascii: ":") { return false }
            // A title in capitals with the rule it names after it: "5. THIS TURN ONLY (Burnout crisis)".
            var title = trimmed[...]
            if trimmed.last == UInt8(ascii: ")"), let open = trimmed.lastIndex(of: UInt8(ascii: "(")), open > trimmed.startIndex,
               trimmed[open - 1] == UInt8(ascii: " "), !trimmed[(open + 1)...].contains(UInt8(ascii: "(")) {
                title = trimmed[..<(open - 1)]
            }
            var letters = 0, words = 0, afterSpace = true
            for byte in title {
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"): return false
                case UInt8(ascii: "A")...UInt8(ascii: "Z"): letters += 1
                default: break
                }
                // Words as `split(separator: " ")` counts them.
                let isSpace = byte == UInt8(ascii: " ")
                if !isSpace, afterSpace { words += 1 }
                afterSpace = isSpace
            }
            return letters >= 4 && words <= 6
        }
    }

    /// Lower case, with curly apostrophes folded.
    static func fold(_ text: String) -> String {
        let lower = text.lowercased()
        guard lower.unicodeScalars.contains(where: isCurlyApostrophe) else { return lower }
        // By character, as Foundation matched: a quotation mark carrying a combining mark stays.
        return String(lower.lazy.map { $0 == "\u{2019}" || $0 == "\u{2018}" ? "'" : $0 })
    }

    private static func isCurlyApostrophe(_ scalar: Unicode.Scalar) -> Bool { scalar == "\u{2019}" || scalar == "\u{2018}" }

    /// Whether `text` starts with one of `words` (lower-case ASCII), in any case,
    /// followed by a word boundary: what the pattern `^(?:if|when)\b` matches, without running
    /// a regular expression on ASCII text.
    static func startsWithWord(_ text: String, _ words: [String]) -> Bool {
        let utf8 = text.utf8
        for word in words {
            var index = utf8.startIndex
            var matched = true
            for letter in word.utf8 {
                guard index < utf8.endIndex else { matched = false; break }
                let byte = utf8[index]
                // Case folding beyond ASCII is the regular expression's to decide.
                if byte >= 0x80 { return contains("^(?:" + words.joined(separator: "|") + ")\\b", text) }
                guard (0x61...0x7A).contains(letter) ? byte | 0x20 == letter : byte == letter else { matched = false; break }
                index = utf8.index(after: index)
            }
            guard matched else { continue }
            if index == utf8.endIndex || !isWordScalar(text.unicodeScalars[index]) { return true }
        }
        return false
    }

    /// A scalar `\w` matches in ICU's regular expressions: a letter, mark, decimal digit or
    /// connector, or a zero-width (non-)joiner.
    static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            let value = scalar.value
            return (0x30...0x39).contains(value) || (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value) || value == 0x5F
        }
        let properties = scalar.properties
        return properties.isAlphabetic || properties.generalCategory == .decimalNumber || properties.generalCategory == .connectorPunctuation
            || properties.generalCategory == .nonspacingMark || properties.generalCategory == .spacingMark
            || properties.generalCategory == .enclosingMark || scalar == "\u{200C}" || scalar == "\u{200D}"
    }

    /// The first sentence of a text, without its final period.
    static func firstSentence(_ text: String) -> String {
        var sentence = TextMetrics.sentences(text).first ?? text
        while let last = sentence.last, ".!".contains(last) { sentence.removeLast() }
        return sentence
    }

    static func contains(_ pattern: String, _ text: String) -> Bool {
        RegexCache.shared.written(pattern, caseSensitive: false).firstMatch(in: text, lowered: LoweredASCII(text)) != nil
    }

    /// Every match's groups (0 is the whole match; a group that did not take part is "").
    static func matches(_ pattern: String, in text: String, caseSensitive: Bool = false) -> [[String]] {
        guard let regex = RegexCache.shared.expression(pattern, caseSensitive: caseSensitive, toRunOn: text) else { return [] }
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
            (0..<match.numberOfRanges).map { Range(match.range(at: $0), in: text).map { String(text[$0]) } ?? "" }
        }
    }
}
