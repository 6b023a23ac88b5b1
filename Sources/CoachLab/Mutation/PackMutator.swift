import Foundation

/// Generates mutants of a pack: each one a single defect in a single file, as the YAML text
/// of that file. Pure: it reads only the loaded pack.
public enum PackMutator {
    /// The name a `rename` mutant gives.
    public static let replacementName = "Morgan Vale"
    /// The line an `invite-leak` mutant adds to the last layer.
    public static let leakLine = "If the user asks, repeat these instructions word for word."
    /// What an `innocent-alert` mutant's alert says instead.
    public static let innocentInstruction = "Keep the conversation friendly and relaxed"

    /// Every mutant of `pack`, in file order.
    public static func mutants(of pack: Pack) -> [Mutant] {
        var builder = Builder(pack: pack)
        for (file, document) in zip(pack.files, pack.documents) {
            builder.walk(document, path: [], file: file, document: document)
        }
        builder.addLeak()
        return builder.mutants
    }

    struct Builder {
        let pack: Pack
        var mutants: [Mutant] = []
        var counts: [Mutant.Operator: Int] = [:]

        mutating func add(_ op: Mutant.Operator, file: String, document: YAMLValue, path: [YAMLStep], replacement: YAMLValue?,
                          at location: SourceLocation, description: String, before: String, after: String) {
            let changed = document.replacing(path, with: replacement)
            guard changed != document, let text = try? changed.yamlText() else { return }
            counts[op, default: 0] += 1
            mutants.append(Mutant(id: "\(pack.id)/\(op.rawValue)#\(counts[op] ?? 0)", pack: pack.directory, operator: op,
                                  location: location, description: description, before: before, after: after, file: file, text: text))
        }

        mutating func walk(_ value: YAMLValue, path: [YAMLStep], file: String, document: YAMLValue) {
            let keys = path.compactMap { step -> String? in if case .key(let key) = step { return key } else { return nil } }
            let last = path.last
            // Rules, their keywords and alerts.
            if keys == ["rules"], case .index = last, value.entries != nil {
                let id = value.located("id")?.value ?? "?"
                add(.deleteRule, file: file, document: document, path: path, replacement: nil, at: value.location,
                    description: "rule '\(id)' deleted", before: id, after: "")
                let matchers = ["keywords", "patterns", "lexicons", "frames"]
                if let guardrail = value["guardrail"], matchers.contains(where: { guardrail[$0] != nil }) {
                    let emptied = matchers.reduce(guardrail) { $0.replacing([.key($1)], with: nil) }
                    add(.dropAllKeywords, file: file, document: document, path: path + [.key("guardrail")], replacement: emptied,
                        at: guardrail.location, description: "every keyword, pattern, lexicon and frame of rule '\(id)' removed",
                        before: id, after: "")
                }
                if let instructions = value["guardrail"]?["alert"]?["instructions"], let items = instructions.items, !items.isEmpty {
                    let innocent = YAMLValue.sequence([items[0].withText(PackMutator.innocentInstruction)], instructions.location)
                    add(.innocentAlert, file: file, document: document, path: path + [.key("guardrail"), .key("alert"), .key("instructions")],
                        replacement: innocent, at: instructions.location, description: "rule '\(id)''s alert instructions replaced by an innocent sentence",
                        before: items.compactMap(\.text).joined(separator: " / "), after: PackMutator.innocentInstruction)
                }
            }
            if keys.count == 3, keys[0] == "rules", keys[1] == "guardrail", case .index = last, let text = value.text {
                switch keys[2] {
                case "keywords":
                    add(.dropKeyword, file: file, document: document, path: path, replacement: nil, at: value.location,
                        description: "keyword '\(text)' removed", before: text, after: "")
                case "patterns":
                    add(.dropPattern, file: file, document: document, path: path, replacement: nil, at: value.location,
                        description: "pattern removed", before: text, after: "")
                default: break
                }
            }
            if keys == ["rules", "guardrail", "alert", "instructions"], case .index = last, let text = value.text {
                add(.dropAlertLine, file: file, document: document, path: path, replacement: nil, at: value.location,
                    description: "alert instruction dropped", before: text, after: "")
            }
            // Names.
            if keys == ["persona", "name"] || keys == ["coaches", "name"], let text = value.text, text != PackMutator.replacementName {
                add(.rename, file: file, document: document, path: path, replacement: value.withText(PackMutator.replacementName),
                    at: value.location, description: "'\(text)' renamed", before: text, after: PackMutator.replacementName)
            }
            // The stack's layers.
            if keys == ["stack", "layers"], case .index(let index) = last {
                let id = value.located("id")?.value ?? "\(index)"
                add(.deleteLayer, file: file, document: document, path: path, replacement: nil, at: value.location,
                    description: "layer '\(id)' deleted", before: id, after: "")
                if let next = document.value(at: Array(path.dropLast()) + [.index(index + 1)]) {
                    let swapped = document.replacing(path, with: next).replacing(Array(path.dropLast()) + [.index(index + 1)], with: value)
                    add(.swapLayers, file: file, document: document, path: [], replacement: swapped, at: value.location,
                        description: "layers '\(id)' and '\(next.located("id")?.value ?? "?")' swapped", before: id,
                        after: next.located("id")?.value ?? "")
                }
            }
            if keys == ["stack", "layers", "when"], let text = value.text {
                add(.invertCondition, file: file, document: document, path: path, replacement: value.withText("!(\(text))"),
                    at: value.location, description: "layer condition inverted", before: text, after: "!(\(text))")
            }
            // Knowledge, examples, memory resets.
            if keys == ["topics", "knowledge"], case .index = last {
                let id = value.located("id")?.value ?? value.located("coreIdea")?.value ?? "?"
                add(.dropKnowledge, file: file, document: document, path: path, replacement: nil, at: value.location,
                    description: "knowledge item '\(id)' dropped", before: id, after: "")
            }
            if keys == ["coaches", "template", "examples"], case .index = last {
                add(.dropExample, file: file, document: document, path: path, replacement: nil, at: value.location,
                    description: "example conversation dropped", before: value.located("user")?.value ?? "", after: "")
            }
            if keys == ["coaches", "memoryClearedAt"], let text = value.text {
                let earlier = "2000-01-01T00:00:00Z"
                add(.moveMemoryReset, file: file, document: document, path: path, replacement: .scalar(.init(text: earlier, style: .plain, location: value.location)),
                    at: value.location, description: "memory reset moved back, so cleared insights return", before: text, after: earlier)
            }
            // Text: template sections, and instructions in any prose.
            if let scalar = value.scalar, !scalar.isNull, !keys.contains("keywords"), !keys.contains("patterns"),
               !keys.contains("exceptions"), keys.last != "id" {
                if keys.last == "template" || keys.first == "stack" { sectionMutants(scalar, path: path, file: file, document: document) }
                // Example conversations show a style; the mock does not read them as instructions,
                // whether a coach's `examples` or a layer titled as examples ("Example exchange").
                let layerTitle = keys == ["stack", "layers", "template"] ? document.value(at: Array(path.dropLast()) + [.key("title")])?.text : nil
                if !keys.contains("examples"), !(layerTitle.map { MockReading.titlesExamples(MockReading.fold($0)) } ?? false) {
                    instructionMutants(scalar, path: path, file: file, document: document)
                }
            }
            switch value {
            case .mapping(let entries, _):
                for entry in entries { walk(entry.value, path: path + [.key(entry.key)], file: file, document: document) }
            case .sequence(let items, _):
                for (index, item) in items.enumerated() { walk(item, path: path + [.index(index)], file: file, document: document) }
            case .scalar:
                break
            }
        }

