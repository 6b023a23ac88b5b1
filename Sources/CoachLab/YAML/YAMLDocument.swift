import Foundation

/// Parses YAML text into a located ``YAMLValue``, turning every kind of bad input (binary
/// junk, tabs, syntax errors, duplicate keys, anchors gone wrong) into a diagnostic at the
/// right line and column.
public enum YAMLDocument {
    /// The largest content file accepted. Packs are small; anything bigger is a mistake.
    public static let maximumSize = 2 * 1024 * 1024

    /// Parses one YAML document.
    /// - Parameters:
    ///   - data: The file's bytes.
    ///   - file: The path used in locations.
    /// - Returns: The root value.
    /// - Throws: ``CoachLabError`` of kind `.content` with a located diagnostic.
    public static func parse(_ data: Data, file: String) throws -> YAMLValue {
        let start = SourceLocation(file: file, line: 1, column: 1)
        guard data.count <= maximumSize else {
            throw CoachLabError(.content, "file is \(data.count) bytes; content files may be at most \(maximumSize) bytes",
                                at: start, hint: "split it into several files and list them under 'include'")
        }
        if let nul = data.withUnsafeBytes({ $0.firstIndex(of: 0) }) {
            throw CoachLabError(.content, "file contains a NUL byte; it looks binary, not YAML",
                                at: location(ofByte: nul, in: data, file: file))
        }
        guard let text = String(data: data, encoding: .utf8) else {
            let offset = firstInvalidUTF8Offset(data)
            throw CoachLabError(.content, "file is not valid UTF-8", at: location(ofByte: offset, in: data, file: file),
                                hint: "save the file as UTF-8")
        }
        return try parse(text, file: file)
    }

    /// Parses YAML text. See ``parse(_:file:)-(Data,String)``.
    public static func parse(_ text: String, file: String) throws -> YAMLValue {
        let start = SourceLocation(file: file, line: 1, column: 1)
        if hasNoContent(text) {
            throw CoachLabError(.content, "file is empty", at: start, hint: "an empty file defines nothing; delete it or add content")
        }
        if let tab = firstIndentingTab(in: text) {
            throw CoachLabError(.content, "tab character used for indentation",
                                at: SourceLocation(file: file, line: tab.line, column: tab.column),
                                hint: "YAML indents with spaces only; replace the tab with spaces")
        }
        let composed: YAMLComposer.Composed
        do {
            composed = try YAMLComposer.compose(text, file: file)
        } catch {
            throw CoachLabError(.content, [diagnostic(for: error, text: text, file: file)])
        }
        guard let value = composed.value else {
            throw CoachLabError(.content, "file is empty", at: start)
        }
        if let anchor = composed.firstAnchor {
            throw CoachLabError(.content, "YAML anchors and aliases are not supported in CoachLab content", at: anchor,
                                hint: "write the value out, or share it through 'include'")
        }
        if composed.diagnostics.hasErrors { throw CoachLabError(.content, composed.diagnostics.sorted) }
        return value
    }

