import Foundation

/// Knowledge: the items a prompt gives the coach to teach.
extension MockReading {
    /// Knowledge: "Core idea:" lines, heuristics and tips, and bullets under a section about
    /// ideas, knowledge or responses.
    mutating func readKnowledge(skipping examples: Set<Int> = []) {
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
        for (index, line) in lines.enumerated() where !(alertRange?.contains(index) ?? false) && !examples.contains(index) {
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
                      // "Q: What is body doubling?" titles the answer under it; it is no fact.
                      !(match[2].hasSuffix("?") && Self.faqQuestion(lines, at: index) != nil),
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
}
