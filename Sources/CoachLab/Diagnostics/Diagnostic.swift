/// One problem found in content: where it is, how bad it is, what is wrong, and how to fix it.
public struct Diagnostic: Hashable, Sendable, CustomStringConvertible, Comparable {
    /// How serious a diagnostic is.
    public enum Severity: String, Sendable, Comparable {
        case error
        case warning

        public static func < (lhs: Severity, rhs: Severity) -> Bool {
            lhs == .error && rhs == .warning
        }
    }

    /// How serious it is; an error makes `lint` exit 2.
    public var severity: Severity
    /// The one-line message.
    public var message: String
    /// Where it is. Problems with a whole file point at 1:1.
    public var location: SourceLocation
    /// An optional suggestion a person can act on.
    public var hint: String?

    /// Creates a diagnostic.
    public init(_ severity: Severity, _ message: String, at location: SourceLocation, hint: String? = nil) {
        self.severity = severity
        self.message = message
        self.location = location
        self.hint = hint
    }

    /// Creates an error.
    public static func error(_ message: String, at location: SourceLocation, hint: String? = nil) -> Diagnostic {
        Diagnostic(.error, message, at: location, hint: hint)
    }

    /// Creates a warning.
    public static func warning(_ message: String, at location: SourceLocation, hint: String? = nil) -> Diagnostic {
        Diagnostic(.warning, message, at: location, hint: hint)
    }

    /// `path:line:col: error: message`, then the hint on its own indented line.
    public var description: String {
        var text = "\(location): \(severity.rawValue): \(message)"
        if let hint { text += "\n    hint: \(hint)" }
        return text
    }

    public static func < (lhs: Diagnostic, rhs: Diagnostic) -> Bool {
        if lhs.location != rhs.location { return lhs.location < rhs.location }
        if lhs.severity != rhs.severity { return lhs.severity < rhs.severity }
        return lhs.message < rhs.message
    }
}

/// A collection of diagnostics gathered while loading or checking content. Recoverable
/// problems are collected here; loading throws only when nothing useful can follow.
public struct Diagnostics: Sendable {
    /// Everything gathered so far, in the order found.
    public private(set) var all: [Diagnostic] = []

    /// Creates an empty collection.
    public init() {}

    /// Adds one diagnostic.
    public mutating func append(_ diagnostic: Diagnostic) { all.append(diagnostic) }

    /// Adds several diagnostics.
    public mutating func append(contentsOf other: [Diagnostic]) { all.append(contentsOf: other) }

    /// Adds an error.
    public mutating func error(_ message: String, at location: SourceLocation, hint: String? = nil) {
        all.append(.error(message, at: location, hint: hint))
    }

    /// Adds a warning.
    public mutating func warning(_ message: String, at location: SourceLocation, hint: String? = nil) {
        all.append(.warning(message, at: location, hint: hint))
    }

    /// Whether any error (not warning) was gathered.
    public var hasErrors: Bool { all.contains { $0.severity == .error } }

    /// The diagnostics sorted by file, line and column, without repeats.
    public var sorted: [Diagnostic] {
        var seen = Set<Diagnostic>()
        return all.sorted().filter { seen.insert($0).inserted }
    }
}