    /// A block scalar's mark is its `|` or `>` indicator; its text starts on the next
    /// non-blank line, at that line's indentation. Locations point at the text itself.
    static func blockContentStart(after indicator: SourceLocation, lines: Lines) -> SourceLocation {
        var index = indicator.line
        while index < lines.count {
            let line = lines.bytes(ofLine: index)
            if !line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") }) {
                let indent = line.prefix { $0 == UInt8(ascii: " ") }.count
                return SourceLocation(file: indicator.file, line: index + 1, column: indent + 1)
            }
            index += 1
        }
        return indicator
    }

    /// The lines of a document as byte ranges, found once: marks name a line and a column, and
    /// only a few nodes need to look at the text there. Lines end at LF, so a CRLF line keeps
    /// its CR.
    struct Lines {
        private let utf8: [UInt8]
        private let starts: [Int]

        init(_ text: String) {
            utf8 = Array(text.utf8)
            var starts = [0]
            for (offset, byte) in utf8.enumerated() where byte == UInt8(ascii: "\n") { starts.append(offset + 1) }
            self.starts = starts
        }

        var count: Int { starts.count }

        /// The bytes of line `index` (from 0), without its line feed.
        func bytes(ofLine index: Int) -> ArraySlice<UInt8> {
            let end = index + 1 < starts.count ? starts[index + 1] - 1 : utf8.count
            return utf8[starts[index]..<end]
        }
    }

    private static func diagnostic(for failure: YAMLComposer.Failure, text: String, file: String) -> Diagnostic {
        func place(_ line: Int, _ column: Int) -> SourceLocation {
            SourceLocation(file: file, line: max(line, 1), column: max(column, 1))
        }
        switch failure {
        case .syntax(let problem, let context, let line, let column):
            var message = "invalid YAML: \(problem)"
            if let context { message += " (\(context.text) at line \(context.line))" }
            return .error(message, at: place(line, column), hint: hint(forProblem: problem))
        case .reader(let problem, let byteOffset):
            // Counted in characters, as a person moves through the line.
            let index = text.utf8.index(text.utf8.startIndex, offsetBy: byteOffset, limitedBy: text.utf8.endIndex)?.samePosition(in: text)
            let where_ = index.map { Self.location(ofCharacter: text.distance(from: text.startIndex, to: $0), in: text, file: file) }
                ?? place(1, 1)
            return .error("cannot read YAML: \(problem)", at: where_)
        case .duplicateKey(let key, let line, let column):
            let repeatAt = secondOccurrence(ofKey: key, afterLine: line, column: column, in: text) ?? (line, column)
            return .error("duplicate key '\(key)' in mapping (first defined at line \(line))",
                          at: place(repeatAt.0, repeatAt.1),
                          hint: "each key may appear once; remove or rename one of them")
        case .memory:
            return .error("cannot parse YAML: Memory error", at: SourceLocation(file: file, line: 1, column: 1))
        }
    }

    static func hint(forProblem problem: String) -> String? {
        if problem.contains("mapping values are not allowed") {
            return "a value containing ': ' must be quoted, or the indentation is off"
        }
        if problem.contains("did not find expected key") || problem.contains("did not find expected '-'") {
            return "check the indentation of this line against its siblings"
        }
        if problem.contains("found unexpected end of stream") || problem.contains("found unknown escape") {
            return "check for an unclosed quote"
        }
        return nil
    }

    /// Finds the line where a duplicated key appears again, at the same column as the first.
    static func secondOccurrence(ofKey key: String, afterLine firstLine: Int, column firstColumn: Int, in text: String) -> (Int, Int)? {
        let lines = characterLines(text)
        guard firstLine >= 1, firstLine <= lines.count else { return nil }
        let indent = firstColumn - 1
        for index in firstLine..<lines.count {
            let line = Array(lines[index].unicodeScalars)
            guard line.count > indent else { continue }
            let prefix = String(String.UnicodeScalarView(line[..<indent]))
            if !prefix.allSatisfy({ $0 == " " || $0 == "-" }) { continue }
            let rest = String(String.UnicodeScalarView(line[indent...]))
            for candidate in [key, "\"\(key)\"", "'\(key)'"] where rest.hasPrefix(candidate + ":") {
                return (index + 1, firstColumn)
            }
        }
        return nil
    }

    /// Whether every line is blank or a comment (the first line with content decides). Scans
    /// bytes; text with anything outside ASCII before its first content is judged by
    /// `Character`'s whitespace and newline rules instead.
    static func hasNoContent(_ text: String) -> Bool {
        var inComment = false
        for byte in text.utf8 {
            switch byte {
            case 0x80...:  // possibly a Unicode space or line break, even inside a comment
                return text.split(whereSeparator: \.isNewline).allSatisfy { line in
                    line.first { !$0.isWhitespace }.map { $0 == "#" } ?? true
                }
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"), 0x0B, 0x0C: inComment = false
            case _ where inComment: continue
            case UInt8(ascii: " "), UInt8(ascii: "\t"): continue
            case UInt8(ascii: "#"): inComment = true
            default: return false
            }
        }
        return true
    }

    static func firstIndentingTab(in text: String) -> (line: Int, column: Int)? {
        guard text.utf8.contains(UInt8(ascii: "\t")) else { return nil }
        var lineNumber = 0
        var inBlockScalar = false
        var blockIndent = 0
        for line in characterLines(text) {
            lineNumber += 1
            let leading = line.prefix { $0 == " " || $0 == "\t" }
            let content = line.dropFirst(leading.count)
            if inBlockScalar {
                if content.isEmpty || leading.count > blockIndent { continue }
                inBlockScalar = false
            }
            if let tabIndex = leading.firstIndex(of: "\t"), !content.isEmpty, !content.hasPrefix("#") {
                return (lineNumber, line.distance(from: line.startIndex, to: tabIndex) + 1)
            }
            let trimmed = content.trimmed(.whitespaces)
            if let last = trimmed.split(separator: " ").last, last.hasPrefix("|") || last.hasPrefix(">"),
               last.count <= 3, trimmed.contains(":") || trimmed.hasPrefix("-") {
                inBlockScalar = true
                blockIndent = leading.count
            }
        }
        return nil
    }

    /// The lines of a text as characters, split at LF and CRLF alike: Swift reads "\r\n" as
    /// one character, which splitting at "\n" alone never finds.
    private static func characterLines(_ text: String) -> [Substring] {
        text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
    }

    static func location(ofByte offset: Int, in data: Data, file: String) -> SourceLocation {
        var line = 1, column = 1
        for byte in data.prefix(offset) {
            if byte == 0x0A { line += 1; column = 1 } else if byte & 0xC0 != 0x80 { column += 1 }
        }
        return SourceLocation(file: file, line: line, column: column)
    }

    static func location(ofCharacter offset: Int, in text: String, file: String) -> SourceLocation {
        var line = 1, column = 1
        for character in text.prefix(offset) {
            if character.isNewline { line += 1; column = 1 } else { column += 1 }
        }
        return SourceLocation(file: file, line: line, column: column)
    }

    private static func firstInvalidUTF8Offset(_ data: Data) -> Int {
        let bytes = [UInt8](data)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let length: Int
            switch byte {
            case 0x00...0x7F: length = 1
            case 0xC2...0xDF: length = 2
            case 0xE0...0xEF: length = 3
            case 0xF0...0xF4: length = 4
            default: return index
            }
            if index + length > bytes.count { return index }
            for continuation in bytes[(index + 1)..<(index + length)] where continuation & 0xC0 != 0x80 { return index }
            if String(bytes: bytes[index..<(index + length)], encoding: .utf8) == nil { return index }
            index += length
        }
        return 0
    }
}
