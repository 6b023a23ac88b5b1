import Foundation

/// Length: sentence, paragraph and word limits, and "be brief".
extension MockReading {
    static let numberWords = ["one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                              "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "a couple of": 2, "a few": 3]

    static let number = #"(\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"#

    static func value(_ word: String) -> Int? { Int(word) ?? numberWords[word] }

    mutating func readLength(_ lower: String, _ index: Int) {
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
}

extension LineReader {
    /// Sentence, paragraph and word limits, and "be brief".
    static let length = LineReader(
        name: "length", kinds: [.sentences, .paragraphs, .words],
        clues: ["sentence", "paragraph", "word", "brief", "short", "concise", "succinct"],
        read: { reading, _, lower in reading.readLength(lower, 0) },
        examples: [
            ("Reply in two to four short sentences.", [.sentences]),
            ("Keep replies under 60 words.", [.words]),
            ("At most two short paragraphs.", [.paragraphs]),
            ("Be calm and brief.", [.sentences]),
            ("LENGTH = 2 to 4 sentences; max 90 words", [.sentences, .words]),
            ("Two sentences, three at most.", [.sentences]),
        ],
        counterExamples: ["Explain any hard word.", "Short walks help with sleep.", "Use words a child knows."])
}
