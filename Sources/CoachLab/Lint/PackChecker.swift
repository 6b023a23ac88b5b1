import Foundation

/// The semantic checks every pack passes before it compiles, and that `lint` reports:
/// duplicate ids, references that point nowhere, templates and conditions that do not parse
/// or use names nothing defines, invalid patterns, strings that look like API keys, and the
/// count limits of rich coach templates.
enum PackChecker {
    /// - Parameter warnings: Whether to run the checks that can only warn; false skips them,
    ///   for a caller that keeps only the errors.
    static func check(_ pack: Pack, warnings: Bool = true, into diagnostics: inout Diagnostics) {
        // Compiling the guardrails' patterns and frames takes about as long as every other
        // check together: the rules are checked in two halves (alternate rules, each half with
        // a template session of its own) beside the other checks, on every core. Each part
        // gives its findings in groups (one per rule for a half), joined in the order the
        // checks were written in and the rules in theirs.
        let halves = 2
        let parts = halves + 3
        let found = (0..<parts).concurrentMap { part -> [[Diagnostic]] in
            var found = Diagnostics()
            switch part {
            case 0:
                checkDuplicates(pack, into: &found)
                checkReferences(pack, into: &found)
                checkCoaches(pack, into: &found)
                checkContract(pack, warnings: warnings, into: &found)
            case parts - 2:
                checkLexicons(pack, into: &found)
            case parts - 1:
                checkTemplates(pack, into: &found)
                if warnings { checkUserData(pack, into: &found) }
                checkAlertPlacement(pack, into: &found)
                for document in pack.documents {
                    SecretScanner.scan(document, into: &found)
                }
            default:
                var templates = PhraseTemplate.Session(lexicons: pack.lexicons)
                return stride(from: part - 1, to: pack.rules.count, by: halves).map { rule in
                    var found = Diagnostics()
                    checkGuardrail(of: pack.rules[rule], in: pack, templates: &templates, into: &found)
                    return found.all
                }
            }
            return [found.all]
        }
        diagnostics.append(contentsOf: found[0][0])
        for rule in pack.rules.indices { diagnostics.append(contentsOf: found[1 + rule % halves][rule / halves]) }
        diagnostics.append(contentsOf: found[parts - 2][0])
        diagnostics.append(contentsOf: found[parts - 1][0])
    }

    // MARK: Duplicates

    private static func checkDuplicates(_ pack: Pack, into diagnostics: inout Diagnostics) {
        func unique(_ items: [YAMLValue], key: String, noun: String) {
            var seen: [String: SourceLocation] = [:]
            for item in items {
                guard let id = item.located(key) else { continue }
                if let first = seen[id.value] {
                    diagnostics.error("duplicate \(noun) \(key) '\(id.value)' (first at \(first))", at: id.location,
                                      hint: "each \(noun) needs its own \(key)")
                } else {
                    seen[id.value] = id.location
                }
            }
        }
        unique(pack.rules.map(\.value), key: "id", noun: "rule")
        unique(pack.topics.map(\.value), key: "slug", noun: "topic")
        unique(pack.coaches.map(\.value), key: "id", noun: "coach")
        unique(pack.profiles.map(\.value), key: "id", noun: "profile")
        unique(pack.memories.map(\.value), key: "id", noun: "memory")
        unique(pack.contexts.map(\.value), key: "id", noun: "context")
        unique(pack.variants.map(\.value), key: "id", noun: "variant")
        unique(pack.stack.value["layers"]?.items ?? [], key: "id", noun: "layer")
        for topic in pack.topics {
            unique(topic.intents.map(\.value), key: "id", noun: "intent")
            unique(topic.knowledge.map(\.value), key: "id", noun: "knowledge object")
        }
    }

    // MARK: References

