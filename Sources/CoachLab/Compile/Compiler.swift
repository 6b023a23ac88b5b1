import Foundation
import Mustache

/// Compiles a pack into system prompts. Parses the stack's templates once; each
/// ``compile(_:fileSystem:)`` is then pure and deterministic: the same inputs give the same
/// bytes.
/// A class: a run hands the same compiler to each of its cases, and copying a reference is one
/// retain where copying the struct was one per template and per part of the pack.
public final class Compiler: Sendable {
    /// The pack being compiled.
    public let pack: Pack
    private let layers: [(layer: Stack.Layer, template: MustacheTemplate, condition: Condition?)]
    private let header: MustacheTemplate
    private let library: MustacheLibrary
    private let placeholderTemplates: [(name: String, template: MustacheTemplate)]
    private let screener: Screener
    private let titles: Set<String>
    private let shapes: ContextBuilder.DataShapes
    /// Each pack value's kind by its location, for the prompt's structure.
    private let values: PackValueIndex
    /// The literal words of each `{{#name}}` section of the templates, by the section's last
    /// name (`confidential`, `markdown`): how a contract promise is found in the prompt.
    private let sectionWords: [String: [String]]

    /// The header used when a stack declares none.
    public static let defaultHeader = "=== {{title}} ==="

    /// Prepares a compiler.
    /// - Throws: ``CoachLabError`` when a template or condition does not parse (lint reports
    ///   these with their locations first).
    public init(pack: Pack) throws {
        self.pack = pack
        // Building the screener (its patterns, frames and phrase index) takes longer than
        // parsing the templates, and neither reads the other: they are done side by side.
        let (screener, templates) = concurrently({ Screener(pack: pack) }, { Result { try Templates(pack: pack) } })
        let parsed = try templates.get()
        layers = parsed.layers
        header = parsed.header
        library = parsed.library
        placeholderTemplates = parsed.placeholders
        self.screener = screener
        titles = UserText.titles(of: pack)
        shapes = ContextBuilder.DataShapes(pack: pack)
        values = PackValueIndex(pack: pack)
        sectionWords = pack.reply == nil ? [:] : Compiler.sectionWords(in: pack)
    }