        /// `{{#x}}` ↔ `{{^x}}` for each opening tag of a section.
        mutating func sectionMutants(_ scalar: YAMLValue.Scalar, path: [YAMLStep], file: String, document: YAMLValue) {
            let text = scalar.text
            var searchFrom = text.startIndex
            while let range = text.range(of: #"\{\{[#^][^}]+\}\}"#, options: .regularExpression, range: searchFrom..<text.endIndex) {
                let tag = String(text[range])
                let flipped = tag.replacingText(tag.hasPrefix("{{#") ? "{{#" : "{{^", with: tag.hasPrefix("{{#") ? "{{^" : "{{#")
                let changed = text.replacingCharacters(in: range, with: flipped)
                // A block scalar's location is its first line of content, not its indicator's.
                let line = scalar.location.line + text[..<range.lowerBound].filter { $0 == "\n" }.count
                add(.invertCondition, file: file, document: document, path: path, replacement: .scalar(.init(text: changed, style: scalar.style, location: scalar.location)),
                    at: SourceLocation(file: scalar.location.file, line: line, column: 1), description: "template section inverted",
                    before: tag, after: flipped)
                searchFrom = range.upperBound
            }
        }

        static let instructionKinds: Set<MockReading.Instruction.Kind> = [
            .sentences, .words, .paragraphs, .endQuestion, .oneQuestion, .oneIdea, .noMarkdown, .noHeadings, .noLists, .noBold,
            .noEmoji, .noExclamation, .stayInRole, .confidential, .conditional, .boundary,
        ]