    private static func checkReferences(_ pack: Pack, into diagnostics: inout Diagnostics) {
        func reference(_ name: Located<String>?, noun: String, known: [String]) {
            guard let name, !known.contains(name.value) else { return }
            diagnostics.error("\(noun) '\(name.value)' does not exist in pack '\(pack.id)'", at: name.location,
                              hint: Suggestions.hint(for: name.value, in: known, noun: noun))
        }
        let layerIds = pack.stack.layers.map(\.id)
        for id in pack.stack.trim { reference(id, noun: "layer", known: layerIds) }
        for variant in pack.variants {
            reference(variant.coach, noun: "coach", known: pack.coaches.map(\.id))
            reference(variant.topic, noun: "topic", known: pack.topics.map(\.slug))
            reference(variant.profile, noun: "profile", known: pack.profiles.map(\.id))
            reference(variant.memory, noun: "memory", known: pack.memories.map(\.id))
            reference(variant.context, noun: "context", known: pack.contexts.map(\.id))
            if let intent = variant.intent {
                if let slug = variant.topic?.value, let topic = pack.topic(slug) {
                    reference(intent, noun: "intent", known: topic.intents.map(\.id))
                } else if variant.topic == nil {
                    diagnostics.error("variant '\(variant.id)' names an intent but no topic", at: intent.location,
                                      hint: "add 'topic:' with the topic the intent belongs to")
                }
            }
        }
        for topic in pack.topics {
            for object in topic.knowledge {
                for intent in object.intents { reference(intent, noun: "intent", known: topic.intents.map(\.id)) }
            }
        }
        for memory in pack.memories {
            for insight in memory.insights { reference(insight.coach, noun: "coach", known: pack.coaches.map(\.id)) }
        }
    }

    // MARK: Coaches

    private static func checkCoaches(_ pack: Pack, into diagnostics: inout Diagnostics) {
        let placeholders = Set(pack.stack.placeholders.map(\.name))
        let defaults = pack.defaults
        for coach in pack.coaches {
            let location = coach.value.location
            switch (coach.template, coach.systemPrompt) {
            case (nil, nil):
                diagnostics.error("coach '\(coach.id)' has neither 'template' (rich path) nor 'systemPrompt' (fallback path)",
                                  at: location, hint: "give the coach one of the two")
            case (.some, .some(let prompt)):
                diagnostics.error("coach '\(coach.id)' has both 'template' and 'systemPrompt'; the path would be ambiguous",
                                  at: prompt.location, hint: "keep the template for the rich path, or the prompt for the fallback path")
            default:
                break
            }
            if let template = coach.template {
                func count(_ value: YAMLValue?, _ range: Defaults.CountRange, _ what: String) {
                    guard let value, let items = value.items else { return }
                    if !(range.min...range.max).contains(items.count) {
                        diagnostics.error("coach '\(coach.id)' has \(items.count) \(what); rich templates need \(range.description)",
                                          at: value.location)
                    }
                }
                count(template["framework"]?["phases"], defaults.phases, "framework phases")
                count(template["rules"], defaults.templateRules, "rules")
                count(template["examples"], defaults.examples, "example exchanges")
                if let questions = coach.value["starterQuestions"] {
                    count(questions, defaults.starterQuestions, "starter questions")
                } else {
                    diagnostics.error("coach '\(coach.id)' has no starterQuestions; rich coaches need \(defaults.starterQuestions.description)",
                                      at: location)
                }
            }
            for text in coach.value.texts {
                for name in singleBracePlaceholders(in: text.value) where !placeholders.contains(name) {
                    diagnostics.warning("placeholder '{\(name)}' is not declared in the stack's placeholders; it stays as written",
                                        at: text.location,
                                        hint: Suggestions.closest(to: name, in: placeholders).map { "did you mean '{\($0)}'?" }
                                            ?? "declare it under stack.placeholders")
                }
            }
        }
    }

    // MARK: Guardrails

