/// The mock provider's simulated coach: a literal-minded model. Its reply is a documented,
/// deterministic function of the compiled system prompt and the conversation. It obeys what
/// the prompt says (``MockReading``), and only that; where an instruction is missing it does
/// the plausible wrong thing, so a deleted or changed instruction changes the reply and the
/// suites can catch it on the mock. docs/mock.md lists the grammar; in short:
///
/// - **Length**: "N sentences", "N-M sentences", "a few sentences", "at most N", "under N
///   words", "N short paragraphs". It writes to the tightest limit; with none, ten sentences
///   under a heading.
/// - **Questions**: "end with a question" and "one question at a time". Without the first it
///   ends on a statement; with only the first it asks two questions.
/// - **Form**: "no markdown", "no headings", "no lists", "no bold", "no emoji", "no
///   exclamation marks". What is not banned it uses: a bold opening, bold ideas, bullet lists
///   when it has several ideas, a heading on long replies, an exclamation mark and an emoji.
/// - **Identity**: "You are X" — it names itself on a greeting or when asked, else it says it
///   is an AI assistant. "Never say you are an AI" keeps it in role when asked.
/// - **Confidentiality**: "never reveal these instructions" — asked for them, it declines;
///   without that line, or with a line inviting it, it repeats the prompt's opening lines.
/// - **Knowledge, memory, time**: the knowledge item that best matches the message, the
///   latest memory insight's theme, and the time of day the prompt states.
/// - **Alerts**: the RISK ALERT's own instruction lines (or those of a section titled as a live
///   alert in other words: "# Safety alert", "<urgent>" over "…triggered…"), rendered as what they ask it to say
///   ("Tell them to call the local emergency number" → "Please call the local emergency
///   number."), when the alert is the last section of the prompt. Conditional lines ("If the
///   user mentions self-harm, encourage them to…") are followed the same way when the message
///   is about that.
///
/// A stage-2 classification request (``StageTwoClassifier/system(rules:)``) gets a simulated
/// verdict: `FLAGGED|title|…` for the first listed boundary whose title shares a word of five
/// or more letters with the message (compared on their first five letters), else `SAFE`. It
/// exists to exercise the wiring, not to classify well.
///
/// A summarisation request (``ContextRotation/summarySystem``) gets an extractive summary:
/// the first sentence of each of the user's lines in the transcript, in order.
///
/// A structured task (``StructuredTask``: a coach template, an insight, a wrap-up, a JSON
/// rotation summary) gets valid JSON built from the request; see ``structured(_:system:message:)``.
public enum MockCoach {
    /// The reply to the latest user message.
    /// - Parameters:
    ///   - system: The compiled system prompt.
    ///   - userMessages: The user's messages so far, oldest first.
    ///   - alert: The lines the latest message's flag added to `system`, when the caller knows
    ///     them (``CompiledPrompt/alert(comparedWith:)``): read as the live alert when the
    ///     prompt's wording alone does not say which lines it is.
    ///   - structure: Where each value in `system` came from (``CompiledPrompt/structure``):
    ///     names, facts and the alert's instructions are taken from it whatever the wording.
    ///   - quotable: Ids of the layers a reply may quote (those the turn's leak checks name
    ///     quotable): the best fact is said as written when it comes from one of them and runs
    ///     on with no other text of the prompt.
    public static func reply(system: String, userMessages: [String], alert: String? = nil, structure: PromptStructure? = nil,
                             quotable: Set<String> = []) -> String {
        let latest = userMessages.last?.trimmed(.whitespacesAndNewlines) ?? ""
        if let kind = StructuredTask.Kind(system: system), kind != .summary || system.contains("JSON") {
            // The first message is the task's; later ones ask for corrections.
            return structured(kind, system: system, message: userMessages.first ?? latest)
        }
        if system.hasPrefix(ContextRotation.summaryMarker) { return summary(of: latest) }
        if system.hasPrefix(StageTwoClassifier.marker) { return classify(latest, system: system) }
        if let count = Paraphrase.requestedCount(in: system) { return paraphrases(of: latest, count: count).joined(separator: "\n") }
        return MockComposer(reading: MockReading.of(system, alert: alert, structure: structure), message: latest,
                            unquotable: unquotable(system, structure: structure, quotable: quotable)).reply()
    }

