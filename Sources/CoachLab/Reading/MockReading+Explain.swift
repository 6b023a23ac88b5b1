extension MockReading {
    /// What the mock understood from each line of a compiled prompt, with the layer the line
    /// belongs to and that layer's sources, then its reply to `message`: the view
    /// `coachlab compile --format mock` prints, so an author can see why the mock did what it did.
    /// - Parameter alert: The lines the flag added (``CompiledPrompt/alert(comparedWith:)``).
    public static func explain(_ prompt: CompiledPrompt, message: String, alert: String? = nil) -> String {
        let reading = MockReading(system: prompt.system, alert: alert, structure: prompt.structure)
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
            out += "    \(instruction.text.trimmed(.whitespaces))\n"
        }
        let missing = [MockReading.Instruction.Kind.sentences, .endQuestion, .oneQuestion, .noMarkdown, .name, .stayInRole, .confidential]
            .filter { !reading.has($0) && !($0 == .sentences && (reading.has(.paragraphs) || reading.has(.words))) }
        if !missing.isEmpty {
            out += "Not found, so the mock does the plausible wrong thing: " + missing.map(\.rawValue).joined(separator: ", ") + "\n"
        }
        let unread = reading.unreadInstructions()
        let read = Set(reading.instructions.filter { !ReadingCoverage.contentKinds.contains($0.kind) }.map(\.line))
        let coverage = ReadingCoverage(lines: read.map { _ in .init(location: nil, text: "", read: true) }
            + Set(unread).subtracting(read).map { _ in .init(location: nil, text: "", read: false) })
        out += "Reading coverage: \(coverage.summary) of this prompt.\n"
        if !unread.isEmpty {
            out += "Lines that read like instructions but that the mock did not understand (it does not act on them, so no check can catch their loss; see docs/mock.md):\n"
            for line in unread { out += "  line \(line): \(reading.written[line - 1].trimmed(.whitespaces))\n" }
        }
        out += "\nThe mock's reply to \"\(message)\":\n" + MockCoach.reply(system: prompt.system, userMessages: [message], alert: alert, structure: prompt.structure) + "\n"
        return out
    }

    /// The 1-based lines that look like instructions about the reply's form, the persona or
    /// the prompt's secrecy, or that are items of the alert, from which the mock read nothing.
    func unreadInstructions() -> [Int] {
        let understood = Set(instructions.map(\.line))
        var unread: [Int] = []
        var inExamples = false
        // Instructions name written lines; a split line's items are read lines of one of them.
        func written(_ index: Int) -> Int { (origin?[index] ?? index) + 1 }
        for (index, line) in lines.enumerated() where !understood.contains(written(index)) {
            if headers[index] { inExamples = Self.titlesExamples(Self.fold(line)) }
            // An example's turns, and the label over them, show a manner; they instruct nothing.
            if headers[index] || inExamples || exampleTurns.contains(index) || Self.labelsExample(line) { continue }
            if alertRange?.contains(index) == true {
                if obeysAlert, Self.listItem(line) != nil, unread.last != written(index) { unread.append(written(index)) }
                continue
            }
            let lower = Self.fold(line)
            // A question whose answer follows is read with the answer.
            guard lower.contains(where: \.isLetter), Self.faqQuestion(lines, at: index) == nil,
                  Self.contains(#"\b(?:never|always|don't|do not|must|should|avoid|keep|reply|respond|answer|write|end|close|finish|ask|use|say|reveal|repeat|share|limit|stay|pretend|claim|none|not for)\b|^\W*\w+:"#, lower),
                  Self.contains(#"\b(?:questions?|sentences?|words|paragraphs?|markdown|formatting|format|bullets?|bold|headings?|emojis?|exclamation|an ai|a bot|chatbot|robot|machine|language model|human|instructions|prompt|briefing|confidential|private|secret)\b"#, lower)
            else { continue }
            if unread.last != written(index) { unread.append(written(index)) }
        }
        return unread
    }
}
