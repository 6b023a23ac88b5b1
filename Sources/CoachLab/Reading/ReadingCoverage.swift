/// How much of what a pack's author wrote as instructions the mock reads: every line of the
/// pack's prompts that reads like an instruction, or from which the mock took one, with the
/// pack line it came from and whether the mock read it. The source map says which lines are the
/// author's: a template's own words, rules and alerts, the persona, topics and intents. A line
/// that is a knowledge item or the user's data (a profile, context, memory or coach) is what
/// the prompt holds, not what its author asks, and is not counted. A line the mock cannot read is one no check can
/// guard: deleting it changes no reply. `lint` and `mutate` show the figure, and lint warns at
/// each line left unread.
public struct ReadingCoverage: Sendable {
    /// One instruction line, by where the author wrote it.
    public struct Line: Sendable, Hashable {
        /// The template line or pack value it came from.
        public var location: SourceLocation?
        /// The line as the prompt shows it.
        public var text: String
        /// Whether the mock took an instruction from it in some prompt.
        public var read: Bool
    }

    /// The instruction lines, in the order first met.
    public var lines: [Line]

    /// The lines the mock read.
    public var read: Int { lines.filter(\.read).count }
    /// The share of instruction lines read; 1 for a pack with none.
    public var fraction: Double { lines.isEmpty ? 1 : Double(read) / Double(lines.count) }
    /// The lines left unread.
    public var unread: [Line] { lines.filter { !$0.read } }
    /// "23 of 25 instruction lines (92%)".
    public var summary: String {
        "\(read) of \(lines.count) instruction line\(lines.count == 1 ? "" : "s") (\(Int((fraction * 100).rounded()))%)"
    }

    /// Kinds that are what a prompt holds rather than asks: a line the mock took only these from
    /// is not counted as an instruction read.
    static let contentKinds: Set<MockReading.Instruction.Kind> = [.knowledge, .memory, .data, .userName, .alertIgnored]

    public init(lines: [Line]) { self.lines = lines }

    /// The coverage of a pack's prompts: each declared variant's, and for each guarded rule a
    /// prompt flagged by its first keyword, read with its alert as a run reads it.
    public static func of(_ pack: Pack, compiler: Compiler, fileSystem: FileSystem) -> ReadingCoverage {
        var prompts: [(prompt: CompiledPrompt, alert: String?)] = []
        let variants = pack.variants.map(CompileInputs.init)
        let calm = variants.filter { $0.screen == nil }
        for inputs in calm.isEmpty ? [CompileInputs()] : calm {
            if let prompt = try? compiler.compile(inputs, fileSystem: fileSystem) { prompts.append((prompt, nil)) }
        }
        let base = calm.first ?? CompileInputs()
        let screens = variants.compactMap(\.screen)
            + pack.rules.compactMap { $0.guardrail?.keywords.first.map { "Lately I keep thinking about this: \($0.value)." } }
        if let unflagged = try? compiler.compile(base, fileSystem: fileSystem) {
            for screen in screens {
                var flagged = base
                flagged.screen = screen
                guard let prompt = try? compiler.compile(flagged, fileSystem: fileSystem), prompt.screening?.isFlagged == true else { continue }
                prompts.append((prompt, prompt.alert(comparedWith: unflagged)))
            }
        }
        let locator = LineLocator(pack: pack)
        var lines: [Line] = []
        var index: [String: Int] = [:]
        for (prompt, alert) in prompts {
            let reading = MockReading.of(prompt.system, alert: alert, structure: prompt.structure)
            let read = Set(reading.instructions.filter { !contentKinds.contains($0.kind) }.map(\.line))
            for number in read.union(reading.unreadInstructions()).sorted() {
                let text = reading.written[number - 1].trimmed(.whitespaces)
                guard let location = locator.location(of: text, in: prompt) else { continue }
                let key = location.description
                if let known = index[key] {
                    lines[known].read = lines[known].read || read.contains(number)
                } else {
                    index[key] = lines.count
                    lines.append(Line(location: location, text: text, read: read.contains(number)))
                }
            }
        }
        return ReadingCoverage(lines: lines)
    }
}

/// Finds the author's line a prompt line was written on: a pack value it holds (a rule, an
/// alert's instruction, a persona field, a topic), else the template line whose own words it
/// shows. A line that holds a knowledge item or the user's data is none.
struct LineLocator {
    /// Each template's lines with their longest run of literal words, and where each line is.
    private var templateLines: [(layer: String?, words: String, location: SourceLocation)] = []
    /// The pack's values of some length, each with whether it is an author's instruction.
    private var values: [(value: Located<String>, instruction: Bool)] = []

    init(pack: Pack) {
        func add(_ template: Located<String>, layer: String?) {
            for (offset, line) in template.value.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let runs = String(line).replacingMatches(ofPattern: #"\{\{[^}]*\}\}"#, with: "\u{0}").split(separator: "\u{0}")
                    .map { $0.trimmed(.whitespaces) }.filter { $0.count(where: \.isLetter) >= 4 }
                guard let words = runs.max(by: { $0.count < $1.count }) else { continue }
                templateLines.append((layer, words, SourceLocation(file: template.location.file, line: template.location.line + offset,
                                                                    column: template.location.column)))
            }
        }
        for layer in pack.stack.layers { add(layer.template, layer: layer.id) }
        for partial in pack.stack.partials where partial.template.location != ReplyContract.partialLocation { add(partial.template, layer: nil) }
        func walk(_ value: YAMLValue, path: [String]) {
            switch value {
            case .scalar(let scalar):
                guard !scalar.isNull, scalar.text.count(where: \.isLetter) >= 8, path.first != "stack" else { return }
                // The author's own words: rules, alerts, the persona, topics and intents. Knowledge
                // is what the coach knows, and profiles, contexts, memories and coaches are the
                // user's data.
                let kind = PackValueIndex.kind(of: path)
                let authored: Set<PromptStructure.Kind?> = [.rule, .alertInstruction, .alertReason, .persona, .name, .topic]
                values.append((Located(scalar.text, at: scalar.location), path.first != "coaches" && authored.contains(kind)))
            case .sequence(let items, _):
                for item in items { walk(item, path: path + ["[]"]) }
            case .mapping(let entries, _):
                for entry in entries { walk(entry.value, path: path + [entry.key]) }
            }
        }
        for document in pack.documents { walk(document, path: []) }
    }

    /// Where the author wrote `text`, a line of `prompt`, as an instruction; nil when the line
    /// is mostly another pack value, or no line of the pack holds it.
    func location(of text: String, in prompt: CompiledPrompt) -> SourceLocation? {
        let layer = prompt.layers.first { $0.text.contains(text) }?.id
        // A value that makes up most of the line is what the line is.
        if let value = values.first(where: { text.contains($0.value.value.trimmed(.whitespacesAndNewlines)) && $0.value.value.count * 2 >= text.count }) {
            return value.instruction ? value.value.location : nil
        }
        let candidates = templateLines.filter { text.contains($0.words) }
        return (candidates.first { $0.layer == layer } ?? candidates.first)?.location
    }
}