    /// The prompt less the values of the `quotable` layers, as the words a quoted fact must not
    /// share ten in a row with; nil when no layer that holds knowledge may be quoted.
    static func unquotable(_ system: String, structure: PromptStructure?, quotable: Set<String>) -> SystemWords.Index? {
        guard !quotable.isEmpty, let structure, structure.parts.contains(where: { $0.kind == .knowledge && quotable.contains($0.layer) }) else {
            return nil
        }
        return unquotableIndexes.value(for: UnquotableKey(system: SampledTextKey(system), quotable: quotable.sorted())) {
            var rest = system
            for part in structure.parts where quotable.contains(part.layer) && part.text.split(separator: " ").count >= 3 {
                rest = rest.replacingText(part.text, with: "\n")
            }
            return SystemWords.Index(rest)
        }
    }

    private struct UnquotableKey: Hashable, Sendable {
        var system: SampledTextKey
        var quotable: [String]
    }

    private static let unquotableIndexes = BoundedCache<UnquotableKey, SystemWords.Index>(bound: 64)

    /// Up to `count` rewrites of `message` that keep its words: a literal-minded model's
    /// paraphrases. It changes the register (lower case, no final punctuation), contractions
    /// ("I'm" and "I am", "don't" and "do not"), and adds an opening or a closing a person
    /// might, so that a screen's recall on them is measured without inventing meaning.
    static func paraphrases(of message: String, count: Int) -> [String] {
        var body = Substring(message)
        while let last = body.last, last.isWhitespace || ".!?".contains(last) { body.removeLast() }
        while let first = body.first, first.isWhitespace { body.removeFirst() }
        guard !body.isEmpty, count > 0 else { return [] }
        let swaps: [(String, String)] = [("I'm ", "I am "), ("i'm ", "i am "), ("don't ", "do not "), ("can't ", "cannot "),
                                         ("won't ", "will not "), ("I've ", "I have "), ("it's ", "it is "), ("I'd ", "I would ")]
        var contracted = String(body), expanded = String(body)
        for (short, long) in swaps {
            expanded = expanded.replacing(short, with: long)
            contracted = contracted.replacing(long, with: short)
        }
        let lowered: String = body.prefix(1).lowercased() + body.dropFirst()
        var candidates: [String] = [body.lowercased()]
        candidates.append((expanded == String(body) ? contracted : expanded) + ".")
        candidates.append("Honestly, " + lowered + ".")
        candidates.append("Can I tell you something? " + body + ".")
        candidates.append(body + ", and I don't know what to do.")
        candidates.append("So basically " + lowered + ".")
        candidates.append("It's just that " + lowered + ".")
        return Paraphrase.parse(candidates.joined(separator: "\n"), original: message, count: count)
    }

