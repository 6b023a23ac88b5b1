import Foundation

/// A coach as a file: the pack file a generated or imported coach is written to, and the
/// portable file `coachlab coach export` writes and `coachlab coach import` reads.
public enum CoachDocuments {
    /// The portable file's `format`.
    public static let format = "coachlab.coach"
    /// The portable file's `version`.
    public static let version = 1
    /// The largest portable file accepted: a coach is a few kilobytes.
    public static let maximumSize = 256 * 1024

    // MARK: Generated coaches

    /// The coach mapping for a generated template (a valid reply to
    /// ``StructuredTask/coach(describing:name:limits:)``).
    /// - Parameters:
    ///   - generated: The reply's value.
    ///   - id: The coach's id; a slug of its name when nil.
    public static func coach(fromGenerated generated: JSONValue, id: String? = nil) -> JSONValue {
        let name = generated["name"]?.string ?? "Coach"
        var framework: [String: JSONValue] = [:]
        for key in ["name", "description", "phases"] { framework[key] = generated["framework"]?[key] }
        var template: [String: JSONValue] = ["framework": .object(framework)]
        for key in ["role", "personality", "rules", "examples", "contextInstructions"] { template[key] = generated[key] }
        var coach: [String: JSONValue] = [
            "id": .string(id ?? slug(name)),
            "name": .string(name),
            "icon": "sparkles",
            "template": .object(template),
        ]
        coach["summary"] = generated["summary"]
        coach["starterQuestions"] = generated["starterQuestions"]
        return .object(coach)
    }

    /// A pack file (`coaches: [coach]`) holding one coach, with a comment saying where it came from.
    /// - Throws: `YamlError` should the emitter fail (it does not for values this module builds).
    public static func packFile(coach: JSONValue, comment: String) throws -> String {
        let header = comment.split(separator: "\n", omittingEmptySubsequences: false).map { "# \($0)".trimmingCharacters(in: .whitespaces) }
        let body = try YAMLWriter.document(["coaches": [coach]], spec: ContentSpecs.packFile)
        return "# yaml-language-server: $schema=../../../schemas/pack.schema.json\n" + header.joined(separator: "\n") + "\n" + body
    }

    /// A lowercase, hyphenated id from a name: "Trail Buddy" → "trail-buddy".
    public static func slug(_ name: String) -> String {
        let words = name.lowercased().split { !($0.isLetter || $0.isNumber) || !$0.isASCII }
        let slug = words.joined(separator: "-")
        return slug.isEmpty ? "coach" : String(slug.prefix(48))
    }

    // MARK: Export

    /// The portable file for a coach: JSON with the format, its version, the pack it came
    /// from and the coach, every field except the user's memory state.
    public static func export(_ coach: Coach, from pack: Pack) -> String {
        var mapping = json(coach.value, type: .object(ContentSpecs.coach))
        if case .object(var object) = mapping {
            object["memoryClearedAt"] = nil
            mapping = .object(object)
        }
        let file: JSONValue = ["format": .string(format), "version": .number(Double(version)), "exportedFrom": .string(pack.id),
                               "coach": mapping]
        return file.prettyText + "\n"
    }

    /// A YAML value as JSON: booleans where the spec says boolean, strings everywhere else,
    /// so text survives exactly (a name such as "2024" stays a string).
    static func json(_ value: YAMLValue, type: FieldType?) -> JSONValue {
        if let entries = value.entries {
            let spec = YAMLWriter.childSpec(of: type)
            return .object(Dictionary(entries.map { ($0.key, json($0.value, type: spec?.field($0.key)?.type)) }) { first, _ in first })
        }
        if let items = value.items {
            let itemType: FieldType? = if case .list(let item) = type { item } else { nil }
            return .array(items.map { json($0, type: itemType) })
        }
        guard let scalar = value.scalar, !scalar.isNull else { return .null }
        if case .boolean = type, let flag = Bool(scalar.text.lowercased()) { return .bool(flag) }
        return .string(scalar.text)
    }

