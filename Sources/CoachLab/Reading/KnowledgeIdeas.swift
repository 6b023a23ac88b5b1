import Foundation

/// How a knowledge item is said: clipped, loosened, its figure carried whole, its example.
extension MockReading {
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
    static func loosened(_ text: String, in system: SystemWords.Index, articles: Bool = false) -> String? {
        var words = text.split(separator: " ").map(String.init)
        // With `articles`, "a", "an" and "the" can go too: "stay on credit report for up to 7 years".
        let fillers = Set(["really", "just", "very", "already", "actually", "simply", "also", "usually", "often", "quite"]
            + (articles ? ["a", "an", "the"] : []))
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
        guard said.count < words.count, let last = said.last, isFigure(last) else { return nil }
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

    /// Whether a word is a figure: digits, or a number written out ("five", "twelve", "thirty").
    static func isFigure(_ word: String) -> Bool {
        word.contains(where: \.isNumber) || (numberWords[word.lowercased().trimmingCharacters(in: .punctuationCharacters)] ?? 0) > 1
    }

    /// Words after a number that are not its unit.
    static let smallFigureWords: Set<String> = ["to", "or", "and", "of", "in", "on", "at", "for", "with", "by", "a", "an", "the", "if", "when", "but", "so"]

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
}
