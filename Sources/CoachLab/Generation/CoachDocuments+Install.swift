import Foundation

extension CoachDocuments {
    /// The comment that opens every file the importer writes. A file in `coaches/` without it
    /// was written by a person, and no import touches it.
    public static let importMark = "# Imported by `coachlab coach import`"

    /// The longest coach id accepted.
    public static let maximumIDLength = 64

    /// Checks that `id` can name a coach and its file: lowercase letters, digits and single
    /// hyphens, starting with a letter or digit. Anything else (spaces, capitals, dots, slashes,
    /// line breaks) would either collide with another id once turned into a file name or reach
    /// outside `coaches/`, so it is refused rather than rewritten.
    /// - Throws: ``CoachLabError`` (content) at `location`, with the nearest valid id as a hint.
    public static func validateID(_ id: String, at location: SourceLocation) throws {
        let scalars = id.unicodeScalars
        let valid = !id.isEmpty && id.count <= maximumIDLength
            && scalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
            && !id.hasPrefix("-") && !id.hasSuffix("-") && !id.contains("--")
        guard !valid else { return }
        let shown = id.unicodeScalars.map { $0.properties.generalCategory == .control || $0 == "\u{2028}" || $0 == "\u{2029}"
            ? "\\u{\(String($0.value, radix: 16))}" : String($0) }.joined()
        throw CoachLabError(.content, "coach id '\(shown.prefix(80))' is not a valid id; an id is lowercase letters, digits and hyphens, at most \(maximumIDLength) characters",
                            at: location, hint: "try --id \(slug(id))")
    }

    /// Writes an imported coach into its pack without ever losing a file.
    ///
    /// - A file already at the target path is replaced only when this importer wrote it (it
    ///   opens with ``importMark``) and `replace` is set; a hand-written file is never touched.
    /// - The pack is loaded with the new file in place *before* anything is written, so a coach
    ///   the pack would not load, or that breaks the pack's lint, leaves the disk as it was.
    /// - The write itself goes to a temporary file that is renamed over the target (see
    ///   ``FileSystem/write``), so a crash mid-write leaves either the old file or the new one,
    ///   never half of either.
    /// - Parameters:
    ///   - imported: What ``importCoach(_:file:into:id:replace:)`` returned.
    ///   - packPath: The pack folder, as given to ``PackLoader/load(_:)``.
    ///   - replace: Whether an earlier import under the same id may be replaced.
    ///   - fileSystem: Where the pack is read from and the coach is written.
    /// - Throws: ``CoachLabError`` (content or io); nothing is written when it throws.
    public static func install(_ imported: Imported, packPath: String, replace: Bool, fileSystem: FileSystem) throws {
        let path = imported.path
        let at = SourceLocation(file: path, line: 1, column: 1)
        if fileSystem.isDirectory(path) {
            throw CoachLabError(.io, "\(path) is a directory, where the coach's file would go", at: at)
        }
        if fileSystem.exists(path) {
            let existing = String(decoding: (try? fileSystem.read(path)) ?? Data(), as: UTF8.self)
            let ours = existing.split(separator: "\n", maxSplits: 3).contains { $0.hasPrefix(importMark) }
            guard ours else {
                throw CoachLabError(.content, "\(path) already exists and was not written by `coachlab coach import`; it is never replaced",
                                    at: at, hint: "import the coach under another id with --id NEW-ID")
            }
            guard replace else {
                throw CoachLabError(.content, "\(path) holds a coach imported earlier", at: at,
                                    hint: "pass --replace to replace it, or import under another id with --id NEW-ID")
            }
        }
        let reloaded = PackLoader(fileSystem: fileSystem.overlaying([path: imported.packFile])).load(packPath)
        let problems = reloaded.diagnostics.filter { $0.severity == .error }
        guard problems.isEmpty else { throw CoachLabError(.content, problems) }
        guard reloaded.pack?.coach(imported.coach.id) != nil else {
            throw CoachLabError(usage: "pack at \(packPath) does not include \(path), so the coach would not load",
                                hint: "add coaches/*.yaml to the pack's include list")
        }
        try fileSystem.write(imported.packFile, to: path)
    }
}
