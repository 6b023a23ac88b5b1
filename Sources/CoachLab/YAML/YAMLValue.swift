/// A YAML value with the location of every node, so every value that reaches a prompt can
/// be traced to its `file:line`.
public indirect enum YAMLValue: Sendable, Equatable {
    /// A scalar: its text exactly as written, and how it was written.
    case scalar(Scalar)
    /// A sequence and the location of its start.
    case sequence([YAMLValue], SourceLocation)
    /// A mapping, in document order, and the location of its start.
    case mapping([Entry], SourceLocation)

    /// A scalar's text and style.
    public struct Scalar: Sendable, Equatable {
        /// How a scalar was written; plain scalars may be numbers, booleans or null.
        public enum Style: Sendable, Equatable { case plain, quoted, block }
        /// The text as parsed (quotes removed, block indentation folded).
        public var text: String
        /// How it was written.
        public var style: Style
        /// Where it starts.
        public var location: SourceLocation

        /// Creates a scalar.
        public init(text: String, style: Style, location: SourceLocation) {
            self.text = text
            self.style = style
            self.location = location
        }

        /// Whether this is YAML's null (`~`, `null` or nothing, unquoted).
        public var isNull: Bool {
            style == .plain && ["", "~", "null", "Null", "NULL"].contains(text)
        }
    }

    /// One key and its value in a mapping.
    public struct Entry: Sendable, Equatable {
        /// The key's text.
        public var key: String
        /// Where the key is.
        public var keyLocation: SourceLocation
        /// The value.
        public var value: YAMLValue

        /// Creates an entry.
        public init(key: String, keyLocation: SourceLocation, value: YAMLValue) {
            self.key = key
            self.keyLocation = keyLocation
            self.value = value
        }
    }

    /// Where the value starts.
    public var location: SourceLocation {
        switch self {
        case .scalar(let scalar): scalar.location
        case .sequence(_, let location), .mapping(_, let location): location
        }
    }

    /// The mapping's entries, or nil when this is not a mapping.
    public var entries: [Entry]? {
        if case .mapping(let entries, _) = self { return entries }
        return nil
    }

    /// The sequence's items, or nil when this is not a sequence.
    public var items: [YAMLValue]? {
        if case .sequence(let items, _) = self { return items }
        return nil
    }

    /// The scalar, or nil when this is a collection.
    public var scalar: Scalar? {
        if case .scalar(let scalar) = self { return scalar }
        return nil
    }

    /// The value under `key`, when this is a mapping that has it.
    public subscript(key: String) -> YAMLValue? {
        entries?.first { $0.key == key }?.value
    }

    /// Whether the value is null or absent content.
    public var isNull: Bool { scalar?.isNull ?? false }

    /// The scalar's text, when this is a non-null scalar.
    public var text: String? {
        guard let scalar, !scalar.isNull else { return nil }
        return scalar.text
    }

    /// A description of the value's kind for messages: "a mapping", "a list", "a string"…
    public var kindDescription: String {
        switch self {
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .scalar(let scalar):
            if scalar.isNull { return "null" }
            if scalar.style == .plain {
                if Int(scalar.text) != nil { return "a number" }
                if Double(scalar.text) != nil { return "a number" }
                if YAMLValue.booleanValue(scalar.text) != nil { return "a boolean" }
            }
            return "a string"
        }
    }

    /// Every non-null scalar below this value, with its location, in document order.
    public var texts: [Located<String>] {
        switch self {
        case .scalar(let scalar): scalar.isNull ? [] : [Located(scalar.text, at: scalar.location)]
        case .sequence(let items, _): items.flatMap(\.texts)
        case .mapping(let entries, _): entries.flatMap(\.value.texts)
        }
    }

    /// YAML 1.2 core booleans.
    static func booleanValue(_ text: String) -> Bool? {
        switch text {
        case "true", "True", "TRUE": true
        case "false", "False", "FALSE": false
        default: nil
        }
    }
}
