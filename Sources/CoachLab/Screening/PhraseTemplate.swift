import Foundation

/// The phrase syntax of guardrail frames, exceptions and lexicon entries, and its expansion
/// into plain word sequences the screener indexes.
///
/// - Words match whole folded words, as keywords do: `can you confirm`.
/// - `(a|b c|d)` is one of the alternatives; an empty one makes the group optional: `(really|)`.
/// - `[a b]` is optional: the same as `(a b|)`.
/// - `{conditions}` is any entry of the lexicon `conditions`.
/// - `~diagnose` is the word in any inflection: diagnose, diagnosed, diagnoses, diagnosing, diagnosis.
/// - `#` at the start of a word is a number: `#mg` matches "40mg", `# pills` matches "2 pills".
/// - `*` is any one word: `could my * be {conditions}`. A phrase may not start with it.
/// - `...` is a gap of up to four words: `should i ... {money}` matches "should I take out a loan".
///
/// A template expands to every word sequence it can match; each remembers the lexicon entries
/// it came through, so a flag can say which entry matched.
public enum PhraseTemplate {
    /// One word position of an expanded phrase.
    public enum Token: Hashable, Sendable, CustomStringConvertible {
        /// Exactly this folded word.
        case word(String)
        /// Any word with this stem (``Inflection``).
        case inflected(String)
        /// Digits followed by exactly this (possibly empty) folded suffix.
        case number(suffix: String)
        /// Any one word.
        case any

        public var description: String {
            switch self {
            case .word(let word): word
            case .inflected(let stem): "~" + stem
            case .number(let suffix): "#" + suffix
            case .any: "*"
            }
        }
    }

    /// One word sequence a template matches, and the lexicon entries it came through
    /// ("conditions: adhd").
    public struct Expansion: Hashable, Sendable {
        public var tokens: [Token]
        public var via: [String]
    }

    /// Why a template cannot be used, with the character offset of the problem in it.
    public struct Problem: Error, Equatable, Sendable {
        public var message: String
        public var offset: Int
        public var hint: String?

        public init(message: String, offset: Int, hint: String? = nil) {
            self.message = message
            self.offset = offset
            self.hint = hint
        }
    }

    /// The most sequences one part of a template may expand to: a group holding several
    /// large slots grows as their product; past this it belongs in separate frames.
    public static let expansionLimit = 20_000

    /// The most words a `...` gap stands for.
    public static let gapLimit = 4

    /// One position of a compiled template: the sequences that may fill it. An empty sequence
    /// makes the position optional.
    public typealias Element = [Expansion]

    /// A template ready to match: each variant is a run of elements, matched left to right.
    /// A template whose first elements are optional has one variant per possible first word
    /// position, so every variant starts with a required word that the screener indexes.
    public struct Compiled: Sendable {
        public var variants: [[Element]]
    }

    /// Whether `text` uses any of the syntax beyond plain words.
    public static func isPlain(_ text: String) -> Bool { !text.contains { "()[]{}|~#*".contains($0) } && !FoldedText.text(text, contains: "...") }

    /// Compiles `text` with the lexicons its slots name.
    public static func compile(_ text: String, lexicons: [Lexicon]) -> Result<Compiled, Problem> {
        var session = Session(lexicons: lexicons)
        return session.compile(text)
    }

    /// Compiles many templates over one set of lexicons, expanding each lexicon once for all
    /// of them rather than once per template that names it (a pack's frames share a few).
    ///
    /// What a session compiles is kept for the process with the lexicons it used: loading a
    /// pack checks every frame, and the screener built from the same pack compiles them again.
    public struct Session {
        private let lexicons: [String: Lexicon]
        private var expansions: [String: [Expansion]] = [:]
        private let shelf: CompiledShelf.Templates

        public init(lexicons: [Lexicon]) {
            self.lexicons = Dictionary(lexicons.map { ($0.id, $0) }) { first, _ in first }
            shelf = CompiledShelf.for(lexicons)
        }

        /// Compiles `text`, as ``PhraseTemplate/compile(_:lexicons:)`` does.
        public mutating func compile(_ text: String) -> Result<Compiled, Problem> {
            shelf.value(for: text) { PhraseTemplate.compile(text, lexicons: lexicons, cache: &expansions) }
        }
    }

    /// The templates compiled over one set of lexicons, found by what the lexicons hold (ids,
    /// entries and inflection, in order), so an edited lexicon never reads a stale template.
    /// Lint's check and the screener, built side by side from one pack, compile each frame
    /// once between them.
    private enum CompiledShelf {
        typealias Templates = BoundedCache<String, Result<Compiled, Problem>>

        private struct Key: Hashable {
            var id: String
            var inflect: Bool
            var entries: [String]
        }