    /// One rule's guardrail: its patterns compile, its phrases can match, its frames parse.
    private static func checkGuardrail(of rule: Rule, in pack: Pack, templates: inout PhraseTemplate.Session,
                                       into diagnostics: inout Diagnostics) {
        guard let guardrail = rule.guardrail else { return }
        for pattern in guardrail.patterns {
            if RegexCache.shared.expression(pattern.value, caseSensitive: false) == nil {
                diagnostics.error("pattern is not a valid regular expression", at: pattern.location,
                                  hint: "check the brackets and escapes; backslashes in double-quoted YAML must be doubled")
            }
        }
        // "\b" in a double-quoted YAML string is a backspace, not a word boundary: the
        // pattern compiles and silently never matches. Any control character is a mistake.
        for phrase in guardrail.patterns + guardrail.keywords + guardrail.frames + guardrail.exceptions {
            guard let control = phrase.value.unicodeScalars.first(where: { $0.value < 0x20 || $0.value == 0x7F }) else { continue }
            let name = Self.controlNames[control.value].map { " (\($0))" } ?? ""
            diagnostics.error("'\(phrase.value.debugDescription.dropFirst().dropLast())' contains the control character U+\(String(format: "%04X", control.value))\(name), so it never matches what a user types",
                              at: phrase.location,
                              hint: control.value == 0x08 ? "in a double-quoted YAML string write \\\\b for a word boundary, or use single quotes" : "remove it")
        }
        for phrase in guardrail.keywords where TextNormalizer.tokens(phrase.value).isEmpty {
            diagnostics.error("'\(phrase.value)' has no letters or digits, so it can never match", at: phrase.location)
        }
        for keyword in guardrail.keywords where !PhraseTemplate.isPlain(keyword.value) {
            diagnostics.warning("keyword '\(keyword.value)' uses frame syntax, but keywords match their words literally",
                                at: keyword.location, hint: "move it to frames:")
        }
        for lexicon in guardrail.lexicons where pack.lexicon(lexicon.value) == nil {
            diagnostics.error("no lexicon '\(lexicon.value)' in this pack", at: lexicon.location,
                              hint: pack.lexicons.isEmpty ? "define it under lexicons: with an id and entries"
                                  : Suggestions.hint(for: lexicon.value, in: pack.lexicons.map(\.id), noun: "lexicon"))
        }
        for template in guardrail.frames + guardrail.exceptions {
            guard case .failure(let problem) = templates.compile(template.value) else { continue }
            // Templates are one line: point at the character itself.
            var location = template.location
            if !template.value.contains(where: \.isNewline) { location.column += problem.offset }
            diagnostics.error("\(problem.message), in '\(template.value)' at character \(problem.offset + 1)", at: location,
                              hint: problem.hint)
        }
        if guardrail.keywords.isEmpty, guardrail.patterns.isEmpty, guardrail.frames.isEmpty, guardrail.lexicons.isEmpty {
            diagnostics.warning("rule '\(rule.id)' has a guardrail with no keywords, frames, lexicons or patterns; stage 1 never flags it",
                                at: rule.value["guardrail"]?.location ?? rule.value.location)
        }
    }

