/// A JSON Pointer (RFC 6901): where a value sits in a JSON document, as `/reply` or
/// `/choices/0/message/content`. `~1` stands for `/` and `~0` for `~` within a token.
public struct JSONPointer: Sendable, Hashable, CustomStringConvertible {
    /// The reference tokens, unescaped.
    public let tokens: [String]
    /// The pointer as written.
    public let description: String

    /// Parses a pointer; nil unless it is empty (the whole document) or starts with `/`, and
    /// every `~` is followed by `0` or `1`.
    public init?(_ text: String) {
        guard text.isEmpty || text.hasPrefix("/") else { return nil }
        var tokens: [String] = []
        for raw in text.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            var token = ""
            var index = raw.startIndex
            while index < raw.endIndex {
                let character = raw[index]
                index = raw.index(after: index)
                guard character == "~" else {
                    token.append(character)
                    continue
                }
                guard index < raw.endIndex, raw[index] == "0" || raw[index] == "1" else { return nil }
                token.append(raw[index] == "0" ? "~" : "/")
                index = raw.index(after: index)
            }
            tokens.append(token)
        }
        self.tokens = tokens
        description = text
    }

    /// The value the pointer names in `document`; nil where a member or an index is missing.
    public func resolve(in document: JSONValue) -> JSONValue? {
        var value = document
        for token in tokens {
            switch value {
            case .object(let object):
                guard let member = object[token] else { return nil }
                value = member
            case .array(let array):
                // RFC 6901: a decimal index with no leading zero.
                guard let index = Int(token), String(index) == token, array.indices.contains(index) else { return nil }
                value = array[index]
            default:
                return nil
            }
        }
        return value
    }
}

extension YAMLValue {
    /// YAML from JSON, as an app's data arrives at its backend: text is quoted (so `yes` stays
    /// text), numbers and booleans are plain, and every value is located at `source`.
    public init(json: JSONValue, source: String) {
        let location = SourceLocation(file: source, line: 1, column: 1)
        switch json {
        case .null: self = .scalar(.init(text: "null", style: .plain, location: location))
        case .bool(let flag): self = .scalar(.init(text: flag ? "true" : "false", style: .plain, location: location))
        case .number: self = .scalar(.init(text: json.text, style: .plain, location: location))
        case .string(let text): self = .scalar(.init(text: text, style: .quoted, location: location))
        case .array(let items): self = .sequence(items.map { YAMLValue(json: $0, source: source) }, location)
        case .object(let members):
            self = .mapping(members.sorted { $0.key < $1.key }.map {
                Entry(key: $0.key, keyLocation: location, value: YAMLValue(json: $0.value, source: source))
            }, location)
        }
    }
}

extension Memory {
    /// A memory from its mapping (`id`, `clearedAt`, `insights`), as a memory file holds it.
    public init(yaml value: YAMLValue) {
        self = PackAssembler.memory(value)
    }
}
