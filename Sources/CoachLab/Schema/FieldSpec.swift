/// The type of a field in a content file.
public indirect enum FieldType: Sendable {
    /// One line of text.
    case string
    /// Text that may span lines (prompt text, templates).
    case text
    /// A whole number.
    case integer
    /// A whole number no smaller than this: a count (0), or a limit or size (1) that below it
    /// no run could honour.
    case atLeast(Int)
    /// Any number.
    case number
    /// `true` or `false`.
    case boolean
    /// An ISO 8601 date (`2026-03-01`) or date-time (`2026-03-01T21:30:00Z`).
    case date
    /// One of a fixed set of strings.
    case oneOf([String])
    /// A list of values of one type.
    case list(FieldType)
    /// A mapping with known fields.
    case object(ObjectSpec)
    /// A mapping from free keys to values of one type.
    case map(FieldType)
    /// Any YAML value (free-form data such as a profile's fields).
    case any
}

/// One field of an object in a content file.
public struct FieldSpec: Sendable {
    /// The key.
    public var name: String
    /// Its type.
    public var type: FieldType
    /// Whether it must be present and non-empty.
    public var required: Bool
    /// What it is for; shown in JSON Schemas and so in editors.
    public var summary: String

    /// Creates a field spec.
    public init(_ name: String, _ type: FieldType, required: Bool = false, _ summary: String) {
        self.name = name
        self.type = type
        self.required = required
        self.summary = summary
    }
}

/// The shape of a mapping in a content file.
public struct ObjectSpec: Sendable {
    /// A name used in messages and as the schema's title ("rule", "knowledge object").
    public var name: String
    /// What it is for.
    public var summary: String
    /// The known fields, in the order they are documented.
    public var fields: [FieldSpec]
    /// Whether keys other than `fields` are allowed (free-form data such as profiles).
    public var open: Bool

    /// Creates an object spec.
    public init(_ name: String, _ summary: String, open: Bool = false, fields: [FieldSpec]) {
        self.name = name
        self.summary = summary
        self.fields = fields
        self.open = open
    }

    /// The field named `name`, if known.
    public func field(_ name: String) -> FieldSpec? { fields.first { $0.name == name } }
}