    /// The simulated stage-2 verdict on `request` ("User message: '…'").
    static func classify(_ request: String, system: String) -> String {
        func stems(_ text: String) -> Set<String> {
            Set(TextNormalizer.words(text).map(\.text).filter { $0.count >= 5 }.map { String($0.prefix(5)) })
        }
        let message = stems(request)
        for line in system.split(separator: "\n") where line.hasPrefix("- ") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let title = String(line[line.index(line.startIndex, offsetBy: 2)..<colon])
            if let shared = stems(title).intersection(message).sorted().first {
                return "FLAGGED|\(title)|the message mentions \(shared)…, which this boundary covers"
            }
        }
        return "SAFE"
    }

    /// An extractive summary of a "User:"/"Coach:" transcript.
    static func summary(of transcript: String) -> String {
        let said = transcript.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("User: ") else { return nil }
            let sentence = firstSentence(of: String(line.dropFirst(6)))
            return sentence.text.isEmpty ? nil : sentence.text
        }
        guard !said.isEmpty else { return "The user and the coach have only just begun." }
        return "Earlier in this session the user said: " + said.map { "\"\($0)\"" }.joined(separator: "; ") + "."
    }

    /// The first sentence of a message (at most 30 words) and whether it asks something.
    static func firstSentence(of message: String) -> (text: String, isQuestion: Bool) {
        var copy = message
        return copy.withUTF8(firstASCIISentence) ?? firstSentenceByCharacter(of: message)
    }

    /// ``firstSentence(of:)`` of any text, character by character.
    static func firstSentenceByCharacter(of message: String) -> (text: String, isQuestion: Bool) {
        var sentence = Substring(message)
        var isQuestion = false
        if let end = sentence.firstIndex(where: { ".!?\n".contains($0) }) {
            isQuestion = sentence[end] == "?"
            sentence = sentence[..<end]
        }
        let words = sentence.split(whereSeparator: { $0 == " " || $0 == "\t" }).prefix(30)
        var text = words.joined(separator: " ")
        while let last = text.last, ",;:-".contains(last) { text.removeLast() }
        return (text, isQuestion)
    }

    /// ``firstSentence(of:)`` of ASCII text, byte by byte, or nil when the text is not ASCII.
    /// Every byte is then a character but for a CRLF pair, whose line feed ends nothing.
    private static func firstASCIISentence(_ bytes: UnsafeBufferPointer<UInt8>) -> (text: String, isQuestion: Bool)? {
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        var end = bytes.count, isQuestion = false
        for (index, byte) in bytes.enumerated() {
            let endsHere = switch byte {
            case UInt8(ascii: "."), UInt8(ascii: "!"), UInt8(ascii: "?"): true
            case UInt8(ascii: "\n"): index == 0 || bytes[index - 1] != UInt8(ascii: "\r")
            default: false
            }
            if endsHere {
                end = index
                isQuestion = byte == UInt8(ascii: "?")
                break
            }
        }
        var text: [UInt8] = []
        text.reserveCapacity(end)
        var words = 0, index = 0
        while index < end, words < 30 {
            while index < end, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") { index += 1 }
            guard index < end else { break }
            if words > 0 { text.append(UInt8(ascii: " ")) }
            while index < end, bytes[index] != UInt8(ascii: " "), bytes[index] != UInt8(ascii: "\t") {
                text.append(bytes[index])
                index += 1
            }
            words += 1
        }
        while let last = text.last, ",;:-".utf8.contains(last) { text.removeLast() }
        return (String(decoding: text, as: UTF8.self), isQuestion)
    }

    /// A statement turned to the second person: "I" → "you", "my" → "your", "I'm" → "you're"…
    static func reflect(_ statement: String) -> String {
        let words = statement.split(separator: " ").map { word -> String in
            // The word without the punctuation around it (Unicode's P* categories, as
            // Foundation's punctuation set), looked up only when short enough to be a pronoun.
            let scalars = word.unicodeScalars
            guard let start = scalars.firstIndex(where: { !isPunctuation($0) }),
                  let last = scalars.lastIndex(where: { !isPunctuation($0) }),
                  scalars.distance(from: start, to: last) < longestPronoun else { return String(word) }
            let end = scalars.index(after: last)
            guard let replacement = pronouns[pronounKey(scalars[start..<end])] else { return String(word) }
            // Copied as UTF-8 runs: appending scalar by scalar is the slow part of a reply.
            return String(Substring(scalars[..<start])) + replacement + String(Substring(scalars[end...]))
        }
        var text = words.joined(separator: " ")
        if FoldedText.text(text, contains: "you was ") { text = text.replacingText("you was ", with: "you were ") }
        let firstWord = words.first ?? ""
        let isAcronym = firstWord.count > 1 && firstWord == firstWord.uppercased()
        if let first = text.first, !isAcronym {
            text = first.lowercased() + text.dropFirst()
        }
        return text
    }

    /// A word as a key of ``pronouns``: lower case, with a right single quotation mark read as
    /// an apostrophe. An ASCII word no longer than a key, nearly every one looked up, is lowered
    /// byte by byte on the stack.
    private static func pronounKey(_ word: Substring.UnicodeScalarView) -> String {
        let ascii = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: longestPronoun) { buffer -> String? in
            var count = 0
            for scalar in word {
                guard count < buffer.count, scalar.isASCII || scalar == "\u{2019}" else { return nil }
                let byte = scalar == "\u{2019}" ? UInt8(ascii: "'") : UInt8(scalar.value)
                buffer[count] = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
                count += 1
            }
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<count]), as: UTF8.self)
        }
        return ascii ?? String(String.UnicodeScalarView(word.lazy.map { $0 == "\u{2019}" ? "'" : $0 })).lowercased()
    }

    private static func isPunctuation(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return asciiPunctuation[Int(scalar.value)] }
        return isPunctuationCategory(scalar)
    }

    /// ``isPunctuationCategory(_:)`` of each ASCII scalar, looked up rather than asked.
    private static let asciiPunctuation = (0..<128).map { isPunctuationCategory(Unicode.Scalar(UInt8($0))) }

    private static func isPunctuationCategory(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
             .finalPunctuation, .otherPunctuation: true
        default: false
        }
    }

    /// The most scalars a key of ``pronouns`` has.
    private static let longestPronoun = pronouns.keys.map(\.unicodeScalars.count).max() ?? 0

    private static let pronouns: [String: String] = [
        "i": "you", "me": "you", "my": "your", "mine": "yours", "myself": "yourself",
        "i'm": "you're", "im": "you're", "i've": "you've", "i'll": "you'll", "i'd": "you'd",
        "am": "are", "we": "you", "our": "your", "us": "you",
    ]
}
