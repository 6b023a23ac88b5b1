/// The core's error: content that cannot be used, carrying every diagnostic that explains why.
public struct CoachLabError: Error, CustomStringConvertible, Sendable {
    /// What kind of failure this is, so callers can choose an exit code.
    public enum Kind: Sendable {
        /// The content (YAML, templates, references) is invalid.
        case content
        /// The compile inputs (a flag's value) are invalid.
        case usage
        /// A file could not be read or written.
        case io
    }

    /// What kind of failure this is.
    public var kind: Kind
    /// The problems, sorted by location.
    public var diagnostics: [Diagnostic]
    /// A message for problems that have no place in a file (a flag's value).
    public var message: String?
    /// A suggestion for `message`.
    public var hint: String?

    /// Creates an error from diagnostics.
    public init(_ kind: Kind, _ diagnostics: [Diagnostic]) {
        self.kind = kind
        self.diagnostics = diagnostics
    }

    /// Creates an error with one message at one place.
    public init(_ kind: Kind, _ message: String, at location: SourceLocation, hint: String? = nil) {
        self.init(kind, [.error(message, at: location, hint: hint)])
    }

    /// Creates an error about the caller's input, which has no place in a file.
    public init(usage message: String, hint: String? = nil) {
        self.kind = .usage
        self.diagnostics = []
        self.message = message
        self.hint = hint
    }

    public var description: String {
        var lines = diagnostics.map(\.description)
        if let message {
            lines.append("error: \(message)" + (hint.map { "\n    hint: \($0)" } ?? ""))
        }
        return lines.joined(separator: "\n")
    }
}