    // MARK: Import

    /// A coach read from a portable file, checked and ready to write into a pack.
    public struct Imported: Sendable {
        /// The coach, as the pack will load it.
        public var coach: Coach
        /// The pack file to write (`coaches: [coach]`).
        public var packFile: String
        /// Where in the pack it goes.
        public var path: String
    }

    /// Reads a portable file and checks it as `lint` would, and more strictly: imported text
    /// is data, so template syntax, prompt section headers, control characters and
    /// placeholders the pack does not declare are refused.
    /// - Parameters:
    ///   - data: The file's bytes.
    ///   - file: Its path, for locations.
    ///   - pack: The pack it goes into.
    ///   - id: A new id for the coach; its own when nil.
    ///   - replace: Whether a coach with the same id may be replaced (only one the importer wrote).
    /// - Throws: ``CoachLabError`` (content) with every problem at its `file:line:col`.
    public static func importCoach(_ data: Data, file: String, into pack: Pack, id: String? = nil,
                                   replace: Bool = false) throws -> Imported {
        let start = SourceLocation(file: file, line: 1, column: 1)
        guard data.count <= maximumSize else {
            throw CoachLabError(.content, "file is \(data.count) bytes; a portable coach may be at most \(maximumSize) bytes", at: start,
                                hint: "a coach is a few kilobytes; this is not a file `coachlab coach export` wrote")
        }
        let root = try YAMLDocument.parse(data, file: file)
        var diagnostics = Diagnostics()
        guard root.entries != nil else {
            throw CoachLabError(.content, "a portable coach is a JSON object with 'format', 'version' and 'coach'", at: root.location)
        }
        for entry in root.entries ?? [] where !["format", "version", "exportedFrom", "coach"].contains(entry.key) {
            diagnostics.error("unknown key '\(entry.key)' in a portable coach", at: entry.keyLocation,
                              hint: "a portable coach holds 'format', 'version', 'exportedFrom' and 'coach' only")
        }
        if root["format"]?.text != format {
            diagnostics.error("unknown kind '\(root["format"]?.text ?? "none")'; expected '\(format)'", at: root["format"]?.location ?? start,
                              hint: "only coaches can be imported; export one with `coachlab coach export`")
        } else if root["version"]?.text != String(version) {
            diagnostics.error("unsupported version '\(root["version"]?.text ?? "none")'; this CoachLab reads version \(version)",
                              at: root["version"]?.location ?? start)
        }
        guard let coachValue = root["coach"], coachValue.entries != nil else {
            diagnostics.error("no 'coach' object", at: root["coach"]?.location ?? start)
            throw CoachLabError(.content, diagnostics.sorted)
        }
        for diagnostic in ContentValidator.validate(coachValue, spec: ContentSpecs.coach) { diagnostics.append(diagnostic) }
        if coachValue["memoryClearedAt"] != nil {
            diagnostics.error("'memoryClearedAt' is the user's own state and is not imported", at: coachValue["memoryClearedAt"]!.location)
        }
        checkHostile(coachValue, pack: pack, into: &diagnostics)
        guard !diagnostics.hasErrors else { throw CoachLabError(.content, diagnostics.sorted) }

        var mapping = json(coachValue, type: .object(ContentSpecs.coach))
        let coachID = id ?? coachValue["id"]?.text ?? ""
        try validateID(coachID, at: id == nil ? (coachValue["id"]?.location ?? start) : start)
        if case .object(var object) = mapping {
            object["id"] = .string(coachID)
            mapping = .object(object)
        }
        let path = Paths.join(Paths.join(pack.directory, "coaches"), "\(coachID).yaml")
        if let existing = pack.coaches.first(where: { $0.id == coachID }), !(replace && existing.value.location.file == path) {
            throw CoachLabError(.content, "pack '\(pack.id)' already has a coach '\(coachID)' (\(existing.value.location))",
                                at: coachValue["id"]?.location ?? start,
                                hint: replace ? "--replace only replaces a coach in \(path)" : "import it under another id with --id NEW-ID")
        }
        let origin = root["exportedFrom"]?.text.map { " (exported from pack '\($0)')" } ?? ""
        return try place(mapping, comment: "\(importMark.dropFirst(2)) from \(Paths.lastComponent(file))\(origin).",
                         at: path, into: pack, reportAt: coachValue.location)
    }

