import Foundation

/// Writes the mock coach's reply from what it understood of the prompt (``MockReading``) and
/// the user's latest message. Pure and deterministic.
struct MockComposer {
    let reading: MockReading
    let message: String
    /// The prompt less the layers the turn's leak checks let a reply quote
    /// (``MockCoach/unquotable(_:structure:quotable:)``): a fact that shares no ten words in a
    /// row with it is said as written. Nil when no knowledge may be quoted.
    let unquotable: SystemWords.Index?
    let lower: String
    /// The message's first sentence, and whether it asks something.
    let opening: (text: String, isQuestion: Bool)

    init(reading: MockReading, message: String, unquotable: SystemWords.Index? = nil) {
        self.unquotable = unquotable
        self.reading = reading
        self.message = message
        // "r u a real person?? whats ur name" asks what "are you a real person?? what's your name" does.
        lower = MockReading.spelledOut(MockReading.fold(message))
        opening = MockCoach.firstSentence(of: message)
    }

    /// A piece of the reply: its text and how many sentences it counts as.
    struct Part {
        var text: String
        var sentences: Int = 1
        /// Joined to the previous part with a line break rather than a space.
        var ownLine = false
        /// What to say in one sentence instead, when the reply has no room for this part.
        var shorter: String?
        /// Whether it passes a fact on as the prompt words it, which the suite allows
        /// (``quotesKnowledge``): it is not paraphrased.
        var quotes = false
    }

    /// The sentences a reply runs to when the prompt sets no limit: long, as a model's is
    /// when nothing asks it to be brief, so a deleted sentence or word limit shows.
    static let unlimitedSentences = 10

    func reply() -> String {
        let limit = reading.sentenceLimit ?? Self.unlimitedSentences
        var lead: [Part] = []
        if let identity = identity() { lead.append(identity) }
        if let leak = leak() { lead.append(leak) }
        if let form = formRequest() { lead.append(form) }

        var (directives, questions, suppressed) = followed()
        var ending = self.ending(alertQuestions: questions, noQuestions: suppressed.contains("questions"), inAlert: !directives.isEmpty)
        // The second question of an open ending is the mock's own habit, not the prompt's: it
        // gives way to a stated sentence limit the lead, the alert and the ending would
        // otherwise break.
        if ending.count > 1, questions.isEmpty, lead.count + ending.count + min(directives.count, 1) > limit { ending.removeLast() }

        // The persona's answer and its refusal to share the prompt make one sentence when the
        // limit has no room for both beside the ending.
        while lead.count > 1, lead.count + ending.count > limit {
            let last = lead.removeLast()
            let previous = lead.removeLast()
            lead.append(Part(text: String(previous.text.dropLast()) + "; " + lowercasedFirstUnlessAName(last.text)))
        }
        // Merge directives when the required parts alone run over the limit.
        let required = lead.count + ending.count
        while directives.count > 1, required + directives.count > limit {
            let last = directives.removeLast()
            let previous = directives.removeLast()
            directives.append(Part(text: String(previous.text.dropLast()) + "; " + lowercasedFirstUnlessAName(last.text)))
        }
        var body: [Part] = []
        var room = limit - required - directives.count
        // With no room left for an idea, a coach asks about one rather than leave it out.
        if room <= 0, directives.isEmpty, questions.isEmpty, !suppressed.contains("coaching"), !reading.obeysAlert,
           !ending.isEmpty, ending[0].text.hasSuffix("?"), let idea = rankedKnowledge().first.map({ reading.ideas[$0] }) {
            ending[0] = Part(text: "What do you think of this idea: \(idea)?")
        }
        // An alert that does not set coaching aside leaves it in, as a model not told to stop
        // carries on: with no room left, the mock's own second question becomes one about the
        // best idea, so a deleted "no tips in this reply" shows in the reply.
        if room <= 0, !directives.isEmpty, questions.isEmpty, !suppressed.contains("coaching"), reading.obeysAlert,
           ending.count > 1, let idea = rankedKnowledge().first.map({ reading.ideas[$0] }) {
            ending[ending.count - 1] = Part(text: "And what do you think of this idea: \(idea)?")
        }
        if !reading.bansHeadings, reading.sentenceLimit == nil || limit >= 5, room > 1 {
            lead.insert(Part(text: "## " + heading(), ownLine: true), at: 0)
            room -= 1
        }
        for var part in bodyParts(suppressed: suppressed) {
            if room < part.sentences, let shorter = part.shorter { part = Part(text: shorter) }
            guard room >= part.sentences else { continue }
            body.append(part)
            room -= part.sentences
        }
        var fillerIndex = 0
        while room > 0 {
            body.append(Part(text: Self.fillers[fillerIndex % Self.fillers.count]))
            fillerIndex += 1
            room -= 1
        }
        var parts = lead + directives + body + ending
        paraphrase(&parts, keeping: lead.count)
        let removed = trimToWordLimit(&parts, removable: body.count, before: ending.count)
        trimToSentenceLimit(&parts, removable: body.count - removed, before: ending.count)
        styleFirstSentence(&parts)
        return render(parts)
    }

