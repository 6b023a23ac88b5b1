extension PackChecker {
    /// The reply contract's own mistakes, and the ways it fails to reach the model: a value no
    /// template renders is never asked of the model, so the mock does not obey it either and
    /// `follows-contract` fails on a prompt that never said it.
    static func checkContract(_ pack: Pack, warnings: Bool, into diagnostics: inout Diagnostics) {
        let tags = templateTags(of: pack)
        let builtIn = tags.contains(">" + ReplyContract.partialName)
            && !(pack.stack.value["partials"]?[ReplyContract.partialName] != nil)
        guard let contract = pack.reply else {
            let uses = tags.contains { $0 == ">" + ReplyContract.partialName || $0.hasPrefix("reply.") || $0 == "reply" }
            if warnings, uses, let layer = pack.stack.layers.first(where: { layerUsesReply($0.template.value) }) {
                diagnostics.warning("layer '\(layer.id)' renders the reply contract, but the pack declares none, so it renders nothing",
                                    at: layer.template.location, hint: "add a 'reply:' mapping to the pack (see docs/packs.md)")
            }
            return
        }
        diagnostics.append(contentsOf: ReplyContract.problems(in: contract.value))
        guard warnings, case .mapping(let entries, _) = contract.value else { return }
        if let tokens = contract.tokens, let maxTokens = pack.defaults.value?["model"]?.integer("maxTokens"), maxTokens > tokens,
           let location = pack.defaults.value?["model"]?["maxTokens"]?.location {
            diagnostics.warning("the model may write \(maxTokens) tokens, more than the \(tokens) the reply contract allows", at: location,
                                hint: "set maxTokens to \(tokens), so the app's own limit keeps the contract")
        }
        guard !builtIn else { return }
        // Unknown keys and forms are errors of the schema already.
        for entry in entries where ContentSpecs.reply.field(entry.key) != nil && entry.key != "tokens" && entry.key != "forbid"
            && !entry.value.isNull && !renders(entry.key, tags: tags) {
            let isFlag = YAMLValue.booleanValue(entry.value.text ?? "") != nil
            diagnostics.warning("reply.\(entry.key) is declared, but no template renders it, so the model is never asked for it",
                                at: entry.keyLocation,
                                hint: "add {{> reply}} to a layer, or say it in your own words: "
                                    + (isFlag ? "{{#reply.\(entry.key)}}…{{/reply.\(entry.key)}}" : "{{reply.phrases.\(entry.key)}} or {{reply.\(entry.key)}}"))
        }
        let listed = tags.contains { $0.hasSuffix("phrases.forbidden") || $0.hasSuffix("reply.forbid") || $0 == "forbid" || $0 == "forbidden" }
        for form in pack.reply?.value.locatedList("forbid") ?? [] where !listed && ReplyContract.Form(rawValue: form.value) != nil && !tags.contains(where: { $0.hasSuffix("forbids." + form.value) }) {
            diagnostics.warning("reply.forbid holds '\(form.value)', but no template renders it, so the model is never asked to leave it out",
                                at: form.location,
                                hint: "add {{> reply}} to a layer, list {{reply.phrases.forbidden}}, or say it in your own words: {{#reply.forbids.\(form.value)}}…{{/reply.forbids.\(form.value)}}")
        }
    }

    /// Every tag of the pack's own templates, as `name`, `#name`, `>partial`, without spaces.
    private static func templateTags(of pack: Pack) -> Set<String> {
        let texts = pack.stack.layers.map(\.template.value) + pack.stack.placeholders.map(\.template.value)
            + pack.stack.partials.filter { $0.template.location != ReplyContract.partialLocation }.map(\.template.value)
        var tags: Set<String> = []
        for text in texts {
            for range in text.ranges(ofPattern: #"\{\{\{?[^}]*\}\}"#) {
                let tag = text[range].filter { !"{} ".contains($0) }
                tags.insert(tag)
                tags.insert(String(tag.drop { "#^/&".contains($0) }))
            }
        }
        return tags
    }

    /// Whether a contract field is rendered by some tag: `reply.sentences`,
    /// `phrases.sentences`, `sentences` inside `{{#reply}}`.
    private static func renders(_ field: String, tags: Set<String>) -> Bool {
        tags.contains { tag in
            let path = tag.split(separator: ".").map(String.init)
            if field == "name" { return tag == "reply.name" }
            return path.last == field && (path.count == 1 || ["reply", "phrases"].contains(path[path.count - 2]))
        }
    }

    private static func layerUsesReply(_ template: String) -> Bool {
        !template.ranges(ofPattern: #"\{\{\s*(?:>\s*reply\b|[#^]?\s*reply(?:\.|\s*\}\}))"#).isEmpty
    }
}
