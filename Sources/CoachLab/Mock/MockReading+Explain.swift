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
            out += "    \(instruction.text.trimmed(.whitespaces))\n"
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