        /// A long-lived process that reloads edited packs starts again past a bound.
        private static let shelves = BoundedCache<[Key], Templates>(bound: 64)

        static func `for`(_ lexicons: [Lexicon]) -> Templates {
            shelves.value(for: lexicons.map { Key(id: $0.id, inflect: $0.inflect, entries: $0.entries.map(\.value)) }) {
                Templates(bound: 16_384)
            }
        }
    }

    private static func compile(_ text: String, lexicons byId: [String: Lexicon], cache: inout [String: [Expansion]]) -> Result<Compiled, Problem> {
        do {
            var parser = Parser(text: text, allowSlots: true)
            let nodes = try parser.parse()
            let elements = try nodes.map { try expand([$0], lexicons: byId, cache: &cache) }
            var variants: [[Element]] = []
            var rest = elements[...]
            while let first = rest.first {
                let required = first.filter { !$0.tokens.isEmpty }
                if required.contains(where: { $0.tokens.first == .any }) {
                    throw Problem(message: "'\(text)' can start with '*' or '...'", offset: 0,
                                  hint: "a phrase is found by its first word; start it with a word, a slot or a number")
                }
                if !required.isEmpty { variants.append([required] + rest.dropFirst()) }
                guard required.count < first.count else { break }  // the first element is optional: also try without it
                rest = rest.dropFirst()
            }
            if variants.isEmpty || rest.isEmpty && elements.allSatisfy({ $0.contains { $0.tokens.isEmpty } }) {
                throw Problem(message: "'\(text)' can match no words at all", offset: 0,
                              hint: "every alternative path must keep at least one word; make fewer parts optional")
            }
            return .success(Compiled(variants: variants))
        } catch let problem as Problem {
            return .failure(problem)
        } catch {
            return .failure(Problem(message: "\(error)", offset: 0))
        }
    }

    /// The sequences one lexicon entry matches (no slots; inflected when the lexicon says so).
    /// Lint and the screener both expand every frame of a pack, and every frame naming a
    /// lexicon reads all its entries, so each entry's parse is kept for the process.
    static func entry(_ text: String, inflect: Bool) throws -> [[Token]] {
        try EntryCache.sequences(text, inflect: inflect) {
            var parser = Parser(text: text, allowSlots: false, inflectAll: inflect)
            let nodes = try parser.parse()
            var cache: [String: [Expansion]] = [:]
            return try expand(nodes, lexicons: [:], cache: &cache).map(\.tokens)
        }
    }

    /// Parsed lexicon entries by text, or why one does not parse.
    private enum EntryCache {
        static let shared = BoundedCache<String, Result<[[Token]], any Error>>(bound: 1 << 16)

        static func sequences(_ text: String, inflect: Bool, parse: () throws -> [[Token]]) throws -> [[Token]] {
            try shared.value(for: (inflect ? "~" : "=") + text) { Result(catching: parse) }.get()
        }
    }

    indirect enum Node {
        case token(Token)
        case slot(String, offset: Int)
        case choice([[Node]])
    }

    private static func expand(_ nodes: [Node], lexicons: [String: Lexicon], cache: inout [String: [Expansion]]) throws -> [Expansion] {
        var results = [Expansion(tokens: [], via: [])]
        for node in nodes {
            let options: [Expansion]
            switch node {
            case .token(let token):
                options = [Expansion(tokens: [token], via: [])]
            case .choice(let alternatives):
                options = try alternatives.flatMap { try expand($0, lexicons: lexicons, cache: &cache) }
            case .slot(let name, let offset):
                if let cached = cache[name] {
                    options = cached
                } else {
                    guard let lexicon = lexicons[name] else {
                        throw Problem(message: "no lexicon '\(name)' in this pack", offset: offset,
                                      hint: lexicons.isEmpty ? "define it under lexicons: with an id and entries"
                                          : Suggestions.hint(for: name, in: lexicons.keys.sorted(), noun: "lexicon"))
                    }
                    var entries: [Expansion] = []
                    for entry in lexicon.entries {
                        for tokens in (try? Self.entry(entry.value, inflect: lexicon.inflect)) ?? [] where !tokens.isEmpty {
                            entries.append(Expansion(tokens: tokens, via: ["\(name): \(entry.value)"]))
                        }
                    }
                    if entries.isEmpty {
                        throw Problem(message: "lexicon '\(name)' has no usable entries", offset: offset, hint: nil)
                    }
                    cache[name] = entries
                    options = entries
                }
            }
            guard results.count * options.count <= expansionLimit else {
                throw Problem(message: "expands to more than \(expansionLimit) phrases", offset: 0,
                              hint: "split it into several frames, or use smaller lexicons in it")
            }
            results = results.flatMap { head in
                options.map { Expansion(tokens: head.tokens + $0.tokens, via: head.via + $0.via) }
            }
        }
        return results
    }