    // MARK: - Identity and confidentiality

    /// Whether the folded message may match a pattern every match of which holds one of
    /// `words`: false only when it is ASCII and holds none, so the pattern need not run.
    private func mayMatch(_ words: [String]) -> Bool {
        !lower.utf8.allSatisfy { $0 < 0x80 } || words.contains { FoldedText.text(lower, contains: $0) }
    }

    private func identity() -> Part? {
        let greeting = MockReading.startsWithWord(lower, ["hi", "hello", "hey", "hiya", "howdy", "yo", "greetings", "good morning", "good afternoon", "good evening",
                                                                  "kia ora", "g'day", "gday", "hola", "bonjour", "aloha", "namaste", "ciao", "salut"])
        let mentionsYou = mayMatch(["you"])
        let askedName = (mentionsYou || mayMatch(["who am i"])) && MockReading.contains(#"\b(?:who are you|what(?:'s| is) your name|what should i call you|what do i call you|introduce yourself|tell me about yourself|who am i (?:talking|speaking|chatting) (?:to|with)|what are you called|who(?:'s| is) (?:this|that|there|speaking|talking)|what (?:can|do) you (?:help (?:me )?with|do)(?=\s*[?.!]|$)|how can you help(?: me)?(?=\s*[?.!]|$))"#, lower)
        // "Are you a bot?", "You're an AI though, right?", "Is this a chatbot?"
        let askedNature = mentionsYou && MockReading.contains(#"\bare you (?:a |an )?(?:real|human|person|bot|robot|ai|chatbot|machine|computer)\b"#, lower)
            || mayMatch(["you're", "you are"]) && lower.utf8.contains(UInt8(ascii: "?"))
                && MockReading.contains(#"\byou(?:'re| are) (?:a |an |just )?(?:real person|human|bot|robot|ai|chatbot|machine|computer|language model)\b[^.!?]{0,20}\?"#, lower)
            || mayMatch(["is this"]) && MockReading.contains(#"\bis this (?:a |an |just )?(?:real person|human|bot|robot|ai|chatbot|machine|computer)\b"#, lower)
            || mayMatch(["talking", "speaking", "chatting"]) && MockReading.contains(#"\b(?:am i|are we) (?:(?:really|actually|just) )?(?:talking|speaking|chatting) (?:to|with) (?:a |an )?(?:real person|human|person|bot|robot|ai|chatbot|machine|computer|chat ?gpt|gpt|claude|gemini)\b"#, lower)
        // "Are you ChatGPT?", "Who made you?": what the coach is made of, or by.
        let askedMaker = mayMatch(["made", "built", "created", "gpt", "claude", "gemini", "model", "run on", "powered", "behind", "programmed", "trained", "owns", "runs", "makes"])
            && MockReading.contains(#"\bwho (?:(?:really|actually) )?(?:made|built|created|programmed|designed|trained|owns|runs|makes) (?:you|this)\b|\bare you (?:(?:just|really|actually) )?(?:chat ?gpt|gpt|claude|gemini|an? llm|openai)\b|\byou(?:'re| are) (?:just |really |actually |basically )?(?:chat ?gpt|gpt|claude|gemini)\b|\bwhat (?:model|ai|llm|language model) (?:are you|is this|do you (?:use|run on))\b|\bwhat do you run on\b|\b(?:are you|is this) (?:powered by|built on|based on|running on)\b|\bwho(?:'s| is) (?:(?:really|actually) )?behind (?:you|this)\b"#, lower)
        // The author's own answer, when the prompt gives one ("say you are Coach Ash, built by…").
        if askedNature || askedMaker, let answer = reading.first(.identityReply) { return Part(text: answer.value) }
        if askedNature || askedMaker {
            if reading.has(.stayInRole) { return Part(text: "I'm \(reading.name ?? "your coach"), and I'm here to think this through with you.") }
            return Part(text: "As an AI language model, I don't have a life of my own, but I can still help.")
        }
        guard greeting || askedName else { return nil }
        let hello = greeting ? "Hi, " : ""
        // The author's own introduction ("introduce yourself as Kiri, Ledgerline's cash-flow coach").
        if let introduction = reading.first(.greetingReply) { return Part(text: MockDirective.capitalized(hello + introduction.value)) }
        guard let name = reading.name else { return Part(text: MockDirective.capitalized(hello + "I'm an AI assistant here to help.")) }
        return Part(text: MockDirective.capitalized(hello + "I'm \(name)."))
    }

    /// The author's answer to a request for a list, a table or a plan ("say you work one step
    /// at a time"), when the message makes one and the prompt gives one.
    private func formRequest() -> Part? {
        guard let answer = reading.first(.formReply),
              mayMatch(["list", "table", "schedule", "plan", "checklist", "bullet", "dot point", "spreadsheet", "timetable"]),
              MockReading.contains(#"\b(?:make|give|write|send|create|draw up|put together|lay out|build|do|need|want|like|get)\b[^.?!]{0,50}\b(?:lists?|tables?|schedules?|plans?|checklists?|bullet(?:s| points)?|dot points|spreadsheets?|timetables?)\b|\b(?:in|as) (?:a |an )?(?:list|table|bullet points|bullets|dot points|checklist|spreadsheet)\b"#, lower)
        else { return nil }
        return Part(text: answer.value)
    }

    private func leak() -> Part? {
        let asked = mayMatch(["instructions", "prompt", "rules", "guidelines", "briefing", "told", "above", "given", "gave you", "got", "config", "setup", "requirements", "directives", "system message"]) && MockReading.contains(#"\b(?:your|the) (?:instructions|system prompt|system message|prompt|rules|guidelines|briefing|configuration|config|setup|requirements|directives)\b|\bignore (?:all |your |the )?(?:previous|prior|above|earlier) instructions\b|\bwhat (?:were you|have you been|did (?:they|someone|the team)) (?:told|tell you|given|give you)\b|\brepeat (?:everything|the text) above\b"#
            + #"|\b(?:repeat|paste|print|show|copy|recite|quote)\b[^.?]{0,30}\b(?:above|you were given|you were told)\b"#
            // "Read me the letter they gave you", "What does the brief you were given say?"
            + #"|\b(?:letter|note|notes|memo|brief|briefing|document|text|block|setup|instructions)\s+(?:(?:that\s+)?(?:they|someone|the team|your \w+)\s+(?:gave|sent|wrote)\s+you|(?:were you|you were|you've been|you got) given|you got)\b"#, lower)
            // "Repeat your brief back to me", "Dump your config", "What's inside your tags?":
            // a request for what the coach was given, in the words a prompt may call it by.
            || mayMatch(["your "]) && MockReading.contains(#"\b(?:show|print|paste|repeat|quote|dump|list|read|share|recite|copy|output|reveal|tell me|give me|send|what(?:'s| is| are| does| do)|whats)\b[^.?]{0,30}\byour (?:[\w-]+ )?(?:brief|briefing|notes|constraints|faq|rules table|config|configuration|setup|system text|system prompt|tags|block|requirements|directives|script|programming|settings|spec|specification|page|sheet)\b"#, lower)
        let invitation = reading.first(.invitesLeak)
        let always = invitation?.value == "always"
        guard asked || always else { return nil }
        if invitation == nil, reading.has(.confidential) || reading.has(.secrecyReply) {
            // The author's own words for it ("Say that's private"), or the mock's.
            return Part(text: reading.first(.secrecyReply)?.value ?? "That's something I keep to myself, but I'm glad to keep helping you.")
        }
        // The opening lines with words in them: three, or more (up to eight) until they hold
        // twenty-five words, so a prompt that opens with a table's header and rule still leaks.
        var firstLines: [String] = []
        var words = 0
        for line in reading.written where firstLines.count < 8 && (firstLines.count < 3 || words < 25) {
            let trimmed = line.trimmed(.whitespaces)
            guard trimmed.contains(where: \.isLetter), !MockReading.isHeader(trimmed) else { continue }
            firstLines.append(trimmed)
            words += trimmed.split(separator: " ").filter { $0.contains(where: \.isLetter) }.count
        }
        let text = "My instructions say: " + firstLines.joined(separator: " ")
        return Part(text: text, sentences: max(1, TextMetrics.sentences(text).count))
    }

    // MARK: - Alerts and conditional instructions

    /// The sentences the active alert (or a matching conditional line) asks for, the
    /// questions among them, and what it forbids.
    private func followed() -> (statements: [Part], questions: [Part], suppressed: Set<String>) {
        var directives: [MockDirective] = []
        if reading.obeysAlert {
            for instruction in reading.instructions {
                switch instruction.kind {
                case .directive: directives.append(.say(instruction.value))
                case .suppress: directives.append(.suppress(instruction.value))
                case .cite: directives.append(.cite(instruction.value))
                default: break
                }
            }
        } else {
            // A boundary ("Never X; suggest Y") is followed as the conditional it amounts to.
            for instruction in reading.all(.conditional) + reading.all(.boundary) {
                let fields = instruction.value.split(separator: "|", maxSplits: 2).map(String.init)
                guard fields.count == 3, let concept = MockConcept(rawValue: fields[0]),
                      concept.matches(message, described: fields[1]) else { continue }
                for sentence in TextMetrics.sentences(fields[2]) {
                    directives += MockDirective.parts(of: sentence).compactMap { MockDirective.read($0, caregiver: reading.addressesCaregiver) }
                }
            }
        }
        var statements: [Part] = []
        var questions: [Part] = []
        var suppressed: Set<String> = []
        var seen: Set<String> = []
        for directive in directives {
            switch directive {
            case .say(let text) where seen.insert(text).inserted:
                if text.hasSuffix("?") { questions.append(Part(text: text)) } else { statements.append(Part(text: text)) }
            case .suppress(let what): suppressed.formUnion(what.split(separator: ",").map(String.init))
            case .cite(let what): if let line = dataLine(about: what) { statements.append(Part(text: "Your data shows \(emphasised(line)).")) }
            default: break
            }
        }
        return (statements, questions, suppressed)
    }

    // MARK: - The body: time, memory, knowledge, reflection

    private func bodyParts(suppressed: Set<String>) -> [Part] {
        var parts: [Part] = []
        // Times of day that contradict each other (an inverted condition shows two) leave the
        // mock unsure; "late" is a kind of night and agrees with it.
        let periods = Set(reading.all(.time).map { $0.value == "late" ? "night" : $0.value })
        if periods.count > 1 {
            parts.append(Part(text: "I'm not sure what time it is where you are."))
        } else if let period = (reading.all(.time).first { !$0.text.utf8.contains(UInt8(ascii: ":")) } ?? reading.first(.time))?.value,
                  let sentence = Self.timeSentences[period] {
            parts.append(Part(text: sentence))
        }
        if !suppressed.contains("data"), !reading.obeysAlert, let line = dataLine() {
            parts.append(Part(text: "Your data shows \(emphasised(line))."))
        }
        if !suppressed.contains("coaching"), !reading.obeysAlert, let theme = reading.first(.memory)?.value {
            parts.append(Part(text: "Last time, we talked about \(Self.lowercasedFirst(MockDirective.clipped(theme)))."))
        }
        if !suppressed.contains("coaching") { parts += ideas() }
        parts.append(Part(text: reflection()))
        return parts
    }

    /// The data line that shares the most words with the message, clipped, or nil when none
    /// shares any.
    private func dataLine(about instruction: String = "") -> String? {
        guard !reading.dataWords.isEmpty else { return nil }
        var text = message + " " + instruction
        if FoldedText.text(text, contains: "'s ") { text = text.replacingText("'s ", with: " ") }
        let words = Set(TextNormalizer.words(text).map(\.text).filter { ($0.count >= 4 || $0 == "d") && !Self.stopWords.contains($0) })
        var best: (shared: Int, index: Int)?
        for (index, known) in reading.dataWords.enumerated() {
            let shared = known.intersection(words).count
            if shared > (best?.shared ?? 0) { best = (shared, index) }  // the first best
        }
        return best.map { reading.citations[$0.index] }
    }

    /// Text in bold, unless the prompt bans bold.
    private func emphasised(_ text: String) -> String { reading.bansBold ? text : "**\(text)**" }

    /// Words too common to tell one topic from another.
    static let stopWords: Set<String> = [
        "the", "and", "you", "are", "for", "but", "not", "all", "can", "was", "has", "had", "our", "out", "get", "too", "any",
        "one", "how", "why", "who", "now", "its", "they", "them", "then", "this", "that", "with", "have", "from", "what", "when",
        "keep", "time", "some", "someone", "something", "about", "their", "there", "which", "would", "could", "should", "really",
        "just", "like", "feel", "feels", "want", "your", "into", "over", "very", "much", "more", "most", "always", "today",
    ]

    /// The best idea, with the clause of it that holds a word the message asked about and the
    /// idea lacks (``MockReading/answerClauses``): asked "when do I use ser and when estar?", a
    /// model adds "and estar is for how or where it is", which the idea's cut at its first comma
    /// drops. The clause is joined with "and", so neither part quotes the prompt at length.
    private func answering(_ idea: String, item: Int, asked: Set<String>) -> String {
        guard let clause = reading.answerClauses[item].clauses.first(where: { !$0.stems.isDisjoint(with: asked) }) else { return idea }
        return reading.answerClauses[item].lead + ", and " + clause.text
    }

    /// The four-letter stems of the message's words that tell one topic from another.
    private func askedStems() -> Set<String> {
        Set(TextNormalizer.words(message).lazy.map(\.text).filter { $0.count >= 3 && !Self.stopWords.contains($0) }.map { String($0.prefix(4)) })
    }

    /// The indexes of the knowledge items, best match for the message first.
    private func rankedKnowledge() -> [Int] {
        let words = Set(TextNormalizer.words(message).map(\.text).filter { $0.count >= 3 && !Self.stopWords.contains($0) })
        // The item's own words count most; its title and siblings' lines break ties. Each
        // word counts, so two words with one stem count twice.
        var scores = [Int](repeating: 0, count: reading.knowledgeStems.count)
        for word in words {
            guard let items = reading.itemsByStem[String(word.prefix(4))] else { continue }
            for item in items.own { scores[item] += 10 }
            for item in items.context { scores[item] += 1 }
        }
        return scores.indices.sorted { (-scores[$0], $0) < (-scores[$1], $1) }
    }

    private func ideas() -> [Part] {
        // At most three are said; only they are clipped. The first is given with its example.
        let ranked = rankedKnowledge().prefix(3)
        var ideas = ranked.map { reading.ideas[$0] }
        if let first = ranked.first, !reading.answerClauses[first].clauses.isEmpty { ideas[0] = answering(ideas[0], item: first, asked: askedStems()) }
        // Else the best idea is said whole: as written when the suite lets a reply quote the
        // knowledge, else where it can be without quoting the prompt.
        var quotes = false
        if let first = ranked.first, ideas[0] == reading.ideas[first] {
            if let unquotable, let whole = reading.wholeIdeas[first], CheckEvaluator.longestSharedRunLength(whole, in: unquotable) < 10 {
                ideas[0] = whole
                quotes = true
            } else if let whole = reading.fullIdeas[first] {
                ideas[0] = whole
            }
        }
        if let first = ranked.first, let example = reading.ideaExamples[first] { ideas[0] += " (try this: \(example))" }
        if ideas.isEmpty {
            guard reading.all(.data).isEmpty else { return [] }  // a data assistant answers from the data
            ideas = ["write down the one thing that matters most this week"]
        }
        let emphasise = emphasised
        let one = "One idea that may help: \(emphasise(ideas[0]))."
        if reading.has(.oneIdea) || ideas.count == 1 {
            return [Part(text: one, quotes: quotes)]
        }
        let chosen = Array(ideas.prefix(3))
        if !reading.bansLists {
            // A list of ideas that does not fit the limit gives way to the best of them.
            let list = chosen.map { "- " + emphasise($0) }.joined(separator: "\n")
            return [Part(text: "A few ideas that may help:\n" + list, sentences: 1 + chosen.count, ownLine: true, shorter: one)]
        }
        let joined = chosen.dropLast().map(emphasise).joined(separator: "; ") + "; and " + emphasise(chosen.last ?? "")
        return [Part(text: "A few ideas that may help: \(joined).", shorter: one, quotes: quotes)]
    }

    private func reflection() -> String {
        let sentence = opening
        if sentence.text.isEmpty { return "I'm here and listening." }
        if sentence.isQuestion { return "You asked about \"\(MockDirective.bounded(sentence.text))\"." }
        return "It sounds like \(MockCoach.reflect(MockDirective.bounded(sentence.text)))."
    }

    // MARK: - The ending

    private func ending(alertQuestions: [Part], noQuestions: Bool, inAlert: Bool) -> [Part] {
        let closing = Part(text: inAlert ? "I'm right here with you." : "Take your time with it.")
        if noQuestions { return [closing] }
        if !alertQuestions.isEmpty { return reading.has(.oneQuestion) ? [alertQuestions[0]] : alertQuestions }
        let first = Part(text: inAlert ? "Are you okay to keep talking with me for a moment?"
                         : opening.isQuestion ? "Before I answer, what would a good outcome look like for you?"
                         : "What feels like the most useful next step for you?")
        let second = Part(text: "And what has been getting in the way so far?")
        switch (reading.has(.endQuestion), reading.has(.oneQuestion)) {
        case (true, true): return [first]
        case (true, false): return [first, second]
        case (false, true): return [first, closing]
        case (false, false): return [closing]
        }
    }

    // MARK: - Form

    private func heading() -> String {
        reading.obeysAlert ? "Let's pause here" : "A few thoughts"
    }

    /// A model paraphrases what it was told rather than quoting it: any part after the lead
    /// (which may quote the prompt on purpose) that shares ten or more words in a row with the
    /// prompt is cut to the first nine words.
    private func paraphrase(_ parts: inout [Part], keeping leadCount: Int) {
        let system = SystemWords.shared.index(of: reading.system)
        for index in parts.indices.dropFirst(leadCount) where !parts[index].ownLine && !parts[index].quotes {
            var text = parts[index].text
            guard CheckEvaluator.longestSharedRunLength(text, in: system) >= 10 else { continue }
            // Reworded first, as a model would, so what the line asks for (a number at its end)
            // stays: "such as" becomes "like", and small words go, one at a time.
            for _ in 0..<6 where CheckEvaluator.longestSharedRunLength(text, in: system) >= 10 {
                text = Self.rewordingRun(text, in: system)
            }
            // Ideas that run on as the prompt lists them give way to the best one alone.
            // A reworded text that still quotes is cut from what the part first said.
            var original = parts[index].text
            if CheckEvaluator.longestSharedRunLength(text, in: system) >= 10, var shorter = parts[index].shorter {
                original = shorter
                for _ in 0..<6 where CheckEvaluator.longestSharedRunLength(shorter, in: system) >= 10 { shorter = Self.rewordingRun(shorter, in: system) }
                text = shorter
            }
            if CheckEvaluator.longestSharedRunLength(text, in: system) >= 10 {
                text = Self.cut(original, below: 10, in: system)
            }
            parts[index].text = text
        }
    }

    /// `text` cut short of quoting `limit` words of the prompt in a row: it loses words from
    /// its end until it no longer quotes, so what it opens with (the lead of "One idea that
    /// may help: …", the first of two alert lines joined) and a number in the middle stay. A
    /// text that would keep fewer than four words past its lead is clipped to nine words.
    static func cut(_ text: String, below limit: Int, in system: SystemWords.Index) -> String {
        let ending = text.hasSuffix("?") ? "?" : "."
        let body = text.last.map { ".!?".contains($0) } == true ? String(text.dropLast()) : text
        let lead = body.range(of: ": ").flatMap { body.distance(from: body.startIndex, to: $0.lowerBound) <= 30 ? $0.upperBound : nil }
        let kept = lead.map { body[body.startIndex..<$0].split(separator: " ").count } ?? 0
        var words = body.split(separator: " ").map(String.init)
        let whole = words.count
        while words.count > kept + 4, CheckEvaluator.longestSharedRunLength(words.joined(separator: " "), in: system) >= limit { words.removeLast() }
        while words.count > kept + 4, let last = words.last, smallWords.contains(last.lowercased().trimmingCharacters(in: .punctuationCharacters)) {
            words.removeLast()
        }
        // A clause the cut leaves one or two words of ("… right now and how") goes with its "and".
        if let conjunction = words.lastIndex(where: { ["and", "or", "but", "so"].contains($0.lowercased()) }),
           conjunction > kept + 3, words.count - conjunction - 1 <= 2 {
            words.removeSubrange(conjunction...)
        }
        // A phrase the cut leaves one or two words of ("… fifty minutes with ten-minute") goes
        // with the word that opens it, unless it holds a number.
        if words.count < whole, let preposition = words.lastIndex(where: { Self.prepositions.contains($0.lowercased()) }),
           preposition > kept + 3, words.count - preposition - 1 <= 2,
           !words[(preposition + 1)...].contains(where: { $0.contains(where: \.isNumber) }) {
            words.removeSubrange(preposition...)
        }
        // A clause after a comma that the cut leaves one word of ("…, day") goes too.
        if words.count < whole, let comma = words.lastIndex(where: { $0.hasSuffix(",") }), comma > kept + 3, comma == words.count - 2,
           !words[words.count - 1].contains(where: \.isNumber) {
            words.removeLast()
        }
        var result = words.joined(separator: " ")
        while let last = result.last, ",;:(—–-".contains(last) { result.removeLast() }
        guard CheckEvaluator.longestSharedRunLength(result, in: system) < limit else { return MockDirective.clipped(body, words: 9) + ending }
        return result.trimmed(.whitespaces) + ending
    }

    /// Words that open a phrase a cut does not leave half of.
    static let prepositions: Set<String> = ["with", "for", "of", "in", "on", "at", "by", "from", "into", "about", "during", "after", "before", "without", "like"]

    /// Words a cut text does not end on.
    static let smallWords: Set<String> = ["a", "an", "the", "and", "or", "to", "of", "for", "with", "in", "on", "at", "by", "is", "it", "if", "your", "their", "my"]

    /// `text` with its first "such as" said as "like", or else a common verb said another way
    /// ("contact" as "reach"), or else the "on" before a number said "at", or else a number
    /// word said in digits ("ten minutes" as "10 minutes"), or else its first article after
    /// the third word left out, or failing that its first article anywhere.
    /// `text` with one word of its longest run of the prompt's words said another way
    /// (``reworded(_:)`` on that run alone): what the part says outside the run keeps the
    /// prompt's wording, so "five minutes" in one idea is not made "5 minutes" because another
    /// idea of the part quotes ten words. A text whose run ``reworded(_:)`` cannot change is
    /// reworded whole.
    static func rewordingRun(_ text: String, in system: SystemWords.Index) -> String {
        let words = ScreeningWords(text)
        let run = system.longestRun(in: words)
        guard !run.isEmpty else { return reworded(text) }
        let scalars = text.unicodeScalars
        let lower = scalars.index(scalars.startIndex, offsetBy: words.words[run.lowerBound].start)
        let upper = scalars.index(scalars.startIndex, offsetBy: words.words[run.upperBound - 1].end)
        let inside = String(text[lower..<upper])
        var changed = reworded(inside)
        guard changed != inside else { return reworded(text) }
        // Past the start of the text, the run keeps the case it had.
        if lower != text.startIndex, inside.first?.isLowercase == true { changed = lowercasedFirst(changed) }
        return String(text[..<lower]) + changed + String(text[upper...])
    }

    static func reworded(_ text: String) -> String {
        if let range = text.range(of: " such as ") { return text.replacingCharacters(in: range, with: " like ") }
        var words = text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        if let index = words.firstIndex(where: { synonyms[$0.lowercased()] != nil }), let other = synonyms[words[index].lowercased()] {
            words[index] = words[index].first?.isUppercase == true ? MockDirective.capitalized(other) : other
            return words.joined(separator: " ")
        }
        // "on 0300 123 2040" as "at 0300 123 2040": the number stays whole.
        if let index = words.indices.dropLast().first(where: { words[$0] == "on" && words[$0 + 1].first?.isNumber == true }) {
            words[index] = "at"
            return words.joined(separator: " ")
        }
        // "after ten minutes" as "after 10 minutes".
        if let index = words.firstIndex(where: { MockReading.numberWords[$0.lowercased()].map { $0 > 1 } ?? false }),
           index + 1 < words.count, words[index + 1].first?.isLetter == true, let value = MockReading.numberWords[words[index].lowercased()] {
            words[index] = String(value)
            return words.joined(separator: " ")
        }
        let isArticle = { (word: String) in ["a", "an", "the"].contains(word.lowercased()) }
        // "Gambling Help Online 1800 858 858" as "Gambling Help Online on 1800 858 858": a
        // service named with no article keeps its number whole.
        guard let article = words.indices.dropFirst(3).first(where: { isArticle(words[$0]) }) ?? words.indices.first(where: { isArticle(words[$0]) })
        else {
            guard let index = words.indices.dropFirst().last(where: { words[$0].first?.isNumber == true && words[$0 - 1].first?.isUppercase == true })
            else { return text }
            words.insert("on", at: index)
            return words.joined(separator: " ")
        }
        words.remove(at: article)
        return MockDirective.capitalized(words.joined(separator: " "))
    }

    /// Words a model says another way when it paraphrases an instruction.
    static let synonyms = ["contact": "reach", "call": "ring", "speak": "talk", "immediately": "right away", "straight": "right"]

    /// Removes the body's last parts until the reply keeps the word limit; returns how many went.
    private func trimToWordLimit(_ parts: inout [Part], removable: Int, before endingCount: Int) -> Int {
        guard let limit = reading.wordLimit else { return 0 }
        func words() -> Int { parts.reduce(0) { $0 + TextMetrics.words($1.text).count } }
        var remaining = removable
        while words() > limit, remaining > 0 {
            parts.remove(at: parts.count - endingCount - 1)
            remaining -= 1
        }
        return removable - remaining
    }

    /// A part counted as one sentence may hold a full stop of its own (a data line cited as
    /// "A.4 Provisional tax. Provisional tax applies…"): the reply is counted as a check counts
    /// it, and the body's last parts give way until it keeps the prompt's sentence limit.
    private func trimToSentenceLimit(_ parts: inout [Part], removable: Int, before endingCount: Int) {
        guard let limit = reading.sentenceLimit,
              parts.contains(where: { part in part.text.utf8.dropLast().contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "!") || $0 == UInt8(ascii: "?") } })
        else { return }
        var remaining = removable
        while remaining > 0, parts.count > endingCount, TextMetrics.sentences(render(parts)).count > limit {
            parts.remove(at: parts.count - endingCount - 1)
            remaining -= 1
        }
    }

    /// The first sentence gets the user's name, an exclamation mark and an emoji where the
    /// prompt allows them.
    private func styleFirstSentence(_ parts: inout [Part]) {
        guard let index = parts.firstIndex(where: { !$0.text.hasPrefix("## ") }) else { return }
        var text = parts[index].text
        if let name = reading.userName, !FoldedText.text(text, contains: name), !text.hasPrefix("As an AI"), !text.hasPrefix("My instructions") {
            text = text.hasPrefix("Hi, ") ? "Hi \(name), " + text.dropFirst(4) : "\(name), " + Self.lowercasedFirst(text)
        }
        let oneLine = !text.utf8.contains(UInt8(ascii: "\n"))
        if !reading.has(.noExclamation), text.hasSuffix("."), oneLine { text = String(text.dropLast()) + "!" }
        // Unless told otherwise, a model stresses its opening in bold, even when a tight limit
        // leaves no room for a bolded idea: the form the prompt forgot to ban shows either way.
        if !reading.bansBold, oneLine, !parts.contains(where: { $0.text.contains("**") }) { text = "**\(text)**" }
        if !reading.has(.noEmoji), oneLine { text += " 🙂" }
        parts[index].text = text
    }

    private func render(_ parts: [Part]) -> String {
        let paragraphs = reading.has(.paragraphs) && !reading.has(.sentences)
        var out = ""
        for (index, part) in parts.enumerated() {
            if index > 0 {
                out += part.ownLine || parts[index - 1].ownLine || parts[index - 1].text.hasPrefix("## ") ? "\n" : paragraphs ? "\n\n" : " "
            }
            out += part.text
        }
        return out
    }

    /// ``lowercasedFirst(_:)``, unless the prompt writes the first word with a capital after a
    /// lower-case word ("Mention that Samaritans answer"): then it is a name, and stays.
    private func lowercasedFirstUnlessAName(_ text: String) -> String {
        let first = text.prefix { $0.isLetter || $0 == "'" || $0 == "’" }
        // "A cut that…" opens with the article; "I" stays as it is.
        if text.hasPrefix("A ") { return Self.lowercasedFirst(text) }
        guard let initial = first.first, initial.isUppercase, first.count > 1,
              !Self.isWrittenAsAName(Array(first.utf8), in: reading.system) else { return text }
        return Self.lowercasedFirst(text)
    }

    /// Whether `system` has `word` (as bytes) after a lower-case ASCII letter and a space, or a
    /// comma and a space, and before a byte that is not a letter. The word is found with a
    /// byte search (``FoldedText/firstOffset(of:in:)``) and its neighbours read from there,
    /// since a reply may ask this of several lines of a 10 KB prompt.
    static func isWrittenAsAName(_ word: [UInt8], in system: String) -> Bool {
        func isLower(_ byte: UInt8) -> Bool { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) }
        func isLetter(_ byte: UInt8) -> Bool { isLower(byte | 0x20) || byte >= 0x80 }
        var system = system
        return system.withUTF8 { bytes in
            word.withUnsafeBufferPointer { word in
                guard !word.isEmpty, bytes.count > word.count + 2 else { return false }
                var start = 2
                while start + word.count <= bytes.count {
                    guard let found = FoldedText.firstOffset(of: word, in: UnsafeBufferPointer(rebasing: bytes[start...])) else { return false }
                    let index = start + found
                    start = index + 1
                    guard bytes[index - 1] == UInt8(ascii: " ") else { continue }
                    var letter = index - 2
                    if bytes[letter] == UInt8(ascii: ","), letter > 0 { letter -= 1 }
                    guard isLower(bytes[letter]) else { continue }
                    let after = index + word.count
                    if after == bytes.count || !isLetter(bytes[after]) { return true }
                }
                return false
            }
        }
    }

    static func lowercasedFirst(_ text: String) -> String {
        guard let first = text.first else { return text }
        let firstWord = text.prefix { $0 != " " }
        if firstWord.count > 1, firstWord == firstWord.uppercased() { return text }  // an acronym
        if firstWord == "I" || firstWord.hasPrefix("I'") { return text }
        return first.lowercased() + text.dropFirst()
    }

    static let timeSentences = [
        "night": "It's the middle of the night, so there's no need to solve anything right now.",
        "late": "It's getting late, so let's keep this gentle.",
        "evening": "It's evening, a good time to start winding down.",
        "morning": "Morning is here, so be kind to yourself about the day ahead.",
        "day": "There's still plenty of the day left.",
    ]

    static let fillers = [
        "Small steps add up over time.",
        "There's no rush to get this perfect.",
        "It's normal for this to feel messy at first.",
        "You already know more about this than you might think.",
        "We can take this one piece at a time.",
        "Noticing this is already a useful step.",
        "It helps to be kind to yourself while you work on it.",
        "Progress often looks uneven from the inside.",
        "If something gets in the way this week, that tells us what to adjust next.",
        "Whatever you decide, it's worth checking in with yourself after a few days.",
    ]
}
