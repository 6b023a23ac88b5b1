import CoachLab
import Foundation

/// The report files one command writes: the formats asked for, each with its path. Each goes
/// where nothing is yet, or replaces a report of its own kind (the run before's, say); a file of
/// anything else at the path is never overwritten. Commands call ``check(fileSystem:)`` before
/// their work, so that a refused path costs no provider calls, and ``write(_:fileSystem:)``
/// after it.
public struct ReportFiles<Subject>: Sendable {
    public var requested: [(format: ReportFormat<Subject>, path: String)]

    /// The formats of `formats` given a path in `paths`, by their names.
    public init(_ formats: [ReportFormat<Subject>], paths: [String: String?]) {
        requested = formats.compactMap { format in paths[format.name].flatMap { $0 }.map { (format, $0) } }
    }

    /// Throws for two reports named to one path, and for the first path that holds a file of
    /// another kind or is a folder.
    public func check(fileSystem: FileSystem) throws {
        let paths = requested.map { URL(fileURLWithPath: $0.path).standardizedFileURL.path }
        if let twice = paths.first(where: { path in paths.filter { $0 == path }.count > 1 }) {
            throw CoachLabError(usage: "two reports would be written to \(twice)", hint: "give each report its own file")
        }
        for (format, path) in requested { try fileSystem.checkReplaceable(path, by: format.kind) }
    }

    /// Writes every report asked for, a piece at a time.
    public func write(_ subject: Subject, fileSystem: FileSystem) throws {
        for (format, path) in requested {
            try fileSystem.stream(to: path, replacing: format.kind) { try format.render(subject, to: $0) }
        }
    }
}

extension ReportFiles where Subject == RunReport {
    /// A run's reports (`eval`, `merge`, `rescore`, `compare`).
    public init(json: String? = nil, junit: String? = nil, markdown: String? = nil, html: String? = nil, baseline: String? = nil) {
        self.init(ReportFormats.run, paths: ["json": json, "junit": junit, "markdown": markdown, "html": html, "baseline": baseline])
    }
}
