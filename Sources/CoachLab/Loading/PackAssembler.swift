/// Merges validated pack files into one ``Pack``: singletons (pack, stack, persona,
/// defaults, reply) defined once, lists concatenated in load order.
enum PackAssembler {
    static func assemble(fragments: [(file: String, value: YAMLValue)], directory: String, rootFile: String,
                         diagnostics: inout Diagnostics) -> Pack? {
        var singletons: [String: YAMLValue.Entry] = [:]
        var lists: [String: [YAMLValue]] = [:]
        for fragment in fragments {
            for entry in fragment.value.entries ?? [] where !entry.value.isNull {
                switch entry.key {
                case "pack", "stack", "persona", "defaults", "reply":
                    if entry.key == "pack", fragment.file != rootFile {
                        diagnostics.error("'pack' belongs in the pack's root file '\(rootFile)'", at: entry.keyLocation)
                    }
                    if let first = singletons[entry.key] {
                        diagnostics.error("'\(entry.key)' is defined more than once (first at \(first.keyLocation))",
                                          at: entry.keyLocation, hint: "a pack has one \(entry.key); merge the two")
                    } else {
                        singletons[entry.key] = entry
                    }
                case "include":
                    break
                default:
                    lists[entry.key, default: []].append(contentsOf: entry.value.items ?? [])
                }
            }
        }
        let rootLocation = SourceLocation(file: rootFile, line: 1, column: 1)
        guard let info = singletons["pack"]?.value, info.entries != nil else {
            diagnostics.error("the pack has no 'pack:' section with its id and name", at: rootLocation,
                              hint: "add 'pack: {id: my-app, name: My App}' to \(rootFile)")
            return nil
        }
        guard let stackValue = singletons["stack"]?.value, stackValue.entries != nil else {
            diagnostics.error("the pack has no 'stack:'; the stack's layers are what a prompt is compiled from", at: rootLocation,
                              hint: "add a stack to \(rootFile) or to a file it includes")
            return nil
        }
        let mappings: (String) -> [YAMLValue] = { key in (lists[key] ?? []).filter { $0.entries != nil } }
        return Pack(
            directory: directory,
            id: info.located("id")?.value ?? Paths.lastComponent(directory),
            name: info.located("name")?.value ?? Paths.lastComponent(directory),
            info: info,
            stack: stack(stackValue, builtIns: [(ReplyContract.partialName, Located(ReplyContract.partial, at: ReplyContract.partialLocation))]),
            persona: singletons["persona"]?.value.entries != nil ? singletons["persona"]?.value : nil,
            rules: mappings("rules").map(rule),
            topics: mappings("topics").map(topic),
            coaches: mappings("coaches").map(coach),
            profiles: mappings("profiles").map { Entity(id: $0.located("id")?.value ?? "", value: $0) },
            memories: mappings("memories").map(memory),
            contexts: mappings("contexts").map { Entity(id: $0.located("id")?.value ?? "", value: $0) },
            defaults: defaults(singletons["defaults"]?.value),
            variants: mappings("variants").map(variant),
            lexicons: mappings("lexicons").map { value in
                Lexicon(id: value.located("id")?.value ?? "", entries: value.locatedList("entries"),
                        inflect: YAMLValue.booleanValue(value["inflect"]?.scalar?.text ?? "") ?? false, value: value)
            },
            reply: singletons["reply"]?.value.entries != nil ? singletons["reply"].map { ReplyContract($0.value) } : nil,
            files: fragments.map(\.file),
            documents: fragments.map(\.value)
        )
    }

    /// The stack, with each built-in partial the pack does not define itself.
    static func stack(_ value: YAMLValue, builtIns: [(name: String, template: Located<String>)] = []) -> Stack {
        func named(_ key: String) -> [(name: String, template: Located<String>)] {
            (value[key]?.entries ?? []).compactMap { entry in
                entry.value.text.map { (entry.key, Located($0, at: entry.value.location)) }
            }
        }
        let layers = (value["layers"]?.items ?? []).compactMap { layer -> Stack.Layer? in
            guard let id = layer.located("id"), let template = layer.located("template") else { return nil }
            let title: Located<String>? = layer["title"].map { Located($0.scalar?.text ?? "", at: $0.location) }
            return Stack.Layer(id: id.value, title: title, template: template, when: layer.located("when"))
        }
        return Stack(header: value.located("header"),
                     separator: value.located("separator")?.value ?? "\n\n",
                     placeholders: named("placeholders"),
                     partials: named("partials") + builtIns.filter { builtIn in value["partials"]?[builtIn.name] == nil },
                     layers: layers,
                     trim: value.locatedList("trim"),
                     value: value)
    }

