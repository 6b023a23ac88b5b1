import Foundation

/// Appending generated entries to content files: insights to a memory file (so the next
/// compile with `--memory FILE` includes them), wrap-ups to a sessions file. An existing
/// file keeps its text and comments; the entry is added at the end of its list.
public enum MemoryFile {
    /// A memory entry for a generated insight (a valid reply to ``StructuredTask/insight(_:quick:)``).
    public static func entry(_ insight: JSONValue, createdAt: String, coach: String?, quick: Bool) -> JSONValue {
        var entry: [String: JSONValue] = ["createdAt": .string(createdAt)]
        entry["coach"] = coach.map(JSONValue.string)
        for key in ["summary", "keyTheme", "patterns", "emotion", "repeatedWords", "suggestion"] { entry[key] = insight[key] }
        if quick { entry["isQuickReflection"] = true }
        return .object(entry)
    }

    /// A time as memory files write it: ISO 8601 in UTC, to the second.
    public static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    /// An entry as a YAML list item.
    public static func yaml(_ entry: JSONValue, spec: ObjectSpec = ContentSpecs.insight) throws -> String {
        try YAMLWriter.document([entry], spec: spec)
    }

    /// Appends `entry` to the list `list` of the file at `path`, creating the file when missing
    /// (see ``appending(_:to:file:list:fileSpec:itemSpec:)``); nothing is written when it throws.
    public static func append(_ entry: JSONValue, toFileAt path: String, list: String, fileSpec: ObjectSpec, itemSpec: ObjectSpec,
                              fileSystem: FileSystem) throws {
        let existing = fileSystem.exists(path) ? try fileSystem.text(at: path) : nil
        let text = try appending(entry, to: existing, file: path, list: list, fileSpec: fileSpec, itemSpec: itemSpec)
        try fileSystem.write(text, to: path)
    }

    /// The text of `file` with `entry` appended to its `list` (created when `existing` is nil).
    /// - Parameters:
    ///   - existing: The file's text, or nil when it does not exist.
    ///   - list: The top-level key of the list (`insights`, `sessions`).
    ///   - fileSpec: The file's spec, checked before and after.
    /// - Throws: ``CoachLabError`` (content) when the file is not of that kind, or the result
    ///   would not read back with one more entry.
    public static func appending(_ entry: JSONValue, to existing: String?, file: String, list: String,
                                 fileSpec: ObjectSpec, itemSpec: ObjectSpec) throws -> String {
        guard let existing, !existing.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            let id = Paths.lastComponent(file).split(separator: ".").first.map(String.init) ?? "memory"
            var root: [String: JSONValue] = [list: [entry]]
            if fileSpec.field("id") != nil { root["id"] = .string(id) }
            return try YAMLWriter.document(.object(root), spec: fileSpec)
        }
        let root = try YAMLDocument.parse(existing, file: file)
        let before = ContentValidator.validate(root, spec: fileSpec).filter { $0.severity == .error }
        guard before.isEmpty else { throw CoachLabError(.content, before) }
        let count = root[list]?.items?.count ?? 0
        let item = try YAMLWriter.document([entry], spec: itemSpec)
        var text: String
        let entries = root.entries ?? []
        if let first = root[list]?.items?.first, first.location.column > 2, !existing.contains("\(list): ["),
           let index = entries.firstIndex(where: { $0.key == list }) {
            // A block list: add the item at the same indentation, after its last item. When
            // another key follows the list, the item goes before it and before the comments and
            // blank lines that lead into it, so every comment stays where it was.
            let indent = String(repeating: " ", count: first.location.column - 3)
            let added = item.split(separator: "\n").map { indent + $0 }
            var lines = existing.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if lines.last == "" { lines.removeLast() }
            var at = lines.count
            if index + 1 < entries.count {
                at = entries[index + 1].keyLocation.line - 1
                while at > 0, lines[at - 1].trimmingCharacters(in: .whitespaces).isEmpty || lines[at - 1].hasPrefix("#") { at -= 1 }
            }
            lines.insert(contentsOf: added, at: at)
            text = lines.joined(separator: "\n") + "\n"
        } else {
            // A flow list, or no list yet: write the file again from its values.
            var values = CoachDocuments.json(root, type: .object(fileSpec))
            if case .object(var object) = values {
                object[list] = .array((object[list]?.array ?? []) + [entry])
                values = .object(object)
            }
            text = try YAMLWriter.document(values, spec: fileSpec)
        }
        let after = try YAMLDocument.parse(text, file: file)
        guard after[list]?.items?.count == count + 1, ContentValidator.validate(after, spec: fileSpec).allSatisfy({ $0.severity != .error }) else {
            throw CoachLabError(.content, "appending to this file would not give one more entry in '\(list)'",
                                at: SourceLocation(file: file, line: 1, column: 1))
        }
        return text
    }
}