    /// Works on Unicode scalars, where brackets and spaces are single values; offsets in a
    /// ``Problem`` are counted in characters, as lint reports them.
    private struct Parser {
        let text: String
        let scalars: [Unicode.Scalar]
        /// Where each scalar starts in `text`, and its end last: words are cut from `text`.
        let indices: [String.Index]
        let allowSlots: Bool
        var inflectAll = false
        var position = 0

        init(text: String, allowSlots: Bool, inflectAll: Bool = false) {
            self.text = text
            scalars = Array(text.unicodeScalars)
            indices = Array(text.unicodeScalars.indices) + [text.endIndex]
            self.allowSlots = allowSlots
            self.inflectAll = inflectAll
        }

        /// The offset in characters of the scalar at `offset`.
        private func characters(to offset: Int) -> Int {
            text[..<indices[offset]].count
        }

        private func problem(_ message: String, at offset: Int, hint: String? = nil) -> Problem {
            Problem(message: message, offset: characters(to: offset), hint: hint)
        }

        private static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
            scalar == " " || (scalar.value >= 0x09 && scalar.value <= 0x0D) || (scalar.value >= 0x80 && scalar.properties.isWhitespace)
        }

        private static func isBracket(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar {
            case "(", ")", "[", "]", "{", "}", "|": true
            default: false
            }
        }

        mutating func parse() throws -> [Node] {
            let nodes = try sequence(until: nil)
            if position < scalars.count {
                throw problem("unexpected '\(scalars[position])'", at: position, hint: "brackets must pair: (a|b), [optional], {lexicon}")
            }
            return nodes
        }

        /// Nodes up to `closer` or `|` (or the end, when `closer` is nil).
        private mutating func sequence(until closer: Unicode.Scalar?) throws -> [Node] {
            var nodes: [Node] = []
            while position < scalars.count {
                let scalar = scalars[position]
                if closer != nil, scalar == closer || scalar == "|" { return nodes }
                switch scalar {
                case _ where Parser.isSpace(scalar):
                    position += 1
                case "(", "[":
                    let start = position
                    position += 1
                    let closer: Unicode.Scalar = scalar == "(" ? ")" : "]"
                    var alternatives = [try sequence(until: closer)]
                    while position < scalars.count, scalars[position] == "|" {
                        position += 1
                        alternatives.append(try sequence(until: closer))
                    }
                    guard position < scalars.count, scalars[position] == closer else {
                        throw problem("'\(scalar)' is never closed with '\(closer)'", at: start)
                    }
                    position += 1
                    if scalar == "[" { alternatives.append([]) }
                    nodes.append(.choice(alternatives))
                case "{":
                    let start = position
                    guard let close = scalars[position...].firstIndex(of: "}") else {
                        throw problem("'{' is never closed with '}'", at: start)
                    }
                    let name = String(text.unicodeScalars[indices[position + 1]..<indices[close]]).trimmed(.whitespaces)
                    guard allowSlots else {
                        throw problem("a lexicon entry cannot name another lexicon ({\(name)})", at: start)
                    }
                    guard !name.isEmpty else { throw problem("'{}' names no lexicon", at: start) }
                    nodes.append(.slot(name, offset: characters(to: start)))
                    position = close + 1
                case ")", "]", "}", "|":
                    throw problem("unexpected '\(scalar)'", at: position, hint: "alternatives go inside brackets: (a|b)")
                default:
                    nodes += try word()
                }
            }
            return nodes
        }

        private mutating func word() throws -> [Node] {
            let start = position
            while position < scalars.count, !Parser.isSpace(scalars[position]), !Parser.isBracket(scalars[position]) {
                position += 1
            }
            var raw = String(text.unicodeScalars[indices[start]..<indices[position]])
            if raw == "*" { return [.token(.any)] }
            if raw == "..." || raw == "\u{2026}" {
                return [.choice((0...PhraseTemplate.gapLimit).map { Array(repeating: Node.token(.any), count: $0) })]
            }
            var inflect = inflectAll
            if raw.hasPrefix("~") {
                inflect = true
                raw.removeFirst()
            }
            var nodes: [Node] = []
            if raw.hasPrefix("#") {
                raw.removeFirst()
                let words = TextNormalizer.words(raw)
                // "#mg" is digits then "mg" in one word; "# mg" is a number, then the word "mg".
                if let first = words.first, first.start == 0 {
                    nodes.append(.token(.number(suffix: first.text)))
                    raw = String(raw.unicodeScalars.dropFirst(first.end))
                } else {
                    nodes.append(.token(.number(suffix: "")))
                }
            }
            for token in TextNormalizer.tokens(raw) {
                nodes.append(.token(inflect ? .inflected(Inflection.stem(token)) : .word(token)))
            }
            return nodes
        }
    }
}