    /// The literal words of each section of the pack's templates, by the section's last name.
    static func sectionWords(in pack: Pack) -> [String: [String]] {
        var words: [String: [String]] = [:]
        let templates = pack.stack.layers.map(\.template.value) + pack.stack.partials.map(\.template.value)
            + pack.stack.placeholders.map(\.template.value)
        for template in templates {
            var rest = Substring(template)
            while let open = rest.range(of: "{{#"), let close = rest[open.upperBound...].range(of: "}}") {
                let name = rest[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces)
                rest = rest[close.upperBound...]
                guard let end = rest.range(of: "{{/" + name + "}}") else { continue }
                // The longest run of words between tags: what the prompt shows of the section.
                let runs = String(rest[..<end.lowerBound]).replacingMatches(ofPattern: #"\{\{[^}]*\}\}"#, with: "\u{0}").split(separator: "\u{0}")
                    .map { $0.trimmingCharacters(in: CharacterSet.whitespacesAndNewlines.union(.punctuationCharacters)) }
                    .filter { $0.contains(where: \.isLetter) }
                let last = name.split(separator: ".").last.map(String.init) ?? name
                if let longest = runs.max(by: { $0.count < $1.count }) { words[last, default: []].append(longest) }
            }
        }
        return words
    }

    /// The contract promises a layer's sections tested and showed: a `true` whose section's
    /// words are in the layer's text.
    private func promises(tested: [[SourceLocation]], body: String, layer: String) -> [PromptStructure.Part] {
        tested.compactMap { sources in
            guard let entry = values.entry(for: sources), entry.kind == .contract, let field = entry.field else { return nil }
            let name = field == "forbid" ? entry.value ?? field : field
            guard let words = sectionWords[name]?.first(where: { body.contains($0) }) else { return nil }
            return PromptStructure.Part(kind: .contract, field: field, text: words, layer: layer, value: entry.value)
        }
    }

    /// A stack's templates, parsed.
    private struct Templates: Sendable {
        var layers: [(layer: Stack.Layer, template: MustacheTemplate, condition: Condition?)] = []
        var header: MustacheTemplate
        var library = MustacheLibrary()
        var placeholders: [(name: String, template: MustacheTemplate)] = []

        /// - Throws: ``CoachLabError`` with every template or condition that does not parse.
        init(pack: Pack) throws {
            var diagnostics = Diagnostics()
            let expansion = PartialGraph(partials: pack.stack.partials).problems(in: Compiler.expandedTemplates(of: pack))
            guard expansion.isEmpty else { throw CoachLabError(.content, expansion) }
            func parse(_ source: Located<String>, what: String) -> MustacheTemplate? {
                if case .failure(let problem) = TemplateScanner.scan(source.value) {
                    diagnostics.error("template of \(what): \(problem.message)",
                                      at: SourceLocation(file: source.location.file, line: source.location.line + problem.line - 1,
                                                         column: source.location.column + problem.column - 1))
                    return nil
                }
                do {
                    return try MustacheTemplate(string: Compiler.prepare(source.value, placeholders: pack.stack.placeholders.map(\.name)))
                } catch {
                    diagnostics.error("\(what) does not parse as Mustache: \(error)", at: source.location)
                    return nil
                }
            }
            for layer in pack.stack.layers {
                guard let template = parse(layer.template, what: "template of layer '\(layer.id)'") else { continue }
                var condition: Condition?
                if let when = layer.when {
                    do { condition = try Condition(parsing: when.value) } catch {
                        diagnostics.error("condition of layer '\(layer.id)' does not parse", at: when.location)
                    }
                }
                layers.append((layer, template, condition))
            }
            for partial in pack.stack.partials {
                if let template = parse(partial.template, what: "partial '\(partial.name)'") {
                    library.register(template, named: partial.name)
                }
            }
            let headerSource = pack.stack.header ?? Located(Compiler.defaultHeader, at: pack.stack.value.location)
            let header = parse(headerSource, what: "stack header")
            placeholders = pack.stack.placeholders.compactMap { placeholder in
                parse(placeholder.template, what: "placeholder '\(placeholder.name)'").map { (placeholder.name, $0) }
            }
            guard let header, !diagnostics.hasErrors else { throw CoachLabError(.content, diagnostics.sorted) }
            self.header = header
        }
    }

    /// The templates that expand partials, named as lint names them.
    static func expandedTemplates(of pack: Pack) -> [(what: String, template: Located<String>)] {
        pack.stack.layers.map { ("layer '\($0.id)'", $0.template) }
            + pack.stack.placeholders.map { ("placeholder '\($0.name)'", $0.template) }
    }

    /// Compiles one prompt.
    /// - Throws: ``CoachLabError`` when an input names something the pack lacks.
    public func compile(_ inputs: CompileInputs, fileSystem: FileSystem) throws -> CompiledPrompt {
        try compile(ResolvedInputs(inputs, pack: pack, fileSystem: fileSystem), variant: inputs.variant)
    }

    /// Compiles one prompt from inputs already resolved.
    public func compile(_ inputs: ResolvedInputs, variant: String? = nil, screening: ScreeningResult? = nil) -> CompiledPrompt {
        let screening = screening ?? inputs.screen.map { screener.screen($0) }
        let built = ContextBuilder.build(pack: pack, inputs: inputs, screening: screening, titles: titles, shapes: shapes)
        var context = built.0
        let neutralised = built.1
        let recorder = SourceRecorder()
        context = applyPlaceholders(to: context, recorder: recorder).setting(Compiler.newlineName, .plain("\n"))
        let renderable = context.renderable(recorder)

        var rendered: [CompiledPrompt.Layer] = []
        var parts: [PromptStructure.Part] = []
        recorder.capturing = true
        for (layer, template, condition) in layers {
            if let condition, !condition.evaluate({ context.lookup($0) }) { continue }
            recorder.reset()
            let body = Compiler.tidy(template.render(renderable, library: library))
            guard !body.isEmpty else { continue }
            parts += recorder.rendered.flatMap { text, sources -> [PromptStructure.Part] in
                guard let entry = values.entry(for: sources) else { return [] }
                let entries = entry.kind == .contract ? values.contractEntries(for: sources) : [entry]
                return entries.map { PromptStructure.Part(kind: $0.kind, field: $0.field, text: text, layer: layer.id, item: $0.item, value: $0.value) }
            }
            if !recorder.tested.isEmpty { parts += promises(tested: recorder.tested, body: body, layer: layer.id) }
            var sources = recorder.used
            sources.insert(layer.template.location)
            var text = body
            if let title = layer.title, !title.value.isEmpty {
                let headerText = header.render(RenderableObject(fields: ["title": title.value]))
                text = headerText + "\n" + body
                parts.append(PromptStructure.Part(kind: .heading, field: "title", text: headerText, layer: layer.id))
                sources.insert(title.location)
            }
            rendered.append(.init(id: layer.id, title: layer.title?.value, text: text, tokens: TokenEstimator.estimate(text),
                                  sources: Compiler.sourceList(sources)))
        }

        let separator = pack.stack.separator
        var trimmed: [CompiledPrompt.Trimmed] = []
        var warnings: [String] = []
        let budget = pack.defaults.systemBudget
        func total() -> Int { TokenEstimator.estimate(rendered.map(\.text).joined(separator: separator)) }
        if let budget, total() > budget {
            for id in pack.stack.trim.map(\.value) where total() > budget {
                guard let index = rendered.firstIndex(where: { $0.id == id }) else { continue }
                trimmed.append(.init(id: id, tokens: rendered[index].tokens))
                rendered.remove(at: index)
            }
            if total() > budget {
                warnings.append("the prompt takes ~\(total()) tokens, over the budget of \(budget) even after trimming")
            }
        }
        let system = rendered.map(\.text).joined(separator: separator)
        let kept = Set(rendered.map(\.id))
        return CompiledPrompt(pack: pack.id, variant: variant, system: system, layers: rendered,
                              tokens: TokenEstimator.estimate(system), budget: budget, trimmed: trimmed,
                              screening: screening, warnings: warnings, hash: StableHash.hex(system),
                              neutralised: neutralised.isEmpty ? nil : neutralised,
                              structure: PromptStructure(parts: parts.filter { kept.contains($0.layer) }))
    }

    /// Screens a message with the pack's stage-1 rules.
    public func screen(_ message: String) -> ScreeningResult { screener.screen(message) }

    /// Renders each placeholder against the context and substitutes `{name}` in every text.
    private func applyPlaceholders(to context: ContextValue, recorder: SourceRecorder) -> ContextValue {
        guard !placeholderTemplates.isEmpty else { return context }
        let renderable = context.renderable(recorder)
        var values: [String: (String, [SourceLocation])] = [:]
        for (name, template) in placeholderTemplates {
            recorder.reset()
            let text = Compiler.tidy(template.render(renderable, library: library))
            values[name] = (text, Compiler.sortedSources(recorder.used))
        }
        recorder.reset()
        let substituted = context.mapTexts { text, sources in
            guard text.utf8.contains(UInt8(ascii: "{")) else { return (text, sources) }
            var result = text
            var allSources = sources
            for (name, value) in values where FoldedText.text(result, contains: "{\(name)}") {
                result = result.replacingText("{\(name)}", with: value.0)
                allSources += value.1
            }
            return (result, allSources)
        }
        var placeholderObject: [String: ContextValue] = [:]
        for (name, value) in values { placeholderObject[name] = .text(value.0, value.1) }
        return substituted.setting(Compiler.placeholderRoot, .object(placeholderObject))
    }

    static let placeholderRoot = "__placeholders"

    /// Switches a template to plain text (no HTML escaping) and turns declared single-brace
    /// placeholders such as `{userName}` into references to their rendered values.
    static func prepare(_ template: String, placeholders: [String]) -> String {
        var text = template
        for name in placeholders {
            text = replacingSingleBrace(name, in: text, with: "{{{\(placeholderRoot).\(name)}}}")
        }
        return "{{% CONTENT_TYPE: TEXT}}" + removingStandaloneLines(text)
    }

    /// Applies Mustache's standalone rule before parsing: a line holding only section,
    /// inverted, closing or comment tags (and spaces) disappears with its line break.
    /// Doing it here keeps blank lines exactly as written whatever tags sit next to each other.
    static func removingStandaloneLines(_ template: String) -> String {
        let lines = template.split(separator: "\n", omittingEmptySubsequences: false)
        var out = ""
        var afterTag = false
        for (index, line) in lines.enumerated() {
            let trimmed = line.trimmed(.whitespaces)
            if isStandaloneTagLine(trimmed) {
                out += trimmed
                afterTag = true
                continue
            }
            let isLast = index == lines.count - 1
            if afterTag, trimmed.isEmpty, !isLast {
                // A blank line right after a removed tag line: emit its break as a value, so the
                // tag is not followed by a bare newline that the library would take as standalone.
                out += "{{{\(newlineName)}}}"
            } else {
                out += line
                if !isLast { out += "\n" }
            }
            afterTag = false
        }
        return out
    }

    /// The context name that renders a line break, used by ``removingStandaloneLines(_:)``.
    static let newlineName = "__newline"

    private static func isStandaloneTagLine(_ line: String) -> Bool {
        guard line.hasPrefix("{{"), line.hasSuffix("}}"), !line.hasPrefix("{{{") else { return false }
        var rest = Substring(line)
        while !rest.isEmpty {
            guard rest.hasPrefix("{{"), let close = rest.range(of: "}}") else { return false }
            let body = rest[rest.index(rest.startIndex, offsetBy: 2)..<close.lowerBound]
            guard let sigil = body.first, "#^/!".contains(sigil) else { return false }
            rest = rest[close.upperBound...]
        }
        return true
    }

    private static func replacingSingleBrace(_ name: String, in text: String, with replacement: String) -> String {
        let needle = "{\(name)}"
        guard text.contains(needle) else { return text }
        var result = ""
        var rest = Substring(text)
        while let range = rest.range(of: needle) {
            let before = rest[..<range.lowerBound]
            let doubled = before.hasSuffix("{") || rest[range.upperBound...].hasPrefix("}")
            result += before
            result += doubled ? needle : replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }

    /// Trims trailing spaces from lines, collapses runs of blank lines to one, and trims the ends.
    static func tidy(_ text: String) -> String {
        var lines: [Substring] = []
        var blank = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = line
            while let last = line.last, last == " " || last == "\t" || last == "\r" { line = line.dropLast() }
            if line.isEmpty {
                blank += 1
                if blank > 1 { continue }
            } else {
                blank = 0
            }
            lines.append(line)
        }
        while lines.first?.isEmpty == true { lines.removeFirst() }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines.joined(separator: "\n")
    }

    static func sortedSources(_ sources: Set<SourceLocation>) -> [SourceLocation] { sources.sorted() }

    /// `file:line` strings, sorted by file and line, without repeats.
    static func sourceList(_ sources: Set<SourceLocation>) -> [String] {
        var seen = Set<String>()
        return sources.sorted().map(\.fileLine).filter { seen.insert($0).inserted }
    }
}
