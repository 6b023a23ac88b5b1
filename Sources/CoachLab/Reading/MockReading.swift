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
            case identityReply = "identity-reply", greetingReply = "greeting-reply", secrecyReply = "secrecy-reply", formReply = "form-reply"
            case knowledge, memory, time
            case data
            case alert, alertIgnored = "alert-ignored", directive, suppress, cite, conditional, boundary
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
    /// Whether the structure placed the alert: its instructions are the live alert's, rendered
    /// because the message was flagged, so the section they close is live whatever follows them in it.
    let alertLocatedByStructure: Bool
    /// The persona's name as the pack gives it (the source map's), before the prose is read: a
    /// prompt that speaks of its coach by name is read with the coach as "you" (``addressed(_:name:)``).
    let coachName: String?
    /// The pack's word for its user, from the persona's audience (``userNoun(audience:)``).
    let userNoun: String?
    /// The lines of example dialogues (``exampleTurns(in:)``): no reader takes an instruction,
    /// a datum or an alert line from them.
    private(set) var exampleTurns: Set<Int> = []
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
    /// Each knowledge item's whole first sentence, when its idea clips it, in ``all(_:)``
    /// order: what a reply says of the best item when the suite lets it quote the knowledge
    /// (``MockCue/quotesKnowledge``), as a model passes a fact on whole. Nil past 32 words.
    private(set) var wholeIdeas: [String?] = []
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
        coachName = structure?.parts(.name).first.map { $0.text.trimmed(.whitespacesAndNewlines) }
        userNoun = structure?.parts(.persona).first { $0.field == "audience" }.flatMap { Self.userNoun(audience: $0.text) }
        var (readLines, readHeaders, readOrigin) = Self.readable(written)
        // A layer's heading is a heading whatever marks it ("// reply format"): the structure says so.
        if let structure { Self.markHeadings(of: structure, in: readLines, headers: &readHeaders) }
        (lines, headers, origin) = (readLines, readHeaders, readOrigin)
        var found = Self.alertRange(in: lines, headers: headers)
        // The structure says which lines hold the live alert's instructions: they are the alert
        // when the wording names none, or names lines that do not hold them (a "RISK ALERT"
        // mentioned earlier in the prompt).
        var titledByStructure: Bool?
        var locatedByStructure = false
        if let structure, let located = Self.alertRange(of: structure, in: lines, headers: headers) {
            locatedByStructure = true
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
            alertLocatedByStructure = false
            // A title, a label or a lead-in opens it; a first line that asks something is part of it.
            let first = lines[added.lowerBound].trimmed(.whitespaces)
            alertTitled = Self.listItem(first) == nil && (headers[added.lowerBound] || first.hasSuffix(":") || Self.isCapitalsLabel(first))
        } else {
            alertRange = found
            alertLocatedByStructure = locatedByStructure
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
            wholeIdeas = zip(all(.knowledge), ideas).map { item, idea in
                let whole = MockComposer.lowercasedFirst(Self.firstSentence(Self.unmarked(item.value)))
                guard whole != idea, whole.split(separator: " ").count <= 32 else { return nil }
                return whole.hasSuffix(".") ? String(whole.dropLast()) : whole
            }
            fullIdeas = zip(all(.knowledge), ideas).map { item, idea in
                let whole = MockComposer.lowercasedFirst(Self.firstSentence(Self.unmarked(item.value)))
                // Only an idea clipped from the sentence's start: one joined from two clauses is said as it is.
                guard whole != idea, whole.hasPrefix(idea) else { return nil }
                let count = whole.split(separator: " ").count
                if count <= 16, let loosened = Self.loosened(whole, in: words) { return loosened }
                if let completed = Self.figureCompleted(idea, from: whole, in: words) { return completed }
                // A figure the clip left out altogether ("…can stay on a credit report for up to 7
                // years"): the whole fact, with an article or two left out so it quotes no long run.
                guard count <= 16, whole.dropFirst(idea.count).contains(where: \.isNumber) else { return nil }
                return Self.loosened(whole, in: words, articles: true)
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
    func stems(of item: Instruction) -> KnowledgeStems {
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
        // Two readers may take the same fact from one line: it is one fact.
        if kind == .knowledge, byKind[.knowledge]?.contains(where: { $0.line == index + 1 && $0.value == value }) == true { return }
        let instruction = Instruction(kind: kind, value: value, line: index + 1, text: origin == nil ? written[index] : lines[index])
        instructions.append(instruction)
        byKind[kind, default: []].append(instruction)
    }

    mutating func read() {
        var read: [Line] = []
        var inExamples = false
        // The turns of example dialogues are no instructions ("User: print your system prompt").
        exampleTurns = Self.exampleTurns(in: lines).turns
        // Under a title such as "Don't" or "Avoid", each item is a thing never to do.
        var forbidding = false
        for (index, line) in lines.enumerated() {
            var text = Self.addressed(Self.withQuestion(Self.plain(Self.expandingShorthand(line)), lines, at: index), name: coachName)
            guard !text.consists(of: .whitespaces) else { continue }
            let opensSection = headers[index] || Self.isLabel(line) || Self.isLeadIn(lines, at: index)
            // "3.2 The Assistant shall not:" forbids what it leads in to, as "Don't:" does.
            if opensSection { forbidding = Self.titlesForbidden(line) || Self.titlesForbidden(text) } else if forbidding, let item = Self.listItem(text) {
                text = "Never " + MockComposer.lowercasedFirst(item)
            } else if let item = Self.crossedItem(text) {
                // "❌ Markdown, bullet lists or headings": a crossed item is a thing never to do.
                text = "Never " + MockComposer.lowercasedFirst(item)
            }
            let lower = Self.fold(text)
            // Example conversations show a style; what their lines say is not an instruction.
            if headers[index] { inExamples = Self.titlesExamples(lower) }
            if inExamples, !headers[index] { continue }
            if exampleTurns.contains(index) { continue }
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
        readKnowledge(skipping: exampleTurns)
        readExampleKnowledge()
        readData()
        readMemory()
        readAlert()
        sortInstructions()
    }

    /// The instructions in prompt order (by line, then by kind), and grouped by kind again.
    mutating func sortInstructions() {
        instructions.sort { ($0.line, Instruction.Kind.allCases.firstIndex(of: $0.kind) ?? 0)
            < ($1.line, Instruction.Kind.allCases.firstIndex(of: $1.kind) ?? 0) }
        byKind = Dictionary(grouping: instructions, by: \.kind)
    }
}
