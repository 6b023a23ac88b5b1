import CoachLab
import Foundation

/// One way a report is written: the option that asks for it, the kind of file it makes (so a
/// later report replaces only its own kind, ``OutputKind``), and how it renders its subject,
/// piece by piece. ``ReportFormats`` lists every one.
public struct ReportFormat<Subject>: Sendable {
    /// The option's name: `json` for `--json`.
    public let name: String
    public let kind: OutputKind
    private let renderer: @Sendable (Subject, (String) throws -> Void) throws -> Void

    public init(_ name: String, _ kind: OutputKind, render: @escaping @Sendable (Subject, (String) throws -> Void) throws -> Void) {
        self.name = name
        self.kind = kind
        renderer = render
    }

    /// Renders `subject`, handing each piece to `write`.
    public func render(_ subject: Subject, to write: (String) throws -> Void) throws {
        try renderer(subject, write)
    }

    /// `subject` rendered whole.
    public func text(_ subject: Subject) throws -> String {
        var out = ""
        try render(subject) { out += $0 }
        return out
    }
}