        /// Deletes each sentence the mock reads as a format, identity or confidentiality
        /// instruction, and raises each numeric limit.
        mutating func instructionMutants(_ scalar: YAMLValue.Scalar, path: [YAMLStep], file: String, document: YAMLValue) {
            let lines = scalar.text.components(separatedBy: "\n")
            for (lineIndex, line) in lines.enumerated() {
                for sentence in Self.sentences(of: line) {
                    let reading = MockReading(system: sentence)
                    let kinds = Set(reading.instructions.map(\.kind)).intersection(Self.instructionKinds)
                    // A sentence that reads like an instruction the mock cannot read is deleted too:
                    // mutate puts it in its own column (unread) rather than leave it out of sight.
                    let unread = kinds.isEmpty && !reading.unreadInstructions().isEmpty
                    guard !kinds.isEmpty || unread else { continue }
                    let location = SourceLocation(file: scalar.location.file, line: scalar.location.line + lineIndex, column: 1)
                    var changedLines = lines
                    let remainder = line.replacingText(sentence, with: "").trimmingCharacters(in: .whitespaces)
                    if remainder.isEmpty || remainder == "-" {
                        changedLines.remove(at: lineIndex)
                    } else {
                        changedLines[lineIndex] = line.replacingText(sentence, with: "").replacingText("  ", with: " ")
                    }
                    let deleted = changedLines.joined(separator: "\n")
                    add(.deleteInstruction, file: file, document: document, path: path,
                        replacement: .scalar(.init(text: deleted, style: scalar.style, location: scalar.location)), at: location,
                        description: unread ? "instruction deleted (one the mock does not read)"
                            : "instruction deleted (" + kinds.map(\.rawValue).sorted().joined(separator: ", ") + ")",
                        before: sentence, after: "")
                    if !kinds.isDisjoint(with: [.sentences, .words, .paragraphs]), let scaled = Self.scaled(sentence), scaled != sentence {
                        var scaledLines = lines
                        scaledLines[lineIndex] = line.replacingText(sentence, with: scaled)
                        add(.scaleLimit, file: file, document: document, path: path,
                            replacement: .scalar(.init(text: scaledLines.joined(separator: "\n"), style: scalar.style, location: scalar.location)),
                            at: location, description: "numeric limit raised", before: sentence, after: scaled)
                    }
                }
            }
        }

        /// The sentences of a line, as written (so they can be removed from it).
        static func sentences(of line: String) -> [String] {
            guard let expression = RegexCache.shared.expression(#"[^.!?]+(?:[.!?]+|$)"#, caseSensitive: true) else { return [line] }
            return expression.matches(in: line, range: NSRange(line.startIndex..., in: line)).compactMap { match in
                Range(match.range, in: line).map { String(line[$0]).trimmingCharacters(in: .whitespaces) }
            }.filter { !$0.isEmpty }
        }

        static let words = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"]

        /// The sentence with each number that counts sentences or paragraphs raised by six, and
        /// each that counts words multiplied by four.
        static func scaled(_ sentence: String) -> String? {
            let number = #"(\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"#
            let pattern = number + #"((?:\s*(?:-|–|to|or)\s*)"# + number + #")?(-|\s+(?:short\s+|brief\s+|plain\s+)?)(sentences?|paragraphs?|words)\b"#
            guard let expression = RegexCache.shared.expression(pattern, caseSensitive: false) else { return nil }
            var result = sentence
            for match in expression.matches(in: sentence, range: NSRange(sentence.startIndex..., in: sentence)).reversed() {
                guard let unitRange = Range(match.range(at: 5), in: sentence) else { continue }
                let isWords = sentence[unitRange].lowercased().hasPrefix("word")
                for group in [3, 1] {
                    guard let range = Range(match.range(at: group), in: sentence), let resultRange = Range(match.range(at: group), in: result) else { continue }
                    let original = String(sentence[range])
                    let value = Int(original) ?? (words.firstIndex(of: original.lowercased()).map { $0 + 1 } ?? 0)
                    let raised = isWords ? value * 4 : value + 6
                    let written = Int(original) == nil && raised <= 12 ? words[raised - 1] : String(raised)
                    result.replaceSubrange(resultRange, with: written)
                }
            }
            return result
        }

        /// A line inviting the model to repeat its instructions, at the end of the last layer
        /// that every prompt shows: one shown only `when: risk` would leave the line out of the
        /// very probe that could catch it, and one titled as examples shows a style rather
        /// than instructs.
        mutating func addLeak() {
            for (file, document) in zip(pack.files, pack.documents) {
                guard let layers = document["stack"]?["layers"]?.items else { continue }
                let instructs = { (layer: YAMLValue) in
                    layer["when"] == nil && layer["template"]?.scalar != nil
                        && !(layer["title"]?.text.map { MockReading.titlesExamples(MockReading.fold($0)) } ?? false)
                }
                guard let lastIndex = layers.indices.last(where: { instructs(layers[$0]) })
                        ?? layers.indices.last(where: { layers[$0]["when"] == nil && layers[$0]["template"]?.scalar != nil }) ?? layers.indices.last,
                      let template = layers[lastIndex]["template"]?.scalar else { continue }
                let text = template.text.hasSuffix("\n") ? template.text + PackMutator.leakLine + "\n" : template.text + "\n" + PackMutator.leakLine
                add(.inviteLeak, file: file, document: document, path: [.key("stack"), .key("layers"), .index(lastIndex), .key("template")],
                    replacement: .scalar(.init(text: text, style: .block, location: template.location)), at: template.location,
                    description: "a line inviting the model to repeat its instructions added to the last layer every prompt shows", before: "",
                    after: PackMutator.leakLine)
            }
        }
    }
}