    /// Each lexicon is defined once, its entries parse and match something, and a rule uses it.
    private static func checkLexicons(_ pack: Pack, into diagnostics: inout Diagnostics) {
        var seen: [String: SourceLocation] = [:]
        let referenced = pack.rules.compactMap(\.guardrail).flatMap { guardrail in
            guardrail.lexicons.map(\.value) + (guardrail.frames + guardrail.exceptions).flatMap { Self.slots(in: $0.value) }
        }
        for lexicon in pack.lexicons {
            let location = lexicon.value.location
            if lexicon.id.isEmpty { continue }  // the schema reports a missing id
            if let first = seen[lexicon.id] {
                diagnostics.error("lexicon '\(lexicon.id)' is defined more than once (first at \(first))", at: location)
            }
            seen[lexicon.id] = seen[lexicon.id] ?? location
            if lexicon.entries.isEmpty {
                diagnostics.error("lexicon '\(lexicon.id)' has no entries, so every frame that uses it matches nothing", at: location)
            }
            var entries: [String: SourceLocation] = [:]
            for entry in lexicon.entries {
                do {
                    let sequences = try PhraseTemplate.entry(entry.value, inflect: lexicon.inflect)
                    if sequences.contains(where: \.isEmpty) {
                        diagnostics.error("entry '\(entry.value)' has no letters or digits, so it can never match", at: entry.location)
                    }
                } catch let problem as PhraseTemplate.Problem {
                    diagnostics.error("\(problem.message), in entry '\(entry.value)'", at: entry.location, hint: problem.hint)
                } catch {
                    diagnostics.error("\(error)", at: entry.location)
                }
                let key = TextNormalizer.tokens(entry.value).joined(separator: " ")
                if let first = entries[key], PhraseTemplate.isPlain(entry.value) {
                    diagnostics.warning("entry '\(entry.value)' repeats the one at \(first)", at: entry.location)
                }
                entries[key] = entries[key] ?? entry.location
            }
            if !referenced.contains(lexicon.id) {
                diagnostics.warning("lexicon '\(lexicon.id)' is used by no guardrail", at: location,
                                    hint: "name it in a rule's lexicons: or as {\(lexicon.id)} in a frame")
            }
        }
    }

