/// Where the text of a compiled prompt came from, value by value: the source map a reader
/// uses before it reads any English. The compiler knows, exactly, that a line holds the
/// persona's name, a knowledge item, a rule or one of the live alert's instructions, whatever
/// the template's wording around it; the mock takes those from here.
public struct PromptStructure: Sendable, Hashable {
    /// What a pack value is.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The persona's name, or the coach's.
        case name
        /// Another persona or coach field: voice, tone, beliefs.
        case persona
        /// A field of a knowledge item: a fact the coach may teach.
        case knowledge
        /// A rule's content or title.
        case rule
        /// One of the live alert's instructions (a flagged message's rule).
        case alertInstruction
        /// The live alert's reason.
        case alertReason
        /// A topic's or intent's text.
        case topic
        /// The user's data: a profile, a context, memory, or any value outside the pack.
        case data
        /// A value of the reply contract (`reply:`): a limit, a forbidden form, a promise.
        case contract
        /// A layer's heading, as the stack's `header:` rendered its title ("// reply format",
        /// "### Role ###"): where a section starts, whatever marks it.
        case heading
    }

    /// One value as it stands in the prompt.
    public struct Part: Sendable, Hashable {
        public var kind: Kind
        /// The value's key in its mapping (`coreIdea`, `content`, `name`), or nil for a list item.
        public var field: String?
        /// The text as rendered.
        public var text: String
        /// The layer it is in.
        public var layer: String
        /// Which of its kind it is: the knowledge item, rule or alert it belongs to, numbered
        /// in its file (`topics.yaml:12`), so the parts of one item can be told from another's.
        public var item: String?
        /// A contract value as written in the pack (`1-3`, `markdown`, `true`), whatever the
        /// template made of it ("at most 3 sentences", "exclamation marks"); nil for other kinds.
        public var value: String?

        public init(kind: Kind, field: String?, text: String, layer: String, item: String? = nil, value: String? = nil) {
            self.kind = kind
            self.field = field
            self.text = text
            self.layer = layer
            self.item = item
            self.value = value
        }
    }

    /// Every value the prompt holds, in the order it was rendered.
    public let parts: [Part]
    /// A hash of the parts, taken once: readings are cached by structure, and a prompt's
    /// structure is asked for on every turn.
    private let digest: Int

    public init(parts: [Part] = []) {
        self.parts = parts
        var hasher = Hasher()
        hasher.combine(parts)
        digest = hasher.finalize()
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(digest) }

    public static func == (lhs: PromptStructure, rhs: PromptStructure) -> Bool {
        lhs.digest == rhs.digest && lhs.parts == rhs.parts
    }

    /// The parts of one kind.
    public func parts(_ kind: Kind) -> [Part] { parts.filter { $0.kind == kind } }
}

/// Each pack value's kind, by the location of its YAML scalar: built once per compiler.
struct PackValueIndex: Sendable {
    struct Entry: Sendable, Hashable {
        var kind: PromptStructure.Kind
        var field: String?
        var item: String?
        /// The scalar as written, for a contract value.
        var value: String?
    }

    private var entries: [SourceLocation: Entry] = [:]
    private var files: Set<String> = []

    init(pack: Pack) {
        for document in pack.documents {
            files.insert(document.location.file)
            index(document, path: [])
        }
    }

    /// Every contract value among the locations a rendered text came from: a phrase such as
    /// "markdown or lists" says several.
    func contractEntries(for sources: [SourceLocation]) -> [Entry] {
        sources.compactMap { entries[$0] }.filter { $0.kind == .contract }
    }

    /// What a rendered text is, by the locations it came from: the first the pack classifies;
    /// the user's data when it came from outside the pack (a profile, a context, memory, a
    /// fixture's data); nil for the pack's other values (its id, a variant's settings).
    func entry(for sources: [SourceLocation]) -> Entry? {
        if let known = sources.lazy.compactMap({ entries[$0] }).first { return known }
        return sources.contains { !files.contains($0.file) } ? Entry(kind: .data, field: nil, item: nil) : nil
    }

    /// Walks a document, keeping each scalar's path (keys; a list item is `[]`).
    private mutating func index(_ value: YAMLValue, path: [String], item: String? = nil) {
        switch value {
        case .scalar(let scalar):
            guard let kind = Self.kind(of: path) else { return }
            let field = path.last.flatMap { $0 == "[]" ? path.dropLast().last : $0 }
            entries[scalar.location] = Entry(kind: kind, field: field, item: item, value: kind == .contract ? scalar.text : nil)
        case .sequence(let items, _):
            for element in items {
                // Each item of a knowledge list, rule list or alert names its parts.
                let opensItem = ["knowledge", "rules", "coaches", "topics", "instructions"].contains(path.last ?? "")
                index(element, path: path + ["[]"], item: opensItem ? element.location.fileLine : item)
            }
        case .mapping(let entries, _):
            for entry in entries { index(entry.value, path: path + [entry.key], item: item) }
        }
    }

    /// The kind of a value by its path of keys.
    static func kind(of path: [String]) -> PromptStructure.Kind? {
        let keys = path.filter { $0 != "[]" }
        guard let first = keys.first else { return nil }
        switch first {
        case "persona", "coaches":
            return keys.last == "name" && keys.count == 2 ? .name : .persona
        case "rules":
            if keys.contains("alert") { return keys.last == "reason" ? .alertReason : keys.contains("instructions") ? .alertInstruction : nil }
            if keys.contains("guardrail") { return nil }
            return .rule
        case "topics":
            if keys.contains("knowledge") { return keys.last == "id" ? nil : .knowledge }
            return keys.last == "id" || keys.last == "slug" ? nil : .topic
        case "reply":
            return keys == ["reply", "name"] ? .name : .contract
        case "profiles", "contexts", "memories", "memory":
            return .data
        default:
            return nil
        }
    }
}