    static func rule(_ value: YAMLValue) -> Rule {
        let guardrail = value["guardrail"].flatMap { g -> Guardrail? in
            guard g.entries != nil else { return nil }
            return Guardrail(keywords: g.locatedList("keywords"), patterns: g.locatedList("patterns"),
                             exceptions: g.locatedList("exceptions"), lexicons: g.locatedList("lexicons"),
                             frames: g.locatedList("frames"), alert: g["alert"], classifier: g.located("classifier")?.value)
        }
        return Rule(id: value.located("id")?.value ?? "", title: value.located("title")?.value ?? "",
                    priority: value.integer("priority") ?? 0, guardrail: guardrail, value: value)
    }

    static func topic(_ value: YAMLValue) -> Topic {
        Topic(slug: value.located("slug")?.value ?? "",
              intents: (value["intents"]?.items ?? []).filter { $0.entries != nil }.map {
                  Topic.Intent(id: $0.located("id")?.value ?? "", value: $0)
              },
              knowledge: (value["knowledge"]?.items ?? []).filter { $0.entries != nil }.map {
                  Topic.Knowledge(intents: $0.locatedList("intents"), value: $0)
              },
              value: value)
    }

    static func coach(_ value: YAMLValue) -> Coach {
        Coach(id: value.located("id")?.value ?? "",
              template: value["template"]?.entries != nil ? value["template"] : nil,
              systemPrompt: value.located("systemPrompt"),
              memoryClearedAt: value.date("memoryClearedAt"),
              value: value)
    }

    static func memory(_ value: YAMLValue) -> Memory {
        Memory(id: value.located("id")?.value ?? "",
               clearedAt: value.date("clearedAt"),
               insights: (value["insights"]?.items ?? []).compactMap { insight in
                   guard let createdAt = insight.date("createdAt") else { return nil }
                   return Memory.Insight(createdAt: createdAt, coach: insight.located("coach"), value: insight)
               },
               value: value)
    }

    static func defaults(_ value: YAMLValue?) -> Defaults {
        var defaults = Defaults()
        guard let value else { return defaults }
        defaults.value = value
        if let limit = value["memory"]?.integer("limit") { defaults.memoryLimit = limit }
        defaults.cannedReplies = value.locatedList("cannedReplies").map(\.value)
        if let context = value["context"] {
            defaults.windowTokens = context.integer("windowTokens")
            defaults.systemMaxTokens = context.integer("systemMaxTokens")
            defaults.reserveForReply = context.integer("reserveForReply")
            defaults.rotateAtMessages = context.integer("rotateAtMessages")
            defaults.summarizeLast = context.integer("summarizeLast")
        }
        defaults.stage2Always = value["screening"]?.located("stage2")?.value == "always"
        if let typos = value["screening"]?["typos"]?.scalar.flatMap({ YAMLValue.booleanValue($0.text) }) {
            defaults.screeningTypos = typos
        }
        if let limits = value["coachLimits"] {
            func range(_ key: String) -> Defaults.CountRange? {
                guard let node = limits[key], let min = node.integer("min"), let max = node.integer("max") else { return nil }
                return Defaults.CountRange(min: min, max: max)
            }
            defaults.phases = range("phases") ?? defaults.phases
            defaults.templateRules = range("rules") ?? defaults.templateRules
            defaults.examples = range("examples") ?? defaults.examples
            defaults.starterQuestions = range("starterQuestions") ?? defaults.starterQuestions
        }
        return defaults
    }

    static func variant(_ value: YAMLValue) -> Variant {
        Variant(id: value.located("id")?.value ?? "", coach: value.located("coach"), topic: value.located("topic"),
                intent: value.located("intent"), profile: value.located("profile"), memory: value.located("memory"),
                context: value.located("context"), now: value.located("now"), screen: value.located("screen"),
                value: value)
    }
}
