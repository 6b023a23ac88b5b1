import Foundation

/// A prompt made readable: lines run together split into a line an item, and the shapes a reader cannot read as they are.
extension MockReading {
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
            let spoken = (properties ? property(written) : nil) ?? speaker.flatMap { said(written, by: $0) } ?? commentary(written) ?? selfCheck(written) ?? written
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
              next.prefix(while: { $0 == " " || $0 == "\t" }).count > line.prefix(while: { $0 == " " || $0 == "\t" }).count else { return nil }
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
}