    /// Writes a coach mapping as the pack file at `path` (in memory) and checks it as `lint`
    /// would with the coach in the pack: the coach spec, prompt-injection text, count limits,
    /// one prompt path, declared placeholders.
    /// - Parameters:
    ///   - reportAt: Where to report problems the pack check finds (the file being imported);
    ///     at their place in the would-be file when nil.
    /// - Throws: ``CoachLabError`` (content).
    public static func place(_ mapping: JSONValue, comment: String, at path: String, into pack: Pack,
                             reportAt: SourceLocation? = nil) throws -> Imported {
        let text = try packFile(coach: mapping, comment: comment)
        let written = try YAMLDocument.parse(text, file: path)
        guard let value = written["coaches"]?.items?.first else {
            throw CoachLabError(.content, "the coach could not be written as YAML", at: SourceLocation(file: path, line: 1, column: 1))
        }
        var diagnostics = Diagnostics()
        diagnostics.append(contentsOf: ContentValidator.validate(value, spec: ContentSpecs.coach))
        checkHostile(value, pack: pack, into: &diagnostics)
        let coach = PackAssembler.coach(value)
        PackChecker.check(Self.pack(pack, with: coach), into: &diagnostics)
        let own = diagnostics.sorted.filter { $0.location.file == path && $0.severity == .error }
        guard own.isEmpty else {
            throw CoachLabError(.content, own.map { Diagnostic(.error, $0.message, at: reportAt ?? $0.location, hint: $0.hint) })
        }
        return Imported(coach: coach, packFile: text, path: path)
    }

    /// The pack with `coach` in it (replacing one with the same id).
    public static func pack(_ pack: Pack, with coach: Coach) -> Pack {
        var merged = pack
        merged.coaches.removeAll { $0.id == coach.id }
        merged.coaches.append(coach)
        return merged
    }

    /// U+202A-U+202E and U+2066-U+2069: embeddings, overrides and isolates.
    private static let bidiControls: Set<UInt32> = [0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069]

    /// Text that would act on the prompt instead of being part of it.
    static func checkHostile(_ coach: YAMLValue, pack: Pack, into diagnostics: inout Diagnostics) {
        let placeholders = Set(pack.stack.placeholders.map(\.name))
        let titles = UserText.titles(of: pack)
        for text in coach.texts {
            let value = text.value
            if value.contains("{{") || value.contains("}}") || value.contains("{%") {
                diagnostics.error("template syntax in imported text; a coach's text is data, never a template", at: text.location,
                                  hint: "remove the '{{…}}'; only the pack's placeholders such as {userName} may appear")
            }
            if value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control && $0 != "\n" && $0 != "\t" }) {
                diagnostics.error("control characters in imported text", at: text.location)
            }
            if value.unicodeScalars.contains(where: { UserText.separators.contains($0) || bidiControls.contains($0.value) }) {
                diagnostics.error("Unicode line separators or bidirectional controls in imported text", at: text.location,
                                  hint: "they can start a line, or reorder one, without showing it; use plain line breaks")
            }
            if let line = UserText.structuralLine(in: value, titles: titles) {
                diagnostics.error("'\(line.prefix(60))' looks like a prompt section header; imported text cannot open a layer of its own",
                                  at: text.location, hint: "write it as an ordinary sentence")
            }
            for name in PackChecker.singleBracePlaceholders(in: value) where !placeholders.contains(name) {
                diagnostics.error("placeholder '{\(name)}' is not one the pack declares", at: text.location,
                                  hint: "declared: \(placeholders.sorted().map { "{\($0)}" }.joined(separator: ", "))")
            }
        }
    }
}