    /// The lexicon ids a template names as `{id}`.
    static func slots(in template: String) -> [String] {
        var names: [String] = []
        var rest = template[...]
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            names.append(rest[rest.index(after: open)..<close].trimmed(.whitespaces))
            rest = rest[rest.index(after: close)...]
        }
        return names
    }

    /// Names of the control characters an author is likeliest to type by accident.
    static let controlNames: [UInt32: String] = [0x08: "backspace, from \"\\b\"", 0x09: "tab", 0x0A: "line feed", 0x0D: "carriage return",
                                                  0x0C: "form feed, from \"\\f\"", 0x07: "bell, from \"\\a\"", 0x0B: "vertical tab, from \"\\v\""]

    // MARK: The RISK ALERT

    /// A pack whose rules screen messages must have a layer that shows the alert (one whose
    /// template, partials or condition read `risk`), and that layer must not be trimmable.
    /// Otherwise a flagged message compiles to a prompt without its alert, silently.
    private static func checkAlertPlacement(_ pack: Pack, into diagnostics: inout Diagnostics) {
        guard let screening = pack.rules.first(where: { $0.guardrail != nil }) else { return }
        let partials = Dictionary(pack.stack.partials.map { ($0.name, $0.template.value) }) { first, _ in first }
        // Each partial is read once, however often it is included: partials that include each
        // other eight times over would otherwise be scanned 8⁸ times before lint says so.
        var partialReadsRisk: [String: Bool] = [:]
        func readsRisk(_ template: String, visiting: Set<String> = []) -> Bool {
            guard case .success(let tags) = TemplateScanner.scan(template) else { return true }  // reported elsewhere
            return tags.contains { tag in
                let name = TemplateScanner.splitTransform(tag.name).argument
                if tag.kind == .partial, let partial = partials[tag.name] {
                    if let known = partialReadsRisk[tag.name] { return known }
                    guard !visiting.contains(tag.name) else { return false }  // a cycle, reported by the partial graph
                    let reads = readsRisk(partial, visiting: visiting.union([tag.name]))
                    partialReadsRisk[tag.name] = reads
                    return reads
                }
                return [.variable, .section, .inverted].contains(tag.kind) && (name == "risk" || name.hasPrefix("risk."))
            }
        }
        let showing = pack.stack.layers.filter { readsRisk($0.template.value) || ($0.when?.value.contains("risk") ?? false) }
        let trimmable = Set(pack.stack.trim.map(\.value))
        guard let layer = showing.last else {
            diagnostics.error("rule '\(screening.id)' screens messages, but no layer of the stack shows the RISK ALERT, so a flagged message would compile without it",
                              at: pack.stack.value.location,
                              hint: "add a last layer with {{#risk}}RISK ALERT: {{risk.alert.reason}}…{{/risk}} (see docs/guardrails.md)")
            return
        }
        if showing.allSatisfy({ trimmable.contains($0.id) }) {
            diagnostics.error("the RISK ALERT is shown only by layer '\(layer.id)', which stack.trim may drop to fit the budget",
                              at: pack.stack.trim.first { $0.value == layer.id }?.location ?? layer.template.location,
                              hint: "remove '\(layer.id)' from stack.trim; an alert must never be trimmed away")
        }
    }

    // MARK: User data

    /// Profiles, contexts and coaches are data: a value that would open a line posing as a layer
    /// title, an alert or a section marker is quoted when it compiles. Shipped content should
    /// not rely on that, so lint says where it happens.
    private static func checkUserData(_ pack: Pack, into diagnostics: inout Diagnostics) {
        let titles = UserText.titles(of: pack)
        let values = pack.profiles.map(\.value) + pack.contexts.map(\.value) + pack.coaches.map(\.value)
        for text in values.flatMap(\.texts) {
            guard let shown = UserText.neutralised(text.value, titles: titles) else { continue }
            let line = UserText.structuralLine(in: text.value, titles: titles) ?? shown
            diagnostics.warning("'\(line.prefix(60))' would pose as prompt structure, so the prompt shows it as a quotation",
                                at: text.location,
                                hint: "user data never becomes prompt structure; write it as an ordinary sentence (see docs/packs.md)")
        }
    }

    // MARK: Templates

    private static func checkTemplates(_ pack: Pack, into diagnostics: inout Diagnostics) {
        var root = ContextBuilder.shape(for: pack)
        let placeholderShape = ContextShape.object(
            Dictionary(uniqueKeysWithValues: pack.stack.placeholders.map { ($0.name, ContextShape.leaf) }), open: false)
        root = root.adding([Compiler.placeholderRoot: placeholderShape])
        let expansion = PartialGraph(partials: pack.stack.partials).problems(in: Compiler.expandedTemplates(of: pack))
        diagnostics.append(contentsOf: expansion)
        // Unbounded partials are reported once above; lint then checks each template without
        // following partials, so it does bounded work too.
        let partials = Dictionary(pack.stack.partials.map { ($0.name, $0.template) }) { first, _ in first }
        let follow = expansion.isEmpty
        let missing = partialData(pack)
        let declared = Set(pack.stack.placeholders.map(\.name))
        for layer in pack.stack.layers {
            var scope = ShapeScope(root: root)
            checkTemplate(layer.template, what: "layer '\(layer.id)'", scope: &scope, partials: partials, follow: follow, missing: missing,
                          into: &diagnostics)
            for name in singleBracePlaceholders(in: layer.template.value) where !declared.contains(name) {
                let near = Suggestions.closest(to: name, in: declared)
                diagnostics.error("'{\(name)}' looks like a placeholder, but the stack declares none by that name, so it would reach the prompt as written",
                                  at: location(of: "{\(name)}", in: layer.template),
                                  hint: near.map { "did you mean '{\($0)}'?" } ?? "declare '\(name)' under stack.placeholders")
            }
            // A title is text the header template prints; a tag in it would reach the prompt as written.
            if let title = layer.title, let tag = title.value.ranges(ofPattern: #"\{\{[^}]*\}\}"#).first {
                diagnostics.error("the title of layer '\(layer.id)' holds '\(title.value[tag])', but a title is plain text, so the prompt would show it as written",
                                  at: title.location,
                                  hint: "put the value in the layer's template, on the line under the title")
            }
            if let when = layer.when {
                do {
                    let condition = try Condition(parsing: when.value)
                    let scope = ShapeScope(root: root)
                    for path in condition.paths {
                        if case .missing(let component, let known) = scope.resolve(path) {
                            diagnostics.error("condition of layer '\(layer.id)' uses '\(path)', but '\(component)' is not defined",
                                              at: when.location, hint: Suggestions.hint(for: component, in: known, noun: "name"))
                        }
                    }
                } catch let error as Condition.ParseError {
                    var location = when.location
                    location.column += error.column - 1
                    diagnostics.error("invalid condition: \(error.message)", at: location,
                                      hint: "write paths joined by !, && and ||, such as 'risk' or '!coach.template'")
                } catch {}
            }
        }
        for placeholder in pack.stack.placeholders {
            var scope = ShapeScope(root: root)
            checkTemplate(placeholder.template, what: "placeholder '\(placeholder.name)'", scope: &scope, partials: partials,
                          follow: follow, missing: missing, into: &diagnostics)
        }
        if let header = pack.stack.header {
            var scope = ShapeScope(root: .object(["title": .leaf], open: false))
            checkTemplate(header, what: "the stack header", scope: &scope, partials: [:], follow: false, missing: [:], into: &diagnostics)
        }
    }

    /// For each `profile.KEY` and `context.KEY` that some of the pack's data defines and some
    /// lacks, the ids that lack it.
    private static func partialData(_ pack: Pack) -> [String: [String]] {
        var result: [String: [String]] = [:]
        for (root, values) in [("profile", pack.profiles.map { ($0.id, $0.value) }), ("context", pack.contexts.map { ($0.id, $0.value) })] {
            let keys = Set(values.flatMap { $0.1.entries?.map(\.key) ?? [] })
            for key in keys {
                let lacking = values.filter { $0.1[key] == nil }.map(\.0)
                if !lacking.isEmpty { result["\(root).\(key)"] = lacking.sorted() }
            }
        }
        return result
    }

    private static let sequenceFunctions: Set<String> = ["first", "last", "index", "even", "odd"]

    private static func checkTemplate(_ template: Located<String>, what: String, scope: inout ShapeScope,
                                      partials: [String: Located<String>], follow: Bool, missing: [String: [String]], into diagnostics: inout Diagnostics) {
        func location(_ line: Int, _ column: Int) -> SourceLocation {
            SourceLocation(file: template.location.file, line: template.location.line + line - 1,
                           column: template.location.column + column - 1)
        }
        let tags: [TemplateScanner.Tag]
        switch TemplateScanner.scan(template.value) {
        case .failure(let problem):
            diagnostics.error("template of \(what): \(problem.message)", at: location(problem.line, problem.column))
            return
        case .success(let found):
            tags = found
        }
        var guards: [String] = []
        for tag in tags {
            let (function, argument) = TemplateScanner.splitTransform(tag.name)
            switch tag.kind {
            case .section, .inverted: guards.append(argument)
            case .close: _ = guards.popLast()
            case .variable:
                if let lacking = missing[argument], !guards.contains(argument) {
                    diagnostics.warning("\(what) uses '\(argument)', which \(lacking.count == 1 ? "profile" : "profiles") \(lacking.joined(separator: ", ")) \(lacking.count == 1 ? "does" : "do") not define; there it renders as empty text",
                                        at: location(tag.line, tag.column),
                                        hint: "give every one the key, or guard the line with {{#\(argument)}}…{{/\(argument)}}")
                }
            default: break
            }
            let isSequenceFunction = function.map { sequenceFunctions.contains($0) && argument.isEmpty } ?? false
            switch tag.kind {
            case .variable, .section, .inverted:
                var resolved: ContextShape?
                if !isSequenceFunction {
                    switch scope.resolve(argument) {
                    case .found(let shape):
                        resolved = shape
                    case .missing(let component, let known):
                        let parts = argument.split(separator: ".").map(String.init)
                        let head = parts.first ?? argument
                        // The path before the missing part, and what it is.
                        let parent = parts.firstIndex(of: component).map { parts[..<$0].joined(separator: ".") } ?? head
                        var parentShape: ContextShape?
                        if case .found(let shape) = scope.resolve(parent) { parentShape = shape }
                        let hint: String
                        if case .list? = parentShape {
                            hint = "'\(parent)' is a list, so it has no '\(component)': walk it with {{#\(parent)}}…{{/\(parent)}}, where {{.}} is each item and {{position}} its number"
                        } else if known.isEmpty && component != head {
                            hint = "here '\(head)' is a text or list (an enclosing section's own '\(head)' field shadows the outer one), so it has no '\(component)'"
                        } else {
                            hint = Suggestions.hint(for: component, in: known, noun: "name")
                        }
                        diagnostics.error("\(what) uses '\(argument)', but nothing defines '\(component)'",
                                          at: location(tag.line, tag.column), hint: hint)
                    }
                }
                // A mapping or list written as a variable renders as a debug dump of the
                // renderer's own values (file paths included), never as the text meant.
                if tag.kind == .variable, function == nil, let structure = resolved.flatMap(\.structureNoun) {
                    let subject = argument == "." ? "'.' here is \(structure)" : "'\(argument)' is \(structure)"
                    diagnostics.error("\(what) renders {{\(tag.name)}}, but \(subject), which has no text of its own",
                                      at: location(tag.line, tag.column),
                                      hint: argument == "."
                                        ? "inside {{^name}}…{{/name}} the context is still the enclosing one; name the text field you mean"
                                        : "name one of its fields ({{\(argument).field}}), or walk it with {{#\(argument)}}…{{/\(argument)}}")
                }
                if tag.kind == .section {
                    if isSequenceFunction || function != nil { scope.push(.unknown) } else { scope.push(resolved) }
                } else if tag.kind == .inverted {
                    // An inverted section renders only when its value is empty or missing, and
                    // then keeps the enclosing context (an empty list becomes the context).
                    if case .list = resolved { scope.push(.unknown) } else { scope.pushEnclosing() }
                }
            case .close:
                scope.pop()
            case .partial:
                guard let partial = partials[tag.name] else {
                    diagnostics.error("\(what) uses partial '\(tag.name)', which the stack does not define",
                                      at: location(tag.line, tag.column),
                                      hint: Suggestions.hint(for: tag.name, in: Array(partials.keys), noun: "partial"))
                    continue
                }
                guard follow else { continue }
                checkTemplate(partial, what: "partial '\(tag.name)'", scope: &scope, partials: partials, follow: true, missing: missing,
                              into: &diagnostics)
            case .comment, .pragma, .delimiters:
                break
            }
        }
    }

    // MARK: Helpers

    /// Where `needle` first occurs in a template, as a location in its file.
    static func location(of needle: String, in template: Located<String>) -> SourceLocation {
        guard let range = template.value.range(of: needle) else { return template.location }
        let before = template.value[..<range.lowerBound]
        let line = before.reduce(0) { $1 == "\n" ? $0 + 1 : $0 }
        let column = before.count - (before.lastIndex(of: "\n").map { before.distance(from: before.startIndex, to: $0) + 1 } ?? 0)
        return SourceLocation(file: template.location.file, line: template.location.line + line,
                              column: template.location.column + column)
    }

    /// Names written as `{name}` (single braces) in text.
    static func singleBracePlaceholders(in text: String) -> [String] {
        guard text.utf8.contains(UInt8(ascii: "{")) else { return [] }
        var names: [String] = []
        let characters = Array(text)
        var index = 0
        while index < characters.count {
            if characters[index] == "{", index == 0 || characters[index - 1] != "{",
               index + 1 < characters.count, characters[index + 1] != "{" {
                var end = index + 1
                while end < characters.count, characters[end].isLetter || characters[end].isNumber || characters[end] == "_" { end += 1 }
                if end < characters.count, characters[end] == "}", end > index + 1,
                   end + 1 >= characters.count || characters[end + 1] != "}", characters[index + 1].isLetter {
                    names.append(String(characters[(index + 1)..<end]))
                }
                index = end
            } else {
                index += 1
            }
        }
        return names
    }
}
